/**
 * The connection plumbing the market feed and the user channel share: one WebSocket at a time, a
 * ping at a fixed interval while it is open, and a reconnect a fixed delay after an error or close
 * (or when the owner gives up on a silent socket). Handlers of a socket that was replaced or dropped
 * are ignored. What the messages mean, and what a lost connection changes, stays with the owner.
 *
 * @module
 */

/** The WebSocket surface the clients use (the DOM one, or a test double). */
export interface SocketLike {
  readyState: number;
  onopen: ((ev: Event) => void) | null;
  onmessage: ((ev: MessageEvent) => void) | null;
  onerror: ((ev: Event) => void) | null;
  onclose: ((ev: CloseEvent) => void) | null;
  send(data: string): void;
  close(): void;
}

const OPEN = 1;

/** How the loop connects, and what it tells its owner. */
export interface SocketLoopOptions {
  /** Names the connection in the console (`Market feed`, `User channel`). */
  name: string;
  /** The URL of each new socket. */
  url: () => string;
  createSocket: (url: string) => SocketLike;
  /** The ping sent every `pingMs` while the socket is open. */
  ping: () => object;
  pingMs: number;
  /** Delay before reconnecting after an error or close. */
  reconnectMs: number;
  /** A new socket was made (not yet open). */
  onSocket?: () => void;
  /** The socket opened (the ping starts right after). */
  onOpen?: () => void;
  /** A message arrived. */
  onMessage: (data: unknown) => void;
  /**
   * The socket failed (`close` is `null`) or closed and has been dropped; the reconnect is scheduled
   * right after, unless this stops the loop.
   */
  onLost?: (close: CloseEvent | null) => void;
}

/** One connection that keeps itself alive between `start()` and `stop()`. */
export class SocketLoop {
  private socket: SocketLike | null = null;
  private started = false;
  private pingTimer: ReturnType<typeof setInterval> | undefined;
  private reconnectTimer: ReturnType<typeof setTimeout> | undefined;

  constructor(private readonly options: SocketLoopOptions) {}

  /** Connects (idempotent). */
  start(): void {
    if (this.started) return;
    this.started = true;
    this.connect();
  }

  /** Disconnects and stops reconnecting. */
  stop(): void {
    this.started = false;
    clearTimeout(this.reconnectTimer);
    this.reconnectTimer = undefined;
    this.dropSocket();
  }

  /** Whether the loop is between `start()` and `stop()`. */
  get running(): boolean {
    return this.started;
  }

  /** Whether there is a socket (open or opening). */
  get hasSocket(): boolean {
    return this.socket !== null;
  }

  /** Whether the socket is open. */
  get isOpen(): boolean {
    return this.socket?.readyState === OPEN;
  }

  /** Sends `message` as JSON when the socket is open (else drops it: a reconnect re-sends state). */
  send(message: object): void {
    if (this.socket?.readyState === OPEN) this.socket.send(JSON.stringify(message));
  }

  /** Gives up on the current socket (a silent one is as good as dead) and reconnects after the delay. */
  recycle(): void {
    this.lost(null);
  }

  private connect(): void {
    if (!this.started) return;
    let socket: SocketLike;
    try {
      socket = this.options.createSocket(this.options.url());
    } catch (error) {
      console.error(`${this.options.name}: cannot open the socket`, error);
      this.scheduleReconnect();
      return;
    }
    this.socket = socket;
    this.options.onSocket?.();
    socket.onopen = () => {
      if (socket !== this.socket) return;
      this.options.onOpen?.();
      this.pingTimer = setInterval(() => this.send(this.options.ping()), this.options.pingMs);
    };
    socket.onmessage = (event) => {
      if (socket !== this.socket) return;
      this.options.onMessage(event.data);
    };
    socket.onerror = () => {
      if (socket !== this.socket) return;
      this.lost(null);
    };
    socket.onclose = (event) => {
      if (socket !== this.socket) return;
      this.lost(event);
    };
  }

  private lost(close: CloseEvent | null): void {
    this.dropSocket();
    this.options.onLost?.(close);
    this.scheduleReconnect();
  }

  private scheduleReconnect(): void {
    if (!this.started || this.reconnectTimer !== undefined) return;
    this.reconnectTimer = setTimeout(() => {
      this.reconnectTimer = undefined;
      this.connect();
    }, this.options.reconnectMs);
  }

  private dropSocket(): void {
    clearInterval(this.pingTimer);
    this.pingTimer = undefined;
    const socket = this.socket;
    this.socket = null;
    if (socket) {
      socket.onopen = socket.onmessage = socket.onerror = socket.onclose = null;
      try {
        socket.close();
      } catch {
        // Already closed.
      }
    }
  }
}
