/**
 * The toaster (`components/toaster.tsx`), fetched when the first toast is created: its state
 * machines are not part of a page's first download. The toast store (`lib/toaster.ts`) keeps the
 * toasts created before it arrives, and the toaster shows them when it mounts.
 *
 * @module
 */

import { useEffect, useState } from 'react';
import { toaster } from '../lib/toaster';
import { useDeferredModule, deferredModule } from './deferred';
import { SCREEN_AREAS } from './screen-areas';

const toasterModule = deferredModule(() => import('../components/toaster'), SCREEN_AREAS['components/toaster']);

/** Mounts the toaster once a toast exists (or once it has been fetched for an earlier one). */
export function LazyToaster() {
  const module = useDeferredModule(toasterModule);
  const [wanted, setWanted] = useState(() => toaster.getVisibleToasts().length > 0);
  useEffect(() => {
    if (wanted) return;
    return toaster.subscribe(() => setWanted(true));
  }, [wanted]);
  useEffect(() => {
    if (wanted) toasterModule.load().catch((error: unknown) => console.error('The toaster could not be loaded', error));
  }, [wanted]);
  return module ? <module.Toaster /> : null;
}
