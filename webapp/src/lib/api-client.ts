/**
 * The orval mutator: every API call of the generated hooks goes through `apiClient`.
 *
 * - base URL from the platform config (empty: the page's origin);
 * - headers `satoken` (cookie `coin-access-token`), `lang` and `language` (current language);
 * - the envelope `{code, msg, data}` is unwrapped: callers get `data`, typed by `Unwrap<T>`; a call
 *   whose `data` is optional and absent (it answers "nothing", such as no bound bank card) gives
 *   `null`, since react-query refuses `undefined` as a query's data;
 * - the code comes from the body, else the HTTP status; 401 logs the user out; any other
 *   non-200 code shows an error toast with `msg`, else `error_description`, else 'Unknown error';
 * - an answer whose code is in {@link STATUS_WHITELIST} (empty) or whose description is in
 *   {@link DESCRIPTION_WHITELIST} (the login's authenticator step) is rejected untouched: no toast,
 *   no logout — the caller handles it (spec section 8);
 * - a network failure or the 300 s timeout rejects the call without a toast.
 *
 * @module
 */

import { currentLanguage, i18n } from '../i18n';
import { getPlatformConfig } from './platform-config';
import { getAccessToken, logout } from './session';
import { toaster } from './toaster';

/** HTTP timeout of every call, in milliseconds. */
export const HTTP_TIMEOUT_MS = 300_000;

/** The envelope every `/api/**` answer is wrapped in. */
export interface Envelope<D = unknown> {
  code: number;
  msg: string;
  data?: D | null;
}

/**
 * The type a call resolves to: the envelope's `data` when `T` is an envelope (or `null` where the
 * document makes `data` optional and the answer leaves it out), else `T`.
 */
export type Unwrap<T> = T extends { code: number; msg: string; data: infer D }
  ? D
  : T extends { code: number; msg: string; data?: infer D }
    ? Exclude<D, undefined> | null
    : T;

/** What orval passes for each operation. */
export interface RequestConfig {
  url: string;
  method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE' | 'HEAD' | 'OPTIONS' | 'get' | 'post' | 'put' | 'patch' | 'delete' | 'head' | 'options';
  params?: Record<string, unknown>;
  data?: unknown;
  headers?: Record<string, string>;
  signal?: AbortSignal;
  responseType?: string;
}

/** Per-call options (the generated hooks' `request` option). */
export interface RequestOptions {
  headers?: Record<string, string>;
  /** Overrides the 300 s timeout. */
  timeoutMs?: number;
  /** Reject without a toast (for callers that show the error themselves). */
  silent?: boolean;
}

/** Why a call failed. */
export type ApiErrorKind = 'api' | 'network' | 'timeout';

/** The rejection of a failed call; `B` is the error body the contract declares. */
export class ApiError<B = unknown> extends Error {
  readonly kind: ApiErrorKind;
  /** The envelope code, else the HTTP status; 0 when no answer arrived. */
  readonly code: number;
  /** The HTTP status; 0 when no answer arrived. */
  readonly status: number;
  /** The parsed answer, if any. */
  readonly body: B | undefined;

  constructor(kind: ApiErrorKind, message: string, code = 0, status = 0, body?: B, cause?: unknown) {
    super(message, cause === undefined ? undefined : { cause });
    this.name = 'ApiError';
    this.kind = kind;
    this.code = code;
    this.status = status;
    this.body = body;
  }
}

/** orval uses this as the error type of the generated hooks (the declared error body is in `body`). */
export type ErrorType<E = unknown> = ApiError<E>;
/** orval uses this for request bodies. */
export type BodyType<B> = B;

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The code of an answer: the body's `code` when it is a number, else the HTTP status. */
export function responseCode(body: unknown, status: number): number {
  if (isRecord(body)) {
    const code = body.code;
    if (typeof code === 'number' && Number.isFinite(code)) return code;
    if (typeof code === 'string' && /^\d+$/.test(code.trim())) return Number(code);
  }
  return status;
}

/**
 * Answer codes the handler leaves to the caller (no toast, no logout). Empty, as the spec has it:
 * every failed code is either 401 (logout) or shown.
 */
export const STATUS_WHITELIST: readonly number[] = [];

/**
 * Failure descriptions the handler leaves to the caller (no toast, no logout): the one login-step
 * text of the spec, `totp_required` — the password was right and the login screen now asks for
 * the authenticator code, which is a step, not an error. A description is the answer's stable
 * `data.reason` (or an OAuth-style `error_description`), never its translated `msg`.
 */
export const DESCRIPTION_WHITELIST: readonly string[] = ['totp_required'];

