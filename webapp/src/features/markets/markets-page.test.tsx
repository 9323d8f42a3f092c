import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { FakeSocket } from '../../test/fake-socket';
import { coin, renderApp } from '../../test/render';

const COINS = {
  currencyList: [coin('btcusdt', '67012.35', '65890.12', { sort: 1 }), coin('ethusdt', '3100', '3200', { sort: 2 }), coin('dogeusdt', '0.15', '0.14', { sort: 3 })],
  contractList: [coin('btcusdt', '67020.00', '65000.00', { sort: 1 })],
};

beforeEach(() => {
  localStorage.clear();
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
});

afterEach(() => setMarketFeed(null));

const pairs = (table: HTMLElement) =>
  within(table)
    .getAllByRole('rowheader')
    .map((cell) => cell.textContent);

describe('markets page', () => {
  it('lists spot and futures markets, sorts by change, and keeps favourites', async () => {
    renderApp('/quotes/index', COINS);
    expect(await screen.findByRole('heading', { level: 1, name: 'Markets' })).toBeTruthy();
    const tabs = screen.getAllByRole('tab').map((tab) => tab.textContent);
    expect(tabs).toEqual(['All', 'Favourites', 'Flash Contracts', 'Spot', 'USDT-M Futures']);

    let table = screen.getByRole('table', { name: 'All' });
    expect(pairs(table)).toEqual(['BTC/USDT', 'ETH/USDT', 'DOGE/USDT', 'BTC/USDT']);

    fireEvent.click(within(table).getByRole('button', { name: /24h change/ }));
    const header = within(table).getByRole('columnheader', { name: /24h change/ });
    expect(header.getAttribute('aria-sort')).toBe('descending');
    // DOGE +7.14%, futures BTC +3.11%, spot BTC +1.70%, ETH -3.13%
    expect(pairs(table)).toEqual(['DOGE/USDT', 'BTC/USDT', 'BTC/USDT', 'ETH/USDT']);
    expect(within(within(table).getAllByRole('row')[2]!).getByText('USDT-M Futures')).toBeTruthy();

    fireEvent.click(within(table).getByRole('button', { name: 'Favourite ETH/USDT' }));
    expect(within(table).getByRole('button', { name: 'Favourite ETH/USDT' }).getAttribute('aria-pressed')).toBe('true');
    fireEvent.click(screen.getByRole('tab', { name: 'Favourites' }));
    table = await screen.findByRole('table', { name: 'Favourites' });
    await waitFor(() => expect(pairs(table)).toEqual(['ETH/USDT']));
    expect(localStorage.getItem('coin_web-favourites')).toBe('["spot:ethusdt"]');
  });
});
