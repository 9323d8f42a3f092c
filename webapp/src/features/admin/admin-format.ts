/**
 * Display helpers of the review screen: times through the wasm core, country names in the
 * interface language, badge colours of the review states.
 *
 * @module
 */

import { formatDateTime } from '../../lib/wasm';

/** The review states an operator filters by. */
export const REVIEW_STATUSES = ['review', 'passed', 'failed'] as const;
export type ReviewStatus = (typeof REVIEW_STATUSES)[number];

/** Badge colour of each state (the same as the user's identity tab). */
export const STATUS_PALETTE: Record<ReviewStatus, 'orange' | 'green' | 'red'> = {
  review: 'orange',
  passed: 'green',
  failed: 'red',
};

/** `status` from the URL when it is one of the states, else `review` (the queue). */
export function parseStatus(value: string | null): ReviewStatus {
  return (REVIEW_STATUSES as readonly string[]).includes(value ?? '') ? (value as ReviewStatus) : 'review';
}

/** A page number from the URL: a whole number from 1, else 1. */
export function parsePage(value: string | null): number {
  const page = Number(value);
  return Number.isInteger(page) && page >= 1 ? page : 1;
}

/** `MM/DD/YYYY HH:mm:ss` of `epochMs` in the browser's time zone, or `--`. */
export function formatTime(epochMs: number | null | undefined): string {
  if (epochMs === null || epochMs === undefined || !Number.isFinite(epochMs)) return '--';
  return formatDateTime(epochMs, -new Date(epochMs).getTimezoneOffset());
}

/** The name of country `code` in `lang`, else the value as it is. */
export function countryName(code: string | null | undefined, lang: string): string {
  if (!code) return '--';
  if (/^[A-Za-z]{2}$/.test(code)) {
    try {
      const name = new Intl.DisplayNames([lang], { type: 'region' }).of(code.toUpperCase());
      if (name) return name;
    } catch {
      // Not a region the browser knows: show the code.
    }
  }
  return code;
}
