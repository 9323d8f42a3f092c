import { webcrypto } from 'node:crypto';
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n';
import { toaster } from '../../../lib/toaster';
import { CHANNELS, TRC20_ADDRESS, USER_COINS, callsTo, fail, fakeBackend, makeUser, ok, renderFunds } from '../test-helpers';

/** The session's key (32 bytes, base64). */
const KEY = Buffer.from(Array.from({ length: 32 }, (_, i) => i + 1)).toString('base64');
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function backend(submit: Parameters<typeof fakeBackend>[0][string] = ok({ id: 4, status: 'review' }), user = makeUser()) {
  return fakeBackend({
    'POST /api/user/getInfo': ok(user),
    'GET /api/coin/coin/assets/getRechargeCurrency': ok(CHANNELS),
    'POST /api/userCoin/getUserCoin': ok(USER_COINS),
    'GET /api/coin/coin/assets/getWithdrawalKey': ok({ algorithm: 'AES-256-GCM', key: KEY, aad: 'assets/withdrawal' }),
    'POST /api/coin/coin/assets/withdrawal': submit,
  });
}

/** Opens a sealed payload the way the server does: AES-256-GCM, nonce first, AAD `assets/withdrawal`. */
async function open(payload: string): Promise<unknown> {
  const sealed = Buffer.from(payload, 'base64');
  const key = await webcrypto.subtle.importKey('raw', Buffer.from(KEY, 'base64'), 'AES-GCM', false, ['decrypt']);
  const plain = await webcrypto.subtle.decrypt(
    { name: 'AES-GCM', iv: sealed.subarray(0, 12), additionalData: new TextEncoder().encode('assets/withdrawal') },
    key,
    sealed.subarray(12),
  );
  return JSON.parse(new TextDecoder().decode(plain));
}

const addressInput = () => screen.getByRole('textbox', { name: /Withdrawal address/ });
const amountInput = () => screen.getByRole('textbox', { name: /^Amount/ });
const passwordInput = () => screen.getByLabelText(/Fund password/, { selector: 'input' });
const summary = () => screen.getByRole('region', { name: 'Withdrawal summary' });

beforeEach(() => {
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  await setLanguage('en', { persist: false });
});

