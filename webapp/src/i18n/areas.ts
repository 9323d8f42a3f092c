/**
 * The feature areas of the texts: each has a folder here, `./<area>/<code>.json`, whose only
 * top-level key is the area. An area's texts load with the first screen that needs them
 * (`src/app/screen-areas.ts`), not with the page.
 *
 * @module
 */

/** Every feature area (the locale test checks this against the folders). */
export const AREAS = ['account', 'auth', 'content', 'earn', 'entrust', 'funds', 'futures', 'kyc', 'loans', 'market', 'referral', 'rules', 'seconds', 'support', 'tiers', 'trade', 'verify'] as const;

/** One feature area. */
export type Area = (typeof AREAS)[number];
