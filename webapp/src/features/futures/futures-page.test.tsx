import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { FuturesPosition } from '../../api/generated/model';
import type * as KlineChartModule from '../../components/kline-chart';
import { COINS, callsTo, fail, fakeBackend, makeUser, ok, page, spotTestLifecycle } from '../../components/spot-orders/test-helpers';
import { toaster } from '../../lib/toaster';
import { renderApp, renderSignedIn } from '../../test/render';
import { contractRules } from '../../test/contract-rules';

// The canvas chart has its own tests; jsdom cannot draw.
vi.mock('../../components/kline-chart', async (importOriginal) => ({
  ...(await importOriginal<typeof KlineChartModule>()),
  KlineChart: ({ pair }: { pair: string }) => <div role="img" aria-label={`chart ${pair}`} />,
}));

spotTestLifecycle();

/** BTC/USDT listed as a perpetual too (last 67,000, tick 0.01, step 0.0001). */
const CONTRACT_COINS = { ...COINS, contractList: [COINS.currencyList[0]!] };

const FUNDING = {
  symbol: 'btcusdt',
  fundingRate: '0.0001',
  nextFundingTime: Date.now() + 3_600_000,
  countdown: 3600,
  intervalSecs: 28800,
  markPrice: '67000',
  indexPrice: '66990.5',
};
const SETTING = { symbol: 'btcusdt', leverage: '10', marginMode: 'isolated', maxLeverage: '125' };
const BALANCES = { coins: [{ coin: 'usdt', funding: '0', trading: '1000', earn: '0', frozen: '0', total: '1000' }] };

function position(overrides: Partial<FuturesPosition> = {}): FuturesPosition {
  return {
    id: 3,
    symbol: 'btcusdt',
    side: 'long',
    openInterest: '0.01',
    positionMargin: '67',
    holdCollateralAssets: '67',
    guarAssetRatio: '4.01',
    averOpenPrice: '67000',
    expectedStrongParity: '60542.17',
    markPrice: '67000',
    notional: '670',
    maintenanceMargin: '2.68',
    unrealisedPnl: '0',
    roe: '0',
    realisedPnl: '0',
    leverage: '10',
    marginMode: 'isolated',
    fees: '0.335',
    funding: '0',
    status: 'open',
    openedAt: Date.now(),
    ...overrides,
  };
}

function backend(positions: FuturesPosition[] = [], extra: Parameters<typeof fakeBackend>[0] = {}) {
  return fakeBackend({
    'GET /api/contract/coin/fundingInfo': ok(FUNDING),
    'GET /api/contract/coin/rules': ok(contractRules('btcusdt')),
    'POST /api/contract/position/leverage': ok(SETTING),
    'POST /api/userCoin/getUserCoin': ok(BALANCES),
    'POST /api/contract/position/list': ok(positions),
    'POST /api/contract/order/list': ok(page([])),
    'POST /api/contract/loss/list': ok([]),
    ...extra,
  });
}

