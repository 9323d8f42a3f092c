import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../../../i18n';
import { toaster } from '../../../lib/toaster';
import { USER_COINS, callsTo, fail, fakeBackend, makeUser, ok, renderFunds } from '../test-helpers';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

function backend(routes: Parameters<typeof fakeBackend>[0] = {}) {
  return fakeBackend({
    'POST /api/user/getInfo': ok(makeUser()),
    'POST /api/userCoin/getUserCoin': ok(USER_COINS),
    'POST /api/asset/transferFunds': ok({ entryId: 3, coin: 'usdt', amount: '250', fromBalance: '750', toBalance: '300' }),
    'POST /api/transfer/submit': ok({ entryId: 4, coin: 'usdt', amount: '30', toUserId: 1002, balance: '970' }),
    ...routes,
  });
}

const userForm = () => screen.getByRole('form', { name: 'To another user' });

beforeEach(() => {
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(async () => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  await setLanguage('en', { persist: false });
});

describe('transfer between own accounts', () => {
  it('moves the amount with the bucket pickers, Max and an Idempotency-Key', async () => {
    const calls = backend();
    renderFunds('/assets/index?key=transfer');
    const form = await screen.findByRole('form', { name: 'Between my accounts' });
    await waitFor(() => expect(within(form).getByText('Available: 1,000 USDT')).toBeTruthy());
    // The balance follows the source account.
    fireEvent.click(within(form).getByRole('button', { name: 'Swap the accounts' }));
    expect((within(form).getByRole('combobox', { name: 'From' }) as HTMLSelectElement).value).toBe('trading');
    expect(within(form).getByText('Available: 50 USDT')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Swap the accounts' }));

    fireEvent.click(within(form).getByRole('button', { name: 'Max' }));
    expect((within(form).getByRole('textbox', { name: /Amount/ }) as HTMLInputElement).value).toBe('1000');
    fireEvent.change(within(form).getByRole('textbox', { name: /Amount/ }), { target: { value: '250' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Transfer' }));

    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Transferred 250 USDT from Funding to Trading' }));
    const [sent] = callsTo(calls, 'POST', '/api/asset/transferFunds');
    expect(sent!.body).toEqual({ coin: 'usdt', amount: '250', from: 'funding', to: 'trading' });
    expect(sent!.headers['Idempotency-Key']).toMatch(UUID);
  });

  it('refuses the same account twice and more than the balance, in the user’s language', async () => {
    const calls = backend();
    await setLanguage('de', { persist: false });
    renderFunds('/assets/index?key=transfer');
    const form = await screen.findByRole('form', { name: 'Zwischen meinen Konten' });
    await waitFor(() => expect(within(form).getByText('Verfügbar: 1,000 USDT')).toBeTruthy());
    fireEvent.change(within(form).getByRole('combobox', { name: 'Nach' }), { target: { value: 'funding' } });
    fireEvent.change(within(form).getByRole('textbox', { name: /Betrag/ }), { target: { value: '2000' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Übertragen' }));
    expect(await within(form).findByText('Wählen Sie zwei verschiedene Konten.')).toBeTruthy();
    expect(within(form).getByText('Unzureichendes Guthaben. Verfügbar: 1000')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/asset/transferFunds')).toHaveLength(0);
  });

  it('keeps the key when a transfer got no answer and is sent again', async () => {
    let attempt = 0;
    const calls = backend({
      'POST /api/asset/transferFunds': () => (attempt++ === 0 ? 'network-error' : ok({ entryId: 3, coin: 'usdt', amount: '10', fromBalance: '990', toBalance: '60' })),
    });
    renderFunds('/assets/index?key=transfer');
    const form = await screen.findByRole('form', { name: 'Between my accounts' });
    await waitFor(() => expect(within(form).getByText('Available: 1,000 USDT')).toBeTruthy());
    fireEvent.change(within(form).getByRole('textbox', { name: /Amount/ }), { target: { value: '10' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Transfer' }));
    expect(await within(form).findByText('Network error. Please check your connection.')).toBeTruthy();
    fireEvent.click(within(form).getByRole('button', { name: 'Transfer' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/asset/transferFunds')).toHaveLength(2));
    const [first, second] = callsTo(calls, 'POST', '/api/asset/transferFunds');
    expect(second!.headers['Idempotency-Key']).toBe(first!.headers['Idempotency-Key']);
  });
});

describe('transfer to another user', () => {
  async function openUserTab() {
    fireEvent.click(await screen.findByRole('tab', { name: 'To another user' }));
    const form = await screen.findByRole('form', { name: 'To another user' });
    await waitFor(() => expect(within(form).getByText('Available: 1,000 USDT')).toBeTruthy());
    return form;
  }

  it('needs a recipient, an amount and the fund password', async () => {
    const calls = backend();
    renderFunds('/assets/index?key=transfer');
    const form = await openUserTab();
    fireEvent.click(within(form).getByRole('button', { name: 'Send' }));
    expect(await within(form).findAllByText('This field is required.')).toHaveLength(3);
    expect(callsTo(calls, 'POST', '/api/transfer/submit')).toHaveLength(0);
  });

  it('sends with the fund password and shows the server’s refusal under the recipient', async () => {
    const calls = backend({
      'POST /api/transfer/submit': [
        fail(400, 'recipient_not_found', 'No user with this account.', 'toAccount'),
        ok({ entryId: 4, coin: 'usdt', amount: '30', toUserId: 1002, balance: '970' }),
      ],
    });
    renderFunds('/assets/index?key=transfer&coin=usdt');
    const form = await openUserTab();
    fireEvent.change(within(form).getByRole('textbox', { name: /Recipient/ }), { target: { value: 'nobody@example.com' } });
    fireEvent.change(within(form).getByRole('textbox', { name: /Amount/ }), { target: { value: '30' } });
    fireEvent.change(within(form).getByLabelText(/Fund password/, { selector: 'input' }), { target: { value: 'fund-1' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send' }));
    expect(await within(form).findByText('No user with this account.')).toBeTruthy();
    expect(within(form).getByRole('textbox', { name: /Recipient/ }).getAttribute('aria-invalid')).toBe('true');

    fireEvent.change(within(form).getByRole('textbox', { name: /Recipient/ }), { target: { value: 'grace@example.com' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send' }));
    await waitFor(() => expect(toaster.create).toHaveBeenCalledWith({ type: 'success', title: 'Sent 30 USDT to user #1002' }));
    const sent = callsTo(calls, 'POST', '/api/transfer/submit');
    expect(sent[1]!.body).toEqual({ coin: 'usdt', amount: '30', toAccount: 'grace@example.com', fundPassword: 'fund-1' });
    expect(sent[1]!.headers['Idempotency-Key']).toMatch(UUID);
    // Another recipient is another transfer: another key.
    expect(sent[1]!.headers['Idempotency-Key']).not.toBe(sent[0]!.headers['Idempotency-Key']);
    expect(within(userForm()).getByLabelText(/Fund password/, { selector: 'input' })).toHaveProperty('value', '');
  });
});
