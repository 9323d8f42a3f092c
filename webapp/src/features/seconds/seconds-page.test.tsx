import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type { SecondsOrder } from '../../api/generated/model';
import type * as KlineChartModule from '../../components/kline-chart';
import {
  COINS,
  USER_COINS,
  callsTo,
  fail,
  fakeBackend,
  makeUser,
  ok,
  page,
  spotTestLifecycle,
  userSocket,
} from '../../components/spot-orders/test-helpers';
import { renderApp, renderSignedIn } from '../../test/render';

// The canvas chart has its own tests; jsdom cannot draw.
vi.mock('../../components/kline-chart', async (importOriginal) => ({
  ...(await importOriginal<typeof KlineChartModule>()),
  KlineChart: ({ pair }: { pair: string }) => <div role="img" aria-label={`chart ${pair}`} />,
}));

spotTestLifecycle();

const OFFER = {
  enabled: true,
  stakeCoin: 'usdt',
  rule: 'last_tick_at_or_before_expiry',
  symbols: [{ symbol: 'btcusdt', showSymbol: 'BTC/USDT' }],
  periods: [
    { seconds: 30, payoutRate: '0.8', minStake: '10', maxStake: '50000' },
    { seconds: 60, payoutRate: '0.85', minStake: '10', maxStake: '50000' },
  ],
};

function order(overrides: Partial<SecondsOrder> = {}): SecondsOrder {
  return {
    id: 7,
    symbol: 'btcusdt',
    direction: 'up',
    periodSeconds: 60,
    quantity: '100',
    payoutRate: '0.85',
    status: 'open',
    commissTime: Date.now(),
    closeTime: Date.now() + 42_000,
    countdown: 42,
    openPrice: '67000',
    openTickSeq: 11,
    openTickTime: Date.now(),
    rule: 'last_tick_at_or_before_expiry',
    ...overrides,
  };
}

