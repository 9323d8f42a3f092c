import { describe, expect, it } from 'vitest';
import { EMPTY_DRAFT, MERCHANT_LIMITS, characters, checkMerchantDraft, isMerchantField } from './form';

const filled = { businessName: 'Ada Trading', contact: 'ada@example.com', business: 'OTC desk', countries: 'DE, AT' };

describe('merchant application form', () => {
  it('requires every field, blanks included', () => {
    expect(checkMerchantDraft(EMPTY_DRAFT)).toEqual({
      ok: false,
      errors: { businessName: 'required', contact: 'required', business: 'required', countries: 'required' },
    });
    expect(checkMerchantDraft({ ...filled, contact: '   ' })).toEqual({ ok: false, errors: { contact: 'required' } });
  });

  it('sends the trimmed values', () => {
    expect(checkMerchantDraft({ ...filled, businessName: '  Ada Trading \n' })).toEqual({ ok: true, form: filled });
  });

  it('limits each field to its length in characters, as the server counts them', () => {
    const exact = 'x'.repeat(MERCHANT_LIMITS.businessName);
    expect(checkMerchantDraft({ ...filled, businessName: exact }).ok).toBe(true);
    expect(checkMerchantDraft({ ...filled, businessName: `${exact}x` })).toEqual({ ok: false, errors: { businessName: 'tooLong' } });
    expect(checkMerchantDraft({ ...filled, business: 'y'.repeat(1001) })).toEqual({ ok: false, errors: { business: 'tooLong' } });
    expect(checkMerchantDraft({ ...filled, countries: 'z'.repeat(257) })).toEqual({ ok: false, errors: { countries: 'tooLong' } });
    // 128 emoji are 256 UTF-16 units but 128 characters: allowed.
    const emoji = '🏪'.repeat(128);
    expect(characters(emoji)).toBe(128);
    expect(checkMerchantDraft({ ...filled, businessName: emoji }).ok).toBe(true);
  });

  it('knows its field names', () => {
    expect(isMerchantField('countries')).toBe(true);
    expect(isMerchantField('rebateRate')).toBe(false);
    expect(isMerchantField(undefined)).toBe(false);
  });
});
