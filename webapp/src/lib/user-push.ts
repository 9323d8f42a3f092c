/**
 * The user channel (`/ws/user/push/{userId}`, docs/api.md "User channel"): the logged-in user's own
 * live messages — `au` (account values), `order` (one of their spot orders changed) and `fill` (one
 * of their orders traded). A ping every 15 s keeps the socket alive (the server closes a client
 * silent for 60 s); an error or close reconnects after 3 s like the market feed, except a close with
 * code 4401 (the session ended: logout, device removed), after which the channel stays closed.
 *
 * The socket authenticates with the `coin-access-token` cookie the browser sends on a same-origin
 * socket; only when the platform config puts the sockets on another origin (where the cookie is not
 * sent) does the token travel as `?satoken=`.
 *
 * Seconds contracts add `seconds_order` (one of the user's bets was accepted) and `SETTLEMENT` (one
 * settled, with its settlement tick, result and profit). USDT-M futures add `POSITION` (one of the
 * user's positions changed or ended), `futuresOrder` and `futuresStop` (an order or a stop order
 * changed); they refetch the futures orders, positions and stop orders
 * (`contract/{order,position,loss}/list`). Earn adds `earnPayout` (a daily reward was paid to one of
 * the user's positions) and `earnOrder` (one of their positions was opened or redeemed); they
 * refetch the earn positions and products (`mingOrder/list`, `{type}/list`) and the balances.
 * Loans add `loan` (an application was decided or a loan's status changed) and `loan_notice` (a
 * reminder before a due time or an overdue notice); the loan screens refetch their own reads on them.
 *
 * `USER_STATUS` (the session ended: the account was frozen, the session revoked or expired) signs
 * out at once with a toast saying why (`user-status.ts`); the channel then stays closed.
 *
 * `useUserPush(userId)` keeps one shared connection per user open while any component uses it and
 * turns `order`, `fill`, `seconds_order` and `SETTLEMENT` messages into a refetch of the reads they
 * change: the user's spot orders (`listSpotOrders`), fills (`getEntrustLogCurrency`), seconds
 * orders (`listSecondsOrders`) and balances (`getUserCoin`). A burst of messages (a market order
 * crossing several levels) costs one refetch.
 *
 * @module
 */

