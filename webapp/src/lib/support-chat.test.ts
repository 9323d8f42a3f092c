import { describe, expect, it } from 'vitest';
import {
  type ChatMessage,
  VISITOR_TOKEN_KEY,
  canSend,
  customerChannelUrl,
  identityOf,
  mergeMessages,
  readFrame,
  unreadBadge,
} from './support-chat';

function store(initial: Record<string, string> = {}) {
  const map = new Map(Object.entries(initial));
  return {
    getItem: (key: string) => map.get(key) ?? null,
    setItem: (key: string, value: string) => void map.set(key, value),
    removeItem: (key: string) => void map.delete(key),
  };
}

const message = (id: number, body = `m${id}`): ChatMessage => ({ id, conversationId: 1, author: 'customer', body, createdAt: id });

describe('the support chat logic', () => {
  it('knows a user by the session and a visitor by the stored token, never by the language', () => {
    expect(identityOf('abc', store())).toEqual({ kind: 'user', satoken: 'abc' });
    expect(identityOf(null, store({ [VISITOR_TOKEN_KEY]: 't1' }))).toEqual({ kind: 'visitor', token: 't1' });
    expect(identityOf(null, store({ lang: 'de' }))).toEqual({ kind: 'anonymous' });
  });

  it('merges pages and live messages once each, oldest first', () => {
    const merged = mergeMessages([message(3), message(1)], [message(2), message(3, 'again')]);
    expect(merged.map((m) => m.id)).toEqual([1, 2, 3]);
    expect(merged[2]?.body).toBe('again');
    const linked = mergeMessages([{ ...message(4), imageUrl: '/a' }], [message(4)]);
    expect(linked[0]?.imageUrl).toBe('/a');
  });

  it('shows the unread badge only while the chat is not being read', () => {
    const conversation = { id: 1, status: 'assigned' as const, customerUnread: 2, operatorUnread: 0, lastMessageAt: 0, createdAt: 0 };
    expect(unreadBadge(conversation, false)).toBe(2);
    expect(unreadBadge(conversation, true)).toBe(0);
    expect(unreadBadge(null, false)).toBe(0);
  });

  it('builds the channel URL for users and visitors', () => {
    expect(customerChannelUrl('https://x.io', { kind: 'visitor', token: 'a b' })).toBe('wss://x.io/ws/support/customer?token=a%20b');
    expect(customerChannelUrl('http://x.io', { kind: 'user', satoken: 's' })).toBe('ws://x.io/ws/support/customer?satoken=s');
    expect(customerChannelUrl('http://x.io', { kind: 'anonymous' })).toBeNull();
  });

  it('reads channel frames and ignores the rest', () => {
    expect(readFrame(JSON.stringify({ type: 'message', data: message(5) }))).toEqual({ kind: 'message', message: message(5) });
    expect(readFrame(JSON.stringify({ type: 'HEARTBEAT', ts: 1 }))).toEqual({ kind: 'other' });
    expect(readFrame('not json')).toEqual({ kind: 'other' });
  });

  it('sends only something within the limit', () => {
    expect(canSend('  ', false)).toBe(false);
    expect(canSend('', true)).toBe(true);
    expect(canSend('x'.repeat(2000), false)).toBe(true);
    expect(canSend('x'.repeat(2001), false)).toBe(false);
  });
});
