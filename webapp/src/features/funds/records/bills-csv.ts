/**
 * The bills CSV file a reader downloads, in their language: the export's bills (`BillExport.records`)
 * written with the bills list's wording — translated column names, the kind's name and the detail
 * line of {@link billDetailText} — times in the reader's time zone; amounts stay plain decimals so
 * a spreadsheet reads them as numbers. RFC 4180 quoting; text a spreadsheet would run as a formula
 * is prefixed with `'`.
 *
 * @module
 */

import type { TFunction } from 'i18next';
import type { Bill } from '../../../api/generated/model';
import { billDetailText, billKindText } from './bill-detail';

/** A plain decimal (`-12.5`): a number to a spreadsheet, not a formula. */
const NUMBER = /^-?\d+(\.\d+)?$/;

/** One CSV field (RFC 4180), formula-like text defused with a leading `'`. */
export function csvField(text: string): string {
  const safe = !NUMBER.test(text) && /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/** `records` as CSV text with a header row, worded by `t`, times by `formatTime`. */
export function billsCsv(t: TFunction, records: readonly Bill[], formatTime: (epochMs: number) => string): string {
  const header = ['time', 'type', 'coin', 'account', 'amount', 'balance', 'memo'].map((column) => t(`funds.columns.${column}`));
  const lines = records.map((bill) => [
    formatTime(bill.createdAt),
    billKindText(t, bill.kind),
    bill.coin.toUpperCase(),
    t(`funds.buckets.${bill.bucket}`, { defaultValue: bill.bucket }),
    bill.amount,
    bill.balance,
    billDetailText(t, bill),
  ]);
  return [header, ...lines].map((fields) => fields.map(csvField).join(',') + '\r\n').join('');
}
