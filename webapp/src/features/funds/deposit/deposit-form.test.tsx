import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n';
import { toaster } from '../../../lib/toaster';
import { CHANNELS, ERC20_ADDRESS, TRC20_ADDRESS, type Call, callsTo, fail, fakeBackend, ok, renderFunds } from '../test-helpers';

/** errors.tooManyDecimals in German, with max 6. */
const DE_TOO_MANY_DECIMALS = 'Verwenden Sie höchstens 6 Dezimalstellen.';

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 0x0d]);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function record(extra: Record<string, unknown> = {}) {
  return { id: 9, coin: 'usdt', network: 'TRC20', address: TRC20_ADDRESS, amount: '150', screenshot: '77', screenshotUrl: '/api/file/content/77?sig=a', status: 'review', createdAt: 1, ...extra };
}

function backend(submit: Parameters<typeof fakeBackend>[0][string] = ok(record())) {
  return fakeBackend({
    'GET /api/coin/coin/assets/getRechargeCurrency': ok(CHANNELS),
    'POST /api/common/upload/OSS': ok({ fileId: 77, contentType: 'image/png', size: PNG.length, url: '/api/file/content/77?sig=a' }),
    'POST /api/recharge/submit': submit,
  });
}

const submitButton = () => screen.getByRole('button', { name: 'Submit deposit' });
const fileInput = () => screen.getByLabelText('Payment screenshot', { selector: 'input[type=file]' });
const amountInput = () => screen.getByRole('textbox', { name: /Amount sent/ });

async function attachScreenshot(calls: Call[]) {
  fireEvent.change(fileInput(), { target: { files: [new File([PNG], 'paid.png', { type: 'image/png' })] } });
  await waitFor(() => expect(screen.getByText('Uploaded')).toBeTruthy());
  expect(callsTo(calls, 'POST', '/api/common/upload/OSS')).toHaveLength(1);
}

beforeEach(() => {
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  Reflect.deleteProperty(navigator, 'clipboard');
  await setLanguage('en', { persist: false });
});

