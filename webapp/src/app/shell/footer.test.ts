import { describe, expect, it } from 'vitest';
import { topicOf } from '../../features/rules/lib/topics';
import { RULE_PAGES } from './footer';

describe('the footer’s rule links', () => {
  it('open the matching topic of /rule/index', () => {
    expect(topicOf(String(RULE_PAGES.secondsContract)).id).toBe('secondsContract');
    expect(topicOf(String(RULE_PAGES.spot)).id).toBe('spot');
    expect(topicOf(String(RULE_PAGES.usdtFutures)).id).toBe('usdtFutures');
    expect(topicOf(String(RULE_PAGES.loan)).id).toBe('loan');
    expect(topicOf(String(RULE_PAGES.userAgreement)).id).toBe('userAgreement');
    expect(topicOf(String(RULE_PAGES.privacy)).id).toBe('privacy');
    expect(topicOf(String(RULE_PAGES.riskDisclosure)).id).toBe('riskDisclosure');
  });
});
