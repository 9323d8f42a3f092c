/**
 * The apply form's rules, the server's own (it refuses the same with nothing changed): the amount
 * within the product's limits and what the credit score allows, a cycle and repayment way the
 * product offers, the three identity images (or the advanced identity's), the loan rules accepted.
 * Each unmet rule is a reason the submit button names while it stays disabled.
 *
 * @module
 */

import type { LoanOffer } from '../../../api/generated/model';
import { compareDecimal } from '../../../lib/decimal';

/** What is wrong with an amount typed in. */
export type AmountProblem = { kind: 'format' } | { kind: 'min' | 'max' | 'score'; amount: string };

const DECIMAL = /^\d+(\.\d+)?$/;

/**
 * The amount's problem, if any: not a positive decimal, below the minimum, above the maximum, or
 * above the maximum the credit score allows now (`yourMaxAmount`).
 */
export function amountProblem(offer: Pick<LoanOffer, 'product' | 'yourMaxAmount'>, amount: string): AmountProblem | null {
  const value = amount.trim();
  if (!DECIMAL.test(value) || compareDecimal(value, '0') <= 0) return { kind: 'format' };
  const { minAmount, maxAmount, scale } = offer.product;
  const decimals = value.includes('.') ? value.length - value.indexOf('.') - 1 : 0;
  if (decimals > scale) return { kind: 'format' };
  if (compareDecimal(value, minAmount) < 0) return { kind: 'min', amount: minAmount };
  if (compareDecimal(value, maxAmount) > 0) return { kind: 'max', amount: maxAmount };
  if (compareDecimal(value, offer.yourMaxAmount) > 0) return { kind: 'score', amount: offer.yourMaxAmount };
  return null;
}

/** Why the form cannot be sent yet, in the order the user meets them. */
export type MissingStep = 'blocked' | 'amount' | 'cycle' | 'repayWay' | 'documents' | 'rules';

/** The form's state the rules read. */
export interface ApplyDraft {
  amount: string;
  cycleDays: number | null;
  repayWay: string | null;
  /** `kyc` reuses the advanced identity's images; `upload` needs all three file ids. */
  documents: 'upload' | 'kyc';
  files: { front?: number; back?: number; hold?: number };
  acceptRules: boolean;
}

/** Every rule `draft` does not meet for `offer` yet (empty: it may be sent). */
export function missingSteps(offer: LoanOffer, draft: ApplyDraft): MissingStep[] {
  const missing: MissingStep[] = [];
  if (!offer.eligible) missing.push('blocked');
  if (amountProblem(offer, draft.amount)) missing.push('amount');
  if (draft.cycleDays == null || !offer.product.cycles.includes(draft.cycleDays)) missing.push('cycle');
  if (draft.repayWay == null || !offer.product.repayWays.includes(draft.repayWay)) missing.push('repayWay');
  if (draft.documents === 'upload' && !(draft.files.front && draft.files.back && draft.files.hold)) missing.push('documents');
  if (!draft.acceptRules) missing.push('rules');
  return missing;
}

/** The server's blocker codes the screen words (`loans.blockers.*`); an unknown one reads as `other`. */
export const BLOCKERS = ['kyc_level', 'credit_score', 'pending_application', 'amount_limit'] as const;

/** The i18n key of blocker `code`. */
export function blockerKey(code: string): string {
  return `loans.blockers.${(BLOCKERS as readonly string[]).includes(code) ? code : 'other'}`;
}
