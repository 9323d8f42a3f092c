import { describe, expect, it } from 'vitest';
import type { LoanProductView } from '../../../api/generated/model';
import { applySchedule, isRepayWay, penaltyRule } from './preview';

const product: LoanProductView = {
  id: 1,
  coin: 'usdt',
  scale: 2,
  name: 'USDT loan',
  minAmount: '100',
  maxAmount: '5000',
  cycles: [7, 60],
  dayRate: '0.001',
  repayWays: ['maturity', 'equal_instalments'],
  institution: 'Kestrel Lending',
  penaltyDayRate: '0.002',
  graceDays: 3,
  minCreditScore: 60,
  kycLevel: 2,
};
const start = Date.UTC(2026, 0, 1);
const DAY = 86_400_000;

describe('applySchedule', () => {
  it('is one payment at maturity: principal and the cycle’s interest', () => {
    const schedule = applySchedule(product, '1000', 7, 'maturity', start);
    expect(schedule?.instalments).toHaveLength(1);
    expect(schedule?.instalments[0]).toMatchObject({ dueTime: start + 7 * DAY, principal: '1000', interest: '7' });
    expect(schedule?.totalInterest).toBe('7');
  });
  it('splits equal instalments every 30 days', () => {
    const schedule = applySchedule(product, '1000', 60, 'equal_instalments', start);
    expect(schedule?.instalments.map((row) => row.dueTime)).toEqual([start + 30 * DAY, start + 60 * DAY]);
  });
  it('is nothing until the terms are complete and valid', () => {
    expect(applySchedule(product, '1000', null, 'maturity', start)).toBeNull();
    expect(applySchedule(product, '1000', 7, 'weekly', start)).toBeNull();
    expect(applySchedule(product, '1000', 45, 'equal_instalments', start)).toBeNull();
    expect(applySchedule(product, 'x', 7, 'maturity', start)).toBeNull();
  });
  it('knows the t_repay_type values', () => {
    expect(isRepayWay('interest_daily')).toBe(true);
    expect(isRepayWay('daily')).toBe(false);
  });
});

describe('penaltyRule', () => {
  it('prices one penalty day after the grace days', () => {
    expect(penaltyRule(product, '1007')).toEqual({ ratePercent: '0.2', graceDays: 3, perDay: '2.01' });
  });
});
