import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  FILLS,
  ORDER_LIST,
  USER_COIN,
  USER_COINS,
  bodyCells,
  callsTo,
  fakeBackend,
  ok,
  page,
  renderSpot,
  spotFill,
  spotOrder,
  spotTestLifecycle,
  userSocket,
} from '../../components/spot-orders/test-helpers';
import { setLanguage } from '../../i18n';
import { renderApp } from '../../test/render';
import { ENTRUST_TABS, tabOf } from './lib/tabs';

spotTestLifecycle();

function spotBackend() {
  return fakeBackend({
    [`POST ${USER_COIN}`]: ok(USER_COINS),
    [`POST ${ORDER_LIST}`]: (call) => ok(page(call.query.get('scope') === 'current' ? [spotOrder(), spotOrder({ id: 8, symbol: 'ethusdt', commissPrice: '3000' })] : [])),
    [`POST ${FILLS}`]: ok(page([spotFill()])),
  });
}

describe('/account/entrust', () => {
  it('opens the spot tab by default, with the spot orders of every pair', async () => {
    const calls = spotBackend();
    const { router } = renderSpot('/account/entrust');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/entrust/spot'));
    expect(await screen.findByRole('heading', { level: 1, name: 'Orders' })).toBeTruthy();

    const nav = screen.getByRole('navigation', { name: 'Order lists' });
    const links = within(nav).getAllByRole('link');
    expect(links.map((a) => [a.textContent, a.getAttribute('href')])).toEqual([
      ['Spot', '/account/entrust/spot'],
      ['Cross margin', '/account/entrust/margin-all'],
      ['Isolated margin', '/account/entrust/margin-fixed'],
      ['USDT-M futures', '/account/entrust/future/u'],
      ['Coin-M futures', '/account/entrust/future/coin'],
    ]);
    // The redirect to /spot renders in a transition after the lazily loaded page first shows.
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Spot' }).getAttribute('aria-current')).toBe('page'));
    expect(document.title).toBe('Spot · Orders · Kestrel Exchange');

    const table = await screen.findByRole('table', { name: 'Open orders' });
    await waitFor(() => expect(bodyCells(table)).toHaveLength(2));
    expect(bodyCells(table).map((row) => row[1])).toEqual(['BTC/USDT', 'ETH/USDT']);
    expect(callsTo(calls, 'POST', ORDER_LIST)[0]!.query.get('symbol')).toBeNull();

    // The same lists as the order centre: history and trades, the tab kept in the URL.
    fireEvent.click(screen.getByRole('tab', { name: 'Trade history' }));
    const trades = await screen.findByRole('table', { name: 'Trade history' });
    await waitFor(() => expect(bodyCells(trades)).toHaveLength(1));
    expect(router.state.location.pathname + router.state.location.search).toBe('/account/entrust/spot?tab=trades');
    fireEvent.change(screen.getByRole('combobox', { name: 'Pair' }), { target: { value: 'btcusdt' } });
    await waitFor(() => expect(callsTo(calls, 'POST', FILLS).at(-1)!.body).toEqual({ page: 1, pageSize: 20, symbol: 'btcusdt' }));

    // The user channel is open while the orders show.
    expect(userSocket().url).toBe('ws://test/ws/user/push/1001');
  });

  it('lists cross and isolated futures apart, everything under future/u, and says coin-margined futures are not offered', async () => {
    const position = (id: number, marginMode: 'cross' | 'isolated') => ({
      id,
      symbol: 'btcusdt',
      side: 'long',
      openInterest: id === 1 ? '0.01' : '0.02',
      positionMargin: '67',
      holdCollateralAssets: '67',
      averOpenPrice: '67000',
      markPrice: '67000',
      notional: '670',
      maintenanceMargin: '2.68',
      unrealisedPnl: '0',
      roe: '0',
      realisedPnl: '0',
      leverage: '10',
      marginMode,
      fees: '0',
      funding: '0',
      status: 'open',
      openedAt: Date.now(),
    });
    fakeBackend({
      [`POST ${USER_COIN}`]: ok(USER_COINS),
      'POST /api/contract/position/list': ok([position(1, 'cross'), position(2, 'isolated')]),
      'POST /api/contract/order/list': ok(page([])),
      'POST /api/contract/loss/list': ok([]),
    });
    renderSpot('/account/entrust/margin-all');
    const nav = await screen.findByRole('navigation', { name: 'Order lists' });
    let table = await screen.findByRole('table', { name: 'Open positions' });
    await waitFor(() => expect(bodyCells(table)).toHaveLength(1));
    expect(bodyCells(table)[0]![1]).toBe('0.01');
    // Read-only here: the actions live on the futures screen.
    expect(within(table).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('tab', { name: /Stop orders/ })).toBeNull();

    fireEvent.click(within(nav).getByRole('link', { name: 'Isolated margin' }));
    await waitFor(() => expect(bodyCells(screen.getByRole('table', { name: 'Open positions' }))[0]![1]).toBe('0.02'));

    fireEvent.click(within(nav).getByRole('link', { name: 'USDT-M futures' }));
    table = await screen.findByRole('table', { name: 'Open positions' });
    await waitFor(() => expect(bodyCells(table)).toHaveLength(2));
    expect(screen.getByRole('tab', { name: 'Stop orders (0)' })).toBeTruthy();

    fireEvent.click(within(nav).getByRole('link', { name: 'Coin-M futures' }));
    const notice = await screen.findByRole('region', { name: 'Coin-M futures are not offered' });
    expect(notice.textContent).toContain('every perpetual is margined and settled in USDT');
    expect(within(notice).getByRole('link', { name: 'See USDT-M futures orders' }).getAttribute('href')).toBe('/account/entrust/future/u');
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('opens spot for an unknown tab', async () => {
    spotBackend();
    const { router } = renderSpot('/account/entrust/options');
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/entrust/spot'));
  });

  it('sends visitors to the login, returning to the tab afterwards', async () => {
    const { router } = renderApp('/account/entrust/margin-all');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(router.state.location.search).toBe(`?redirect=${encodeURIComponent('/account/entrust/margin-all')}`);
  });

  it('speaks the user’s language', async () => {
    spotBackend();
    await setLanguage('ja', { persist: false });
    renderSpot('/account/entrust/margin-fixed');
    expect(await screen.findByRole('link', { name: '分離マージン' })).toBeTruthy();
    expect(screen.getByText('ポジションごとに独立した証拠金を持つ分離マージンの USDT-M ポジションと注文です。')).toBeTruthy();
  });
});

describe('entrust tabs', () => {
  it('maps every path to its tab', () => {
    for (const tab of ENTRUST_TABS) expect(tabOf(`/account/entrust/${tab.path}`)).toBe(tab);
    expect(tabOf('/account/entrust/future/u/')).toBe(ENTRUST_TABS[3]);
    expect(tabOf('/account/entrust')).toBeUndefined();
    expect(tabOf('/account/entrust/future')).toBeUndefined();
  });
});
