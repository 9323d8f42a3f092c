import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { FakeSocket } from '../../test/fake-socket';
import { coin, renderApp } from '../../test/render';

const COINS = {
  currencyList: [
    coin('btcusdt', '67012.35', '65890.12', { hot: true, sort: 1 }),
    coin('ethusdt', '3100', '3200', { hot: true, sort: 2 }),
    coin('dogeusdt', '0.15', '0.15', { sort: 3, pricePrecision: 5 }),
    coin('newusdt', '1', '1', { sort: 4, amount: undefined, open: undefined }),
  ],
  contractList: [],
};

beforeEach(() => {
  FakeSocket.created = [];
  setMarketFeed(new MarketFeed({ url: () => 'ws://test/ws/market/x', createSocket: (url) => new FakeSocket(url) }));
});

afterEach(() => {
  setMarketFeed(null);
});

function marketsTable() {
  return screen.getByRole('table', { name: 'Spot markets' });
}

describe('home page', () => {
  it('shows every coin with its price and 24h change formatted by wasm-core', async () => {
    renderApp('/home/index', COINS);
    const table = await waitFor(marketsTable);

    const headers = within(table).getAllByRole('columnheader').map((h) => h.textContent);
    expect(headers).toEqual(['Pair', 'Last price', '24h change', 'Action']);

    const btc = within(table).getByRole('row', { name: /BTC\/USDT/ });
    const cells = within(btc).getAllByRole('cell').map((c) => c.textContent);
    expect(cells).toEqual(['67,012.35', '+1.70%', 'Trade']);
    expect(within(btc).getByRole('link', { name: 'Trade BTC/USDT' }).getAttribute('href')).toBe('/trade/index?type=bb&symbol=btcusdt');

    const eth = within(table).getByRole('row', { name: /ETH\/USDT/ });
    expect(within(eth).getByText('-3.13%')).toBeTruthy();
    const doge = within(table).getByRole('row', { name: /DOGE\/USDT/ });
    expect(within(doge).getByText('0.15000')).toBeTruthy();
    expect(within(doge).getByText('0.00%')).toBeTruthy();
    // A pair whose market has not produced a price yet shows placeholders instead of breaking the table.
    const fresh = within(table).getByRole('row', { name: /NEW\/USDT/ });
    expect(within(fresh).getAllByRole('cell').map((c) => c.textContent)).toEqual(['--', '--', 'Trade']);
    // The title follows the settings call, which may answer after the coin list.
    await waitFor(() => expect(document.title).toBe('Kestrel Exchange'));

    expect(screen.getByRole('heading', { level: 1, name: 'Kestrel Exchange' })).toBeTruthy();
    const hot = screen.getByRole('region', { name: 'Hot coins' });
    expect(within(hot).getAllByRole('listitem')).toHaveLength(2);
    // Each card's link reads like the top bar's ticker: pair, last price, 24h change.
    expect(within(hot).getByRole('link', { name: /^BTC\/USDT\s*last price\s*67,012\.35\s*24h change\s*\+1\.70%$/ }).getAttribute('href')).toBe(
      '/trade/index?type=bb&symbol=btcusdt',
    );
    expect(within(hot).getByRole('link', { name: /^ETH\/USDT\s*last price\s*3,100\.00\s*24h change\s*-3\.13%$/ })).toBeTruthy();
  });

  it('filters the table with the search box', async () => {
    renderApp('/home/index', COINS);
    await waitFor(marketsTable);
    fireEvent.change(screen.getByRole('searchbox', { name: 'Search coins' }), { target: { value: 'eth' } });
    await waitFor(() => expect(within(marketsTable()).getAllByRole('row')).toHaveLength(2));
    expect(within(marketsTable()).getByRole('row', { name: /ETH\/USDT/ })).toBeTruthy();

    fireEvent.change(screen.getByRole('searchbox', { name: 'Search coins' }), { target: { value: 'zzz' } });
    await waitFor(() => expect(within(marketsTable()).getByText('No coin matches “zzz”.')).toBeTruthy());
  });

  it('replaces prices with live tickers and shows the feed status', async () => {
    renderApp('/home/index', COINS);
    await waitFor(marketsTable);
    const socket = FakeSocket.latest();
    act(() => socket.open());
    expect(socket.sent).toContainEqual({ op: 'subscribe', channel: 'ticker', symbol: '*' });
    await waitFor(() => expect(screen.getAllByRole('status').some((s) => s.textContent === 'Live')).toBe(true));

    act(() =>
      socket.receive({
        type: 'ticker',
        symbol: 'btcusdt',
        data: { close: '70000', open: '65890.12', high: '0', low: '0', change: '0', priceChangePercent: '0', volume: '0', quoteVolume: '0', ts: 1 },
      }),
    );
    await waitFor(() => {
      const btc = within(marketsTable()).getByRole('row', { name: /BTC\/USDT/ });
      expect(within(btc).getByText('70,000.00')).toBeTruthy();
      expect(within(btc).getByText('+6.24%')).toBeTruthy();
    });
    // The top bar shows the same live BTC price.
    expect(screen.getByRole('link', { name: /^BTC\/USDT last price 70,000\.00/ })).toBeTruthy();
  });
});
