import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type * as KlineChartModule from '../kline-chart';
import { toaster } from '../../lib/toaster';
import {
  CANCEL,
  FILLS,
  ORDER_LIST,
  USER_COIN,
  USER_COINS,
  bodyCells,
  callsTo,
  fail,
  fakeBackend,
  ok,
  page,
  renderOneOpenOrder,
  renderSpot,
  spotFill,
  spotOrder,
  spotTestLifecycle,
} from './test-helpers';

vi.mock('../kline-chart', async (importOriginal) => ({
  ...(await importOriginal<typeof KlineChartModule>()),
  KlineChart: ({ pair }: { pair: string }) => <div role="img" aria-label={`chart ${pair}`} />,
}));

const PATH = '/trade/index?type=bb&symbol=btcusdt';

spotTestLifecycle();

describe('spot order tables', () => {
  it('lists the open orders of the pair and cancels one', async () => {
    let open = [spotOrder(), spotOrder({ id: 8, side: 'sell', commissPrice: '70000', commissNum: '0.2', haveDealNum: '0.05', status: 'partDeal', entrustedValue: '14000' })];
    const calls = fakeBackend({
      [`POST ${USER_COIN}`]: ok(USER_COINS),
      [`POST ${ORDER_LIST}`]: () => ok(page(open)),
      [`POST ${CANCEL}`]: (call) => {
        const id = Number(call.query.get('id'));
        if (id === 8) return fail(400, 'order_not_open', 'The order is no longer open.');
        open = open.filter((o) => o.id !== id);
        return ok(spotOrder({ id, status: 'cancelled', cancelReason: 'user' }));
      },
      [`POST ${FILLS}`]: ok(page([])),
    });
    renderSpot(PATH);
    const table = await screen.findByRole('table', { name: 'Open orders' });
    await waitFor(() => expect(bodyCells(table)).toHaveLength(2));
    // Time in New York (UTC−05:00), the pair, type, side, price, trigger, amount, filled, value, status.
    expect(bodyCells(table)[0]!.slice(0, 10)).toEqual([
      '01/05/2026 10:04:05',
      'BTC/USDT',
      'Limit',
      'Buy',
      '60,000.00',
      '--',
      '0.0100 BTC',
      '0.0000',
      '600 USDT',
      'Open',
    ]);
    expect(bodyCells(table)[1]![9]).toBe('Partly filled');
    const [first] = callsTo(calls, 'POST', ORDER_LIST);
    expect(Object.fromEntries(first!.query)).toEqual({ scope: 'current', page: '1', pageSize: '20', symbol: 'btcusdt' });

    fireEvent.click(within(table).getByRole('button', { name: 'Cancel the BTC/USDT order #7' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'BTC/USDT order cancelled.' }));
    expect(callsTo(calls, 'POST', CANCEL)[0]!.query.get('id')).toBe('7');
    await waitFor(() => expect(bodyCells(table)).toHaveLength(1));
    // The balances are read again: the order's funds are unfrozen.
    expect(callsTo(calls, 'POST', USER_COIN).length).toBeGreaterThan(1);

    fireEvent.click(within(table).getByRole('button', { name: 'Cancel the BTC/USDT order #8' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'error', title: 'The order is no longer open.' }));
  });

  it('cancels every open order shown with Cancel all', async () => {
    let open = [spotOrder(), spotOrder({ id: 8 })];
    const calls = fakeBackend({
      [`POST ${USER_COIN}`]: ok(USER_COINS),
      [`POST ${ORDER_LIST}`]: () => ok(page(open)),
      [`POST ${CANCEL}`]: (call) => {
        open = open.filter((o) => o.id !== Number(call.query.get('id')));
        return ok(spotOrder({ status: 'cancelled' }));
      },
    });
    renderSpot(PATH);
    const table = await screen.findByRole('table', { name: 'Open orders' });
    await waitFor(() => expect(bodyCells(table)).toHaveLength(2));
    fireEvent.click(screen.getByRole('button', { name: 'Cancel all' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Orders cancelled: 2.' }));
    expect(callsTo(calls, 'POST', CANCEL).map((c) => c.query.get('id')).sort()).toEqual(['7', '8']);
    expect(await within(table).findByText('No open orders.')).toBeTruthy();
  });

  it('shows the order history and the trade history, for one pair or all', async () => {
    const calls = fakeBackend({
      [`POST ${USER_COIN}`]: ok(USER_COINS),
      [`POST ${ORDER_LIST}`]: (call) =>
        ok(
          page(
            call.query.get('scope') === 'history'
              ? [
                  spotOrder({ id: 9, commissType: 'market', commissPrice: undefined, commissNum: '0.01', haveDealNum: '0.01', dealAmount: '670.1', dealAverPrice: '67010', serviceCharge: '0.00001', status: 'dealTotol' }),
                  spotOrder({ id: 10, side: 'sell', timeInForce: 'ioc', status: 'cancelled', cancelReason: 'immediate_remainder' }),
                ]
              : [],
          ),
        ),
      [`POST ${FILLS}`]: ok(page([spotFill(), spotFill({ id: 32, symbol: 'ethusdt', side: 'sell', role: 'maker', price: '3100', quantity: '1', amount: '3100', fee: '3.1', feeCoin: 'usdt' })])),
    });
    renderSpot(PATH);
    await screen.findByRole('table', { name: 'Open orders' });

    fireEvent.click(screen.getByRole('tab', { name: 'Order history' }));
    const history = await screen.findByRole('table', { name: 'Order history' });
    await waitFor(() => expect(bodyCells(history)).toHaveLength(2));
    expect(bodyCells(history)[0]).toEqual(['01/05/2026 10:04:05', 'BTC/USDT', 'Market', 'Buy', '67,010.00', 'Market', '0.0100', '0.0100 BTC', '670.1 USDT', '0.00001 BTC', 'Filled']);
    expect(bodyCells(history)[1]![10]).toBe('Cancelledunfilled rest of an immediate order');

    fireEvent.click(screen.getByRole('tab', { name: 'Trade history' }));
    const trades = await screen.findByRole('table', { name: 'Trade history' });
    await waitFor(() => expect(bodyCells(trades)).toHaveLength(2));
    expect(bodyCells(trades)[0]).toEqual(['01/05/2026 10:04:06', 'BTC/USDT', 'Buy', 'Taker', '67,010.00', '0.0100 BTC', '670.1 USDT', '0.00001 BTC']);
    expect(bodyCells(trades)[1]!.slice(1, 4)).toEqual(['ETH/USDT', 'Sell', 'Maker']);
    expect(callsTo(calls, 'POST', FILLS).at(-1)!.body).toEqual({ page: 1, pageSize: 20, symbol: 'btcusdt' });

    const allPairs = screen.getByRole('checkbox', { name: 'All pairs' });
    fireEvent.click(allPairs);
    await waitFor(() => expect(callsTo(calls, 'POST', FILLS).at(-1)!.body).toEqual({ page: 1, pageSize: 20 }));
  });

  it('refetches orders, fills and balances when the user channel reports an order or a fill', async () => {
    const { calls, table, socket } = await renderOneOpenOrder(PATH);
    expect(socket.url).toBe('ws://test/ws/user/push/1001');
    const before = { orders: callsTo(calls, 'POST', ORDER_LIST).length, balances: callsTo(calls, 'POST', USER_COIN).length };
    act(() => {
      socket.open();
      socket.receive({ type: 'fill', data: spotFill(), ts: 1 });
      socket.receive({ type: 'order', data: spotOrder({ status: 'dealTotol', haveDealNum: '0.01' }), ts: 2 });
    });
    expect(await within(table).findByText('No open orders.')).toBeTruthy();
    // Two messages, one refetch.
    expect(callsTo(calls, 'POST', ORDER_LIST).length).toBe(before.orders + 1);
    expect(callsTo(calls, 'POST', USER_COIN).length).toBe(before.balances + 1);
  });
});
