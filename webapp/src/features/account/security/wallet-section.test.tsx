import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../../lib/live';
import { toaster } from '../../../lib/toaster';
import { FakeSocket } from '../../../test/fake-socket';
import type { UserInfo } from '../../../api/generated/model';
import { type Call, callsTo, fail, fakeBackend, makeUser, ok, renderAccount } from '../test-helpers';

const ADDRESS = '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23';
const MESSAGE = 'localhost wants you to sign in with your Ethereum account:\n0x2c7536E3605D9C16a7a3D7b1898e529396a65c23\n\nNonce: abcdEFGH12345678';
const SIGNATURE = `0x${'1c'.repeat(65)}`;

let toast: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
  toast = vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(() => {
  delete window.ethereum;
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

function backend(user = makeUser(), extra: Record<string, Parameters<typeof fakeBackend>[0][string]> = {}): Call[] {
  return fakeBackend({
    'POST /api/user/getInfo': ok(user),
    'GET /api/coin/coin/member/apis': ok([]),
    'GET /api/coin/coin/member/getLoginLog': ok({ total: 0, page: 1, pageSize: 20, records: [] }),
    ...extra,
  });
}

const card = () => screen.findByRole('region', { name: 'Wallet sign-in' });

describe('the wallet card', () => {
  it('links the browser wallet after confirming the identity, signing once', async () => {
    const request = vi.fn(async ({ method }: { method: string }) => (method === 'eth_requestAccounts' ? [ADDRESS.toLowerCase()] : SIGNATURE));
    window.ethereum = { request };
    const user = makeUser();
    const linked = { ...user, walletAddress: ADDRESS };
    let stored = user;
    const calls = backend(user, {
      'POST /api/user/getInfo': () => ok(stored),
      'POST /api/coin/coin/member/wallet/challenge': [fail(400, 'reauth_required', 'Please confirm your identity first.'), ok({ message: MESSAGE, nonce: 'abcdEFGH12345678', address: ADDRESS, expiresAt: 0 })],
      'POST /api/coin/coin/member/reauth': ok({ validUntil: 0 }),
      'GET /api/coin/coin/open/send/email': ok({ channel: 'email', expiresInSecs: 600, resendAfterSecs: 60 }),
      'POST /api/coin/coin/member/wallet/link': () => {
        stored = linked;
        return ok(linked);
      },
    });
    renderAccount('/account/center/security', user);
    const region = await card();
    expect(within(region).getByText('Not linked')).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: 'Link wallet' }));

    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    fireEvent.change(within(dialog).getByLabelText(/^Login password\*?$/), { target: { value: 'Secret123' } });
    fireEvent.change(within(dialog).getByLabelText(/^Security code\*?$/), { target: { value: '654321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    await waitFor(() => expect(within(region).getByText(ADDRESS)).toBeTruthy());
    expect(within(region).getByText('Linked')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/wallet/challenge').map((c) => c.body)).toEqual([{ address: ADDRESS.toLowerCase() }, { address: ADDRESS.toLowerCase() }]);
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/wallet/link')[0]?.body).toEqual({ message: MESSAGE, signature: SIGNATURE });
    expect(request.mock.calls.filter(([call]) => call.method === 'personal_sign')).toHaveLength(1);
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Wallet linked' }));
  });

  it('unlinks a linked wallet', async () => {
    const user: UserInfo = { ...makeUser(), walletAddress: ADDRESS };
    let stored = user;
    const calls = backend(user, {
      'POST /api/user/getInfo': () => ok(stored),
      'POST /api/coin/coin/member/wallet/unlink': () => {
        stored = makeUser();
        return ok(stored);
      },
    });
    renderAccount('/account/center/security', user);
    const region = await card();
    expect(within(region).getByText(ADDRESS)).toBeTruthy();
    fireEvent.click(within(region).getByRole('button', { name: 'Unlink' }));
    await waitFor(() => expect(within(region).getByText('Not linked')).toBeTruthy());
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/wallet/unlink')).toHaveLength(1);
  });

  it('says why when there is no wallet, the user cancels, or the wallet is taken', async () => {
    const calls = backend(makeUser(), {
      'POST /api/coin/coin/member/wallet/challenge': ok({ message: MESSAGE, nonce: 'abcdEFGH12345678', address: ADDRESS, expiresAt: 0 }),
      'POST /api/coin/coin/member/wallet/link': fail(409, 'wallet_taken', 'This wallet is linked to another account', 'address'),
    });
    renderAccount('/account/center/security', makeUser());
    const region = await card();
    const link = () => fireEvent.click(within(region).getByRole('button', { name: 'Link wallet' }));
    link();
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toBe('No Ethereum wallet was found in this browser. Install or enable a wallet extension such as MetaMask.'));
    expect(calls.filter((c) => c.path.includes('/wallet/'))).toHaveLength(0);

    window.ethereum = { request: vi.fn(async () => Promise.reject(Object.assign(new Error('no'), { code: 4001 }))) };
    link();
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toBe('Action cancelled by user'));

    window.ethereum = { request: vi.fn(async ({ method }: { method: string }) => (method === 'eth_requestAccounts' ? [ADDRESS] : SIGNATURE)) };
    link();
    await waitFor(() => expect(within(region).getByRole('alert').textContent).toBe('This wallet is linked to another account'));
  });
});
