import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { toaster } from '../../lib/toaster';
import { FakeSocket } from '../../test/fake-socket';
import { renderApp } from '../../test/render';
import { type Call, callsTo, fail, fakeBackend, makeUser, ok, renderAccount } from './test-helpers';
import { visibleTabs } from './lib/tabs';
import { securityItems, securityLevel } from './security/security-items';

let toast: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
  toast = vi.spyOn(toaster, 'create');
});

afterEach(() => {
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

/** A field's label, with or without the required marker. */
const label = (text: string) => new RegExp(`^${text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}\\*?$`);
const where = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;
const accountNav = () => screen.findByRole('navigation', { name: 'Account center' });
const tabNames = async () => within(await accountNav()).getAllByRole('link').map((link) => link.textContent);

/** The fake backend of a user with empty lists (devices, keys, login log, bank card). */
function backend(user = makeUser(), extra: Record<string, Parameters<typeof fakeBackend>[0][string]> = {}): Call[] {
  return fakeBackend({
    'POST /api/user/getInfo': ok(user),
    'GET /api/coin/coin/member/apis': ok([]),
    'GET /api/coin/coin/member/getLoginLog': ok({ total: 0, page: 1, pageSize: 20, records: [] }),
    'GET /api/coin/coin/member/getLoginDevice': ok([]),
    'GET /api/coin/coin/member/getPayment': ok(null),
    ...extra,
  });
}

describe('tabs', () => {
  it('sends visitors to the login screen with a way back', async () => {
    const { router } = renderApp('/account/center/security');
    await waitFor(() => expect(where(router)).toBe('/user/login?redirect=%2Faccount%2Fcenter%2Fsecurity'));
  });

  it('opens the info tab by default and lists every tab but merchant for normal users', async () => {
    const user = makeUser();
    backend(user);
    const { router } = renderAccount('/account/center', user);
    await waitFor(() => expect(where(router)).toBe('/account/center/info'));
    expect(await tabNames()).toEqual(['Profile', 'Security', 'Device management', 'Identity verification', 'Tier', 'Reward center', 'Agent management']);
    const current = within(await accountNav()).getByRole('link', { name: 'Profile' });
    await waitFor(() => expect(current.getAttribute('aria-current')).toBe('page'));
    expect(within(await accountNav()).getByRole('link', { name: 'Security' }).getAttribute('aria-current')).toBeNull();
    expect(await screen.findByRole('heading', { level: 1, name: 'Account center' })).toBeTruthy();

    // A normal user on the merchant path gets the application, still without a merchant tab.
    await router.navigate('/account/center/merchant');
    expect(await screen.findByRole('heading', { level: 2, name: 'Become a merchant' })).toBeTruthy();
    expect(where(router)).toBe('/account/center/merchant');
    expect(await tabNames()).not.toContain('Merchant');
  });

  it('shows the merchant tab only when is_merchant is 2', async () => {
    const merchant = makeUser({ is_merchant: 2 });
    backend(merchant, { 'GET /api/merchant/mine': ok({ isMerchant: 2 }) });
    renderAccount('/account/center/merchant', merchant);
    expect(await tabNames()).toContain('Merchant');
    expect(await screen.findByText('Active merchant')).toBeTruthy();
    expect(visibleTabs(2).map((tab) => tab.path)).toContain('merchant');
    expect(visibleTabs(1).map((tab) => tab.path)).not.toContain('merchant');
    expect(visibleTabs(undefined).map((tab) => tab.path)).not.toContain('merchant');
  });

  it('shows the profile: user id, contact, tier, identity level, invitation link and registration date', async () => {
    const user = makeUser({ user: { userType: 'vip' }, kycLevel: 1 });
    backend(user);
    renderAccount('/account/center/info', user);
    const details = await screen.findByRole('region', { name: 'Account details' });
    expect(within(details).getByText('1001')).toBeTruthy();
    expect(within(details).getAllByText('ada@example.com').length).toBeGreaterThan(0);
    expect(within(details).getByText('VIP user')).toBeTruthy();
    expect(within(details).getAllByText('Basic verified').length).toBeGreaterThan(0);
    // 20:04:05 UTC in New York (UTC−05:00, the platform's default zone).
    expect(within(details).getByText('01/02/2026 15:04:05')).toBeTruthy();
    const invite = screen.getByRole('region', { name: 'Invite friends' });
    expect(within(invite).getByText('AB12CD')).toBeTruthy();
    expect(within(invite).getByText(`${window.location.origin}/i&AB12CD`)).toBeTruthy();
  });

  it('hides the tabs on a security settings screen and links back to the security tab', async () => {
    const user = makeUser();
    backend(user);
    const { router } = renderAccount('/account/center/security/setting/anti-code', user);
    expect(await screen.findByRole('heading', { level: 2, name: 'Set anti-phishing code' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Account center' })).toBeNull();
    fireEvent.click(screen.getByRole('link', { name: 'Back to security' }));
    await waitFor(() => expect(where(router)).toBe('/account/center/security'));
    expect(await accountNav()).toBeTruthy();
  });
});

describe('security tab', () => {
  it('shows each setting with its state and action', async () => {
    const user = makeUser({ security: { fundPasswordSet: true, totpEnabled: false, antiCodeSet: false, emailBound: true, phoneBound: false } });
    backend(user);
    renderAccount('/account/center/security', user);
    const row = async (name: string) => screen.findByRole('listitem', { name });
    const expectRow = async (name: string, status: string, action: string, to: string) => {
      const item = await row(name);
      expect(within(item).getByText(status)).toBeTruthy();
      expect(within(item).getByRole('link', { name: action }).getAttribute('href')).toBe(to);
    };
    await expectRow('Login password', 'Set', 'Change', '/account/center/security/setting/login-pwd');
    await expectRow('Fund password', 'Set', 'Change', '/account/center/security/setting/trade-pwd');
    await expectRow('E-mail', 'Bound', 'Change', '/account/center/security/setting/email');
    await expectRow('Phone', 'Not bound', 'Bind', '/account/center/security/setting/phone');
    await expectRow('Google Authenticator', 'Not enabled', 'Bind', '/account/center/security/setting/google');
    await expectRow('Anti-phishing code', 'Not set', 'Set', '/account/center/security/setting/anti-code');
    expect(screen.getByText('3 of 6 protections on')).toBeTruthy();
    expect(screen.getByRole('link', { name: /Manage devices/ }).getAttribute('href')).toBe('/account/center/device-management');
    expect(await screen.findByText('No API keys yet')).toBeTruthy();
    expect(await screen.findByText('No logins recorded yet.')).toBeTruthy();
  });

  it('derives the level from the protections that are on', () => {
    const none = securityItems(makeUser({ security: { emailBound: false } }));
    expect(none.filter((i) => i.on).map((i) => i.id)).toEqual(['loginPwd']);
    expect(securityLevel(none)).toBe('low');
    const all = securityItems(makeUser({ security: { fundPasswordSet: true, totpEnabled: true, antiCodeSet: true, phoneBound: true } }));
    expect(all.every((i) => i.on)).toBe(true);
    expect(all.find((i) => i.id === 'google')?.actionKey).toBe('account.actions.unbind');
    expect(securityLevel(all)).toBe('high');
  });
});

describe('step-up re-authentication', () => {
  it('asks for the login password and an e-mailed code when a change needs it, then retries the change', async () => {
    const before = makeUser();
    let saved = false;
    const calls = backend(before, {
      'POST /api/user/getInfo': () => ok(saved ? makeUser({ security: { fundPasswordSet: true } }) : before),
      'POST /api/coin/coin/member/tradePwd': [fail(400, 'reauth_required', 'Please confirm your identity first.'), ok(true)],
      'POST /api/coin/coin/member/reauth': [
        fail(400, 'wrong_password', 'The password is wrong.', 'password'),
        fail(400, 'invalid_code', 'The verification code is incorrect or has expired', 'securityCode'),
        ok({ validUntil: 1 }),
      ],
      'GET /api/coin/coin/open/send/email': ok({ channel: 'email', expiresInSecs: 600, resendAfterSecs: 60 }),
    });
    const { router } = renderAccount('/account/center/security/setting/trade-pwd', before);
    expect(await screen.findByRole('heading', { level: 2, name: 'Set fund password' })).toBeTruthy();
    // No current fund password to ask for the first time.
    expect(screen.queryByLabelText(label('Current fund password'))).toBeNull();

    // The browser checks rule B through wasm-core before calling.
    fireEvent.change(screen.getByLabelText(label('New fund password')), { target: { value: 'abc' } });
    fireEvent.change(screen.getByLabelText(label('Confirm fund password')), { target: { value: 'abd' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    expect(await screen.findByText('Invalid password format')).toBeTruthy();
    expect(screen.getByText('Passwords do not match')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/tradePwd')).toHaveLength(0);

    fireEvent.change(screen.getByLabelText(label('New fund password')), { target: { value: 'fund#2026' } });
    fireEvent.change(screen.getByLabelText(label('Confirm fund password')), { target: { value: 'fund#2026' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));

    // The change answered reauth_required: the dialog asks for the login password and a code
    // sent to the bound e-mail address …
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    fireEvent.change(within(dialog).getByLabelText(label('Login password')), { target: { value: 'Wrong1234' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('This field is required.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/reauth')).toHaveLength(0);
    fireEvent.click(within(dialog).getByRole('button', { name: 'Send code' }));
    await waitFor(() => expect(callsTo(calls, 'GET', '/api/coin/coin/open/send/email')).toHaveLength(1));
    expect(callsTo(calls, 'GET', '/api/coin/coin/open/send/email')[0]!.query.get('purpose')).toBe('security');
    fireEvent.change(within(dialog).getByLabelText(label('Security code')), { target: { value: '123456' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    // … shows the server's message under the field at fault …
    expect(await within(dialog).findByText('The password is wrong.')).toBeTruthy();
    fireEvent.change(within(dialog).getByLabelText(label('Login password')), { target: { value: 'Secret123' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));
    expect(await within(dialog).findByText('The verification code is incorrect or has expired')).toBeTruthy();
    saved = true;
    fireEvent.change(within(dialog).getByLabelText(label('Security code')), { target: { value: '654321' } });
    fireEvent.click(within(dialog).getByRole('button', { name: 'Confirm' }));

    // … and once confirmed the change is sent again by itself.
    await waitFor(() => expect(where(router)).toBe('/account/center/security'));
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ type: 'success', title: 'Fund password saved' }));
    await waitFor(() => expect(dialog.getAttribute('data-state')).toBe('closed'));
    const sequence = calls
      .filter((call) => call.path.endsWith('/tradePwd') || call.path.endsWith('/reauth'))
      .map((call) => [call.path.split('/').pop(), call.body]);
    expect(sequence).toEqual([
      ['tradePwd', { password: 'fund#2026', confirmPassword: 'fund#2026' }],
      ['reauth', { password: 'Wrong1234', securityCode: '123456' }],
      ['reauth', { password: 'Secret123', securityCode: '123456' }],
      ['reauth', { password: 'Secret123', securityCode: '654321' }],
      ['tradePwd', { password: 'fund#2026', confirmPassword: 'fund#2026' }],
    ]);
    // The security tab reads the refreshed user record.
    const row = await screen.findByRole('listitem', { name: 'Fund password' });
    await waitFor(() => expect(within(row).getByText('Set')).toBeTruthy());
  });

  it('asks for the authenticator code instead of a sent one when 2FA is on, and a cancelled dialog changes nothing', async () => {
    const user = makeUser({ security: { totpEnabled: true } });
    const calls = backend(user, { 'POST /api/coin/coin/member/antiCode': fail(400, 'reauth_required', 'Please confirm your identity first.') });
    const { router } = renderAccount('/account/center/security/setting/anti-code', user);
    fireEvent.change(await screen.findByLabelText(label('Anti-phishing code')), { target: { value: 'Kestrel42' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save' }));
    const dialog = await screen.findByRole('dialog', { name: "Confirm it's you" });
    expect(within(dialog).getByLabelText(label('Authenticator code'))).toBeTruthy();
    expect(within(dialog).getByLabelText(label('Login password'))).toBeTruthy();
    expect(within(dialog).queryByRole('button', { name: 'Send code' })).toBeNull();
    fireEvent.click(within(dialog).getByRole('button', { name: 'Cancel' }));
    // (jsdom plays no exit animation, so the closed dialog stays in the document.)
    await waitFor(() => expect(dialog.getAttribute('data-state')).toBe('closed'));
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/antiCode')).toHaveLength(1);
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/reauth')).toHaveLength(0);
    expect(where(router)).toBe('/account/center/security/setting/anti-code');
    expect(screen.queryByRole('alert')).toBeNull();
    // The spec's message says why nothing happened.
    expect(toast).toHaveBeenCalledWith(expect.objectContaining({ type: 'info', title: 'Action cancelled by user' }));
  });
});
