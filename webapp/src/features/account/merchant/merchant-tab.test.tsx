/**
 * The merchant screen against a fake backend: the application form checked before it is sent and
 * sent trimmed, the server's field error under its field, the pending state, a rejection with the
 * operator's reason and the form again (filled), an approval the cached user record did not know
 * yet, and the merchant tool — profile, rate, invitation link and customers paged.
 */
import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { MarketFeed, setMarketFeed } from '../../../lib/live';
import { FakeSocket } from '../../../test/fake-socket';
import { bodyCells } from '../../../test/render';
import { type Call, callsTo, fail, fakeBackend, makeUser, ok, renderAccount } from '../test-helpers';

beforeEach(() => {
  localStorage.clear();
  setMarketFeed(new MarketFeed({ url: () => 'ws://test', createSocket: (url) => new FakeSocket(url) }));
});

afterEach(() => {
  setMarketFeed(null);
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
});

const APPLIED = Date.UTC(2026, 10, 28, 15, 30);

function record(extra: Record<string, unknown> = {}) {
  return {
    userId: 1001,
    businessName: 'Ada Trading',
    contact: 'ada@example.com',
    business: 'OTC desk for small shops',
    countries: 'DE, AT',
    status: 'pending',
    createdAt: APPLIED,
    ...extra,
  };
}

const field = (name: RegExp) => screen.getByRole('textbox', { name });

function fill(values: { businessName: string; contact: string; business: string; countries: string }) {
  fireEvent.change(field(/^Business name/), { target: { value: values.businessName } });
  fireEvent.change(field(/^Contact/), { target: { value: values.contact } });
  fireEvent.change(field(/^What your business does/), { target: { value: values.business } });
  fireEvent.change(field(/^Countries you serve/), { target: { value: values.countries } });
}

describe('merchant application', () => {
  it('checks the form before sending it, sends it trimmed and then shows the pending application', async () => {
    let applied = false;
    const calls: Call[] = fakeBackend({
      'POST /api/user/getInfo': ok(makeUser()),
      'GET /api/merchant/mine': () => ok(applied ? { isMerchant: 1, application: record() } : { isMerchant: 1 }),
      'POST /api/merchant/apply': () => {
        applied = true;
        return ok(record());
      },
    });
    renderAccount('/account/center/merchant', makeUser());
    expect(await screen.findByRole('heading', { level: 2, name: 'Become a merchant' })).toBeTruthy();
    expect(await screen.findByText('Your own rate')).toBeTruthy();

    const form = await screen.findByRole('form', { name: 'Application' });
    fireEvent.change(field(/^Business name/), { target: { value: '   ' } });
    fireEvent.change(field(/^Countries you serve/), { target: { value: 'x'.repeat(257) } });
    fireEvent.click(within(form).getByRole('button', { name: 'Send application' }));
    expect(await within(form).findAllByText('Please fill in this field.')).toHaveLength(3);
    expect(within(form).getByText('At most 256 characters.')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/merchant/apply')).toHaveLength(0);

    fill({ businessName: '  Ada Trading ', contact: 'ada@example.com', business: 'OTC desk for small shops\n', countries: 'DE, AT' });
    expect(within(form).queryByText('Please fill in this field.')).toBeNull();
    fireEvent.click(within(form).getByRole('button', { name: 'Send application' }));
    expect(await screen.findByText('Your application is being reviewed')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/merchant/apply')[0]?.body).toEqual({
      businessName: 'Ada Trading',
      contact: 'ada@example.com',
      business: 'OTC desk for small shops',
      countries: 'DE, AT',
    });
    expect(screen.getByText(/^Sent 11\/28\/2026 10:30:00\./)).toBeTruthy();
    const sent = screen.getByRole('region', { name: 'What you sent' });
    expect(within(sent).getByText('OTC desk for small shops')).toBeTruthy();
    expect(screen.queryByRole('form', { name: 'Application' })).toBeNull();
  });

  it("shows the server's refusal under the field it names", async () => {
    fakeBackend({
      'POST /api/user/getInfo': ok(makeUser()),
      'GET /api/merchant/mine': ok({ isMerchant: 1 }),
      'POST /api/merchant/apply': fail(400, 'merchant_form_invalid', 'Check the countries you serve.', 'countries'),
    });
    renderAccount('/account/center/merchant', makeUser());
    const form = await screen.findByRole('form', { name: 'Application' });
    fill({ businessName: 'Ada Trading', contact: 'ada@example.com', business: 'OTC', countries: 'DE' });
    fireEvent.click(within(form).getByRole('button', { name: 'Send application' }));
    expect(await within(form).findByText('Check the countries you serve.')).toBeTruthy();
    expect(field(/^Countries you serve/).getAttribute('aria-invalid')).toBe('true');
  });

  it("shows a rejection with the operator's reason and the last application to send again", async () => {
    const calls = fakeBackend({
      'POST /api/user/getInfo': ok(makeUser()),
      'GET /api/merchant/mine': ok({ isMerchant: 1, application: record({ status: 'rejected', reason: 'Please add a website.', decidedAt: APPLIED + 3_600_000 }) }),
      'POST /api/merchant/apply': ok(record()),
    });
    renderAccount('/account/center/merchant', makeUser());
    expect(await screen.findByText('Your application was not approved')).toBeTruthy();
    expect(screen.getByText('Reason: Please add a website.')).toBeTruthy();
    expect(field(/^Business name/)).toHaveProperty('value', 'Ada Trading');
    fireEvent.change(field(/^Contact/), { target: { value: 'https://ada.example.com' } });
    fireEvent.click(screen.getByRole('button', { name: 'Send application' }));
    await waitFor(() => expect(callsTo(calls, 'POST', '/api/merchant/apply')).toHaveLength(1));
    expect(callsTo(calls, 'POST', '/api/merchant/apply')[0]?.body).toMatchObject({ businessName: 'Ada Trading', contact: 'https://ada.example.com' });
  });

  it('reloads the user record when the application was approved meanwhile, which opens the tool', async () => {
    const calls = fakeBackend({
      'POST /api/user/getInfo': ok(makeUser({ is_merchant: 2 })),
      'GET /api/merchant/mine': ok({ isMerchant: 2, application: record({ status: 'approved', rebateRate: '0.3', decidedAt: APPLIED }) }),
      'GET /api/merchant/customers': ok({ total: 0, records: [] }),
    });
    renderAccount('/account/center/merchant', makeUser());
    expect(await screen.findByText('Active merchant')).toBeTruthy();
    expect(callsTo(calls, 'POST', '/api/user/getInfo').length).toBeGreaterThan(0);
    const nav = screen.getByRole('navigation', { name: 'Account center' });
    await waitFor(() => expect(within(nav).getByRole('link', { name: 'Merchant' })).toBeTruthy());
  });
});