describe('withdrawal screen', () => {
  it('checks the address live and computes the fee and amount received with wasm-core', async () => {
    backend();
    renderFunds('/assets/index?key=withdraw');
    await screen.findByRole('radio', { name: /TRC20/ });
    expect(screen.getByRole('radio', { name: /TRC20/ }).textContent).toContain('Fee: 1 USDT');

    fireEvent.change(addressInput(), { target: { value: 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8' } });
    expect(await screen.findByText('This is not a valid TRC20 address.')).toBeTruthy();
    fireEvent.change(addressInput(), { target: { value: TRC20_ADDRESS } });
    await waitFor(() => expect(screen.queryByText('This is not a valid TRC20 address.')).toBeNull());
    // The same address is not an ERC20 one.
    fireEvent.click(screen.getByRole('radio', { name: /ERC20/ }));
    expect(await screen.findByText('This is not a valid ERC20 address.')).toBeTruthy();
    fireEvent.click(screen.getByRole('radio', { name: /TRC20/ }));

    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '150.5' } });
    await waitFor(() => expect(within(summary()).getByText('149.5 USDT')).toBeTruthy());
    expect(within(summary()).getByText('1 USDT')).toBeTruthy();

    fireEvent.click(screen.getByRole('button', { name: 'Max' }));
    expect((amountInput() as HTMLInputElement).value).toBe('1000');
    await waitFor(() => expect(within(summary()).getByText('999 USDT')).toBeTruthy());

    fireEvent.change(amountInput(), { target: { value: '1000.01' } });
    fireEvent.blur(amountInput());
    expect(await screen.findByText('Insufficient balance. Available: 1000')).toBeTruthy();
    fireEvent.change(amountInput(), { target: { value: '5' } });
    expect(await screen.findByText('The minimum is 10 USDT.')).toBeTruthy();
    expect(within(summary()).getAllByText('--')).toHaveLength(1);
  });

  it('shows every missing field in the user’s language and sends nothing', async () => {
    const calls = backend();
    await setLanguage('de', { persist: false });
    renderFunds('/assets/index?key=withdraw');
    fireEvent.click(await screen.findByRole('button', { name: 'Auszahlen' }));
    expect(await screen.findAllByText('Dieses Feld ist erforderlich.')).toHaveLength(3);
    expect(callsTo(calls, 'GET', '/api/coin/coin/assets/getWithdrawalKey')).toHaveLength(0);
    expect(callsTo(calls, 'POST', '/api/coin/coin/assets/withdrawal')).toHaveLength(0);
  });

  it('seals the request in the browser and sends only {payload} with an Idempotency-Key', async () => {
    const calls = backend();
    renderFunds('/assets/index?key=withdraw');
    await screen.findByRole('radio', { name: /TRC20/ });
    fireEvent.change(addressInput(), { target: { value: `  ${TRC20_ADDRESS} ` } });
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '150' } });
    fireEvent.change(passwordInput(), { target: { value: 'fund-secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));

    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Withdrawal submitted' })));
    const [sent] = callsTo(calls, 'POST', '/api/coin/coin/assets/withdrawal');
    expect(Object.keys(sent!.body as object)).toEqual(['payload']);
    expect(sent!.headers['Content-Type']).toMatch(/^application\/json/);
    expect(sent!.headers['Idempotency-Key']).toMatch(UUID);
    const payload = (sent!.body as { payload: string }).payload;
    expect(payload).not.toContain('fund-secret-1');
    expect(await open(payload)).toEqual({ coin: 'usdt', network: 'TRC20', address: TRC20_ADDRESS, amount: '150', fundPassword: 'fund-secret-1' });
    // The amount and password are cleared; the address stays for the next one.
    await waitFor(() => expect((amountInput() as HTMLInputElement).value).toBe(''));
    expect((passwordInput() as HTMLInputElement).value).toBe('');
  });

  it('uses a fresh nonce for every seal', async () => {
    const calls = backend([fail(400, 'wrong_fund_password', 'Wrong fund password'), ok({ id: 4 })]);
    renderFunds('/assets/index?key=withdraw');
    await screen.findByRole('radio', { name: /TRC20/ });
    fireEvent.change(addressInput(), { target: { value: TRC20_ADDRESS } });
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '20' } });
    fireEvent.change(passwordInput(), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    // The server's refusal of the password shows under the password field.
    expect(await screen.findByText('Wrong fund password')).toBeTruthy();
    expect(passwordInput().getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(passwordInput(), { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/coin/coin/assets/withdrawal')).toHaveLength(2));
    const [first, second] = callsTo(calls, 'POST', '/api/coin/coin/assets/withdrawal');
    const nonce = (call: typeof first) => Buffer.from((call!.body as { payload: string }).payload, 'base64').subarray(0, 12).toString('hex');
    expect(nonce(first)).not.toBe(nonce(second));
    // The same withdrawal with the password corrected: the same key.
    expect(second!.headers['Idempotency-Key']).toBe(first!.headers['Idempotency-Key']);
  });

  it('asks users without a fund password to set one', async () => {
    const user = makeUser({ security: { fundPasswordSet: false } });
    backend(undefined, user);
    renderFunds('/account/wallet/withdrawal', user);
    const link = await screen.findByRole('link', { name: 'Set fund password' });
    expect(link.getAttribute('href')).toBe('/account/center/security/setting/trade-pwd');
  });

  it('shows a failure without a field as a form error', async () => {
    backend(fail(503, 'ledger_busy', 'The ledger is busy. Please try again.'));
    renderFunds('/assets/index?key=withdraw');
    await screen.findByRole('radio', { name: /TRC20/ });
    fireEvent.change(addressInput(), { target: { value: TRC20_ADDRESS } });
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '20' } });
    fireEvent.change(passwordInput(), { target: { value: 'pw' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByText('The ledger is busy. Please try again.')).toBeTruthy();
  });
});
