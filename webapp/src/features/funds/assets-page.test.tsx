import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../i18n';
import { toaster } from '../../lib/toaster';
import { renderApp } from '../../test/render';
import { USER_COINS, callsTo, fakeBackend, ok, renderFunds } from './test-helpers';

const WALLET = {
  total: { usdt: '35210.5', btc: '0.52345678' },
  buckets: [
    { bucket: 'funding', value: { usdt: '34000', btc: '0.5' } },
    { bucket: 'trading', value: { usdt: '1210.5', btc: '0.01845678' } },
    { bucket: 'earn', value: { usdt: '0', btc: '0' } },
  ],
};

const FUNDING = {
  bucket: 'funding',
  total: { usdt: '34000', btc: '0.5' },
  coins: [
    { coin: 'usdt', available: '1000', frozen: '25', total: '1025', value: { usdt: '1025', btc: '0.015' } },
    { coin: 'btc', available: '0.5', frozen: '0', total: '0.5', value: { usdt: '32975', btc: '0.5' } },
    { coin: 'eth', available: '0', frozen: '0', total: '0', value: { usdt: '0', btc: '0' } },
  ],
};

const TRADING = {
  bucket: 'trading',
  total: { usdt: '1210.5', btc: '0.01845678' },
  coins: [{ coin: 'usdt', available: '1210.5', frozen: '0', total: '1210.5', value: { usdt: '1210.5', btc: '0.01845678' } }],
};

function overviewBackend() {
  return fakeBackend({
    'GET /api/coin/coin/assets/getWalletAccount': ok(WALLET),
    'POST /api/coin/coin/assets/getCurrencyAccount': ok(FUNDING),
    'GET /api/coin/coin/assets/getMyBalance': (call) => ok(call.query.get('type') === 'trading' ? TRADING : { ...TRADING, bucket: 'earn', coins: [] }),
    'POST /api/userCoin/getUserCoin': ok(USER_COINS),
  });
}

beforeEach(() => {
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  await setLanguage('en', { persist: false });
});

