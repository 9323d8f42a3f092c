import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { FakeSocket } from '../../test/fake-socket';
import { coin, renderApp } from '../../test/render';

const COINS = {
  currencyList: [coin('btcusdt', '67012.35', '65890.12', { sort: 1 }), coin('ethusdt', '3100', '3200', { sort: 2 })],
  contractList: [],
};

type Entry = { market: string; symbol: string };

/** The account's favourites on a stand-in server, and the calls it got. */
function stubServer(initial: Entry[]) {
  let list = [...initial];
  const calls: Array<{ path: string; body: unknown }> = [];
  vi.stubGlobal(
    'fetch',
    vi.fn(async (url: string, init?: RequestInit) => {
      const path = url.split('?')[0] ?? url;
      const body: unknown = typeof init?.body === 'string' ? JSON.parse(init.body) : undefined;
      calls.push({ path, body });
      const ok = (data: unknown) => new Response(JSON.stringify({ code: 200, msg: 'ok', data }), { status: 200 });
      if (path === '/api/market/favourites' && init?.method === 'GET') return ok(list);
      if (path === '/api/market/favourites') {
        const { symbol, market, favourite } = body as Entry & { favourite: boolean };
        list = list.filter((e) => !(e.market === market && e.symbol === symbol));
        if (favourite) list.push({ market, symbol });
        return ok(list);
      }
      if (path === '/api/market/favourites/merge') {
        for (const entry of (body as { favourites: Entry[] }).favourites) {
          if (!list.some((e) => e.market === entry.market && e.symbol === entry.symbol)) list.push(entry);
        }
        return ok(list);
      }
      throw new TypeError(`fetch failed: ${path}`);
    }),
  );
  return { calls, list: () => list };
}

beforeEach(() => {
  localStorage.clear();
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
});

afterEach(() => {
  setMarketFeed(null);
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  vi.unstubAllGlobals();
});

describe('favourites of a member', () => {
  it('merges the local list on the first login, then keeps favourites on the account', async () => {
    localStorage.setItem('coin_web-favourites', JSON.stringify(['spot:ethusdt']));
    document.cookie = 'coin-access-token=member-token; path=/';
    const server = stubServer([{ market: 'spot', symbol: 'btcusdt' }]);
    renderApp('/quotes/index', COINS);

    await waitFor(() => expect(server.calls.some((c) => c.path === '/api/market/favourites/merge')).toBe(true));
    expect(server.calls.find((c) => c.path === '/api/market/favourites/merge')?.body).toEqual({ favourites: [{ market: 'spot', symbol: 'ethusdt' }] });
    await waitFor(() => expect(localStorage.getItem('coin_web-favourites')).toBe('[]'));

    const table = await screen.findByRole('table', { name: 'All' });
    const star = (pair: string) => within(table).getByRole('button', { name: `Favourite ${pair}` });
    await waitFor(() => expect(star('BTC/USDT').getAttribute('aria-pressed')).toBe('true'));
    expect(star('ETH/USDT').getAttribute('aria-pressed')).toBe('true');

    // Removing one goes to the server; the star changes at once.
    fireEvent.click(star('BTC/USDT'));
    await waitFor(() => expect(star('BTC/USDT').getAttribute('aria-pressed')).toBe('false'));
    await waitFor(() => expect(server.list()).toEqual([{ market: 'spot', symbol: 'ethusdt' }]));
    expect(server.calls.at(-1)).toEqual({ path: '/api/market/favourites', body: { symbol: 'btcusdt', market: 'spot', favourite: false } });
    expect(localStorage.getItem('coin_web-favourites')).toBe('[]');
  });
});
