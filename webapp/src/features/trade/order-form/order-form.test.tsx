import { act, fireEvent, screen, waitFor, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import type * as KlineChartModule from '../../../components/kline-chart';
import {
  SUBMIT,
  USER_COIN,
  USER_COINS,
  callsTo,
  fail,
  fakeBackend,
  marketSocket,
  ok,
  page,
  renderSpot,
  spotOrder,
  spotTestLifecycle,
} from '../../../components/spot-orders/test-helpers';
import { setLanguage } from '../../../i18n';
import type * as IdempotencyModule from '../../../lib/idempotency';
import { toaster } from '../../../lib/toaster';

// The canvas chart has its own tests; jsdom cannot draw.
vi.mock('../../../components/kline-chart', async (importOriginal) => ({
  ...(await importOriginal<typeof KlineChartModule>()),
  KlineChart: ({ pair }: { pair: string }) => <div role="img" aria-label={`chart ${pair}`} />,
}));

// Counts the order form's renders: it is the only component of the trade page using this hook.
const formRenders = vi.hoisted(() => ({ count: 0 }));
vi.mock('../../../lib/idempotency', async (importOriginal) => {
  const actual = await importOriginal<typeof IdempotencyModule>();
  return {
    ...actual,
    useIdempotencyKey: () => {
      formRenders.count += 1;
      return actual.useIdempotencyKey();
    },
  };
});

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const PATH = '/trade/index?type=bb&symbol=btcusdt';

function backend(routes: Parameters<typeof fakeBackend>[0] = {}) {
  return fakeBackend({
    [`POST ${USER_COIN}`]: ok(USER_COINS),
    'POST /api/currency/order/orderList': ok(page([])),
    'POST /api/coin/coin/entrust/getEntrustLogCurrency': ok(page([])),
    ...routes,
  });
}

/** The order form, once the balances arrived. */
async function openForm(name = 'Buy BTC', available = 'Available') {
  const form = await screen.findByRole('form', { name });
  await waitFor(() => expect(within(form).getByRole('status', { name: available }).textContent).not.toBe('--'));
  return form;
}

const field = (form: HTMLElement, name: string) => within(form).getByRole('textbox', { name }) as HTMLInputElement;
const type = (form: HTMLElement, name: string, value: string) => fireEvent.change(field(form, name), { target: { value } });

/** Selects the tab `name` (Ark tabs switch asynchronously). */
async function selectTab(name: string) {
  const tab = screen.getByRole('tab', { name });
  fireEvent.click(tab);
  await waitFor(() => expect(tab.getAttribute('aria-selected')).toBe('true'));
}

/** The preview's figure labelled `label`. */
function preview(form: HTMLElement, label: string): string {
  const group = within(form).getByRole('group', { name: 'Order preview' });
  const term = within(group).getByText(label, { selector: 'dt' });
  return term.nextElementSibling?.textContent ?? '';
}

spotTestLifecycle();

describe('order form', () => {
  it('starts at the last price and recomputes the preview on every keystroke', async () => {
    backend();
    renderSpot(PATH);
    const form = await openForm();
    expect(within(form).getByRole('status', { name: 'Available' }).textContent).toBe('1,000.00 USDT');
    expect(field(form, 'Price').value).toBe('67000');
    expect(preview(form, 'Cost')).toBe('--');

    type(form, 'Quantity', '0.01');
    expect(preview(form, 'Cost')).toBe('670 USDT');
    expect(preview(form, 'Fee (0.1%)')).toBe('0.00001 BTC');
    expect(preview(form, 'You receive')).toBe('0.00999 BTC');
    expect(preview(form, 'USDT balance after')).toBe('330');
    expect(preview(form, 'BTC balance after')).toBe('0.50999');

    type(form, 'Quantity', '0.012');
    expect(preview(form, 'Cost')).toBe('804 USDT');
    type(form, 'Price', '66000');
    expect(preview(form, 'Cost')).toBe('792 USDT');
    expect(within(form).getByText('10% of every trading fee goes to the asset security fund.')).toBeTruthy();

    // Selling: proceeds in USDT, the fee in USDT, the balance is BTC.
    await selectTab('Sell');
    const sell = await openForm('Sell BTC');
    expect(within(sell).getByRole('status', { name: 'Available' }).textContent).toBe('0.5 BTC');
    expect(preview(sell, 'Proceeds')).toBe('792 USDT');
    expect(preview(sell, 'Fee (0.1%)')).toBe('0.792 USDT');
    expect(preview(sell, 'You receive')).toBe('791.208 USDT');
  });

  it('keeps keystrokes to the pair’s decimals and shows the core’s errors in the user’s language', async () => {
    backend();
    await setLanguage('de', { persist: false });
    renderSpot(PATH);
    const form = await openForm('BTC kaufen', 'Verfügbar');
    // At most the step's four decimals, only digits and one point.
    type(form, 'Menge', '0.123456');
    expect(field(form, 'Menge').value).toBe('0.1234');
    type(form, 'Menge', '1a.5.');
    expect(field(form, 'Menge').value).toBe('1.5');
    // 1.5 BTC at 67,000 is more than the 1,000 USDT available.
    expect(within(form).getByText('Unzureichendes Guthaben. Verfügbar: 1000')).toBeTruthy();

    type(form, 'Menge', '0.0001');
    type(form, 'Preis', '100');
    expect(within(form).getByText('Der Orderwert muss mindestens 5 betragen.')).toBeTruthy();
    type(form, 'Preis', '');
    expect(within(form).getByText('Dieses Feld ist erforderlich.')).toBeTruthy();

    fireEvent.click(within(form).getByRole('button', { name: 'BTC kaufen' }));
    await waitFor(() => expect(within(form).getByRole('textbox', { name: 'Preis' }).getAttribute('aria-invalid')).toBe('true'));
  });

  it('fills the quantity from a share of the balance, rounded down to the step', async () => {
    backend();
    renderSpot(PATH);
    const form = await openForm();
    // 25% of 1,000 USDT at 67,000 = 0.00373134… BTC → 0.0037.
    fireEvent.click(within(form).getByRole('button', { name: '25% of the available balance' }));
    expect(field(form, 'Quantity').value).toBe('0.0037');
    fireEvent.click(within(form).getByRole('button', { name: '100% of the available balance' }));
    expect(field(form, 'Quantity').value).toBe('0.0149');

    // A market buy by amount spends the share itself.
    await selectTab('Market');
    fireEvent.click(within(form).getByRole('radio', { name: 'Amount' }));
    fireEvent.click(within(form).getByRole('button', { name: '75% of the available balance' }));
    expect(field(form, 'Amount to spend').value).toBe('750');

    // A sell sells a share of the base balance.
    await selectTab('Sell');
    const sell = await openForm('Sell BTC');
    fireEvent.click(within(sell).getByRole('button', { name: '50% of the available balance' }));
    expect(field(sell, 'Quantity').value).toBe('0.25');
  });

  it('sends a limit order with an Idempotency-Key, says it was placed and clears the quantity', async () => {
    const calls = backend({ [`POST ${SUBMIT}`]: ok(spotOrder({ commissPrice: '67000', commissNum: '0.01', status: 'waitDeal' })) });
    renderSpot(PATH);
    const form = await openForm();
    type(form, 'Quantity', '0.01');
    fireEvent.click(within(form).getByRole('button', { name: 'Advanced' }));
    const postOnly = await within(form).findByRole('checkbox', { name: /Post only/ });
    fireEvent.click(postOnly);
    await waitFor(() => expect((postOnly as HTMLInputElement).checked).toBe(true));
    fireEvent.click(within(form).getByRole('button', { name: 'Buy BTC' }));

    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Buy order placed: 0.0100 BTC at 67,000.00 USDT.' }));
    const [sent] = callsTo(calls, 'POST', SUBMIT);
    expect(sent!.body).toEqual({ symbol: 'btcusdt', side: 'buy', orderType: 'limit', price: '67000', quantity: '0.01', timeInForce: 'gtc', postOnly: true });
    expect(sent!.headers['Idempotency-Key']).toMatch(UUID);
    expect(field(form, 'Quantity').value).toBe('');
    // The balances and orders are read again.
    await waitFor(() => expect(callsTo(calls, 'POST', USER_COIN).length).toBeGreaterThan(1));

    // The same order again is another order: another key.
    type(form, 'Quantity', '0.01');
    fireEvent.click(within(form).getByRole('button', { name: 'Buy BTC' }));
    await waitFor(() => expect(callsTo(calls, 'POST', SUBMIT)).toHaveLength(2));
    expect(callsTo(calls, 'POST', SUBMIT)[1]!.headers['Idempotency-Key']).not.toBe(sent!.headers['Idempotency-Key']);
  });

  it('buys at market by amount and reports the fill at its average price', async () => {
    const filled = spotOrder({
      commissType: 'market',
      commissPrice: undefined,
      commissNum: undefined,
      quoteAmount: '100',
      haveDealNum: '0.0014',
      dealAmount: '93.814',
      dealAverPrice: '67010',
      status: 'dealTotol',
    });
    const calls = backend({ [`POST ${SUBMIT}`]: ok(filled) });
    renderSpot(PATH);
    const form = await openForm();
    await selectTab('Market');
    expect(within(form).queryByRole('textbox', { name: 'Price' })).toBeNull();
    fireEvent.click(within(form).getByRole('radio', { name: 'Amount' }));
    type(form, 'Amount to spend', '100');
    // Estimated at the last price until the book arrives: 100 / 67,000.
    expect(preview(form, 'Quantity')).toBe('≈ 0.00149254 BTC');
    fireEvent.click(within(form).getByRole('button', { name: 'Buy BTC' }));

    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Bought 0.0014 BTC at an average price of 67,010.00 USDT.' }));
    expect(callsTo(calls, 'POST', SUBMIT)[0]!.body).toEqual({ symbol: 'btcusdt', side: 'buy', orderType: 'market', quoteAmount: '100' });
    expect(field(form, 'Amount to spend').value).toBe('');
  });

  it('sends a stop-limit order with its trigger price', async () => {
    const calls = backend({ [`POST ${SUBMIT}`]: ok(spotOrder({ commissType: 'stop_limit', triggerPrice: '65000', commissPrice: '64900', status: 'waitTrigger' })) });
    renderSpot(PATH);
    const form = await openForm();
    await selectTab('Stop-limit');
    await selectTab('Sell');
    const sell = await openForm('Sell BTC');
    type(sell, 'Trigger price', '65000');
    type(sell, 'Price', '64900');
    type(sell, 'Quantity', '0.1');
    expect(form).toBe(sell);
    fireEvent.click(within(sell).getByRole('button', { name: 'Sell BTC' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Stop-limit order placed: it triggers at 65,000.00 USDT.' }));
    expect(callsTo(calls, 'POST', SUBMIT)[0]!.body).toEqual({
      symbol: 'btcusdt',
      side: 'sell',
      orderType: 'stop_limit',
      price: '64900',
      triggerPrice: '65000',
      quantity: '0.1',
    });
  });

  it('toasts the server’s refusal, marks its field, and keeps the key only for an unanswered retry', async () => {
    let attempt = 0;
    const calls = backend({
      [`POST ${SUBMIT}`]: () => {
        attempt += 1;
        if (attempt === 1) return fail(400, 'post_only_would_take', 'A post-only order may not take liquidity.', 'price');
        if (attempt === 2) return 'network-error';
        return ok(spotOrder({ status: 'waitDeal' }));
      },
    });
    renderSpot(PATH);
    const form = await openForm();
    type(form, 'Quantity', '0.01');
    fireEvent.click(within(form).getByRole('button', { name: 'Buy BTC' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'error', title: 'A post-only order may not take liquidity.' }));
    expect(within(form).getByText('A post-only order may not take liquidity.')).toBeTruthy();
    expect(field(form, 'Price').getAttribute('aria-invalid')).toBe('true');

    fireEvent.click(within(form).getByRole('button', { name: 'Buy BTC' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'error', title: 'Network error. Please check your connection.' }));
    fireEvent.click(within(form).getByRole('button', { name: 'Buy BTC' }));
    await waitFor(() => expect(callsTo(calls, 'POST', SUBMIT)).toHaveLength(3));
    const [refused, lost, retried] = callsTo(calls, 'POST', SUBMIT);
    // A refusal settles the key; a call that got no answer is retried with its key.
    expect(lost!.headers['Idempotency-Key']).not.toBe(refused!.headers['Idempotency-Key']);
    expect(retried!.headers['Idempotency-Key']).toBe(lost!.headers['Idempotency-Key']);
  });

  it('takes a price picked in the order book', async () => {
    backend();
    renderSpot(PATH);
    const form = await openForm();
    act(() => marketSocket().open());
    act(() =>
      marketSocket().receive({
        type: 'depth',
        symbol: 'btcusdt',
        data: { kind: 'snapshot', seq: 1, bids: [['66990.5', '0.2']], asks: [['67010', '0.3']], ts: 1 },
      }),
    );
    fireEvent.click(await screen.findByRole('button', { name: 'Use the price 66,990.50' }));
    expect(field(form, 'Price').value).toBe('66990.50');
    // A market order becomes a limit order at the picked price.
    await selectTab('Market');
    fireEvent.click(screen.getByRole('button', { name: 'Use the price 67,010.00' }));
    expect(screen.getByRole('tab', { name: 'Limit' }).getAttribute('aria-selected')).toBe('true');
    expect(field(form, 'Price').value).toBe('67010.00');
  });

  it('asks visitors to log in or sign up instead of offering the submit button', async () => {
    const calls = backend();
    renderSpot(PATH, { visitor: true });
    const form = await screen.findByRole('form', { name: 'Buy BTC' });
    expect(within(form).queryByRole('button', { name: 'Buy BTC' })).toBeNull();
    const prompt = within(form).getByRole('group', { name: 'Log in or sign up to trade' });
    expect(within(prompt).getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe(
      `/user/login?redirect=${encodeURIComponent(PATH)}`,
    );
    expect(within(prompt).getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/user/register');
    // The preview still works; no balance is read.
    type(form, 'Quantity', '0.01');
    expect(preview(form, 'Cost')).toBe('670 USDT');
    expect(callsTo(calls, 'POST', USER_COIN)).toHaveLength(0);
    expect(screen.getByText('Log in to see your orders and trades.')).toBeTruthy();
  });

  it('follows the market only on a market order: a new last price does not re-render a limit order’s form', async () => {
    backend();
    renderSpot(PATH);
    const form = await openForm();
    act(() => marketSocket().open());
    const frame = () => act(() => new Promise<void>((resolve) => requestAnimationFrame(() => resolve())));
    const trade = (id: number, price: string) =>
      act(() =>
        marketSocket().receive({ type: 'TRADE', symbol: 'btcusdt', snapshot: false, data: [{ id, price, quantity: '0.01', side: 'buy', ts: 1_700_000_000_000 + id }] }),
      );
    await trade(1, '67100');
    await frame();
    await screen.findAllByText('67,100.00');
    const before = formRenders.count;
    await trade(2, '67200');
    await frame();
    // The page shows the new price; the limit order's form did not render again.
    await screen.findAllByText('67,200.00');
    expect(formRenders.count).toBe(before);
    expect(field(form, 'Price').value).toBe('67000');

    // A market order's estimate follows the last price while the book is empty, then the best ask.
    await selectTab('Market');
    fireEvent.click(within(form).getByRole('radio', { name: 'Amount' }));
    type(form, 'Amount to spend', '100');
    await trade(3, '50000');
    await frame();
    await waitFor(() => expect(preview(form, 'Quantity')).toBe('≈ 0.002 BTC'));
    act(() =>
      marketSocket().receive({ type: 'depth', symbol: 'btcusdt', data: { kind: 'snapshot', seq: 1, bids: [['39990', '1']], asks: [['40000', '1']], ts: 1 } }),
    );
    await frame();
    await waitFor(() => expect(preview(form, 'Quantity')).toBe('≈ 0.0025 BTC'));
    // With a best ask, trades move the page's price but not the estimate: no render of the form.
    const withBook = formRenders.count;
    await trade(4, '41000');
    await frame();
    await screen.findAllByText('41,000.00');
    expect(formRenders.count).toBe(withBook);
  });
});
