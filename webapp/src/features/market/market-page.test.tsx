import { act, screen, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { FakeSocket } from '../../test/fake-socket';
import { coin, renderApp } from '../../test/render';
import type * as KlineChartModule from '../../components/kline-chart';

// The canvas chart has its own tests; jsdom cannot draw.
vi.mock('../../components/kline-chart', async (importOriginal) => ({
  ...(await importOriginal<typeof KlineChartModule>()),
  KlineChart: ({ pair }: { pair: string }) => <div role="img" aria-label={`chart ${pair}`} />,
}));

const COINS = {
  currencyList: [coin('btcusdt', '67012.35', '65890.12', { sort: 1 }), coin('ethusdt', '3100', '3200', { sort: 2 })],
  contractList: [],
};

beforeEach(() => {
  localStorage.clear();
  FakeSocket.created = [];
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url), frame: (cb) => setTimeout(cb, 0) }));
});

afterEach(() => setMarketFeed(null));

async function flushFrame() {
  await act(async () => {
    await new Promise((resolve) => setTimeout(resolve, 5));
  });
}

describe('market page', () => {
  it('shows the pair, its live order book and recent trades', async () => {
    renderApp('/market/main?symbol=ETHUSDT', COINS);
    expect(await screen.findByRole('heading', { level: 1, name: 'ETH/USDT' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'chart ETH/USDT' })).toBeTruthy();

    const socket = FakeSocket.latest();
    act(() => socket.open());
    const subscriptions = socket.sent.filter((m) => (m as { op: string }).op === 'subscribe');
    expect(subscriptions).toEqual(
      expect.arrayContaining([
        { op: 'subscribe', channel: 'depth', symbol: 'ethusdt' },
        { op: 'subscribe', channel: 'trade', symbol: 'ethusdt' },
        { op: 'subscribe', channel: 'detail', symbol: 'ethusdt' },
        { op: 'subscribe', channel: 'ticker', symbol: '*' },
      ]),
    );

    act(() => {
      socket.receive({
        type: 'depth',
        symbol: 'ethusdt',
        data: { kind: 'snapshot', seq: 1, bids: [['3099.50', '2'], ['3099.00', '1']], asks: [['3100.50', '0.5']], ts: 1 },
      });
      socket.receive({ type: 'depth', symbol: 'ethusdt', data: { kind: 'diff', seq: 2, prevSeq: 1, bids: [['3099.00', '0']], asks: [['3101', '1.25']], ts: 2 } });
      socket.receive({
        type: 'TRADE',
        symbol: 'ethusdt',
        snapshot: true,
        data: [
          { id: 2, price: '3100.10', quantity: '0.5', side: 'sell', ts: Date.UTC(2026, 0, 5, 15, 4, 5) },
          { id: 1, price: '3100.00', quantity: '1', side: 'buy', ts: Date.UTC(2026, 0, 5, 15, 4, 0) },
        ],
      });
      socket.receive({ type: 'DETAIL', symbol: 'ethusdt', data: { lastPrice: '3100.10', indexPrice: '3100.05', markPrice: '3100.20', ts: 3 } });
    });
    await flushFrame();

    const bids = screen.getByRole('table', { name: 'Bids' });
    const asks = screen.getByRole('table', { name: 'Asks' });
    const cells = (table: HTMLElement) =>
      within(table)
        .getAllByRole('row')
        .slice(1)
        .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent));
    expect(cells(bids)).toEqual([['3,099.50', '2.0000', '6,199.00']]);
    // Asks read upwards from the best one.
    expect(cells(asks)).toEqual([
      ['3,101.00', '1.2500', '3,876.25'],
      ['3,100.50', '0.5000', '1,550.25'],
    ]);

    const trades = screen.getByRole('table', { name: 'Recent trades' });
    // Newest first, time of day in New York (UTC−05:00).
    expect(cells(trades)).toEqual([
      ['3,100.10 Sell', '0.5000', '10:04:05'],
      ['3,100.00 Buy', '1.0000', '10:04:00'],
    ]);
    expect(screen.getByText('Mark 3,100.20')).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Last price' }).textContent).toBe('3,100.10');
  });

  it('stars the pair as a favourite, shared with the markets page', async () => {
    renderApp('/market/main?symbol=ETHUSDT', COINS);
    const star = await screen.findByRole('button', { name: 'Favourite ETH/USDT' });
    expect(star.getAttribute('aria-pressed')).toBe('false');
    act(() => star.click());
    expect(star.getAttribute('aria-pressed')).toBe('true');
    // A visitor's favourites live in local storage, where the markets page reads them.
    expect(JSON.parse(localStorage.getItem('coin_web-favourites') ?? '[]')).toEqual(['spot:ethusdt']);
    act(() => star.click());
    expect(star.getAttribute('aria-pressed')).toBe('false');
    expect(JSON.parse(localStorage.getItem('coin_web-favourites') ?? '[]')).toEqual([]);
  });

  it('shows times in the time zone the user chose', async () => {
    localStorage.setItem('coin_web-timeZone', 'Asia/Shanghai');
    renderApp('/market/main?symbol=ETHUSDT', COINS);
    await screen.findByRole('heading', { level: 1, name: 'ETH/USDT' });
    const socket = FakeSocket.latest();
    act(() => socket.open());
    act(() =>
      socket.receive({
        type: 'TRADE',
        symbol: 'ethusdt',
        snapshot: true,
        data: [{ id: 1, price: '3100.00', quantity: '1', side: 'buy', ts: Date.UTC(2026, 0, 5, 15, 4, 0) }],
      }),
    );
    await flushFrame();
    const trades = screen.getByRole('table', { name: 'Recent trades' });
    // 15:04 UTC is 23:04 in Shanghai (UTC+08:00).
    expect(within(trades).getByText('23:04:00')).toBeTruthy();
  });

  it('says so for a pair that is not listed', async () => {
    renderApp('/market/main?symbol=nopeusdt', COINS);
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('The pair nopeusdt is not listed.');
    expect(within(alert).getByRole('link', { name: 'Go to BTC/USDT' }).getAttribute('href')).toBe('/market/main?symbol=btcusdt');
  });
});
