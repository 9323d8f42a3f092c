import { describe, expect, it } from 'vitest';
import type { LoanOffer } from '../../../api/generated/model';
import { type ApplyDraft, amountProblem, blockerKey, missingSteps } from './rules';

const offer: LoanOffer = {
  product: {
    id: 1,
    coin: 'usdt',
    scale: 2,
    name: 'USDT loan',
    minAmount: '100',
    maxAmount: '5000',
    cycles: [7, 30],
    dayRate: '0.0005',
    repayWays: ['maturity', 'equal_instalments'],
    institution: 'Kestrel Lending',
    penaltyDayRate: '0.001',
    graceDays: 3,
    minCreditScore: 60,
    kycLevel: 2,
  },
  yourMaxAmount: '4000',
  eligible: true,
  blockers: [],
};

const draft: ApplyDraft = { amount: '1000', cycleDays: 30, repayWay: 'maturity', documents: 'upload', files: { front: 1, back: 2, hold: 3 }, acceptRules: true };

describe('amountProblem', () => {
  it('accepts an amount within the limits and the score', () => {
    expect(amountProblem(offer, '1000')).toBeNull();
    expect(amountProblem(offer, '4000')).toBeNull();
  });
  it('names the limit an amount breaks', () => {
    expect(amountProblem(offer, '99.99')).toEqual({ kind: 'min', amount: '100' });
    expect(amountProblem(offer, '5000.01')).toEqual({ kind: 'max', amount: '5000' });
    expect(amountProblem(offer, '4000.01')).toEqual({ kind: 'score', amount: '4000' });
  });
  it('refuses what is not a positive amount of the coin’s decimals', () => {
    for (const bad of ['', 'abc', '0', '-5', '1.234', '1e3']) expect(amountProblem(offer, bad)).toEqual({ kind: 'format' });
  });
});

describe('missingSteps', () => {
  it('is empty for a complete draft', () => {
    expect(missingSteps(offer, draft)).toEqual([]);
  });
  it('names every unmet rule in order', () => {
    expect(missingSteps({ ...offer, eligible: false }, { ...draft, amount: '1', cycleDays: 14, repayWay: 'interest_daily', files: { front: 1 }, acceptRules: false })).toEqual([
      'blocked',
      'amount',
      'cycle',
      'repayWay',
      'documents',
      'rules',
    ]);
  });
  it('needs no uploads when the advanced identity’s images are reused', () => {
    expect(missingSteps(offer, { ...draft, documents: 'kyc', files: {} })).toEqual([]);
  });
});

describe('blockerKey', () => {
  it('words known blockers and falls back for others', () => {
    expect(blockerKey('credit_score')).toBe('loans.blockers.credit_score');
    expect(blockerKey('something_new')).toBe('loans.blockers.other');
  });
});
