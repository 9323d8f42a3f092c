import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { toaster } from '../../lib/toaster';
import { FakeSocket } from '../../test/fake-socket';
import { renderApp } from '../../test/render';
import { descriptionOf, stubApi, userInfo } from './test-api';

const ADDRESS = '0x2c7536e3605d9c16a7a3d7b1898e529396a65c23';
const MESSAGE = 'localhost wants you to sign in with your Ethereum account:\n0x2c7536E3605D9C16a7a3D7b1898e529396a65c23\n\nNonce: abcdEFGH12345678';
const SIGNATURE = `0x${'1b'.repeat(65)}`;

const path = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;

/** A browser wallet answering `eth_requestAccounts` and `personal_sign`, or refusing with `code`. */
function injectWallet(refuse?: { method: string; code: number }) {
  const request = vi.fn(async ({ method }: { method: string; params?: unknown[] }) => {
    if (refuse?.method === method) throw Object.assign(new Error('refused'), { code: refuse.code });
    return method === 'eth_requestAccounts' ? [ADDRESS] : SIGNATURE;
  });
  window.ethereum = { request };
  return request;
}

const challenge = () => ({ data: { message: MESSAGE, nonce: 'abcdEFGH12345678', address: '0x2c7536E3605D9C16a7a3D7b1898e529396a65c23', expiresAt: 0 } });

async function clickWallet() {
  await screen.findByRole('heading', { level: 1, name: 'Log in' });
  fireEvent.click(screen.getByRole('button', { name: 'Sign in with wallet' }));
}

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
  vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(() => {
  delete window.ethereum;
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

describe('sign in with wallet', () => {
  it('is offered beside the form and says what it uses', async () => {
    renderApp('/user/login');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(screen.getByRole('button', { name: 'Sign in with wallet' })).toBeTruthy();
    expect(screen.getByText('Use the Ethereum wallet whose address is linked to your account.')).toBeTruthy();
  });

  it('signs the server message with the wallet and starts the session', async () => {
    const wallet = injectWallet();
    const api = stubApi({
      '/api/user/wallet/challenge': challenge,
      '/api/user/wallet/login': () => ({ data: { satoken: 'tok-wallet', userId: 42, deviceId: 3, expiresAt: 0 } }),
      '/api/user/getInfo': () => ({ data: userInfo('jane@example.com') }),
    });
    const { router } = renderApp('/user/login');
    await clickWallet();
    await waitFor(() => expect(path(router)).toBe('/home/index'));
    expect(api.callsTo('/api/user/wallet/challenge')[0]?.body).toEqual({ address: ADDRESS });
    expect(wallet).toHaveBeenCalledWith({ method: 'personal_sign', params: [expect.stringMatching(/^0x6c6f63616c686f7374/), ADDRESS] });
    expect(api.callsTo('/api/user/wallet/login')[0]?.body).toEqual({ message: MESSAGE, signature: SIGNATURE });
    expect(document.cookie).toContain('coin-access-token=tok-wallet');
    expect(api.callsTo('/api/user/login')).toHaveLength(0);
  });

  it('asks for the authenticator code and sends the same signature with it', async () => {
    injectWallet();
    const api = stubApi({
      '/api/user/wallet/challenge': challenge,
      '/api/user/wallet/login': (body) => {
        if (!body.totpCode) return { status: 400, msg: 'Enter the 6-digit code from your authenticator app', reason: 'totp_required', field: 'totpCode' };
        if (body.totpCode !== '123456') return { status: 400, msg: 'The code is wrong.', reason: 'invalid_totp', field: 'totpCode' };
        return { data: { satoken: 'tok-2fa', userId: 42, deviceId: 1, expiresAt: 0 } };
      },
      '/api/user/getInfo': () => ({ data: userInfo('jane@example.com') }),
    });
    const { router } = renderApp('/user/login');
    await clickWallet();
    await screen.findByRole('heading', { level: 1, name: 'Two-factor authentication' });
    const code = screen.getByRole('textbox', { name: 'Authenticator code' });
    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(descriptionOf(screen.getByRole('textbox', { name: 'Authenticator code' }))).toBe('The code is wrong.'));
    fireEvent.change(screen.getByRole('textbox', { name: 'Authenticator code' }), { target: { value: '123456' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(path(router)).toBe('/home/index'));
    expect(api.callsTo('/api/user/wallet/challenge')).toHaveLength(1);
    expect(api.callsTo('/api/user/wallet/login').at(-1)?.body).toEqual({ message: MESSAGE, signature: SIGNATURE, totpCode: '123456' });
  });

  it('explains a missing wallet, a cancelled or revoked request and the server refusals', async () => {
    const api = stubApi({
      '/api/user/wallet/challenge': challenge,
      '/api/user/wallet/login': () => ({ status: 400, msg: 'No account is linked to this wallet', reason: 'wallet_not_linked', field: 'address' }),
    });
    renderApp('/user/login');
    await clickWallet();
    expect((await screen.findByRole('alert')).textContent).toBe('No Ethereum wallet was found in this browser. Install or enable a wallet extension such as MetaMask.');
    expect(api.calls).toHaveLength(0);

    injectWallet({ method: 'personal_sign', code: 4001 });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with wallet' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('Action cancelled by user'));
    expect(api.callsTo('/api/user/wallet/login')).toHaveLength(0);

    injectWallet({ method: 'eth_requestAccounts', code: 4100 });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with wallet' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('User Revoked Authorization'));

    injectWallet();
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with wallet' }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe('No account is linked to this wallet'));
    expect(document.cookie).not.toContain('coin-access-token=');
  });
});