describe('merchant tool', () => {
  function customers(count: number, offset = 0) {
    return Array.from({ length: count }, (_, i) => ({
      account: `c${offset + i}***@example.com`,
      registeredAt: Date.UTC(2026, 10, 20, 12) - (offset + i) * 60_000,
      volumeUsdt: '1520.756',
      rebates: offset + i === 0 ? [{ coin: 'usdt', amount: '0.45' }] : [],
    }));
  }

  it('shows the profile, the rate, the invitation link and the customers, paged', async () => {
    const merchant = makeUser({ is_merchant: 2 });
    const calls = fakeBackend({
      'POST /api/user/getInfo': ok(merchant),
      'GET /api/merchant/mine': ok({ isMerchant: 2, application: record({ status: 'approved', rebateRate: '0.3', decidedAt: APPLIED }) }),
      'GET /api/merchant/customers': (call) => ok({ total: 23, records: call.query.get('page') === '2' ? customers(3, 20) : customers(20) }),
    });
    renderAccount('/account/center/merchant', merchant);
    const profile = await screen.findByRole('region', { name: 'Merchant profile' });
    expect(within(profile).getByText('Active merchant')).toBeTruthy();
    expect(within(profile).getByText('Ada Trading')).toBeTruthy();
    expect(within(profile).getByText('11/28/2026 10:30:00')).toBeTruthy();

    const rate = screen.getByRole('region', { name: 'Merchant rate' });
    expect(within(rate).getByText('30%')).toBeTruthy();
    expect(within(rate).getByText(/after the security fund's 10% share/)).toBeTruthy();

    const invite = screen.getByRole('region', { name: 'Your invitation link' });
    expect(within(invite).getByText(`${window.location.origin}/i&AB12CD`)).toBeTruthy();
    expect(within(invite).getByRole('img', { name: 'QR code of your invitation link' })).toBeTruthy();

    const table = await screen.findByRole('table', { name: 'Customers' });
    const rows = bodyCells(table);
    expect(rows).toHaveLength(20);
    expect(rows[0]).toEqual(['c0***@example.com', '11/20/2026 07:00:00', '1,520.75 USDT', '0.45 USDT']);
    expect(rows[1]?.[3]).toBe('0');
    expect(screen.getByText(/^Customers: 23/)).toBeTruthy();
    expect(callsTo(calls, 'GET', '/api/merchant/customers')[0]?.query.get('pageSize')).toBe('20');

    fireEvent.click(screen.getByRole('button', { name: 'Next page' }));
    await waitFor(() => expect(bodyCells(screen.getByRole('table', { name: 'Customers' }))).toHaveLength(3));
    expect(callsTo(calls, 'GET', '/api/merchant/customers').at(-1)?.query.get('page')).toBe('2');
  });

  it('says so when there are no customers yet', async () => {
    const merchant = makeUser({ is_merchant: 2 });
    fakeBackend({
      'POST /api/user/getInfo': ok(merchant),
      'GET /api/merchant/mine': ok({ isMerchant: 2, application: record({ status: 'approved', rebateRate: '0.25' }) }),
      'GET /api/merchant/customers': ok({ total: 0, records: [] }),
    });
    renderAccount('/account/center/merchant', merchant);
    expect(await screen.findByText('No customers yet. Share your invitation link to bring your first one.')).toBeTruthy();
    expect(screen.getByText('25%')).toBeTruthy();
  });
});
