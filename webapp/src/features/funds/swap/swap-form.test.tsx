import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n';
import { toaster } from '../../../lib/toaster';
import { type Call, USER_COINS, callsTo, fail, fakeBackend, ok, renderFunds } from '../test-helpers';
import { EXCHANGE_TIME_MS } from './swap-form';

const QUOTE_PATH = '/api/texchange/getExchangeQuote';
const EXCHANGE_PATH = '/api/texchange/currencyExchange';

let quotes = 0;
/** A quote for the request, valid `ttlMs`, with a new id each time. */
function quote(call: Call, ttlMs = 10_000) {
  quotes += 1;
  const body = call.body as { from: string; to: string; amount: string };
  return ok({
    quoteId: `q${quotes}`,
    ...body,
    rate: '0.0000149',
    receive: '0.00149',
    valueUsdt: '100',
    spread: '0.001',
    dailyLeftUsdt: '999900',
    minUsdt: '1',
    maxUsdt: '100000',
    expiresAt: Date.now() + ttlMs,
    ttlMs,
  });
}

function backend(routes: Parameters<typeof fakeBackend>[0] = {}) {
  return fakeBackend({
    'POST /api/userCoin/getUserCoin': ok(USER_COINS),
    [`POST ${QUOTE_PATH}`]: (call) => quote(call),
    [`POST ${EXCHANGE_PATH}`]: ok({ entryId: 5, from: 'usdt', to: 'btc', amount: '100', receive: '0.00149', rate: '0.0000149', fromBalance: '900', toBalance: '0.50149' }),
    ...routes,
  });
}

const amountInput = () => screen.getByRole('textbox', { name: /^Amount/ });

beforeEach(() => {
  quotes = 0;
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  await setLanguage('en', { persist: false });
});