describe('USDT-M futures screen', () => {
  it('shows the mark and index prices and funding, and asks visitors to log in', async () => {
    backend();
    renderApp('/trade/index?type=usta&symbol=btcusdt', CONTRACT_COINS);
    expect(await screen.findByRole('heading', { level: 1, name: 'BTC/USDT' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'chart BTC/USDT' })).toBeTruthy();
    await waitFor(() => expect(screen.getByText('66,990.50')).toBeTruthy());
    expect(screen.getByText(/^0\.0100% \/ 0[01]:[0-5]\d:[0-5]\d$/)).toBeTruthy();
    expect(screen.getByRole('group', { name: 'Log in to trade futures' })).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Open positions' })).getByText('Log in to see your positions and orders.')).toBeTruthy();
  });

  it('names a pair that is not listed for futures', async () => {
    backend();
    renderApp('/trade/index?type=usta&symbol=ethusdt', CONTRACT_COINS);
    expect(await screen.findByText('ETHUSDT is not listed for futures trading.')).toBeTruthy();
  });

  it('previews margin and liquidation price with wasm-core on every keystroke, checks the fields and opens a long', async () => {
    const calls = backend([], { 'POST /api/contract/order/submit': ok({ id: 1, status: 'dealTotol', haveDealNum: '0.01', commissNum: '0.01', dealAverPrice: '67000' }) });
    renderSignedIn('/trade/index?type=usta&symbol=btcusdt', makeUser(), CONTRACT_COINS);
    fireEvent.click(await screen.findByRole('tab', { name: 'Market' }));
    const quantity = screen.getByLabelText('Quantity');
    fireEvent.change(quantity, { target: { value: '0.01' } });
    // Isolated 10x long of 0.01 BTC at 67,000: margin 67, LP = (67 − 670) / (0.01 × 0.004 − 0.01).
    await waitFor(() => expect(screen.getByLabelText('Est. liquidation price (Long)').textContent).toBe('60,542.17'));
    expect(screen.getByLabelText('Initial margin (Long)').textContent).toBe('67.00 USDT');
    // Short: LP = (67 + 670) / (0.01 × 0.004 + 0.01).
    expect(screen.getByLabelText('Est. liquidation price (Short)').textContent).toBe('73,406.37');
    fireEvent.change(quantity, { target: { value: '0.02' } });
    await waitFor(() => expect(screen.getByLabelText('Initial margin (Long)').textContent).toBe('134.00 USDT'));

    fireEvent.change(screen.getByLabelText('Leverage (max 125x)'), { target: { value: '200' } });
    fireEvent.blur(screen.getByLabelText('Leverage (max 125x)'));
    expect(await screen.findByText('At most 125x')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Open Long' }));
    expect(callsTo(calls, 'POST', '/api/contract/order/submit')).toHaveLength(0);
    fireEvent.change(screen.getByLabelText('Leverage (max 125x)'), { target: { value: '10' } });

    fireEvent.change(quantity, { target: { value: '0.01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Open Long' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/contract/order/submit')).toHaveLength(1));
    const [sent] = callsTo(calls, 'POST', '/api/contract/order/submit');
    expect(sent!.body).toEqual({ symbol: 'btcusdt', side: 'buy', orderType: 'market', quantity: '0.01', leverage: '10', marginMode: 'isolated' });
    expect(sent!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows the server’s message when a margin mode change is refused while a position is open', async () => {
    const calls = backend([position()], {
      'POST /api/contract/position/leverage': (call) =>
        (call.body as { marginMode?: string }).marginMode
          ? fail(400, 'margin_mode_locked', 'The margin mode cannot change while a position or an order is open')
          : ok(SETTING),
    });
    renderSignedIn('/trade/index?type=usta&symbol=btcusdt', makeUser(), CONTRACT_COINS);
    const isolated = await screen.findByRole('radio', { name: 'Isolated' });
    await waitFor(() => expect(isolated.getAttribute('aria-checked')).toBe('true'));
    fireEvent.click(screen.getByRole('radio', { name: 'Cross' }));
    await waitFor(() =>
      expect(toaster.create).toHaveBeenCalledWith(expect.objectContaining({ type: 'error', title: 'The margin mode cannot change while a position or an order is open' })),
    );
    expect(callsTo(calls, 'POST', '/api/contract/position/leverage').at(-1)!.body).toEqual({ symbol: 'btcusdt', marginMode: 'cross' });
    expect(isolated.getAttribute('aria-checked')).toBe('true');
  });

  it('refuses a take profit on the wrong side, previews a margin change live and closes half', async () => {
    const calls = backend([position()], {
      'POST /api/contract/position/margin': ok(position({ holdCollateralAssets: '77', positionMargin: '77' })),
      'POST /api/contract/order/submit': ok({ id: 2, status: 'dealTotol', haveDealNum: '0.005', commissNum: '0.005' }),
      'POST /api/contract/position/stopOrder': fail(400, 'take_profit_wrong_side', 'Wrong side', 'takeProfitPrice'),
    });
    renderSignedIn('/trade/index?type=usta&symbol=btcusdt', makeUser(), CONTRACT_COINS);
    const table = await screen.findByRole('table', { name: 'Open positions' });
    await waitFor(() => expect(within(table).getByLabelText('Liquidation price of BTC/USDT').textContent).toBe('60,542.17'));

    fireEvent.click(within(table).getByRole('button', { name: 'TP/SL' }));
    let dialog = await screen.findByRole('dialog', { name: 'Take profit / stop loss' });
    fireEvent.change(within(dialog).getByLabelText('Take profit (mark price)'), { target: { value: '60000' } });
    expect(await within(dialog).findByText("A long's take profit must be above the mark price")).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Save' }));
    expect(callsTo(calls, 'POST', '/api/contract/position/stopOrder')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));

    fireEvent.click(within(table).getByRole('button', { name: 'Margin' }));
    dialog = await screen.findByRole('dialog', { name: 'Adjust margin' });
    fireEvent.change(within(dialog).getByLabelText('Amount'), { target: { value: '10' } });
    // 77 USDT of margin: LP = (77 − 670) / (0.01 × 0.004 − 0.01).
    await waitFor(() => expect(within(within(dialog).getByRole('group', { name: 'New liquidation price' })).getByText('59,538.15')).toBeTruthy());
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/contract/position/margin')).toHaveLength(1));
    const [margin] = callsTo(calls, 'POST', '/api/contract/position/margin');
    expect(margin!.body).toEqual({ symbol: 'btcusdt', direction: 'add', amount: '10' });
    expect(margin!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);

    fireEvent.click(within(table).getByRole('button', { name: 'Close' }));
    dialog = await screen.findByRole('dialog', { name: 'Close position' });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close 50%' }));
    expect((within(dialog).getByLabelText('Quantity to close') as HTMLInputElement).value).toBe('0.005');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close position' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/contract/order/submit')).toHaveLength(1));
    const [close] = callsTo(calls, 'POST', '/api/contract/order/submit');
    expect(close!.body).toEqual({ symbol: 'btcusdt', side: 'sell', orderType: 'market', quantity: '0.005', reduceOnly: true });
  });

  it('places a stop order on a position: trigger side, PnL at the trigger from wasm-core, the request, a trigger at the mark refused', async () => {
    const calls = backend([position()], {
      'POST /api/contract/loss/sett': (call) =>
        (call.body as { triggerPrice?: string }).triggerPrice === '66500'
          ? fail(400, 'stop_trigger_at_mark', 'The trigger price is the mark price now', 'triggerPrice')
          : ok({ id: 9, symbol: 'btcusdt', triggerPrice: '66000', quantity: '0.005', status: 'waiting' }),
    });
    renderSignedIn('/trade/index?type=usta&symbol=btcusdt', makeUser(), CONTRACT_COINS);
    const table = await screen.findByRole('table', { name: 'Open positions' });
    fireEvent.click(await within(table).findByRole('button', { name: 'Stop order' }));
    const dialog = await screen.findByRole('dialog', { name: 'Stop order' });
    expect(within(dialog).getByText('Current mark price: 67,000.00')).toBeTruthy();
    const trigger = within(dialog).getByLabelText('Trigger price (mark price)');

    // At the mark: refused here, nothing sent.
    fireEvent.change(trigger, { target: { value: '67000' } });
    expect(await within(dialog).findByText('The trigger price must differ from the current mark price')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Place stop order' }));
    expect(callsTo(calls, 'POST', '/api/contract/loss/sett')).toHaveLength(0);

    fireEvent.change(trigger, { target: { value: '66000' } });
    expect(within(dialog).getByText('Fires when the mark price falls to 66,000.00')).toBeTruthy();
    // The whole 0.01 at 66,000: (66,000 − 67,000) × 0.01 = −10 on 67 of margin.
    expect(within(within(dialog).getByRole('group', { name: 'Estimated PnL at the trigger' })).getByText('-10.00 USDT (-14.93%)')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Stop 50%' }));
    expect((within(dialog).getByLabelText('Quantity to close') as HTMLInputElement).value).toBe('0.005');
    expect(within(within(dialog).getByRole('group', { name: 'Estimated PnL at the trigger' })).getByText('-5.00 USDT (-14.93%)')).toBeTruthy();

    // The server's mark moved to the trigger: its refusal is shown.
    fireEvent.change(trigger, { target: { value: '66500' } });
    expect(within(dialog).getByText('Fires when the mark price falls to 66,500.00')).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Place stop order' }));
    expect(await within(dialog).findByText('The trigger price is the mark price now')).toBeTruthy();

    fireEvent.change(trigger, { target: { value: '66000' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Place stop order' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/contract/loss/sett')).toHaveLength(2));
    const [refused, placed] = callsTo(calls, 'POST', '/api/contract/loss/sett');
    expect(refused!.body).toEqual({ symbol: 'btcusdt', triggerPrice: '66500', quantity: '0.005', positionSide: 'long' });
    expect(placed!.body).toEqual({ symbol: 'btcusdt', triggerPrice: '66000', quantity: '0.005', positionSide: 'long' });
    expect(placed!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
    expect(placed!.headers['Idempotency-Key']).not.toBe(refused!.headers['Idempotency-Key']);
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Stop order' })).toBeNull());
    // The stop-orders list is read again.
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/contract/loss/list').length).toBeGreaterThan(1));
  });
});
