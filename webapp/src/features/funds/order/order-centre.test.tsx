import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import {
  CANCEL,
  FILLS,
  ORDER_LIST,
  USER_COIN,
  USER_COINS,
  bodyCells,
  callsTo,
  fakeBackend,
  ok,
  page,
  renderOneOpenOrder,
  renderSpot,
  spotFill,
  spotOrder,
  spotTestLifecycle,
} from '../../../components/spot-orders/test-helpers';
import { setLanguage } from '../../../i18n';
import { toaster } from '../../../lib/toaster';

const PATH = '/assets/index?key=order';

spotTestLifecycle();

describe('/assets/index?key=order (order centre)', () => {
  it('lists the open orders of every pair, cancels one, and says where futures orders are listed', async () => {
    let open = [spotOrder(), spotOrder({ id: 8, symbol: 'ethusdt', side: 'sell', commissPrice: '3500', commissNum: '1', entrustedValue: '3500' })];
    const calls = fakeBackend({
      [`POST ${USER_COIN}`]: ok(USER_COINS),
      [`POST ${ORDER_LIST}`]: () => ok(page(open)),
      [`POST ${CANCEL}`]: (call) => {
        const id = Number(call.query.get('id'));
        open = open.filter((o) => o.id !== id);
        return ok(spotOrder({ id, status: 'cancelled', cancelReason: 'user' }));
      },
    });
    renderSpot(PATH);
    expect(await screen.findByRole('heading', { level: 2, name: 'Order centre' })).toBeTruthy();
    const nav = screen.getByRole('navigation', { name: 'Asset screens' });
    expect(within(nav).getByRole('link', { name: 'Order centre' }).getAttribute('aria-current')).toBe('page');

    const table = await screen.findByRole('table', { name: 'Open orders' });
    await waitFor(() => expect(bodyCells(table)).toHaveLength(2));
    expect(bodyCells(table).map((row) => row[1])).toEqual(['BTC/USDT', 'ETH/USDT']);
    // All pairs: no symbol in the query.
    expect(callsTo(calls, 'POST', ORDER_LIST)[0]!.query.get('symbol')).toBeNull();
    expect(callsTo(calls, 'POST', ORDER_LIST)[0]!.query.get('scope')).toBe('current');
    expect((screen.getByRole('combobox', { name: 'Pair' }) as HTMLSelectElement).value).toBe('');

    fireEvent.click(within(table).getByRole('button', { name: 'Cancel the ETH/USDT order #8' }));
    await waitFor(() => expect(bodyCells(table)).toHaveLength(1));
    expect(callsTo(calls, 'POST', CANCEL).map((c) => c.query.get('id'))).toEqual(['8']);
    expect(toaster.create).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'ETH/USDT order cancelled.' }));

    const note = screen.getByRole('complementary', { name: 'Other products' });
    expect(note.textContent).toBe('Futures orders are listed in Orders under USDT-M futures; your flash contracts are listed on the flash contract screen.');
    expect(within(note).queryByRole('table')).toBeNull();
    expect(screen.getByRole('link', { name: 'Go to spot trading' }).getAttribute('href')).toBe('/trade/index?type=bb');
  });

  it('keeps the tab and the pair in the URL and filters the lists by pair', async () => {
    const calls = fakeBackend({
      [`POST ${USER_COIN}`]: ok(USER_COINS),
      [`POST ${ORDER_LIST}`]: (call) =>
        ok(page(call.query.get('scope') === 'history' ? [spotOrder({ id: 9, status: 'dealTotol', haveDealNum: '0.01', dealAmount: '600', dealAverPrice: '60000' })] : [])),
      [`POST ${FILLS}`]: ok(page([spotFill(), spotFill({ id: 32, symbol: 'ethusdt', price: '3100', quantity: '1', amount: '3100' })])),
    });
    const { router } = renderSpot(PATH);
    await screen.findByRole('table', { name: 'Open orders' });

    fireEvent.click(screen.getByRole('tab', { name: 'Order history' }));
    const history = await screen.findByRole('table', { name: 'Order history' });
    await waitFor(() => expect(bodyCells(history)).toHaveLength(1));
    expect(router.state.location.search).toBe('?key=order&tab=history');
    expect(bodyCells(history)[0]![10]).toBe('Filled');

    fireEvent.click(screen.getByRole('tab', { name: 'Trade history' }));
    const trades = await screen.findByRole('table', { name: 'Trade history' });
    await waitFor(() => expect(bodyCells(trades)).toHaveLength(2));
    expect(callsTo(calls, 'POST', FILLS).at(-1)!.body).toEqual({ page: 1, pageSize: 20 });

    const pair = screen.getByRole('combobox', { name: 'Pair' });
    expect(within(pair).getAllByRole('option').map((o) => o.textContent)).toEqual(['All pairs', 'BTC/USDT', 'ETH/USDT']);
    fireEvent.change(pair, { target: { value: 'ethusdt' } });
    await waitFor(() => expect(callsTo(calls, 'POST', FILLS).at(-1)!.body).toEqual({ page: 1, pageSize: 20, symbol: 'ethusdt' }));
    expect(router.state.location.search).toBe('?key=order&tab=trades&symbol=ethusdt');

    // Back to all pairs.
    fireEvent.change(pair, { target: { value: '' } });
    await waitFor(() => expect(router.state.location.search).toBe('?key=order&tab=trades'));
  });

  it('opens the tab and pair of a shared link, and pages through a long list', async () => {
    const calls = fakeBackend({
      [`POST ${USER_COIN}`]: ok(USER_COINS),
      [`POST ${ORDER_LIST}`]: (call) => {
        const n = Number(call.query.get('page'));
        return ok({ total: 45, page: n, pageSize: 20, records: [spotOrder({ id: 100 + n, status: 'cancelled', cancelReason: 'user' })] });
      },
    });
    renderSpot(`${PATH}&tab=history&symbol=btcusdt`);
    const history = await screen.findByRole('table', { name: 'Order history' });
    await waitFor(() => expect(bodyCells(history)).toHaveLength(1));
    expect((screen.getByRole('combobox', { name: 'Pair' }) as HTMLSelectElement).value).toBe('btcusdt');
    const first = callsTo(calls, 'POST', ORDER_LIST).at(-1)!.query;
    expect([first.get('scope'), first.get('symbol'), first.get('page')]).toEqual(['history', 'btcusdt', '1']);

    const pager = screen.getByRole('navigation', { name: 'Pages' });
    expect(within(pager).getByText('Page 1 of 3')).toBeTruthy();
    fireEvent.click(within(pager).getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(within(pager).getByText('Page 2 of 3')).toBeTruthy());
    expect(callsTo(calls, 'POST', ORDER_LIST).at(-1)!.query.get('page')).toBe('2');

    // Another pair starts again at page 1.
    fireEvent.change(screen.getByRole('combobox', { name: 'Pair' }), { target: { value: 'ethusdt' } });
    await waitFor(() => expect(callsTo(calls, 'POST', ORDER_LIST).at(-1)!.query.get('symbol')).toBe('ethusdt'));
    expect(callsTo(calls, 'POST', ORDER_LIST).at(-1)!.query.get('page')).toBe('1');
  });

  it('refreshes the lists when the user channel reports an order change', async () => {
    const { calls, table, socket } = await renderOneOpenOrder(PATH);
    expect(socket.url).toBe('ws://test/ws/user/push/1001');
    const before = callsTo(calls, 'POST', ORDER_LIST).length;
    act(() => {
      socket.open();
      socket.receive({ type: 'order', data: spotOrder({ status: 'dealTotol', haveDealNum: '0.01' }), ts: 1 });
    });
    expect(await within(table).findByText('No open orders.')).toBeTruthy();
    expect(callsTo(calls, 'POST', ORDER_LIST).length).toBe(before + 1);
  });

  it('speaks the user’s language', async () => {
    fakeBackend({ [`POST ${USER_COIN}`]: ok(USER_COINS), [`POST ${ORDER_LIST}`]: ok(page([])) });
    await setLanguage('de', { persist: false });
    renderSpot(PATH);
    expect(await screen.findByRole('heading', { level: 2, name: 'Auftragszentrum' })).toBeTruthy();
    expect(screen.getByRole('complementary', { name: 'Weitere Produkte' })).toBeTruthy();
  });
});
