import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../lib/live';
import { isLoggedIn } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { FakeSocket } from '../../test/fake-socket';
import type { renderApp } from '../../test/render';
import { PHONE_QUERY } from '../../hooks/use-is-phone';
import { parseIpList } from './security/api-keys';
import { callsTo, fail, fakeBackend, makeUser, ok, renderAccount } from './test-helpers';
import { describeUserAgent, maskContact } from './lib/format';
import { inviteLink } from './referral/invite';

let toast: ReturnType<typeof vi.spyOn>;

beforeEach(() => {
  localStorage.clear();
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
  toast = vi.spyOn(toaster, 'create');
});

afterEach(() => {
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

const where = (router: ReturnType<typeof renderApp>['router']) => router.state.location.pathname + router.state.location.search;
const label = (text: string) => new RegExp(`^${text}\\*?$`);
const EMPTY = {
  'GET /api/coin/coin/member/apis': ok([]),
  'GET /api/coin/coin/member/getLoginLog': ok({ total: 0, page: 1, pageSize: 20, records: [] }),
  'GET /api/coin/coin/member/getPayment': ok(null),
};

describe('API keys', () => {
  it('creates a key after re-authentication with the authenticator and shows its secret once', async () => {
    const user = makeUser({ security: { totpEnabled: true } });
    let keys: unknown[] = [];
    const calls = fakeBackend({
      ...EMPTY,
      'POST /api/user/getInfo': ok(user),
      'GET /api/coin/coin/member/apis': () => ok(keys),
      'POST /api/coin/coin/member/api': [fail(400, 'reauth_required', 'Please confirm your identity first.'), ok({ id: 7, accessKey: 'ak_live_123', secret: 'sk_secret_456' })],
      'POST /api/coin/coin/member/reauth': ok({ validUntil: 1 }),
    });
    renderAccount('/account/center/security', user);
    const section = await screen.findByRole('region', { name: 'API keys' });
    expect(await within(section).findByText('No API keys yet')).toBeTruthy();
    fireEvent.click(within(section).getByRole('button', { name: 'Create API key' }));

    const form = await screen.findByRole('dialog', { name: 'Create API key' });
    fireEvent.click(within(form).getByRole('button', { name: 'Create API key' }));
    expect(await within(form).findByText('Please enter a label.')).toBeTruthy();
    fireEvent.change(within(form).getByLabelText(label('Label')), { target: { value: 'Grid bot' } });
    fireEvent.change(within(form).getByLabelText('IP whitelist'), { target: { value: '203.0.113.7, 198.51.100.2' } });
    fireEvent.click(within(form).getByRole('button', { name: 'Create API key' }));

    const reauth = await screen.findByRole('dialog', { name: "Confirm it's you" });
    fireEvent.change(within(reauth).getByLabelText(label('Login password')), { target: { value: 'Secret123' } });
    fireEvent.change(within(reauth).getByLabelText(label('Authenticator code')), { target: { value: '123 456' } });
    keys = [{ id: 7, label: 'Grid bot', accessKey: 'ak_live_123', permissions: ['read'], ipWhitelist: ['203.0.113.7', '198.51.100.2'], createdAt: 0 }];
    fireEvent.click(within(reauth).getByRole('button', { name: 'Confirm' }));

    const secret = await screen.findByRole('dialog', { name: 'Save your secret key' });
    expect(within(secret).getByText('sk_secret_456')).toBeTruthy();
    expect(within(secret).getByText('This is the only time the secret key is shown. Copy it and store it somewhere safe.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/reauth')[0]?.body).toEqual({ password: 'Secret123', totpCode: '123456' });
    const created = callsTo(calls, 'POST', '/api/coin/coin/member/api');
    expect(created).toHaveLength(2);
    expect(created[1]?.body).toEqual({ label: 'Grid bot', permissions: ['read'], ipWhitelist: ['203.0.113.7', '198.51.100.2'] });
    fireEvent.click(within(secret).getByRole('button', { name: 'I have saved it' }));
    await waitFor(() => expect(secret.getAttribute('data-state')).toBe('closed'));

    const table = await within(section).findByRole('table', { name: 'API keys' });
    expect(within(table).getByText('Grid bot')).toBeTruthy();
    // The secret is nowhere on the page any more.
    expect(screen.queryByText('sk_secret_456')).toBeNull();
  });

  it('reads an IP whitelist separated by lines, commas or spaces', () => {
    expect(parseIpList(' 203.0.113.7\n198.51.100.2,  2001:db8::1 ;\n\n')).toEqual(['203.0.113.7', '198.51.100.2', '2001:db8::1']);
    expect(parseIpList('   ')).toEqual([]);
  });
});

describe('on a phone', () => {
  it('shows the API keys and the login log as cards with every column, not as tables', async () => {
    vi.stubGlobal('matchMedia', (query: string) => ({
      matches: query === PHONE_QUERY,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }));
    const user = makeUser();
    fakeBackend({
      ...EMPTY,
      'POST /api/user/getInfo': ok(user),
      'GET /api/coin/coin/member/apis': ok([{ id: 7, label: 'Grid bot', accessKey: 'ak_live_123', permissions: ['read', 'trade'], ipWhitelist: ['203.0.113.7', '2001:db8::1'], createdAt: 0 }]),
      'GET /api/coin/coin/member/getLoginLog': ok({
        total: 1,
        page: 1,
        pageSize: 20,
        records: [{ id: 1, ip: '10.0.0.9', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0', success: false, createdAt: 0 }],
      }),
    });
    renderAccount('/account/center/security', user);

    const keys = await screen.findByRole('list', { name: 'API keys' });
    const key = within(keys).getByRole('listitem', { name: 'Grid bot' });
    expect(within(key).getAllByRole('term').map((term) => term.textContent)).toEqual(['Access key', 'Permissions', 'Created', 'IP whitelist']);
    expect(within(key).getByText('ak_live_123')).toBeTruthy();
    expect(within(key).getByText('Trade')).toBeTruthy();
    expect(within(key).getByText('203.0.113.7, 2001:db8::1')).toBeTruthy();
    expect(within(key).getByRole('button', { name: 'Copy access key' })).toBeTruthy();
    expect(within(key).getByRole('button', { name: 'Delete API key Grid bot' })).toBeTruthy();

    const log = await screen.findByRole('list', { name: 'Login history' });
    const attempt = within(log).getByRole('listitem');
    expect(within(attempt).getAllByRole('term').map((term) => term.textContent)).toEqual(['IP address', 'Device']);
    expect(within(attempt).getByText('10.0.0.9')).toBeTruthy();
    expect(within(attempt).getByText(describeUserAgent('Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0'))).toBeTruthy();
    expect(within(attempt).getByText('Failed')).toBeTruthy();
    for (const name of ['API keys', 'Login history']) {
      expect(within(screen.getByRole('region', { name })).queryByRole('table')).toBeNull();
    }
  });
});

describe('devices', () => {
  it('logging out the current device ends the session and opens the login screen', async () => {
    const user = makeUser();
    const devices = [
      { id: 1, deviceName: 'Chrome on Linux', ip: '10.0.0.1', userAgent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/130.0', createdAt: 0, lastSeenAt: 0, expiresAt: 0, current: true },
      { id: 2, deviceName: 'Phone', ip: '10.0.0.2', userAgent: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_0) Safari/604.1', createdAt: 0, lastSeenAt: 0, expiresAt: 0, current: false },
    ];
    const calls = fakeBackend({ ...EMPTY, 'POST /api/user/getInfo': ok(user), 'GET /api/coin/coin/member/getLoginDevice': ok(devices) });
    const { router } = renderAccount('/account/center/device-management', user);
    const current = await screen.findByRole('listitem', { name: 'Chrome on Linux' });
    expect(within(current).getByText('This device')).toBeTruthy();
    const phone = screen.getByRole('listitem', { name: 'Phone' });
    expect(within(phone).queryByText('This device')).toBeNull();
    expect(within(phone).getByText('Safari · iOS · 10.0.0.2')).toBeTruthy();

    fireEvent.click(within(current).getByRole('button', { name: 'Log out' }));
    const confirm = await screen.findByRole('alertdialog', { name: 'Log out “Chrome on Linux”?' });
    expect(within(confirm).getByText(/This is the device you are using now/)).toBeTruthy();
    fireEvent.click(within(confirm).getByRole('button', { name: 'Log out' }));
    await waitFor(() => expect(where(router)).toBe('/user/login?redirect=%2Faccount%2Fcenter%2Fdevice-management'));
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/deleteDevice/1')).toHaveLength(1);
    expect(isLoggedIn()).toBe(false);
  });
});

describe('contact binding', () => {
  it('checks the address in the browser and shows the server error under its field', async () => {
    const user = makeUser();
    const calls = fakeBackend({
      ...EMPTY,
      'POST /api/user/getInfo': ok(user),
      'GET /api/coin/coin/open/send/email': fail(400, 'contact_taken', 'This address belongs to another account.', 'email'),
    });
    renderAccount('/account/center/security/setting/email', user);
    expect(await screen.findByRole('heading', { level: 2, name: 'Change e-mail' })).toBeTruthy();
    expect(within(screen.getByRole('main')).getByText('ada@example.com')).toBeTruthy();

    const address = screen.getByLabelText(label('New e-mail address'));
    fireEvent.change(address, { target: { value: 'not-an-address' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('Please enter a valid email address.')).toBeTruthy();
    expect(callsTo(calls, 'GET', '/api/coin/coin/open/send/email')).toHaveLength(0);

    fireEvent.change(address, { target: { value: 'taken@example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send code' }));
    expect(await screen.findByText('This address belongs to another account.')).toBeTruthy();
    expect(address.getAttribute('aria-invalid')).toBe('true');
    const sent = callsTo(calls, 'GET', '/api/coin/coin/open/send/email')[0];
    expect(sent?.query.get('purpose')).toBe('bind');
    expect(sent?.query.get('email')).toBe('taken@example.com');
    // The screen shows the error itself: no toast on top.
    expect(toast).not.toHaveBeenCalledWith(expect.objectContaining({ type: 'error' }));
  });
});

describe('bank card', () => {
  it('asks for the required fields before anything is sent', async () => {
    const user = makeUser();
    const calls = fakeBackend({ ...EMPTY, 'POST /api/user/getInfo': ok(user) });
    renderAccount('/account/center/info', user);
    fireEvent.click(await screen.findByRole('button', { name: 'Bind bank card' }));
    expect(await screen.findByText('Please complete all required (*) fields')).toBeTruthy();
    expect(screen.getAllByText('This field is required.')).toHaveLength(2);
    expect(callsTo(calls, 'POST', '/api/coin/coin/member/payment')).toHaveLength(0);
  });

  it('shows a bound card read-only', async () => {
    const user = makeUser();
    fakeBackend({
      ...EMPTY,
      'POST /api/user/getInfo': ok(user),
      'GET /api/coin/coin/member/getPayment': ok({ cardNumber: '**** **** **** 1234', bankName: 'Kestrel Bank', createdAt: 0 }),
    });
    renderAccount('/account/center/info', user);
    expect(await screen.findByText('**** **** **** 1234')).toBeTruthy();
    expect(screen.getByText(/A bound bank card cannot be changed/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Bind bank card' })).toBeNull();
  });
});

describe('display helpers', () => {
  it('describes user agents, masks contacts and builds the invitation link', () => {
    expect(describeUserAgent('Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 Chrome/130.0 Safari/537.36 Edg/130.0')).toBe('Edge · Windows');
    expect(describeUserAgent('Mozilla/5.0 (Macintosh; Intel Mac OS X 14_0) AppleWebKit/605.1.15 Version/17.0 Safari/605.1.15')).toBe('Safari · macOS');
    expect(describeUserAgent('curl/8.0')).toBe('');
    expect(maskContact('ada@example.com')).toBe('ad***@example.com');
    expect(maskContact('+491701234567')).toBe('+49*******567');
    expect(inviteLink('AB12CD', 'https://kestrel.exchange')).toBe('https://kestrel.exchange/i&AB12CD');
  });
});
