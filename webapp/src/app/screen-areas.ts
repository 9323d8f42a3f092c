/**
 * Which i18n areas (`src/i18n/areas.ts`) each module loaded on demand needs before its first render:
 * its loader waits for them (`lazy-screen.ts`). Keys are module paths under `src/`, without the
 * extension. `screen-areas.test.ts` fails when a module's static imports use texts of an area not
 * listed here, or when a module is loaded on demand without an entry; the first-load script
 * (`webapp/build/first-load.ts`) counts these areas in a page's first download.
 *
 * Imports nothing but a type, so that the Node.js build script can read it as it is.
 *
 * @module
 */

import type { Area } from '../i18n/areas';

/** Module → the areas it needs. */
export const SCREEN_AREAS = {
  'features/account/account-center-page': ['account', 'kyc', 'referral', 'tiers', 'verify'],
  'features/admin/admin-page': ['content', 'earn', 'funds', 'kyc', 'loans', 'referral', 'support', 'tiers'],
  'features/auth/login-page': ['auth'],
  'features/auth/register-page': ['auth'],
  'features/auth/reset-page': ['auth'],
  'features/earn/earn-page': ['earn', 'funds'],
  'features/entrust/entrust-page': ['entrust', 'futures', 'trade'],
  'features/funds/assets-page': ['earn', 'entrust', 'funds', 'futures', 'referral', 'trade', 'verify'],
  'features/funds/wallet-page': ['funds', 'verify'],
  'features/home/home-page': [],
  'features/loans/loans-page': ['loans'],
  'features/market/market-page': ['market', 'trade'],
  'features/markets/markets-page': [],
  'features/rules/rules-page': ['content', 'rules'],
  'features/content/about-page': ['content'],
  'features/content/articles-page': ['content'],
  'features/content/notices-page': ['content'],
  'features/content/user-index-page': ['content', 'funds', 'trade'],
  'features/futures/futures-page': ['futures', 'market', 'trade'],
  'features/seconds/seconds-page': ['market', 'seconds'],
  'features/support/chat-widget': ['support'],
  'features/trade/full-screen-chart': ['market', 'trade'],
  'features/trade/trade-page': ['market', 'trade'],
  'app/shell/account-menu': [],
  'app/shell/features-menu': [],
  'app/shell/language-switcher': [],
  'app/shell/notice-bell': ['content'],
  'app/shell/side-menu': [],
  'components/toaster': [],
} as const satisfies Record<string, readonly Area[]>;

/** A module loaded on demand. */
export type ScreenKey = keyof typeof SCREEN_AREAS;
