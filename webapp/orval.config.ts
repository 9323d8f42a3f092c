/**
 * orval: generates typed react-query hooks for the backend's OpenAPI contract into
 * `src/api/generated/` (git-ignored; `npm run generate`).
 *
 * - `httpClient: 'axios'` only selects orval's "custom instance" call style
 *   (`apiClient<T>({url, method, params, data, signal}, options)` with an inferred return type);
 *   with a mutator no axios code or import is generated. The mutator (`src/lib/api-client.ts`)
 *   uses `fetch` and returns `Unwrap<T>`, the envelope's `data`, so hooks are typed by `data`.
 * - The backend's reads are POSTs (`getAllSetting`, `getCoinList`, …: `readOnlyPosts`), so those
 *   are generated as `useQuery` hooks; every other POST (login, register, …) is a `useMutation`
 *   hook (`use<Operation>` taking `{ data }`), GETs are queries. The funds reads (balances, record
 *   pages, bills, the exchange quote, the operator's review lists) are such POSTs too, and so are
 *   the spot reads (the user's orders `listSpotOrders` and fills `getEntrustLogCurrency`) and the
 *   user's seconds contracts (`listSecondsOrders`).
 * - The earn reads are such POSTs too: the products of a kind (`listEarnProducts`), one product
 *   (`getEarnProduct`), the user's positions (`listEarnPositions`), a redemption's preview
 *   (`previewEarnRedemption`), a position's statement (`getEarnStatement`) and the operator's
 *   product list (`adminListEarnProducts`).
 * - The agent management reads (`getAgentInfo`, `getAgentList`) are such POSTs too.
 * - `setFuturesLeverage` both reads (a body with the symbol only) and saves the user's futures
 *   setting: it is generated as a query too (`useSetFuturesLeverage`, keyed by
 *   `getSetFuturesLeverageQueryKey`), and the saves call the plain `setFuturesLeverage` function.
 * - `headers: true`: header parameters (the money-moving calls' `Idempotency-Key`) become a
 *   `headers` argument of the call and a `headers` field of the mutation's variables.
 *
 * @module
 */

import { defineConfig } from 'orval';

const readOnlyPosts = [
  'getAllSetting',
  'getCoinList',
  'getKline',
  'getCurrencyPrice',
  'getTicker24h',
  'getInfo',
  'getCountryCode',
  'getUserCoin',
  'getCurrencyAccount',
  'getExchangeQuote',
  'getMyBill',
  'listRecharges',
  'getRechargeLog',
  'listWithdrawals',
  'getWithdrawalLog',
  'getPersonalIncome',
  'adminListDeposits',
  'adminListWithdrawals',
  'listSpotOrders',
  'getEntrustLogCurrency',
  'listSecondsOrders',
  'listFuturesOrders',
  'listFuturesPositionHistory',
  'listFuturesPositions',
  'listFuturesStops',
  'listFuturesFundings',
  'setFuturesLeverage',
  'listEarnProducts',
  'getEarnProduct',
  'listEarnPositions',
  'previewEarnRedemption',
  'getEarnStatement',
  'adminListEarnProducts',
  'getAgentInfo',
  'getAgentList',
] as const;

export default defineConfig({
  kestrel: {
    input: { target: '../openapi/openapi.json' },
    output: {
      target: 'src/api/generated/endpoints.ts',
      schemas: 'src/api/generated/model',
      mode: 'tags-split',
      client: 'react-query',
      httpClient: 'axios',
      clean: true,
      headers: true,
      override: {
        mutator: { path: 'src/lib/api-client.ts', name: 'apiClient' },
        query: { signal: true, version: 5 },
        operations: Object.fromEntries(
          readOnlyPosts.map((id) => [id, { query: { useQuery: true, useMutation: false } }]),
        ),
      },
    },
  },
});