describe('deposit screen', () => {
  it('shows the chosen network’s address with a QR code and copies it', async () => {
    backend();
    const writeText = vi.fn().mockResolvedValue(undefined);
    Object.defineProperty(navigator, 'clipboard', { value: { writeText }, configurable: true });
    renderFunds('/assets/index?key=recharge');
    const address = await screen.findByRole('region', { name: 'Deposit address' });
    expect(within(address).getByText(TRC20_ADDRESS)).toBeTruthy();
    expect(within(address).getByRole('img', { name: 'QR code of the USDT deposit address on TRC20' }).querySelector('path')?.getAttribute('d')).toMatch(/^M\d/);
    expect(within(address).getByText('Minimum deposit: 10 USDT')).toBeTruthy();

    fireEvent.click(within(address).getByRole('button', { name: 'Copy deposit address' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith(TRC20_ADDRESS));
    expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Copied' });

    fireEvent.click(screen.getByRole('radio', { name: /ERC20/ }));
    expect(screen.getByRole('radio', { name: /ERC20/ }).getAttribute('aria-checked')).toBe('true');
    expect(within(screen.getByRole('region', { name: 'Deposit address' })).getByText(ERC20_ADDRESS)).toBeTruthy();

    fireEvent.change(screen.getByRole('combobox', { name: 'Coin' }), { target: { value: 'btc' } });
    expect(await screen.findByText('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBeTruthy();
  });

  it('says “Copy Failed!” when the clipboard refuses', async () => {
    backend();
    Object.defineProperty(navigator, 'clipboard', { value: { writeText: vi.fn().mockRejectedValue(new Error('denied')) }, configurable: true });
    renderFunds('/assets/index?key=recharge');
    fireEvent.click(await screen.findByRole('button', { name: 'Copy deposit address' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'error', title: 'Copy Failed!' }));
  });

  it('preselects the coin of ?coin=', async () => {
    backend();
    renderFunds('/assets/index?key=recharge&coin=btc');
    expect(await screen.findByText('bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq')).toBeTruthy();
    expect((screen.getByRole('combobox', { name: 'Coin' }) as HTMLSelectElement).value).toBe('btc');
  });

  it('checks the form with wasm-core’s deposit rules, in the user’s language', async () => {
    const calls = backend();
    await setLanguage('de', { persist: false });
    renderFunds('/assets/index?key=recharge');
    fireEvent.click(await screen.findByRole('button', { name: 'Einzahlung einreichen' }));
    const errors = await screen.findAllByText('Dieses Feld ist erforderlich.');
    expect(errors).toHaveLength(2);
    // Below the network's minimum.
    fireEvent.change(screen.getByRole('textbox', { name: /Gesendeter Betrag/ }), { target: { value: '5' } });
    fireEvent.click(screen.getByRole('button', { name: 'Einzahlung einreichen' }));
    expect(await screen.findByText('Das Minimum beträgt 10 USDT.')).toBeTruthy();
    // More decimals than the channel's precision (6 for USDT on TRC20).
    fireEvent.change(screen.getByRole('textbox', { name: /Gesendeter Betrag/ }), { target: { value: '10.1234567' } });
    fireEvent.click(screen.getByRole('button', { name: 'Einzahlung einreichen' }));
    expect(await screen.findByText(DE_TOO_MANY_DECIMALS)).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/recharge/submit')).toHaveLength(0);
  });

  it('refuses a file that is not an image before uploading it', async () => {
    const calls = backend();
    renderFunds('/assets/index?key=recharge');
    await screen.findByRole('region', { name: 'Deposit address' });
    fireEvent.change(fileInput(), { target: { files: [new File(['%PDF-1.7'], 'receipt.pdf', { type: 'application/pdf' })] } });
    expect(await screen.findByText('Please choose an image (PNG, JPEG or WebP).')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/common/upload/OSS')).toHaveLength(0);
  });

  it('uploads the screenshot and submits with one Idempotency-Key per deposit, reused on a retry', async () => {
    let attempt = 0;
    const calls = backend(() => (attempt++ === 0 ? 'network-error' : ok(record())));
    renderFunds('/assets/index?key=recharge');
    await screen.findByRole('region', { name: 'Deposit address' });
    fireEvent.change(amountInput(), { target: { value: '150' } });
    await attachScreenshot(calls);
    const upload = callsTo(calls, 'POST', '/api/common/upload/OSS')[0]!;
    expect(upload.body).toBeInstanceOf(FormData);
    expect(((upload.body as FormData).get('file') as File).name).toBe('paid.png');

    // The first attempt gets no answer: the form says so and keeps everything.
    fireEvent.click(submitButton());
    expect(await screen.findByText('Network error. Please check your connection.')).toBeTruthy();
    fireEvent.click(submitButton());
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Deposit submitted' })));

    const submits = callsTo(calls, 'POST', '/api/recharge/submit');
    expect(submits).toHaveLength(2);
    expect(submits[0]!.body).toEqual({ coin: 'usdt', network: 'TRC20', amount: '150', screenshot: '77' });
    const key = submits[0]!.headers['Idempotency-Key'];
    expect(key).toMatch(UUID);
    // The retry is the same deposit: the same key.
    expect(submits[1]!.headers['Idempotency-Key']).toBe(key);

    // The form is cleared; the next deposit gets a new key.
    await waitFor(() => expect((amountInput() as HTMLInputElement).value).toBe(''));
    fireEvent.change(amountInput(), { target: { value: '150' } });
    fireEvent.change(fileInput(), { target: { files: [new File([PNG], 'paid.png', { type: 'image/png' })] } });
    await waitFor(() => expect(screen.getByText('Uploaded')).toBeTruthy());
    fireEvent.click(submitButton());
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/recharge/submit')).toHaveLength(3));
    expect(callsTo(calls, 'POST', '/api/recharge/submit')[2]!.headers['Idempotency-Key']).not.toBe(key);
  });

  it('shows the server’s refusal under the field it names', async () => {
    const calls = backend(fail(400, 'rule', 'The minimum is 10.', 'amount'));
    renderFunds('/assets/index?key=recharge');
    await screen.findByRole('region', { name: 'Deposit address' });
    fireEvent.change(amountInput(), { target: { value: '150' } });
    await attachScreenshot(calls);
    fireEvent.click(submitButton());
    expect(await screen.findByText('The minimum is 10.')).toBeTruthy();
    expect(amountInput().getAttribute('aria-invalid')).toBe('true');
    // The screen shows the error itself: no toast from the API client.
    expect(toaster.create).not.toHaveBeenCalledWith(expect.objectContaining({ type: 'error' }));
  });

  it('offers a retry when the channels cannot be loaded', async () => {
    fakeBackend({ 'GET /api/coin/coin/assets/getRechargeCurrency': { status: 500, body: { code: 500, msg: 'Internal error' } } });
    renderFunds('/account/wallet/deposit');
    expect(await screen.findByRole('button', { name: 'Retry' })).toBeTruthy();
  });
});
