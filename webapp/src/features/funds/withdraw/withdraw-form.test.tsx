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
    'GET /api/coin/coin/open/send/email': ok({ channel: 'email', expiresInSecs: 600, resendAfterSecs: 60 }),
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
const confirmDialog = () => screen.findByRole('dialog', { name: 'Confirm withdrawal' });

/** Confirms the open summary with `code` in its second-factor field (`label`). */
async function confirmWith(code: string, label = /^Security code/) {
  const dialog = await confirmDialog();
  fireEvent.change(within(dialog).getByRole('textbox', { name: label }), { target: { value: code } });
  fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm withdrawal' }));
  return dialog;
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

  it('confirms a summary with an e-mailed code, seals the request in the browser and sends only {payload} with an Idempotency-Key', async () => {
    const calls = backend();
    renderFunds('/assets/index?key=withdraw');
    await screen.findByRole('radio', { name: /TRC20/ });
    fireEvent.change(addressInput(), { target: { value: `  ${TRC20_ADDRESS} ` } });
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '150' } });
    fireEvent.change(passwordInput(), { target: { value: 'fund-secret-1' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));

    // Nothing is sent before the summary is confirmed with the code.
    const dialog = await confirmDialog();
    const details = within(dialog).getByRole('region', { name: 'Withdrawal summary' });
    for (const text of [TRC20_ADDRESS, 'TRC20', '150 USDT', '1 USDT', '149 USDT']) expect(within(details).getByText(text)).toBeTruthy();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm withdrawal' }));
    expect(await within(dialog).findByText('This field is required.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/coin/coin/assets/withdrawal')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(callsTo(calls, 'GET', '/api/coin/coin/open/send/email')).toHaveLength(1));
    expect(callsTo(calls, 'GET', '/api/coin/coin/open/send/email')[0]!.query.get('purpose')).toBe('security');
    await confirmWith('246810');

    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Withdrawal submitted' })));
    const [sent] = callsTo(calls, 'POST', '/api/coin/coin/assets/withdrawal');
    expect(Object.keys(sent!.body as object)).toEqual(['payload']);
    expect(sent!.headers['Content-Type']).toMatch(/^application\/json/);
    expect(sent!.headers['Idempotency-Key']).toMatch(UUID);
    const payload = (sent!.body as { payload: string }).payload;
    expect(payload).not.toContain('fund-secret-1');
    expect(payload).not.toContain('246810');
    expect(await open(payload)).toEqual({ coin: 'usdt', network: 'TRC20', address: TRC20_ADDRESS, amount: '150', fundPassword: 'fund-secret-1', securityCode: '246810' });
    await waitFor(() => expect(dialog.getAttribute('data-state')).toBe('closed'));
    // The amount and password are cleared; the address stays for the next one.
    await waitFor(() => expect((amountInput() as HTMLInputElement).value).toBe(''));
    expect((passwordInput() as HTMLInputElement).value).toBe('');
  });

  it('uses a fresh nonce for every seal, and shows each refusal where it belongs', async () => {
    const user = makeUser({ security: { totpEnabled: true } });
    const calls = backend(
      [
        fail(400, 'wrong_fund_password', 'Wrong fund password', 'fundPassword'),
        fail(400, 'invalid_totp', 'The authenticator code is incorrect or has already been used', 'totpCode'),
        ok({ id: 4 }),
      ],
      user,
    );
    renderFunds('/assets/index?key=withdraw', user);
    await screen.findByRole('radio', { name: /TRC20/ });
    fireEvent.change(addressInput(), { target: { value: TRC20_ADDRESS } });
    await waitFor(() => expect(screen.getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(amountInput(), { target: { value: '20' } });
    fireEvent.change(passwordInput(), { target: { value: 'wrong' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    // With 2FA on the authenticator's code confirms; no code is sent.
    const first = await confirmWith('111111', /^Authenticator code/);
    // The server's refusal of the password closes the summary and shows under the password field.
    expect(await screen.findByText('Wrong fund password')).toBeTruthy();
    expect(passwordInput().getAttribute('aria-invalid')).toBe('true');
    await waitFor(() => expect(first.getAttribute('data-state')).toBe('closed'));

    fireEvent.change(passwordInput(), { target: { value: 'right' } });
    fireEvent.click(screen.getByRole('button', { name: 'Withdraw' }));
    const dialog = await confirmWith('222222', /^Authenticator code/);
    // A wrong code stays in the summary, under its field.
    expect(await within(dialog).findByText('The authenticator code is incorrect or has already been used')).toBeTruthy();
    fireEvent.change(within(dialog).getByRole('textbox', { name: /^Authenticator code/ }), { target: { value: '333333' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm withdrawal' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/coin/coin/assets/withdrawal')).toHaveLength(3));
    expect(callsTo(calls, 'GET', '/api/coin/coin/open/send/email')).toHaveLength(0);
    const sent = callsTo(calls, 'POST', '/api/coin/coin/assets/withdrawal');
    expect(await open((sent[2]!.body as { payload: string }).payload)).toMatchObject({ fundPassword: 'right', totpCode: '333333' });
    const [firstCall, second] = sent;
    const nonce = (call: typeof firstCall) => Buffer.from((call!.body as { payload: string }).payload, 'base64').subarray(0, 12).toString('hex');
    expect(nonce(firstCall)).not.toBe(nonce(second));
    // The same withdrawal with the password or code corrected: the same key.
    expect(second!.headers['Idempotency-Key']).toBe(firstCall!.headers['Idempotency-Key']);
    expect(sent[2]!.headers['Idempotency-Key']).toBe(firstCall!.headers['Idempotency-Key']);
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
    const dialog = await confirmWith('123456');
    // It stays in the summary, so the user can send it again.
    const alert = await within(dialog).findByRole('alert');
    expect(within(alert).getByText('The ledger is busy. Please try again.')).toBeTruthy();
  });
});
