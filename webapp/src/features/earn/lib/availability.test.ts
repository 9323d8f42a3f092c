import { describe, expect, it } from 'vitest';
import { type Holder, type ProductRules, amountProblem, maxAmount, subscribeBlock, userQuotaLeft } from './availability';

const product: ProductRules = {
  status: 'open',
  vipOnly: false,
  particAmount: '10',
  particLimitAmount: '1000',
  particLimitNum: 0,
  perUserQuota: null,
  lastAmount: '5000',
};
const normal: Holder = { userType: 'normal', subscriptions: 0, subscribed: '0' };

describe('subscribeBlock', () => {
  it('lets an open product with quota be bought', () => {
    expect(subscribeBlock(product, normal)).toBeNull();
  });

  it('names the state first: ended, paused, not started', () => {
    expect(subscribeBlock({ ...product, status: 'ended', lastAmount: '0' }, normal)).toBe('ended');
    expect(subscribeBlock({ ...product, status: 'paused' }, normal)).toBe('paused');
    expect(subscribeBlock({ ...product, status: 'scheduled' }, normal)).toBe('scheduled');
  });

  it('is sold out with no quota left, or less than the minimum left', () => {
    expect(subscribeBlock({ ...product, lastAmount: '0' }, normal)).toBe('soldOut');
    expect(subscribeBlock({ ...product, lastAmount: '9.99' }, normal)).toBe('soldOut');
    expect(subscribeBlock({ ...product, lastAmount: '10' }, normal)).toBeNull();
  });

  it('keeps Member Zone products for VIP members (a visitor gets the login prompt instead)', () => {
    const member = { ...product, vipOnly: true };
    expect(subscribeBlock(member, normal)).toBe('vipOnly');
    expect(subscribeBlock(member, { ...normal, userType: 'vip' })).toBeNull();
    expect(subscribeBlock(member, { ...normal, userType: undefined })).toBeNull();
  });

  it('counts the user\'s subscriptions and quota', () => {
    expect(subscribeBlock({ ...product, particLimitNum: 2 }, { ...normal, subscriptions: 2 })).toBe('subscriptionLimit');
    expect(subscribeBlock({ ...product, particLimitNum: 2 }, { ...normal, subscriptions: 1 })).toBeNull();
    expect(subscribeBlock({ ...product, perUserQuota: '100' }, { ...normal, subscribed: '95' })).toBe('userQuota');
    expect(subscribeBlock({ ...product, perUserQuota: '100' }, { ...normal, subscribed: '90' })).toBeNull();
    expect(userQuotaLeft({ ...product, perUserQuota: '100' }, { ...normal, subscribed: '120' })).toBe('0');
  });
});

describe('amountProblem', () => {
  const check = (amount: string, available: string | null = '100000', holder = normal, rules = product) =>
    amountProblem(rules, holder, amount, available);

  it('says nothing before anything is typed and accepts an amount within every limit', () => {
    expect(check('')).toBeNull();
    expect(check('10')).toBeNull();
    expect(check('999.12345678')).toBeNull();
  });

  it('refuses what is not an amount of at most 8 decimals', () => {
    expect(check('abc')).toEqual({ kind: 'format' });
    expect(check('1.123456789')).toEqual({ kind: 'format' });
    expect(check('0')).toEqual({ kind: 'format' });
    expect(check('-5')).toEqual({ kind: 'format' });
  });

  it('names the limit broken, with its amount', () => {
    expect(check('9.99')).toEqual({ kind: 'belowMin', amount: '10' });
    expect(check('1000.01')).toEqual({ kind: 'aboveMax', amount: '1000' });
    expect(check('600', '100000', normal, { ...product, lastAmount: '500' })).toEqual({ kind: 'aboveQuota', amount: '500' });
    expect(check('60', '100000', { ...normal, subscribed: '50' }, { ...product, perUserQuota: '100' })).toEqual({
      kind: 'aboveUserQuota',
      amount: '50',
    });
    expect(check('60', '59.5')).toEqual({ kind: 'insufficient', amount: '59.5' });
    expect(check('60', null)).toBeNull();
  });
});

describe('maxAmount', () => {
  it('is the smallest of the maximum, the quota left, the user\'s quota left and the balance, cut to 8 decimals', () => {
    expect(maxAmount(product, normal, '100000')).toBe('1000');
    expect(maxAmount({ ...product, lastAmount: '300' }, normal, '100000')).toBe('300');
    expect(maxAmount({ ...product, perUserQuota: '100' }, { ...normal, subscribed: '30' }, '100000')).toBe('70');
    expect(maxAmount(product, normal, '12.123456789')).toBe('12.12345678');
    expect(maxAmount(product, normal, '0')).toBe('0');
  });
});
