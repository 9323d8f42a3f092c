import { describe, expect, it } from 'vitest';
import { readNotice, titleIn } from './notice-channel';

const message = {
  type: 'ANNOUNCEMENT',
  data: { id: 42, event: 'created', topic: 'new-pairs', pinned: false, publishedAt: 1700000000000, titles: [{ lang: 'en', title: 'New listing' }, { lang: 'de', title: 'Neues Paar' }] },
};

describe('readNotice', () => {
  it('reads an announcement', () => {
    expect(readNotice(JSON.stringify(message))).toMatchObject({ id: 42, event: 'created', topic: 'new-pairs' });
  });
  it('ignores heartbeats, other types and junk', () => {
    expect(readNotice(JSON.stringify({ type: 'HEARTBEAT', ts: 1 }))).toBeNull();
    expect(readNotice(JSON.stringify({ type: 'OWNCOIN', data: { id: 1 } }))).toBeNull();
    expect(readNotice('not json')).toBeNull();
    expect(readNotice(JSON.stringify({ ...message, data: { ...message.data, event: 'deleted' } }))).toBeNull();
  });
});

describe('titleIn', () => {
  it('picks the reader language, else English', () => {
    const push = readNotice(JSON.stringify(message))!;
    expect(titleIn(push, 'de')).toBe('Neues Paar');
    expect(titleIn(push, 'ja')).toBe('New listing');
  });
});
