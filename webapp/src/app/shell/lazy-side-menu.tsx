/**
 * The side menu, fetched the first time it opens: its drawer (dialog, focus trap, time-zone select)
 * is not part of a page's first download. Once loaded it stays mounted, so closing animates as before.
 *
 * @module
 */

import { Suspense, lazy, useState } from 'react';
import { loadWithAreas } from '../lazy-screen';
import { ChunkErrorBoundary } from '../route-boundary';
import { SCREEN_AREAS } from '../screen-areas';

const SideMenu = lazy(() => loadWithAreas(() => import('./side-menu'), SCREEN_AREAS['app/shell/side-menu']).then((m) => ({ default: m.SideMenu })));

/** {@link SideMenu}, loaded on its first opening. */
export function LazySideMenu({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const [wanted, setWanted] = useState(open);
  if (open && !wanted) setWanted(true);
  if (!wanted) return null;
  return (
    <ChunkErrorBoundary>
      <Suspense fallback={null}>
        <SideMenu open={open} onOpenChange={onOpenChange} />
      </Suspense>
    </ChunkErrorBoundary>
  );
}
