import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as KlineChartModule from '../../components/kline-chart';
import {
  USER_COINS,
  fakeBackend,
  fakeLive,
  logoutCookie,
  marketSocket,
  ok,
  page,
  renderSpot,
  resetLive,
} from '../../components/spot-orders/test-helpers';

// The canvas chart has its own tests; jsdom cannot draw.
vi.mock('../../components/kline-chart', async (importOriginal) => ({
  ...(await importOriginal<typeof KlineChartModule>()),
  KlineChart: ({ pair }: { pair: string }) => <div role="img" aria-label={`chart ${pair}`} />,
}));

beforeEach(() => {
  localStorage.clear();
  fakeLive();
  fakeBackend({
    'POST /api/userCoin/getUserCoin': ok(USER_COINS),
    'POST /api/currency/order/orderList': ok(page([])),
  });
});

afterEach(() => {
  resetLive();
  vi.unstubAllGlobals();
  logoutCookie();
});

const subscriptions = () => marketSocket().sent.filter((m) => (m as { op: string }).op === 'subscribe');

describe('trade page routing', () => {
  it('opens the pair of ?symbol= with its chart, live book and trades, without the footer', async () => {
    renderSpot('/trade/index?type=bb&symbol=ETHUSDT');
    expect(await screen.findByRole('heading', { level: 1, name: 'ETH/USDT' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'chart ETH/USDT' })).toBeTruthy();
    expect(document.title).toContain('ETH/USDT spot trading');
    expect(screen.queryByRole('contentinfo')).toBeNull();
    act(() => marketSocket().open());
    expect(subscriptions()).toEqual(
      expect.arrayContaining([
        { op: 'subscribe', channel: 'depth', symbol: 'ethusdt' },
        { op: 'subscribe', channel: 'trade', symbol: 'ethusdt' },
        { op: 'subscribe', channel: 'detail', symbol: 'ethusdt' },
        { op: 'subscribe', channel: 'ticker', symbol: '*' },
      ]),
    );
    // The fee shown is the pair's taker rate.
    expect(await screen.findByText('Fee (0.2%)')).toBeTruthy();
  });

  it('changes ?symbol= from the pair list, which searches and keeps favourites', async () => {
    fakeBackend({
      'GET /api/market/favourites': ok([]),
      'POST /api/market/favourites': ok([{ market: 'spot', symbol: 'btcusdt' }]),
    });
    const { router } = renderSpot('/trade/index?type=bb&symbol=ethusdt');
    await screen.findByRole('heading', { level: 1, name: 'ETH/USDT' });
    let pairs = screen.getByRole('region', { name: 'Markets' });
    fireEvent.change(within(pairs).getByRole('searchbox', { name: 'Search pairs' }), { target: { value: 'btc' } });
    expect(within(pairs).queryByRole('link', { name: 'Trade ETH/USDT' })).toBeNull();
    fireEvent.click(within(pairs).getByRole('link', { name: 'Trade BTC/USDT' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'BTC/USDT' })).toBeTruthy();
    expect(router.state.location.search).toBe('?type=bb&symbol=btcusdt');
    // The screen is the new pair's (its list starts afresh).
    pairs = screen.getByRole('region', { name: 'Markets' });
    expect(within(pairs).getByRole('link', { name: 'Trade BTC/USDT' }).getAttribute('aria-current')).toBe('page');

    const favourites = within(pairs).getByRole('tab', { name: 'Favourites' });
    fireEvent.click(favourites);
    expect(await within(pairs).findByText('Star a pair to add it here.')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Favourite BTC/USDT' }));
    expect(await within(pairs).findByRole('link', { name: 'Trade BTC/USDT' })).toBeTruthy();
    expect(within(pairs).queryByRole('link', { name: 'Trade ETH/USDT' })).toBeNull();
  });

  it('shows the cumulative depth of the live book on the Depth tab', async () => {
    renderSpot('/trade/index?type=bb&symbol=btcusdt');
    await screen.findByRole('heading', { level: 1, name: 'BTC/USDT' });
    act(() => marketSocket().open());
    act(() =>
      marketSocket().receive({
        type: 'depth',
        symbol: 'btcusdt',
        data: { kind: 'snapshot', seq: 1, bids: [['66990', '0.5'], ['66980', '1']], asks: [['67010', '0.25'], ['67020', '2']], ts: 1 },
      }),
    );
    fireEvent.click(screen.getByRole('tab', { name: 'Depth' }));
    expect(
      await screen.findByRole('img', { name: 'Market depth of BTC/USDT: bids up to 1.5000 BTC, asks up to 2.2500 BTC' }),
    ).toBeTruthy();
  });

  it('says so for a pair that is not listed', async () => {
    renderSpot('/trade/index?type=bb&symbol=nopeusdt');
    expect(await screen.findByRole('heading', { level: 1, name: 'Trade' })).toBeTruthy();
    expect(screen.getByRole('alert').textContent).toContain('The pair nopeusdt is not listed.');
    expect(screen.getByRole('link', { name: 'Trade BTC/USDT' }).getAttribute('href')).toBe('/trade/index?type=bb&symbol=btcusdt');
  });

  it('serves the exchange view and the full-screen chart', async () => {
    const exchange = renderSpot('/exchange/index');
    expect(await screen.findByRole('heading', { level: 1, name: 'BTC/USDT' })).toBeTruthy();
    await waitFor(() => expect(screen.getByRole('form', { name: 'Buy BTC' })).toBeTruthy());
    exchange.unmount();

    const full = renderSpot('/exchange/full-screen/bb?symbol=ethusdt');
    expect(await screen.findByRole('img', { name: 'chart ETH/USDT' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Back to trading ETH/USDT' }).getAttribute('href')).toBe('/trade/index?type=bb&symbol=ethusdt');
    expect(screen.queryByRole('form')).toBeNull();
    full.unmount();

    // A perpetual follows the same market: its full-screen chart is the pair's chart.
    renderSpot('/exchange/full-screen/usta');
    expect(await screen.findByRole('img', { name: 'chart BTC/USDT' })).toBeTruthy();
  });
});

describe('trade page rows', () => {
  it('draws the book levels, trades and pairs as plain rows styled by their tables, with the same names and roles', async () => {
    renderSpot('/trade/index?type=bb&symbol=btcusdt');
    await screen.findByRole('heading', { level: 1, name: 'BTC/USDT' });
    act(() => marketSocket().open());
    act(() => {
      marketSocket().receive({
        type: 'depth',
        symbol: 'btcusdt',
        data: { kind: 'snapshot', seq: 1, bids: [['66990', '0.5'], ['66980', '1']], asks: [['67010', '0.25'], ['67020', '2']], ts: 1 },
      });
      marketSocket().receive({ type: 'TRADE', symbol: 'btcusdt', snapshot: true, data: [{ id: 1, price: '67000', quantity: '0.01', side: 'buy', ts: 1_700_000_000_000 }] });
    });
    const book = screen.getByRole('region', { name: 'Order book' });
    const trades = screen.getByRole('region', { name: 'Recent trades' });
    const pairs = screen.getByRole('region', { name: 'Markets' });
    // What the rows say and do is unchanged: a level's price is a button, a trade names its side.
    expect(await within(book).findByRole('button', { name: /66,990/ })).toBeTruthy();
    const price = (await within(trades).findByText(/67,000/)).closest('td')!;
    expect(price.textContent).toBe('67,000.00 Buy');
    expect(within(pairs).getByRole('link', { name: 'Trade BTC/USDT' }).getAttribute('aria-current')).toBe('page');
    // Each row of these panels is a plain element: a Chakra table row or cell resolves its recipe
    // and style props on every render, which made the page's first render long (the tables carry
    // the styles, resolved once).
    for (const panel of [book, trades, pairs]) {
      const bodies = panel.querySelectorAll('tbody');
      expect(bodies.length).toBeGreaterThan(0);
      for (const body of bodies) expect(body.querySelectorAll('.chakra-table__row, .chakra-table__cell, [class*="css-"]')).toHaveLength(0);
    }
  });
});
