import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { toaster } from '../../lib/toaster';
import { FakeSocket } from '../../test/fake-socket';
import { renderApp } from '../../test/render';
import { descriptionOf, stubApi, userInfo } from './test-api';

const path = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;

let toast: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
  toast = vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(() => {
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

function fill(label: string, value: string) {
  fireEvent.change(screen.getByLabelText(label), { target: { value } });
}

async function submitLogin(account: string, password: string) {
  await screen.findByRole('heading', { level: 1, name: 'Log in' });
  fill('Email or phone number', account);
  fill('Password', password);
  fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
}

describe('login page', () => {
  it('is a labelled form with autocomplete hints and links to reset and registration', async () => {
    renderApp('/user/login');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(document.title).toBe('Log in · Kestrel Exchange');
    expect(screen.getByRole('textbox', { name: 'Email or phone number' }).getAttribute('autocomplete')).toBe('username');
    const password = screen.getByLabelText('Password');
    expect(password.getAttribute('type')).toBe('password');
    expect(password.getAttribute('autocomplete')).toBe('current-password');
    fireEvent.click(screen.getByRole('button', { name: 'Show password' }));
    expect(password.getAttribute('type')).toBe('text');
    fireEvent.click(screen.getByRole('button', { name: 'Hide password' }));
    expect(password.getAttribute('type')).toBe('password');
    expect(screen.getByRole('link', { name: 'Forgot password?' }).getAttribute('href')).toBe('/user/reset');
    expect(screen.getByRole('link', { name: 'Sign up' }).getAttribute('href')).toBe('/user/register');
  });

  it('logs in: cookie, stored user and flag, toast, then the redirect', async () => {
    const api = stubApi({
      '/api/user/login': () => ({ data: { satoken: 'tok-abc', userId: 42, deviceId: 1, expiresAt: 0 } }),
      '/api/user/getInfo': () => ({ data: userInfo('jane@example.com') }),
    });
    const { router } = renderApp('/user/login?redirect=%2Fabout%2Findex%3Fx%3D1');
    await submitLogin('  jane@example.com ', 'Secret123');

    await waitFor(() => expect(path(router)).toBe('/about/index?x=1'));
    expect(api.callsTo('/api/user/login')[0]?.body).toEqual({ account: 'jane@example.com', password: 'Secret123' });
    expect(api.callsTo('/api/user/getInfo')[0]?.headers.satoken).toBe('tok-abc');
    expect(document.cookie).toContain('coin-access-token=tok-abc');
    expect(JSON.parse(localStorage.getItem('coin_web-userInfo') ?? 'null')).toMatchObject({ user: { email: 'jane@example.com' } });
    expect(localStorage.getItem('coin_web-isLogin')).toBe('true');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Login successful' }));
    // The shell now shows the account menu.
    expect(await screen.findByRole('button', { name: 'Account menu, jane@example.com' })).toBeTruthy();
  });

  it('goes home instead of to another site', async () => {
    stubApi({
      '/api/user/login': () => ({ data: { satoken: 'tok', userId: 1, deviceId: 1, expiresAt: 0 } }),
      '/api/user/getInfo': () => ({ data: userInfo('a@b.co') }),
    });
    const { router } = renderApp('/user/login?redirect=https%3A%2F%2Fevil.example%2F');
    await submitLogin('a@b.co', 'Secret123');
    await waitFor(() => expect(path(router)).toBe('/home/index'));
  });

  it('checks the fields in the browser before calling', async () => {
    const api = stubApi({});
    renderApp('/user/login');
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    const account = screen.getByRole('textbox', { name: 'Email or phone number' });
    await waitFor(() => expect(descriptionOf(account)).toBe('This field is required.'));
    expect(account.getAttribute('aria-invalid')).toBe('true');
    expect(descriptionOf(screen.getByLabelText('Password'))).toBe('This field is required.');
    expect(document.activeElement).toBe(account);

    fill('Email or phone number', 'jane@');
    fill('Password', 'x');
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(descriptionOf(account)).toBe('Please enter a valid email address.'));
    expect(api.calls).toHaveLength(0);
  });

  it('shows a refused login in the form, without a toast', async () => {
    stubApi({
      '/api/user/login': () => ({ status: 400, msg: 'Incorrect account or password.', reason: 'invalid_credentials' }),
    });
    renderApp('/user/login');
    await submitLogin('+49 151 2345678', 'Wrong123');
    expect((await screen.findByRole('alert')).textContent).toBe('Incorrect account or password.');
    expect(toast).not.toHaveBeenCalled();
    expect(document.cookie).not.toContain('coin-access-token=');
    // Typing again clears it.
    fill('Password', 'Wrong1234');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('asks for the authenticator code when 2FA is on and sends it with the credentials', async () => {
    const api = stubApi({
      '/api/user/login': (body) => {
        if (!body.totpCode) return { status: 400, msg: 'Enter the authenticator code.', reason: 'totp_required', field: 'totpCode' };
        if (body.totpCode !== '123456') return { status: 400, msg: 'The code is wrong.', reason: 'invalid_totp', field: 'totpCode' };
        return { data: { satoken: 'tok-2fa', userId: 42, deviceId: 1, expiresAt: 0 } };
      },
      '/api/user/getInfo': () => ({ data: userInfo('jane@example.com') }),
    });
    const { router } = renderApp('/user/login');
    await submitLogin('jane@example.com', 'Secret123');

    await screen.findByRole('heading', { level: 1, name: 'Two-factor authentication' });
    const code = screen.getByRole('textbox', { name: 'Authenticator code' });
    expect(code.getAttribute('autocomplete')).toBe('one-time-code');
    expect(toast).not.toHaveBeenCalled();

    fireEvent.change(code, { target: { value: '12' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(descriptionOf(code)).toBe('Enter the 6-digit code.'));

    fireEvent.change(code, { target: { value: '654321' } });
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(descriptionOf(screen.getByRole('textbox', { name: 'Authenticator code' }))).toBe('The code is wrong.'));

    fireEvent.change(code, { target: { value: '123 456' } });
    expect((code as HTMLInputElement).value).toBe('123456');
    fireEvent.click(screen.getByRole('button', { name: 'Verify' }));
    await waitFor(() => expect(path(router)).toBe('/home/index'));
    expect(api.callsTo('/api/user/login').at(-1)?.body).toEqual({ account: 'jane@example.com', password: 'Secret123', totpCode: '123456' });
    expect(document.cookie).toContain('coin-access-token=tok-2fa');
  });

  it('asks for a code sent to the account after too many failed sign-ins, and signs in with it', async () => {
    const REQUIRED = 'Too many failed sign-ins on this account. For your safety, enter the verification code we send to it';
    const api = stubApi({
      '/api/user/login': (body) => {
        if (!body.emailCode) return { status: 400, msg: REQUIRED, reason: 'login_verification_required', field: 'emailCode' };
        if (body.emailCode !== '246810') return { status: 400, msg: 'The verification code is incorrect.', reason: 'invalid_code', field: 'emailCode' };
        return { data: { satoken: 'tok-unlocked', userId: 42, deviceId: 1, expiresAt: 0 } };
      },
      '/api/user/sendEmailCode': () => ({ data: { channel: 'email', expiresInSecs: 600, resendAfterSecs: 60 } }),
      '/api/user/getInfo': () => ({ data: userInfo('jane@example.com') }),
    });
    const { router } = renderApp('/user/login');
    await submitLogin('jane@example.com', 'Secret123');

    // Not locked out: the form explains and offers the code.
    expect((await screen.findByRole('status')).textContent).toBe(REQUIRED);
    const code = screen.getByRole('textbox', { name: 'Verification code' });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(descriptionOf(code)).toBeTruthy());
    expect(api.callsTo('/api/user/login')).toHaveLength(1);

    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(api.callsTo('/api/user/sendEmailCode')[0]?.body).toEqual({ account: 'jane@example.com', type: 'login' }));
    fireEvent.change(code, { target: { value: '111111' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    // The error, with the hint of where the code went kept under it.
    await waitFor(() => expect(descriptionOf(screen.getByRole('textbox', { name: 'Verification code' }))).toContain('The verification code is incorrect.'));

    fireEvent.change(code, { target: { value: '246810' } });
    fireEvent.click(screen.getByRole('button', { name: 'Log in' }));
    await waitFor(() => expect(path(router)).toBe('/home/index'));
    expect(api.callsTo('/api/user/login').at(-1)?.body).toEqual({ account: 'jane@example.com', password: 'Secret123', emailCode: '246810' });
  });
});
