/**
 * The announcement channel (`/ws/business/notice`, docs/api.md): `ANNOUNCEMENT` messages — an
 * announcement published (`created`) or published again (`updated`) — with its titles in every
 * published language. A ping every 15 s keeps the socket alive; an error or close reconnects after
 * 3 s like every socket of the app.
 *
 * @module
 */

import { getPlatformConfig, wsOrigin } from './platform-config';
import { type SocketLike, SocketLoop } from './socket-loop';

/** Delay before reconnecting after an error or close (spec section 9). */
export const NOTICE_RECONNECT_MS = 3_000;
/** Ping interval while connected. */
export const NOTICE_PING_MS = 15_000;

/** One announcement pushed on the channel. */
export interface AnnouncementPush {
  id: number;
  event: 'created' | 'updated';
  topic: string;
  pinned: boolean;
  publishedAt: number;
  titles: { lang: string; title: string }[];
}

/** The push of a raw message, or `null` for anything else (heartbeats, other types, junk). */
export function readNotice(raw: unknown): AnnouncementPush | null {
  if (typeof raw !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const { type, data } = message as { type?: unknown; data?: Partial<AnnouncementPush> };
  if (type !== 'ANNOUNCEMENT' || typeof data !== 'object' || data === null) return null;
  if (typeof data.id !== 'number' || (data.event !== 'created' && data.event !== 'updated') || !Array.isArray(data.titles)) return null;
  const titles = data.titles.filter((item): item is { lang: string; title: string } => typeof item?.lang === 'string' && typeof item?.title === 'string');
  return {
    id: data.id,
    event: data.event,
    topic: typeof data.topic === 'string' ? data.topic : '',
    pinned: data.pinned === true,
    publishedAt: typeof data.publishedAt === 'number' ? data.publishedAt : Date.now(),
    titles,
  };
}

/** The title of a push in `lang`, else English, else the first one. */
export function titleIn(push: AnnouncementPush, lang: string): string {
  return (push.titles.find((item) => item.lang === lang) ?? push.titles.find((item) => item.lang === 'en') ?? push.titles[0])?.title ?? '';
}

type Listener = (push: AnnouncementPush) => void;

/** One shared connection, open while anyone listens. */
class NoticeChannel {
  private readonly listeners = new Set<Listener>();
  private readonly loop: SocketLoop;

  constructor(createSocket: (url: string) => SocketLike) {
    this.loop = new SocketLoop({
      name: 'Announcements',
      url: () => `${wsOrigin(getPlatformConfig())}/ws/business/notice`,
      createSocket,
      ping: () => ({ op: 'ping', ts: Date.now() }),
      pingMs: NOTICE_PING_MS,
      reconnectMs: NOTICE_RECONNECT_MS,
      onMessage: (data) => {
        const push = readNotice(data);
        if (push) for (const listener of [...this.listeners]) listener(push);
      },
    });
  }

  /** Calls `listener` for every push; answers the unsubscribe (the last one closes the socket). */
  listen(listener: Listener): () => void {
    this.listeners.add(listener);
    this.loop.start();
    return () => {
      this.listeners.delete(listener);
      if (this.listeners.size === 0) this.loop.stop();
    };
  }
}

let shared: NoticeChannel | null = null;

/** The app's announcement channel. */
export function noticeChannel(): NoticeChannel {
  shared ??= new NoticeChannel((url) => new WebSocket(url));
  return shared;
}