import { type QueryClient, type QueryKey, useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { getGetUserCoinQueryKey } from '../api/generated/funds/funds';
import {
  getListFuturesOrdersQueryKey,
  getListFuturesPositionHistoryQueryKey,
  getListFuturesPositionsQueryKey,
  getListFuturesStopsQueryKey,
} from '../api/generated/futures/futures';
import { type FuturesOrder, type FuturesPosition, type FuturesStopOrder, type PositionView, ProductListType, type SecondsOrder, type SpotFill, type SpotOrder } from '../api/generated/model';
import { getListEarnPositionsQueryKey, getListEarnProductsQueryKey } from '../api/generated/earn/earn';
import { getListSecondsOrdersQueryKey } from '../api/generated/seconds-contracts/seconds-contracts';
import { getGetEntrustLogCurrencyQueryKey, getListSpotOrdersQueryKey } from '../api/generated/spot-trading/spot-trading';
import { currentLanguage } from '../i18n';
import { cachedApiHead } from './api-calls';
import { getPlatformConfig, wsOrigin } from './platform-config';
import { invalidateOperations } from './query-keys';
import { getAccessToken } from './session';
import { type SocketLike, SocketLoop } from './socket-loop';
import { type UserStatus, isUserStatus, signOutFor } from './user-status';

/** Delay before reconnecting after an error or close (spec section 9). */
export const USER_PUSH_RECONNECT_MS = 3_000;
/** Ping interval while connected. */
export const USER_PUSH_PING_MS = 15_000;
/** The close code of a session that ended: no reconnect. */
export const SESSION_ENDED_CLOSE_CODE = 4401;
/** Messages arriving within this window cause a single refetch. */
export const INVALIDATE_DEBOUNCE_MS = 150;

/** The account values pushed on connect and whenever one changes (decimal strings, USDT). */
export interface AccountValues {
  allMargin: string;
  price: string;
  userEar: string;
}

/** One message of the user channel. */
export type UserPushMessage =
  | { type: 'order'; data: SpotOrder; ts: number }
  | { type: 'fill'; data: SpotFill; ts: number }
  | { type: 'au'; data: AccountValues; ts: number }
  | { type: 'seconds_order' | 'SETTLEMENT'; data: SecondsOrder; ts: number }
  | { type: 'POSITION'; data: FuturesPosition; ts: number }
  | { type: 'futuresOrder'; data: FuturesOrder; ts: number }
  | { type: 'futuresStop'; data: FuturesStopOrder; ts: number }
  | { type: 'earnPayout'; data: EarnPayout; ts: number }
  | { type: 'earnOrder'; data: PositionView; ts: number }
  | { type: 'loan'; data: LoanChange; ts: number }
  | { type: 'loan_notice'; data: LoanNotice; ts: number }
  | { type: 'USER_STATUS'; data: { status: UserStatus }; ts: number };

/** An application decided or a loan's status changed (`loan`); the ids of both are the same. */
export interface LoanChange {
  applicationId: number;
  /** The new status: `pending`, `rejected`, `active`, `overdue` or `settled`. */
  status: string;
}

/** A reminder before a due time (`due_soon`) or an overdue notice (`overdue`) of one loan (`loan_notice`). */
export interface LoanNotice {
  loanId: number;
  kind: string;
  /** The instalment's number. */
  instalment: number;
  /** What it costs, a decimal string. */
  amount: string;
  coin: string;
  dueTime: number;
}

/** A daily earn reward paid to one of the user's positions (`earnPayout`). */
export interface EarnPayout {
  positionId: number;
  productId: number;
  /** The reward's coin. */
  coin: string;
  /** What this run paid, a decimal string. */
  reward: string;
  /** Days paid so far. */
  paidDays: number;
  /** The position's state after the payout. */
  status: string;
}

/** Injectable dependencies (tests pass a fake socket). */
export interface UserPushOptions {
  url: () => string;
  createSocket?: (url: string) => SocketLike;
}

function readMessage(raw: unknown): UserPushMessage | null {
  if (typeof raw !== 'string') return null;
  let message: unknown;
  try {
    message = JSON.parse(raw);
  } catch {
    return null;
  }
  if (typeof message !== 'object' || message === null) return null;
  const { type, data, ts } = message as { type?: unknown; data?: unknown; ts?: unknown };
  if (typeof data !== 'object' || data === null) return null;
  const time = typeof ts === 'number' ? ts : Date.now();
  switch (type) {
    case 'order':
      return typeof (data as SpotOrder).id === 'number' ? { type, data: data as SpotOrder, ts: time } : null;
    case 'fill':
      return typeof (data as SpotFill).orderId === 'number' ? { type, data: data as SpotFill, ts: time } : null;
    case 'au':
      return { type, data: data as AccountValues, ts: time };
    case 'seconds_order':
    case 'SETTLEMENT':
      return typeof (data as SecondsOrder).id === 'number' ? { type, data: data as SecondsOrder, ts: time } : null;
    case 'POSITION':
      return typeof (data as FuturesPosition).id === 'number' ? { type, data: data as FuturesPosition, ts: time } : null;
    case 'futuresOrder':
      return typeof (data as FuturesOrder).id === 'number' ? { type, data: data as FuturesOrder, ts: time } : null;
    case 'futuresStop':
      return typeof (data as FuturesStopOrder).id === 'number' ? { type, data: data as FuturesStopOrder, ts: time } : null;
    case 'earnPayout':
      return typeof (data as EarnPayout).positionId === 'number' && typeof (data as EarnPayout).reward === 'string'
        ? { type, data: data as EarnPayout, ts: time }
        : null;
    case 'earnOrder':
      return typeof (data as PositionView).id === 'number' ? { type, data: data as PositionView, ts: time } : null;
    case 'loan':
      return typeof (data as LoanChange).applicationId === 'number' ? { type, data: data as LoanChange, ts: time } : null;
    case 'loan_notice':
      return typeof (data as LoanNotice).loanId === 'number' ? { type, data: data as LoanNotice, ts: time } : null;
    case 'USER_STATUS': {
      const status = (data as { status?: unknown }).status;
      return isUserStatus(status) ? { type, data: { status }, ts: time } : null;
    }
    default:
      return null;
  }
}

/** One user's channel: connects on `start()`, reconnects after 3 s, tells listeners every message. */
export class UserPushClient {
  private readonly loop: SocketLoop;
  private readonly listeners = new Set<(message: UserPushMessage) => void>();
  private ended = false;

  constructor(options: UserPushOptions) {
    const createSocket = options.createSocket ?? ((url: string) => new WebSocket(url));
    this.loop = new SocketLoop({
      name: 'User channel',
      url: () => options.url(),
      createSocket,
      ping: () => ({ op: 'ping', ts: Date.now() }),
      pingMs: USER_PUSH_PING_MS,
      reconnectMs: USER_PUSH_RECONNECT_MS,
      onMessage: (data) => {
        const message = readMessage(data);
        if (!message) return;
        for (const listener of [...this.listeners]) listener(message);
        if (message.type === 'USER_STATUS') {
          // The server closes with 4401 next: stay closed, sign out now and say why.
          this.ended = true;
          this.stop();
          signOutFor(message.data.status);
        }
      },
      onLost: (close) => {
        if (close?.code !== SESSION_ENDED_CLOSE_CODE) return;
        // The session is over: reconnecting would only be refused; the API client logs out on its next 401.
        this.ended = true;
        this.stop();
      },
    });
  }

  /** Connects (idempotent). */
  start(): void {
    if (this.loop.running) return;
    this.ended = false;
    this.loop.start();
  }

  /** Disconnects and stops reconnecting. */
  stop(): void {
    this.loop.stop();
  }

  /** Whether the server ended the session (close code 4401): the channel stays closed. */
  get sessionEnded(): boolean {
    return this.ended;
  }

  /** Calls `listener` with every message; returns the unsubscribe function. */
  listen(listener: (message: UserPushMessage) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }
}

/** The user channel URL of `userId` (with `?satoken=` only when the sockets live on another origin). */
export function userPushUrl(userId: number | string): string {
  const origin = wsOrigin();
  const params = new URLSearchParams({ lang: currentLanguage() });
  const token = getAccessToken();
  if (token && getPlatformConfig().wsBaseUrl && !sameHost(origin)) params.set('satoken', token);
  return `${origin}/ws/user/push/${encodeURIComponent(String(userId))}?${params.toString()}`;
}

function sameHost(origin: string): boolean {
  try {
    return new URL(origin).host === window.location.host;
  } catch {
    return false;
  }
}

/**
 * The reads a trading message changes (any page or filter): the user's spot orders, fills, seconds
 * and futures orders, positions (open and closed), stop orders, earn positions and products, and
 * balances.
 */
export function pushedReads(head: string): QueryKey[] {
  return [
    getListSpotOrdersQueryKey(),
    getGetEntrustLogCurrencyQueryKey(head),
    getGetUserCoinQueryKey(),
    getListSecondsOrdersQueryKey(),
    getListFuturesOrdersQueryKey(),
    getListFuturesPositionsQueryKey(),
    getListFuturesPositionHistoryQueryKey(),
    getListFuturesStopsQueryKey(),
    getListEarnPositionsQueryKey(),
    ...Object.values(ProductListType).map((type) => getListEarnProductsQueryKey(type)),
  ];
}

/** Refetches the user's spot orders, fills, seconds and futures orders, positions, stop orders and balances. */
export function invalidatePushedReads(queryClient: QueryClient): Promise<void> {
  return invalidateOperations(queryClient, pushedReads(cachedApiHead(queryClient)));
}

type Factory = (userId: number) => UserPushClient;

const defaultFactory: Factory = (userId) => new UserPushClient({ url: () => userPushUrl(userId) });
let factory: Factory = defaultFactory;
const shared = new Map<number, { client: UserPushClient; users: number }>();

/** Replaces how clients are made (tests pass fake sockets); `null` restores the default. */
export function setUserPushFactory(next: Factory | null): void {
  for (const { client } of shared.values()) client.stop();
  shared.clear();
  factory = next ?? defaultFactory;
}

/** Takes a share of `userId`'s connection (opening it for the first user); returns the release function. */
export function acquireUserPush(userId: number): { client: UserPushClient; release: () => void } {
  let entry = shared.get(userId);
  if (!entry) {
    entry = { client: factory(userId), users: 0 };
    shared.set(userId, entry);
  }
  entry.users += 1;
  entry.client.start();
  const held = entry;
  let released = false;
  return {
    client: held.client,
    release: () => {
      if (released) return;
      released = true;
      held.users -= 1;
      if (held.users > 0) return;
      held.client.stop();
      if (shared.get(userId) === held) shared.delete(userId);
    },
  };
}

/**
 * React hook: keeps the user channel of `userId` open while mounted (nothing for `null`, a visitor)
 * and refetches the user's orders, fills and balances after `order` and `fill` messages; `onMessage`
 * hears every message too.
 */
export function useUserPush(userId: number | null | undefined, onMessage?: (message: UserPushMessage) => void): void {
  const queryClient = useQueryClient();
  // The latest callback, so a new function on every render neither reconnects nor goes stale.
  const listener = useRef(onMessage);
  useEffect(() => {
    listener.current = onMessage;
  });
  useEffect(() => {
    if (userId === null || userId === undefined) return;
    const { client, release } = acquireUserPush(userId);
    let timer: ReturnType<typeof setTimeout> | undefined;
    const stopListening = client.listen((message) => {
      listener.current?.(message);
      if (message.type === 'au' || message.type === 'USER_STATUS') return;
      if (timer !== undefined) return;
      timer = setTimeout(() => {
        timer = undefined;
        void invalidatePushedReads(queryClient);
      }, INVALIDATE_DEBOUNCE_MS);
    });
    return () => {
      clearTimeout(timer);
      stopListening();
      release();
    };
  }, [userId, queryClient]);
}
