/**
 * Open / closed state of the support-chat widget (hidden until something opens it), and the
 * unread count its entries show as a badge (set by the widget once loaded).
 *
 * @module
 */

import { useSyncExternalStore } from 'react';

let open = false;
let unread = 0;
const listeners = new Set<() => void>();

function notify() {
  for (const listener of listeners) listener();
}

function set(next: boolean) {
  if (open === next) return;
  open = next;
  notify();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => {
    listeners.delete(listener);
  };
}

/** Opens the support chat. */
export const openChat = () => set(true);
/** Closes the support chat. */
export const closeChat = () => set(false);

/** Sets the unread badge (operators' messages the customer has not read). */
export function setChatUnread(count: number): void {
  if (unread === count) return;
  unread = count;
  notify();
}

/** Whether the support chat is open. */
export function useChatOpen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => open,
    () => false,
  );
}

/** The unread badge's count. */
export function useChatUnread(): number {
  return useSyncExternalStore(
    subscribe,
    () => unread,
    () => 0,
  );
}
