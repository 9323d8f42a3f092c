import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { i18n, setLanguage } from '../i18n';
import { ApiError, apiClient, DESCRIPTION_WHITELIST, errorMessage, HTTP_TIMEOUT_MS, isWhitelisted, responseCode, STATUS_WHITELIST } from './api-client';
import { setPlatformConfig } from './platform-config';
import { isLoggedIn } from './session';
import { STORAGE_PREFIX } from './storage';
import { toaster } from './toaster';

interface Answer {
  status?: number;
  body?: unknown;
}

function stubFetch(answer: Answer | Error) {
  const fetchMock = vi.fn(async (_url: string, _init?: RequestInit) => {
    if (answer instanceof Error) throw answer;
    const text = answer.body === undefined ? '' : typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    return new Response(text, { status: answer.status ?? 200, headers: { 'Content-Type': 'application/json' } });
  });
  vi.stubGlobal('fetch', fetchMock);
  return fetchMock;
}

function clearCookies() {
  for (const name of ['coin-access-token', 'coin-refresh-token']) document.cookie = `${name}=; Max-Age=0; path=/`;
}

let toast: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  clearCookies();
  localStorage.clear();
  setPlatformConfig({});
  toast = vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  await setLanguage('en', { persist: false });
});

describe('apiClient', () => {
  it('gives null for an envelope that leaves out its optional data', async () => {
    stubFetch({ body: { code: 200, msg: 'ok' } });

    const data = await apiClient<{ code: number; msg: string; data?: { cardNo: string } }>({ url: '/api/x', method: 'GET' });

    expect(data).toBeNull();
  });

  it('unwraps the envelope and sends satoken, lang and language', async () => {
    document.cookie = 'coin-access-token=tok-123; path=/';
    await setLanguage('de', { persist: false });
    const fetchMock = stubFetch({ body: { code: 200, msg: 'ok', data: { currencyList: [], contractList: [] } } });

    const data = await apiClient<{ code: number; msg: string; data: { currencyList: []; contractList: [] } }>({
      url: '/api/common/getCoinList',
      method: 'POST',
    });

    expect(data).toEqual({ currencyList: [], contractList: [] });
    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('/api/common/getCoinList');
    const headers = init?.headers as Record<string, string>;
    expect(headers.satoken).toBe('tok-123');
    expect(headers.lang).toBe('de');
    expect(headers.language).toBe('de');
    expect(init?.method).toBe('POST');
    expect(init?.body).toBeUndefined();
    expect(Object.keys(headers).map((k) => k.toLowerCase())).not.toContain('content-type');
    expect(toast).not.toHaveBeenCalled();
  });

  it('uses the configured API base URL, query params and a JSON body', async () => {
    setPlatformConfig({ apiBaseUrl: 'https://api.example.com/' });
    const fetchMock = stubFetch({ body: { code: 200, msg: 'ok', data: 7 } });

    await apiClient({ url: '/api/x', method: 'POST', params: { id: 5, skip: undefined }, data: { market: 'spot' }, headers: { 'Content-Type': 'application/json' } });

    const [url, init] = fetchMock.mock.calls[0] ?? [];
    expect(url).toBe('https://api.example.com/api/x?id=5');
    expect(init?.body).toBe('{"market":"spot"}');
    expect((init?.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('logs out on 401: token cookies, user info and login flag are cleared, no toast', async () => {
    document.cookie = 'coin-access-token=tok; path=/';
    document.cookie = 'coin-refresh-token=ref; path=/';
    localStorage.setItem(`${STORAGE_PREFIX}userInfo`, '{"userId":1}');
    localStorage.setItem(`${STORAGE_PREFIX}isLogin`, 'true');
    stubFetch({ status: 200, body: { code: 401, msg: 'Please log in', data: null } });

    const error = await apiClient({ url: '/api/user/getInfo', method: 'POST' }).catch((e: unknown) => e);

    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe(401);
    expect(isLoggedIn()).toBe(false);
    expect(document.cookie).not.toContain('coin-access-token=tok');
    expect(document.cookie).not.toContain('coin-refresh-token=ref');
    expect(localStorage.getItem(`${STORAGE_PREFIX}userInfo`)).toBeNull();
    expect(localStorage.getItem(`${STORAGE_PREFIX}isLogin`)).toBeNull();
    expect(toast).not.toHaveBeenCalled();
  });

  it('takes the code from the body before the HTTP status', async () => {
    stubFetch({ status: 200, body: { code: 500, msg: 'Order book busy', data: null } });
    const error = (await apiClient({ url: '/api/a', method: 'POST' }).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe(500);
    expect(error.status).toBe(200);
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ type: 'error', title: 'Order book busy' }));
  });

  it('falls back to the HTTP status when the body has no code (401 logs out)', async () => {
    document.cookie = 'coin-access-token=tok; path=/';
    stubFetch({ status: 401, body: { error_description: 'expired' } });
    const error = (await apiClient({ url: '/api/a', method: 'POST' }).catch((e: unknown) => e)) as ApiError;
    expect(error.code).toBe(401);
    expect(isLoggedIn()).toBe(false);
  });

  it('toasts msg, else error_description, else the translated "Unknown error"', async () => {
    stubFetch({ status: 400, body: { code: 400, msg: 'Bad symbol', error_description: 'ignored' } });
    await expect(apiClient({ url: '/api/a', method: 'POST' })).rejects.toThrow('Bad symbol');
    expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Bad symbol' }));

    stubFetch({ status: 400, body: { code: 400, msg: '', error_description: 'invalid_grant' } });
    await expect(apiClient({ url: '/api/a', method: 'POST' })).rejects.toThrow('invalid_grant');
    expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'invalid_grant' }));

    stubFetch({ status: 502, body: '<html>Bad gateway</html>' });
    await expect(apiClient({ url: '/api/a', method: 'POST' })).rejects.toThrow('Unknown error');
    expect(toast).toHaveBeenLastCalledWith(expect.objectContaining({ title: 'Unknown error' }));

    await setLanguage('de', { persist: false });
    stubFetch({ status: 500 });
    await expect(apiClient({ url: '/api/a', method: 'POST' })).rejects.toThrow(i18n.t('errors.unknown'));
    expect(i18n.t('errors.unknown')).not.toBe('Unknown error');
    expect(toast).toHaveBeenCalledTimes(4);
  });

  it('has an empty status whitelist and the login step as its one whitelisted description', () => {
    expect(STATUS_WHITELIST).toEqual([]);
    expect(DESCRIPTION_WHITELIST).toEqual(['totp_required']);
    expect(isWhitelisted(400, { code: 400, msg: 'x', data: { reason: 'totp_required' } })).toBe(true);
    expect(isWhitelisted(400, { code: 400, msg: 'x', data: { reason: 'invalid_totp' } })).toBe(false);
    expect(isWhitelisted(400, { error_description: 'totp_required' })).toBe(true);
    expect(isWhitelisted(400, { code: 400, msg: 'totp_required' })).toBe(false);
  });

  it('rejects a whitelisted description untouched: no toast, no logout, the body for the caller', async () => {
    document.cookie = 'coin-access-token=tok; path=/';
    const body = { code: 400, msg: 'Enter the authenticator code.', data: { reason: 'totp_required', field: 'totpCode' } };
    stubFetch({ status: 400, body });
    const error = (await apiClient({ url: '/api/user/login', method: 'POST' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.code).toBe(400);
    expect(error.body).toEqual(body);
    expect(toast).not.toHaveBeenCalled();
    expect(isLoggedIn()).toBe(true);

    // Any other description of the same call is shown.
    stubFetch({ status: 400, body: { ...body, msg: 'The code is wrong.', data: { reason: 'invalid_totp' } } });
    await expect(apiClient({ url: '/api/user/login', method: 'POST' })).rejects.toThrow('The code is wrong.');
    expect(toast).toHaveBeenCalledTimes(1);
  });

  it('skips the toast for silent calls', async () => {
    stubFetch({ status: 500, body: { code: 500, msg: 'down' } });
    await expect(apiClient({ url: '/api/a', method: 'POST' }, { silent: true })).rejects.toBeInstanceOf(ApiError);
    expect(toast).not.toHaveBeenCalled();
  });

  it('rejects a network failure without a toast', async () => {
    stubFetch(new TypeError('Failed to fetch'));
    const error = (await apiClient({ url: '/api/a', method: 'POST' }).catch((e: unknown) => e)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.kind).toBe('network');
    expect(toast).not.toHaveBeenCalled();
  });

  it('aborts after the 300 s timeout', async () => {
    expect(HTTP_TIMEOUT_MS).toBe(300_000);
    vi.useFakeTimers();
    try {
      vi.stubGlobal(
        'fetch',
        vi.fn(
          (_url: string, init?: RequestInit) =>
            new Promise<Response>((_resolve, reject) => {
              init?.signal?.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError')));
            }),
        ),
      );
      const pending = apiClient({ url: '/api/slow', method: 'POST' }).catch((e: unknown) => e);
      await vi.advanceTimersByTimeAsync(HTTP_TIMEOUT_MS + 1);
      expect(((await pending) as ApiError).kind).toBe('timeout');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('responseCode and errorMessage', () => {
  it('prefers a numeric body code, also as a numeric string', () => {
    expect(responseCode({ code: 200 }, 500)).toBe(200);
    expect(responseCode({ code: '403' }, 200)).toBe(403);
    expect(responseCode({ code: 'x' }, 404)).toBe(404);
    expect(responseCode(undefined, 503)).toBe(503);
  });

  it('chooses msg, then error_description, then Unknown error', () => {
    expect(errorMessage({ msg: 'a', error_description: 'b' })).toBe('a');
    expect(errorMessage({ msg: '  ', error_description: 'b' })).toBe('b');
    expect(errorMessage({})).toBe('Unknown error');
    expect(errorMessage('plain text')).toBe('Unknown error');
  });
});