/** The description of a failed answer: `data.reason`, else `error_description`, else `undefined`. */
export function errorDescription(body: unknown): string | undefined {
  if (!isRecord(body)) return undefined;
  const data = body.data;
  if (isRecord(data) && typeof data.reason === 'string') return data.reason;
  return typeof body.error_description === 'string' ? body.error_description : undefined;
}

/** Whether a failed answer is rejected untouched (see {@link STATUS_WHITELIST}, {@link DESCRIPTION_WHITELIST}). */
export function isWhitelisted(code: number, body: unknown): boolean {
  const description = errorDescription(body);
  return STATUS_WHITELIST.includes(code) || (description !== undefined && DESCRIPTION_WHITELIST.includes(description));
}

/** The message shown for a failed answer: `msg`, else `error_description`, else 'Unknown error'. */
export function errorMessage(body: unknown): string {
  if (isRecord(body)) {
    for (const field of ['msg', 'error_description'] as const) {
      const value = body[field];
      if (typeof value === 'string' && value.trim() !== '') return value;
    }
  }
  return i18n.t('errors.unknown');
}

function buildUrl(path: string, params?: Record<string, unknown>): string {
  const base = getPlatformConfig().apiBaseUrl;
  let url = /^https?:\/\//.test(path) ? path : `${base}${path.startsWith('/') ? '' : '/'}${path}`;
  if (params) {
    const search = new URLSearchParams();
    for (const [key, value] of Object.entries(params)) {
      if (value === undefined || value === null) continue;
      for (const item of Array.isArray(value) ? value : [value]) search.append(key, String(item));
    }
    const query = search.toString();
    if (query) url += (url.includes('?') ? '&' : '?') + query;
  }
  return url;
}

function buildBody(data: unknown): BodyInit | undefined {
  if (data === undefined) return undefined;
  if (data instanceof FormData || data instanceof Blob || data instanceof URLSearchParams || typeof data === 'string') {
    return data;
  }
  return JSON.stringify(data);
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (text === '') return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/** The orval mutator (see the module comment). */
export async function apiClient<T>(config: RequestConfig, options: RequestOptions = {}): Promise<Unwrap<T>> {
  const language = currentLanguage();
  const headers: Record<string, string> = { Accept: 'application/json', lang: language, language };
  const body = buildBody(config.data);
  for (const [key, value] of Object.entries({ ...config.headers, ...options.headers })) {
    // A JSON content type without a body would make the server expect one.
    if (body === undefined && key.toLowerCase() === 'content-type') continue;
    headers[key] = value;
  }
  if (body !== undefined && typeof body === 'string' && !Object.keys(headers).some((k) => k.toLowerCase() === 'content-type')) {
    headers['Content-Type'] = 'application/json';
  }
  if (body instanceof FormData) {
    // The browser sets the multipart boundary itself.
    for (const key of Object.keys(headers)) if (key.toLowerCase() === 'content-type') delete headers[key];
  }
  const token = getAccessToken();
  if (token) headers.satoken = token;

  const controller = new AbortController();
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, options.timeoutMs ?? HTTP_TIMEOUT_MS);
  const onCallerAbort = () => controller.abort(config.signal?.reason);
  if (config.signal?.aborted) controller.abort(config.signal.reason);
  else config.signal?.addEventListener('abort', onCallerAbort, { once: true });

  let response: Response;
  let parsed: unknown;
  try {
    response = await fetch(buildUrl(config.url, config.params), {
      method: config.method.toUpperCase(),
      headers,
      body,
      signal: controller.signal,
      credentials: 'same-origin',
    });
    parsed = await readBody(response);
  } catch (error) {
    if (timedOut) throw new ApiError('timeout', i18n.t('errors.timeout'), 0, 0, undefined, error);
    // The caller cancelled (react-query does on unmount): pass its reason through untouched.
    if (config.signal?.aborted) throw error;
    throw new ApiError('network', i18n.t('errors.network'), 0, 0, undefined, error);
  } finally {
    clearTimeout(timer);
    config.signal?.removeEventListener('abort', onCallerAbort);
  }

  const code = responseCode(parsed, response.status);
  if (code === 200) {
    return (isRecord(parsed) && 'code' in parsed ? (parsed.data ?? null) : parsed) as Unwrap<T>;
  }
  const message = errorMessage(parsed);
  if (isWhitelisted(code, parsed)) {
    // Left to the caller untouched.
  } else if (code === 401) {
    logout();
  } else if (!options.silent) {
    toaster.create({ id: `api-error:${message}`, type: 'error', title: message });
  }
  throw new ApiError('api', message, code, response.status, parsed);
}

export default apiClient;