describe('/assets/index', () => {
  it('sends visitors to the login, returning to the screen afterwards', async () => {
    const { router } = renderApp('/assets/index?key=withdraw');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/assets/index?key=withdraw')}`);
  });

  it('shows the overview for a missing or unknown key', async () => {
    overviewBackend();
    const { router } = renderFunds('/assets/index?key=nothing');
    await waitFor(() => expect(router.state.location.search).toBe('?key=overview'));
    expect(await screen.findByRole('heading', { level: 1, name: 'My Assets' })).toBeTruthy();
  });

  it('shows the totals, one card per bucket and the coin table with values', async () => {
    const calls = overviewBackend();
    renderFunds('/assets/index?key=overview');
    const total = await screen.findByRole('region', { name: 'Total assets (est.)' });
    await waitFor(() => expect(total.textContent).toContain('35,210.50'));
    expect(total.textContent).toContain('≈ 0.52345678 BTC');
    const trading = screen.getByRole('region', { name: 'Trading' });
    expect(trading.textContent).toContain('1,210.50');

    const table = await screen.findByRole('table', { name: 'Coins in Funding' });
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(4));
    // Sorted by value, largest first; amounts and values formatted by wasm-core.
    const rows = within(table).getAllByRole('row').slice(1);
    expect(within(rows[0]!).getAllByRole('cell').map((c) => c.textContent)).toEqual(expect.arrayContaining(['BTC', '0.5', '0', '32,975.00 USDT']));
    expect(within(rows[1]!).getByRole('link', { name: 'Deposit USDT' }).getAttribute('href')).toBe('/assets/index?key=recharge&coin=usdt');
    expect(within(rows[1]!).getByRole('link', { name: 'Withdraw USDT' }).getAttribute('href')).toBe('/assets/index?key=withdraw&coin=usdt');

    fireEvent.click(screen.getByRole('checkbox', { name: 'Hide zero balances' }));
    await waitFor(() => expect(within(table).getAllByRole('row')).toHaveLength(3));

    // Amounts can be hidden.
    fireEvent.click(screen.getByRole('button', { name: 'Hide amounts' }));
    expect(total.textContent).toContain('******');
    expect(total.textContent).not.toContain('35,210.50');

    // Trading and earn list the coins held, from getMyBalance.
    fireEvent.click(screen.getByRole('tab', { name: 'Trading' }));
    const tradingTable = await screen.findByRole('table', { name: 'Coins in Trading' });
    await waitFor(() => expect(within(tradingTable).getByRole('link', { name: 'Transfer USDT' }).getAttribute('href')).toBe('/assets/index?key=transfer&coin=usdt'));
    expect(callsTo(calls, 'GET', '/api/coin/coin/assets/getMyBalance')[0]?.query.get('type')).toBe('trading');
  });

  it('switches screens from the side list, keeping ?key= in the URL', async () => {
    overviewBackend();
    const { router } = renderFunds('/assets/index?key=overview');
    const nav = await screen.findByRole('navigation', { name: 'Asset screens' });
    expect(within(nav).getByRole('link', { name: 'Overview' }).getAttribute('aria-current')).toBe('page');
    fireEvent.click(within(nav).getByRole('link', { name: 'Order centre' }));
    await waitFor(() => expect(router.state.location.search).toBe('?key=order'));
    expect(within(nav).getByRole('link', { name: 'Order centre' }).getAttribute('aria-current')).toBe('page');
    expect(await screen.findByRole('heading', { level: 2, name: 'Order centre' })).toBeTruthy();
    expect(await screen.findByRole('table', { name: 'Open orders' })).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Go to spot trading' }).getAttribute('href')).toBe('/trade/index?type=bb');
    expect(within(nav).getByRole('link', { name: 'Records' }).getAttribute('href')).toBe('/assets/index?key=records&tab=deposits');
  });

  it('shows the contract assets: the trading wallet, its margins and holds, and the open positions with their margin', async () => {
    fakeBackend({
      'GET /api/coin/coin/assets/getMyBalance': ok({
        ...TRADING,
        coins: [{ coin: 'usdt', available: '985.5', frozen: '13.4', total: '998.9', value: { usdt: '998.9', btc: '0.015' } }],
      }),
      'POST /api/contract/position/list': ok([
        {
          id: 4, symbol: 'btcusdt', side: 'short', openInterest: '0.002', positionMargin: '13.4', holdCollateralAssets: '13.4',
          averOpenPrice: '67000', expectedStrongParity: '73406.37', markPrice: '67000', notional: '134', maintenanceMargin: '0.536',
          unrealisedPnl: '0', roe: '0', realisedPnl: '0', leverage: '10', marginMode: 'isolated', fees: '0', funding: '0', status: 'open', openedAt: Date.now(),
        },
      ]),
    });
    renderFunds('/assets/index?key=contract');
    expect(await screen.findByRole('heading', { level: 2, name: 'Contract assets' })).toBeTruthy();
    await waitFor(() => expect(within(screen.getByRole('region', { name: 'Available' })).getByText(/985\.50/)).toBeTruthy());
    expect(within(screen.getByRole('region', { name: 'Margin and order holds' })).getByText(/13\.40/)).toBeTruthy();
    const table = await screen.findByRole('table', { name: 'Open positions' });
    await waitFor(() => expect(within(table).getByLabelText('Margin of BTCUSDT').textContent).toBe('13.40'));
    expect(within(table).queryByRole('button')).toBeNull();
    expect(screen.getByRole('link', { name: 'Trade futures' }).getAttribute('href')).toBe('/trade/index?type=usta');
  });

  it('shows a retry when the values cannot be loaded', async () => {
    fakeBackend({
      'GET /api/coin/coin/assets/getWalletAccount': { status: 500, body: { code: 500, msg: 'Internal error' } },
      'POST /api/coin/coin/assets/getCurrencyAccount': ok(FUNDING),
    });
    renderFunds('/assets/index?key=overview');
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('This could not be loaded. Please try again.')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Retry' })).toBeTruthy();
  });

  it('speaks the user’s language, German included', async () => {
    overviewBackend();
    await setLanguage('de', { persist: false });
    renderFunds('/assets/index?key=overview');
    expect(await screen.findByRole('heading', { level: 1, name: 'Meine Assets' })).toBeTruthy();
    expect(screen.getByRole('region', { name: 'Gesamtvermögen (geschätzt)' })).toBeTruthy();
  });
});

describe('/account/wallet', () => {
  it('opens the assets page by default and links the wallet pages', async () => {
    overviewBackend();
    const { router } = renderFunds('/account/wallet');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/wallet/assets'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Wallet' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Asset screens' });
    expect(within(nav).getAllByRole('link').map((a) => a.getAttribute('href'))).toEqual([
      '/account/wallet/assets',
      '/account/wallet/deposit',
      '/account/wallet/withdrawal',
      '/account/wallet/history-deposit',
      '/account/wallet/history-withdrawal',
      '/account/wallet/bills',
    ]);
    // The same overview, with links that stay in the wallet where it has a page.
    const table = await screen.findByRole('table', { name: 'Coins in Funding' });
    await waitFor(() => expect(within(table).getByRole('link', { name: 'Deposit USDT' }).getAttribute('href')).toBe('/account/wallet/deposit?coin=usdt'));
    expect(screen.getByRole('link', { name: 'Convert' }).getAttribute('href')).toBe('/assets/index?key=swap');
  });

  it('shows the bills page under its heading', async () => {
    fakeBackend({ 'POST /api/coin/coin/assets/getMyBill': ok({ total: 0, page: 1, pageSize: 20, records: [] }) });
    renderFunds('/account/wallet/bills');
    expect(await screen.findByRole('heading', { level: 2, name: 'Bills' })).toBeTruthy();
    expect(await screen.findByText('No bills match these filters.')).toBeTruthy();
  });
});
