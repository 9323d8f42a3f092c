/**
 * The merchant application form's rules, as the server applies them (`merchants/service.rs`):
 * every field is trimmed, required and at most so many characters (Unicode characters, as the
 * server counts them). What the screen shows for each field that breaks one.
 *
 * @module
 */

/** The fields, in the form's order. */
export const MERCHANT_FIELDS = ['businessName', 'contact', 'business', 'countries'] as const;

/** One field of the form. */
export type MerchantField = (typeof MERCHANT_FIELDS)[number];

/** The most characters each field takes. */
export const MERCHANT_LIMITS: Record<MerchantField, number> = {
  businessName: 128,
  contact: 128,
  business: 1000,
  countries: 256,
};

/** What the user typed. */
export type MerchantDraft = Record<MerchantField, string>;

/** An empty form. */
export const EMPTY_DRAFT: MerchantDraft = { businessName: '', contact: '', business: '', countries: '' };

/** What is wrong with a field: empty, or longer than its limit. */
export type MerchantFieldError = 'required' | 'tooLong';

/** The number of characters of `text` as the server counts them (code points, not UTF-16 units). */
export function characters(text: string): number {
  return [...text].length;
}

/**
 * Checks `draft`: the trimmed form to send when every field is right, else the error of each
 * field that is not.
 */
export function checkMerchantDraft(draft: MerchantDraft): { ok: true; form: MerchantDraft } | { ok: false; errors: Partial<Record<MerchantField, MerchantFieldError>> } {
  const errors: Partial<Record<MerchantField, MerchantFieldError>> = {};
  const form = { ...EMPTY_DRAFT };
  for (const field of MERCHANT_FIELDS) {
    const value = draft[field].trim();
    if (value === '') errors[field] = 'required';
    else if (characters(value) > MERCHANT_LIMITS[field]) errors[field] = 'tooLong';
    form[field] = value;
  }
  return Object.keys(errors).length > 0 ? { ok: false, errors } : { ok: true, form };
}

/** Whether a field name the server reported is one of the form's (else the error is the form's). */
export function isMerchantField(field: string | undefined): field is MerchantField {
  return (MERCHANT_FIELDS as readonly string[]).includes(field ?? '');
}