describe('conversion screen', () => {
  it('asks for a quote once the amount follows the rules, shows it with its countdown, and converts', async () => {
    const calls = backend();
    renderFunds('/assets/index?key=swap');
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    expect(screen.getByText('Enter an amount to get a price.')).toBeTruthy();

    fireEvent.change(amountInput(), { target: { value: '100' } });
    const panel = await screen.findByRole('region', { name: 'Price' });
    expect(callsTo(calls, 'POST', QUOTE_PATH)[0]?.body).toEqual({ from: 'usdt', to: 'btc', amount: '100' });
    expect(within(panel).getByText('1 USDT ≈ 0.00001490 BTC')).toBeTruthy();
    expect(within(panel).getByText('0.00149 BTC')).toBeTruthy();
    expect(within(panel).getByText(/^New price in \d+ s$/)).toBeTruthy();
    expect(within(panel).getByText('0.1%')).toBeTruthy();
    expect(within(panel).getByText('999,900.00 USDT')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Convert' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Converted 100 USDT into 0.00149 BTC' }));
    expect(callsTo(calls, 'POST', EXCHANGE_PATH)[0]?.body).toEqual({ quoteId: 'q1' });
    await waitFor(() => expect((amountInput() as HTMLInputElement).value).toBe(''));
  });

  it('replaces a quote when it expires', async () => {
    const calls = backend({ [`POST ${QUOTE_PATH}`]: (call) => quote(call, 1_200) });
    renderFunds('/assets/index?key=swap');
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '100' } });
    await screen.findByRole('region', { name: 'Price' });
    await waitFor(() => expect(callsTo(calls, 'POST', QUOTE_PATH).length).toBeGreaterThanOrEqual(2), { timeout: 8_000 });
    // Convert accepts the newest quote.
    await waitFor(() => expect((screen.getByRole('button', { name: 'Convert' }) as HTMLButtonElement).disabled).toBe(false));
    fireEvent.click(screen.getByRole('button', { name: 'Convert' }));
    await waitFor(() => expect(callsTo(calls, 'POST', EXCHANGE_PATH)).toHaveLength(1));
    expect((callsTo(calls, 'POST', EXCHANGE_PATH)[0]?.body as { quoteId: string }).quoteId).not.toBe('q1');
  });

  it('stops renewing quotes after the exchange time without activity, until asked', async () => {
    const calls = backend({ [`POST ${QUOTE_PATH}`]: (call) => quote(call, 1_200) });
    renderFunds('/assets/index?key=swap');
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '100' } });
    await screen.findByRole('region', { name: 'Price' });
    // Five minutes and a second later, with nobody touching the form.
    const realNow = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => realNow() + EXCHANGE_TIME_MS + 1_000);
    const status = await screen.findByRole('status');
    expect(within(status).getByText('Prices paused after 5 minutes without activity.')).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Convert' }) as HTMLButtonElement).disabled).toBe(true);
    const asked = callsTo(calls, 'POST', QUOTE_PATH).length;
    fireEvent.click(within(status).getByRole('button', { name: 'Get a new price' }));
    await waitFor(() => expect(callsTo(calls, 'POST', QUOTE_PATH).length).toBe(asked + 1));
    await screen.findByRole('region', { name: 'Price' });
  });

  it('gets a new quote when the server says the quote expired', async () => {
    const calls = backend({ [`POST ${EXCHANGE_PATH}`]: fail(409, 'quote_expired', 'The quote has expired.') });
    renderFunds('/assets/index?key=swap');
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '100' } });
    await screen.findByRole('region', { name: 'Price' });
    fireEvent.click(screen.getByRole('button', { name: 'Convert' }));
    await waitFor(() =>
      expect(toaster.create).toHaveBeenCalledWith({ type: 'info', title: 'The price expired. Here is a new one: please check it and convert again.' }),
    );
    await waitFor(() => expect(callsTo(calls, 'POST', QUOTE_PATH)).toHaveLength(2));
  });

  it('shows other refusals of a conversion in one toast and the balance error in the form', async () => {
    backend({
      [`POST ${EXCHANGE_PATH}`]: [fail(503, 'ledger_busy', 'The ledger is busy. Please try again.'), fail(400, 'insufficient_balance', 'Insufficient balance. Available: 20', 'amount')],
    });
    renderFunds('/assets/index?key=swap');
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '100' } });
    await screen.findByRole('region', { name: 'Price' });
    fireEvent.click(screen.getByRole('button', { name: 'Convert' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'error', title: 'The ledger is busy. Please try again.' }));
    expect(vi.mocked(toaster.create).mock.calls).toHaveLength(1);
    fireEvent.click(screen.getByRole('button', { name: 'Convert' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('Insufficient balance. Available: 20')).toBeTruthy();
  });

  it('checks the amount against the balance, in the user’s language, before asking for a price', async () => {
    const calls = backend();
    await setLanguage('de', { persist: false });
    renderFunds('/assets/index?key=swap');
    await waitFor(() => expect(screen.getByText('Verfügbar: 1,000 USDT')).toBeTruthy());
    const amount = screen.getByRole('textbox', { name: /^Betrag/ });
    fireEvent.change(amount, { target: { value: '5000' } });
    fireEvent.blur(amount);
    expect(await screen.findByText('Unzureichendes Guthaben. Verfügbar: 1000')).toBeTruthy();
    // Same coin on both sides.
    fireEvent.change(screen.getByRole('combobox', { name: 'Nach' }), { target: { value: 'usdt' } });
    expect(await screen.findByText('Wählen Sie zwei verschiedene Coins.')).toBeTruthy();
    expect(callsTo(calls, 'POST', QUOTE_PATH)).toHaveLength(0);
  });

  it('shows why a price is unavailable, with a retry', async () => {
    backend({ [`POST ${QUOTE_PATH}`]: fail(503, 'price_unavailable', 'No recent price for BTC.') });
    renderFunds('/assets/index?key=swap');
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '100' } });
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('No recent price for BTC.')).toBeTruthy();
    expect(within(alert).getByRole('button', { name: 'Try again' })).toBeTruthy();
    expect((screen.getByRole('button', { name: 'Convert' }) as HTMLButtonElement).disabled).toBe(true);
  });
});
