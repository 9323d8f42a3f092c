/**
 * A scripted WebSocket double for the market feed.
 *
 * @module
 */

import type { SocketLike } from '../lib/socket-loop';

export class FakeSocket implements SocketLike {
  static created: FakeSocket[] = [];
  readyState = 0;
  sent: unknown[] = [];
  closed = false;
  onopen: SocketLike['onopen'] = null;
  onmessage: SocketLike['onmessage'] = null;
  onerror: SocketLike['onerror'] = null;
  onclose: SocketLike['onclose'] = null;

  constructor(readonly url: string) {
    FakeSocket.created.push(this);
  }

  send(data: string) {
    this.sent.push(JSON.parse(data));
  }

  close() {
    this.closed = true;
    this.readyState = 3;
  }

  /** The server accepts the connection. */
  open() {
    this.readyState = 1;
    this.onopen?.(new Event('open'));
  }

  /** The server sends `message` (JSON-encoded). */
  receive(message: unknown) {
    this.onmessage?.(new MessageEvent('message', { data: JSON.stringify(message) }));
  }

  /** The connection drops. */
  drop() {
    this.readyState = 3;
    this.onclose?.(new CloseEvent('close'));
  }

  static latest(): FakeSocket {
    const socket = FakeSocket.created.at(-1);
    if (!socket) throw new Error('no socket was created');
    return socket;
  }
}
