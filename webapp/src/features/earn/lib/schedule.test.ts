import { describe, expect, it } from 'vitest';
import { type ScheduleProduct, ruleOf, schedulePreview, utcDay } from './schedule';
import { ratePercents, timesWhole, trimPercent } from './rates';

const DAY = 86_400_000;
// 2026-01-30 15:00 UTC.
const NOW = Date.UTC(2026, 0, 30, 15);

const locked: ScheduleProduct = { rate: '0.001', rateBasis: 'daily', lockDays: 30, flexible: false, earlyRedemption: 'deduct' };

describe('schedulePreview', () => {
  it('maps the core schedule: value date D+1, first payout D+2, daily and total reward, delivery', () => {
    const preview = schedulePreview(locked, '1000', NOW);
    expect(preview).not.toBeNull();
    const p = preview!;
    expect(p.subscribedAt).toBe(NOW);
    expect(utcDay(p.valueDate)).toBe('2026-01-31');
    expect(utcDay(p.firstPayoutDate)).toBe('2026-02-01');
    expect(p.valueDate).toBe(Date.UTC(2026, 0, 31));
    expect(p.firstPayoutDate - p.valueDate).toBe(DAY);
    expect(p.daily).toBe('1');
    expect(p.firstPayout).toBe('1');
    expect(p.total).toBe('30');
    expect(p.days).toBe(30);
    expect(utcDay(p.lastAccrualDate)).toBe('2026-03-01');
    expect(p.deliveryDate).not.toBeNull();
    expect(p.deliveryDate! > p.lastAccrualDate).toBe(true);
    expect(p.rule).toBe('deduct');
  });

  it('rounds each day down to 8 decimals and carries the rest (an APR product)', () => {
    const p = schedulePreview({ ...locked, rate: '0.1', rateBasis: 'apr', lockDays: 3 }, '1', NOW)!;
    // 1 × 0.1 / 365 = 0.000273972602… a day: 0.00027397 shown, three days add up to 0.00082191.
    expect(p.daily).toBe('0.00027397');
    expect(p.total).toBe('0.00082191');
  });

  it('has no delivery date for a flexible product and names its rule', () => {
    const p = schedulePreview({ ...locked, flexible: true, lockDays: 7 }, '100', NOW)!;
    expect(p.deliveryDate).toBeNull();
    expect(p.rule).toBe('flexible');
    expect(p.days).toBe(7);
  });

  it('is null for an amount the core refuses', () => {
    expect(schedulePreview(locked, '0', NOW)).toBeNull();
    expect(schedulePreview(locked, 'x', NOW)).toBeNull();
  });

  it('names the early-redemption rule of a locked product', () => {
    expect(ruleOf({ flexible: false, earlyRedemption: 'forbidden' })).toBe('forbidden');
    expect(ruleOf({ flexible: false, earlyRedemption: 'keep' })).toBe('keep');
  });
});

describe('ratePercents', () => {
  it('shows a daily rate with its simple annual equivalent, and an APR with its daily share', () => {
    expect(ratePercents({ rate: '0.001', rateBasis: 'daily', dayRate: '0.001' })).toEqual({ daily: '0.1', annual: '36.5' });
    expect(ratePercents({ rate: '0.0365', rateBasis: 'apr', dayRate: '0.0001' })).toEqual({ daily: '0.01', annual: '3.65' });
  });

  it('multiplies and trims exactly', () => {
    expect(timesWhole('0.0015', 365)).toBe('0.5475');
    expect(timesWhole('2', 365)).toBe('730');
    expect(trimPercent('36.500000')).toBe('36.5');
    expect(trimPercent('12.3456789', 4)).toBe('12.3456');
  });
});
