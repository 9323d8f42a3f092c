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
    expect(within(nav).getByRole('link', { name: 'Spot' }).getAttribute('aria-current')).toBe('page');
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

  it('shows a futures panel, not a table, on the four futures tabs', async () => {
    spotBackend();
    const { router } = renderSpot('/account/entrust/future/u');
    const panel = await screen.findByRole('region', { name: 'Futures orders arrive with USDT-M futures' });
    expect(panel.textContent).toContain('Your USDT-margined futures orders, with their take-profit and stop-loss orders, will be listed here.');
    expect(screen.queryByRole('table')).toBeNull();
    expect(within(panel).getByRole('link', { name: 'Trade spot' }).getAttribute('href')).toBe('/trade/index?type=bb');
    const nav = screen.getByRole('navigation', { name: 'Order lists' });
    expect(within(nav).getByRole('link', { name: 'USDT-M futures' }).getAttribute('aria-current')).toBe('page');

    const bodies: Array<[string, string]> = [
      ['Cross margin', 'cross margin'],
      ['Isolated margin', 'isolated margin'],
      ['Coin-M futures', 'Futures on this exchange are margined in USDT'],
    ];
    for (const [tab, text] of bodies) {
      fireEvent.click(within(nav).getByRole('link', { name: tab }));
      await waitFor(() => expect(within(nav).getByRole('link', { name: tab }).getAttribute('aria-current')).toBe('page'));
      expect(screen.getByRole('region', { name: 'Futures orders arrive with USDT-M futures' }).textContent).toContain(text);
      expect(screen.queryByRole('table')).toBeNull();
    }

    fireEvent.click(screen.getByRole('link', { name: 'See spot orders' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/account/entrust/spot'));
    expect(await screen.findByRole('table', { name: 'Open orders' })).toBeTruthy();
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
    expect(screen.getByRole('region', { name: '先物の注文はUSDT-M先物の開始とともに表示されます' })).toBeTruthy();
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
