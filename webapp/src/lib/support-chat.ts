/**
 * The support chat's rules that do not depend on the screen: who the customer is (a logged-in
 * user, or a visitor with the token kept in local storage, so the conversation survives a reload
 * and a language switch — the language is never part of the conversation's identity), merging the
 * messages of HTTP pages and of the live channel without duplicates, and the channel's URL.
 *
 * @module
 */

import type { SupportConversation, SupportMessage } from '../api/generated/model';

/** How long the channel waits before reconnecting, like every socket of the webapp. */
export const RECONNECT_MS = 3000;
/** How often the client pings the channel. */
export const PING_MS = 20_000;
/** Where a visitor's conversation token is kept. */
export const VISITOR_TOKEN_KEY = 'chatVisitorToken';
/** The longest message, as the server counts it (characters). */
export const MAX_BODY_CHARS = 2000;

/** A message as the server sends it (over HTTP and the live channel). */
export type ChatMessage = SupportMessage;

/** A conversation as the server sends it. */
export type ChatConversation = SupportConversation;

/** Who the customer is. */
export type ChatIdentity = { kind: 'user'; satoken: string } | { kind: 'visitor'; token: string } | { kind: 'anonymous' };

/** The storage the visitor token lives in (localStorage, or a test double). */
export interface TokenStore {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/** The identity from the session token (a user) or the stored visitor token. */
export function identityOf(satoken: string | null, store: TokenStore): ChatIdentity {
  if (satoken) return { kind: 'user', satoken };
  const token = store.getItem(VISITOR_TOKEN_KEY);
  return token ? { kind: 'visitor', token } : { kind: 'anonymous' };
}

/**
 * `current` with `incoming` added: one entry per id (a later copy of a message replaces the earlier,
 * e.g. a page that brings a fresh image link), oldest first.
 */
export function mergeMessages(current: readonly ChatMessage[], incoming: readonly ChatMessage[]): ChatMessage[] {
  const byId = new Map<number, ChatMessage>();
  for (const message of current) byId.set(message.id, message);
  for (const message of incoming) byId.set(message.id, { ...byId.get(message.id), ...message, imageUrl: message.imageUrl ?? byId.get(message.id)?.imageUrl });
  return [...byId.values()].sort((a, b) => a.id - b.id);
}

/**
 * The unread badge: the operators' messages the customer has not read — none while the chat is
 * open and visible (it is being read).
 */
export function unreadBadge(conversation: ChatConversation | null, openAndVisible: boolean): number {
  if (!conversation || openAndVisible) return 0;
  return Math.max(0, conversation.customerUnread);
}

/** The customer channel's URL on `origin` (`https://host` → `wss://host`), or null for nobody. */
export function customerChannelUrl(origin: string, identity: ChatIdentity): string | null {
  const base = origin.replace(/^http/, 'ws');
  if (identity.kind === 'user') return `${base}/ws/support/customer?satoken=${encodeURIComponent(identity.satoken)}`;
  if (identity.kind === 'visitor') return `${base}/ws/support/customer?token=${encodeURIComponent(identity.token)}`;
  return null;
}

/** The operators' channel's URL. */
export function operatorChannelUrl(origin: string, satoken: string): string {
  return `${origin.replace(/^http/, 'ws')}/ws/support/operator?satoken=${encodeURIComponent(satoken)}`;
}

/** What a channel frame means for the chat. */
export type ChannelEvent = { kind: 'message'; message: ChatMessage } | { kind: 'conversation'; conversation: ChatConversation } | { kind: 'other' };

/** Reads one channel frame (text). */
export function readFrame(data: unknown): ChannelEvent {
  if (typeof data !== 'string') return { kind: 'other' };
  try {
    const parsed = JSON.parse(data) as { type?: string; data?: unknown };
    if (parsed.type === 'message' && parsed.data) return { kind: 'message', message: parsed.data as ChatMessage };
    if (parsed.type === 'conversation' && parsed.data) return { kind: 'conversation', conversation: parsed.data as ChatConversation };
  } catch {
    // Not JSON: nothing for the chat.
  }
  return { kind: 'other' };
}

/** Whether `text` may be sent: something besides spaces, at most {@link MAX_BODY_CHARS}. */
export function canSend(text: string, hasImage: boolean): boolean {
  const trimmed = text.trim();
  return (trimmed.length > 0 || hasImage) && [...trimmed].length <= MAX_BODY_CHARS;
}
