/**
 * The app's single toast store; `src/components/toaster.tsx` renders it.
 *
 * At most {@link MAX_TOASTS} show at once, and the newest always shows at once: a trader who acts
 * quickly must see the outcome of the last action, not wait behind older confirmations (the
 * store's own `max` would queue the newest until an older one times out), so creating a toast
 * past the limit dismisses the oldest.
 *
 * @module
 */

import { createToaster } from '@chakra-ui/react';

/** How many toasts show at once. */
export const MAX_TOASTS = 4;

/** Create toasts with `toaster.create({ type, title, description })`. */
export const toaster = createToaster({ placement: 'top-end', pauseOnPageIdle: true, max: MAX_TOASTS });

const createInStore = toaster.create.bind(toaster);

toaster.create = (data) => {
  const visible = toaster.getVisibleToasts();
  const replacing = data.id !== undefined && visible.some((toast) => toast.id === data.id);
  // Newest first: the last one is the oldest.
  const oldest = visible.at(-1);
  if (!replacing && oldest && visible.length >= MAX_TOASTS) toaster.remove(oldest.id);
  return createInStore(data);
};
