/**
 * Open / closed state of the support-chat widget (hidden until something opens it).
 *
 * @module
 */

import { useSyncExternalStore } from 'react';

let open = false;
const listeners = new Set<() => void>();

function set(next: boolean) {
  if (open === next) return;
  open = next;
  for (const listener of listeners) listener();
}

/** Opens the support chat. */
export const openChat = () => set(true);
/** Closes the support chat. */
export const closeChat = () => set(false);

/** Whether the support chat is open. */
export function useChatOpen(): boolean {
  return useSyncExternalStore(
    (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    () => open,
    () => false,
  );
}