describe('flash contract screen', () => {
  it('says so when the operator switched the product off', async () => {
    fakeBackend({ 'GET /api/seconds/config': ok({ ...OFFER, enabled: false, periods: [], symbols: [] }) });
    renderApp('/trade/index?type=seconds&symbol=btcusdt', COINS);
    expect(await screen.findByText('Flash (seconds) contracts are not offered in this deployment.')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Trade spot instead' }).getAttribute('href')).toBe('/trade/index?type=bb');
  });

  it('offers a retry when the offer cannot be read', async () => {
    fakeBackend({ 'GET /api/seconds/config': fail(500, 'internal_error', 'Internal error') });
    renderApp('/trade/index?type=seconds&symbol=btcusdt', COINS);
    expect(await screen.findByText('The flash contract offer could not be loaded.')).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Try again' })).toBeTruthy();
  });

  it('previews a bet with wasm-core, refuses a stake that is not whole, places an Up bet and lists it', async () => {
    const calls = fakeBackend({
      'GET /api/seconds/config': ok(OFFER),
      'POST /api/userCoin/getUserCoin': ok(USER_COINS),
      'POST /api/seconds/order/list': ok(page([])),
      'POST /api/seconds/order/submit': ok(order()),
    });
    renderSignedIn('/trade/index?type=seconds&symbol=btcusdt', makeUser(), COINS);
    expect(await screen.findByRole('heading', { level: 1, name: 'BTC/USDT' })).toBeTruthy();
    expect(screen.getByRole('img', { name: 'chart BTC/USDT' })).toBeTruthy();
    const period = screen.getByRole('radio', { name: '60 seconds, pays 85%' });
    fireEvent.click(period);
    expect(period.getAttribute('aria-checked')).toBe('true');

    const stake = screen.getByLabelText('Stake');
    fireEvent.change(stake, { target: { value: '10.5' } });
    expect(await screen.findByText('Enter a whole number.')).toBeTruthy();
    fireEvent.change(stake, { target: { value: '5' } });
    expect(await screen.findByText('The minimum is 10.')).toBeTruthy();

    fireEvent.change(stake, { target: { value: '100' } });
    const preview = screen.getByRole('group', { name: 'What this bet pays' });
    await waitFor(() => expect(within(preview).getByText('+85.00 USDT')).toBeTruthy());
    expect(within(preview).getByText('185.00 USDT')).toBeTruthy();
    expect(within(preview).getByText('−100.00 USDT')).toBeTruthy();
    expect(within(preview).getByText('100.00 USDT')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Up: BTC/USDT higher in 60 seconds' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/seconds/order/submit')).toHaveLength(1));
    const [submitted] = callsTo(calls, 'POST', '/api/seconds/order/submit');
    expect(submitted!.body).toEqual({ symbol: 'btcusdt', direction: 'up', periodSeconds: 60, quantity: '100' });
    expect(submitted!.headers['Idempotency-Key']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('shows open bets with their countdown and settled ones with the settlement inputs, refreshed by SETTLEMENT', async () => {
    const settled = order({
      id: 8,
      direction: 'down',
      status: 'settled',
      result: 'loss',
      closePrice: '67010.5',
      settleTickSeq: 71,
      settleTickTime: Date.now(),
      profit: '-100',
      payout: '0',
      closeTime: Date.now() - 1000,
      countdown: 0,
    });
    let history: SecondsOrder[] = [];
    const calls = fakeBackend({
      'GET /api/seconds/config': ok(OFFER),
      'POST /api/userCoin/getUserCoin': ok(USER_COINS),
      'POST /api/seconds/order/list': (call) => ok(page(call.query.get('scope') === 'history' ? history : [order()])),
    });
    renderSignedIn('/trade/index?type=seconds&symbol=btcusdt', makeUser(), COINS);
    const open = await screen.findByRole('table', { name: 'Open flash contracts' });
    await waitFor(() => expect(within(open).getByRole('timer').textContent).toMatch(/^4[0-2] s$/));
    history = [settled];
    act(() => {
      userSocket().open();
      userSocket().receive({ type: 'SETTLEMENT', data: settled, ts: Date.now() });
    });
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/seconds/order/list').length).toBeGreaterThan(2));
    fireEvent.click(screen.getByRole('tab', { name: 'History' }));
    const table = await screen.findByRole('table', { name: 'Settled flash contracts' });
    await waitFor(() => expect(within(table).getByText('Loss')).toBeTruthy());
    expect(within(table).getByText('#11 → #71')).toBeTruthy();
    expect(within(table).getByText('-100.00')).toBeTruthy();
  });

  it('names an unknown pair, and shows a refused bet’s message under the stake', async () => {
    fakeBackend({ 'GET /api/seconds/config': ok(OFFER), 'POST /api/seconds/order/list': ok(page([])) });
    const view = renderApp('/trade/index?type=seconds&symbol=dogeusdt', COINS);
    expect(await screen.findByText('Flash contracts are not offered for DOGEUSDT.')).toBeTruthy();
    view.unmount();

    fakeBackend({
      'GET /api/seconds/config': ok(OFFER),
      'POST /api/userCoin/getUserCoin': ok(USER_COINS),
      'POST /api/seconds/order/list': ok(page([])),
      'POST /api/seconds/order/submit': fail(400, 'insufficient_balance', 'Insufficient balance', 'quantity'),
    });
    renderSignedIn('/trade/index?type=seconds&symbol=btcusdt', makeUser(), COINS);
    fireEvent.change(await screen.findByLabelText('Stake'), { target: { value: '20' } });
    fireEvent.click(screen.getByRole('button', { name: 'Down: BTC/USDT lower in 30 seconds' }));
    expect(await screen.findByText('Insufficient balance', { selector: '[data-part="error-text"], .chakra-field__errorText, div' })).toBeTruthy();
  });
});
