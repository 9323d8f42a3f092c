import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { toaster } from '../../lib/toaster';
import { renderApp } from '../../test/render';
import { descriptionOf, stubApi } from './test-api';

let toast: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  toast = vi.spyOn(toaster, 'create').mockImplementation(() => 'toast');
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

function field(label: string): HTMLInputElement {
  return screen.getByLabelText(label, { selector: 'input' });
}

function fill(label: string, value: string) {
  fireEvent.change(field(label), { target: { value } });
}

describe('reset page', () => {
  it('sends a reset code, checks the new password, resets and goes to the login', async () => {
    const api = stubApi({
      '/api/user/sendEmailCode': () => ({ data: { channel: 'sms', expiresInSecs: 600, resendAfterSecs: 60 } }),
      '/api/user/backPwd': () => ({ data: true }),
    });
    const { router } = renderApp('/user/reset');
    await screen.findByRole('heading', { level: 1, name: 'Reset password' });
    expect(screen.getByRole('link', { name: 'Log in' }).getAttribute('href')).toBe('/user/login');

    fill('Email or phone number', '+49 151 2345678');
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(descriptionOf(field('Verification code'))).toBe('We texted a code to +49 151 2345678. It expires in 10 min.'));
    expect(api.callsTo('/api/user/sendEmailCode')[0]?.body).toEqual({ account: '+49 151 2345678', type: 'reset' });

    fill('Verification code', '123456');
    fill('New password', 'Newpass123');
    fill('Confirm password', 'Newpass12');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(descriptionOf(field('Confirm password'))).toBe('Passwords do not match'));
    expect(api.callsTo('/api/user/backPwd')).toHaveLength(0);

    fill('Confirm password', 'Newpass123');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/login'));
    expect(api.callsTo('/api/user/backPwd')[0]?.body).toEqual({
      account: '+49 151 2345678',
      code: '123456',
      password: 'Newpass123',
      confirmPassword: 'Newpass123',
    });
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Password reset. Please log in with your new password.' }));
    expect((await screen.findByLabelText('Email or phone number', { selector: 'input' }) as HTMLInputElement).value).toBe('+49 151 2345678');
  });

  it('shows a wrong code under the code field', async () => {
    stubApi({ '/api/user/backPwd': () => ({ status: 400, msg: 'The verification code is wrong or has expired.', reason: 'invalid_code', field: 'code' }) });
    renderApp('/user/reset');
    await screen.findByRole('heading', { level: 1, name: 'Reset password' });
    fill('Email or phone number', 'jane@example.com');
    fill('Verification code', '999999');
    fill('New password', 'Newpass123');
    fill('Confirm password', 'Newpass123');
    fireEvent.click(screen.getByRole('button', { name: 'Reset password' }));
    await waitFor(() => expect(descriptionOf(field('Verification code'))).toBe('The verification code is wrong or has expired.'));
  });
});
