import { act, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../lib/toaster';
import { renderApp } from '../../test/render';
import { descriptionOf, stubApi } from './test-api';

const path = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;

let toast: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  toast = vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { selector: 'input' });
}

function fill(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

const CODE_SENT = { data: { channel: 'email', expiresInSecs: 600, resendAfterSecs: 60 } };

describe('register page', () => {
  it('prefills the invitation code of an invitation link, read-only', async () => {
    renderApp('/i&AB12CD');
    await screen.findByRole('heading', { level: 1, name: 'Register' });
    const invite = field('Invitation code (optional)');
    expect(invite.value).toBe('AB12CD');
    expect(invite.readOnly).toBe(true);
    expect(descriptionOf(invite)).toBe('From your invitation link.');
  });

  it('checks every field with wasm-core before calling, each message under its field', async () => {
    const api = stubApi({});
    renderApp('/user/register');
    await screen.findByRole('heading', { level: 1, name: 'Register' });
    expect(descriptionOf(field('Password'))).toBe('At least 8 characters, with an upper-case letter, a lower-case letter and a digit.');
    expect(field('Password').getAttribute('autocomplete')).toBe('new-password');
    expect(field('Verification code').getAttribute('autocomplete')).toBe('one-time-code');
    expect(field('Invitation code (optional)').readOnly).toBe(false);

    fill('Email or phone number', 'jane.example.com');
    fill('Password', 'password1');
    fill('Confirm password', 'password2');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));

    await waitFor(() =>
      expect(descriptionOf(field('Email or phone number'))).toBe('Please enter a valid email address. Phone numbers start with + and the country code.'),
    );
    expect(descriptionOf(field('Verification code'))).toBe('This field is required.');
    // The password rule stays readable under the error it explains.
    expect(descriptionOf(field('Password'))).toBe('Invalid password format At least 8 characters, with an upper-case letter, a lower-case letter and a digit.');
    expect(screen.getByText('At least 8 characters, with an upper-case letter, a lower-case letter and a digit.')).toBeTruthy();
    expect(descriptionOf(field('Confirm password'))).toBe('Passwords do not match');
    expect(api.calls).toHaveLength(0);

    // Sending a code needs a valid account too.
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(api.calls).toHaveLength(0);
  });

  it('sends the code, counts down to the next one, and shows where it went', async () => {
    const api = stubApi({ '/api/user/sendEmailCode': () => CODE_SENT });
    renderApp('/user/register');
    await screen.findByRole('heading', { level: 1, name: 'Register' });
    fill('Email or phone number', 'jane@example.com ');
    vi.useFakeTimers({ toFake: ['Date', 'setInterval', 'clearInterval'] });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));

    const countdown = await screen.findByRole('button', { name: 'Resend in 60 s' });
    expect((countdown as HTMLButtonElement).disabled).toBe(true);
    expect(api.callsTo('/api/user/sendEmailCode')[0]?.body).toEqual({ account: 'jane@example.com', type: 'register' });
    expect(descriptionOf(field('Verification code'))).toBe('We emailed a code to jane@example.com. It expires in 10 min.');
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Verification code sent' }));
    expect(document.activeElement).toBe(field('Verification code'));

    act(() => vi.advanceTimersByTime(59_000));
    expect(screen.getByRole('button', { name: 'Resend in 1 s' })).toBeTruthy();
    act(() => vi.advanceTimersByTime(1_000));
    expect((screen.getByRole('button', { name: 'Resend code' }) as HTMLButtonElement).disabled).toBe(false);
  });

  it('shows a refused code request under the code field', async () => {
    stubApi({ '/api/user/sendEmailCode': () => ({ status: 429, msg: 'Too many attempts. Try again in 42 seconds.', reason: 'too_many_requests' }) });
    renderApp('/user/register');
    await screen.findByRole('heading', { level: 1, name: 'Register' });
    fill('Email or phone number', '+49 151 2345678');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(descriptionOf(field('Verification code'))).toBe('Too many attempts. Try again in 42 seconds.'));
    expect(toast).not.toHaveBeenCalled();
  });

  it('shows server errors on their field, then registers and goes to the login with the account filled in', async () => {
    const api = stubApi({
      '/api/user/register': (body) =>
        body.code === '111111'
          ? { status: 400, msg: 'The verification code is wrong or has expired.', reason: 'invalid_code', field: 'code' }
          : { data: { userId: 9 } },
    });
    const { router } = renderApp('/user/register?invite_code=KX7P2M9Q');
    await screen.findByRole('heading', { level: 1, name: 'Register' });
    fill('Email or phone number', 'jane@example.com');
    fill('Verification code', '111111');
    fill('Password', 'Secret123');
    fill('Confirm password', 'Secret123');
    fireEvent.submit(field('Password').closest('form')!);

    await waitFor(() => expect(descriptionOf(field('Verification code'))).toBe('The verification code is wrong or has expired.'));
    expect(document.activeElement).toBe(field('Verification code'));
    expect(toast).not.toHaveBeenCalled();

    fill('Verification code', '222222');
    expect(descriptionOf(field('Verification code'))).toBe('');
    fireEvent.click(screen.getByRole('button', { name: 'Create account' }));
    await waitFor(() => expect(path(router)).toBe('/user/login'));
    expect(api.callsTo('/api/user/register').at(-1)?.body).toEqual({
      account: 'jane@example.com',
      password: 'Secret123',
      confirmPassword: 'Secret123',
      code: '222222',
      inviteCode: 'KX7P2M9Q',
    });
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Registration successful, please log in' }));
    await screen.findByRole('heading', { level: 1, name: 'Log in' });
    expect(field('Email or phone number').value).toBe('jane@example.com');
    expect(document.activeElement).toBe(field('Password'));
  });
});
