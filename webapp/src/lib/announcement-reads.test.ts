import { beforeEach, describe, expect, it } from 'vitest';
import { MAX_READ, READ_STORAGE_KEY, markRead, resetReadCache, unreadCount } from './announcement-reads';

function stored(): number[] {
  return JSON.parse(window.localStorage.getItem(READ_STORAGE_KEY) ?? '[]') as number[];
}

describe('announcement read state', () => {
  beforeEach(() => {
    window.localStorage.clear();
    resetReadCache();
  });
  it('counts what is not read yet', () => {
    markRead([3]);
    resetReadCache();
    expect(unreadCount([1, 2, 3], new Set(stored()))).toBe(2);
  });
  it('keeps the newest ids only', () => {
    markRead(Array.from({ length: MAX_READ + 10 }, (_, i) => i + 1));
    expect(stored()).toHaveLength(MAX_READ);
    expect(stored()[0]).toBe(MAX_READ + 10);
    expect(stored()).not.toContain(1);
  });
  it('ignores junk in storage', () => {
    window.localStorage.setItem(READ_STORAGE_KEY, '{"x":1}');
    markRead([5]);
    expect(stored()).toEqual([5]);
  });
});
