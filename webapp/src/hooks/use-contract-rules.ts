/**
 * The rules of a USDT-M perpetual as the server applies them — maintenance margin tiers, fee rates and
 * the funding settings — read from `GET /api/contract/coin/rules`, so the order form's preview, the
 * position dialogs and the rules page compute with the deployment's own configuration.
 *
 * @module
 */

import { useGetContractRules } from '../api/generated/futures/futures';
import type { ContractRules } from '../api/generated/model';
import { SILENT } from '../lib/api-calls';
import type { MarginTier } from '../lib/wasm';

/** Rules change only with the server's configuration: read once a session per symbol. */
const RULES_STALE_MS = 10 * 60 * 1000;

/** The contract's rules, or `undefined` while they load (previews then show `--`). */
export function useContractRules(symbol: string): ContractRules | undefined {
  const rules = useGetContractRules({ symbol }, { query: { staleTime: RULES_STALE_MS, enabled: symbol !== '' }, request: SILENT });
  return rules.data;
}

/** The tier table wasm-core's margin functions take; empty while the rules load. */
export function marginTiers(rules: ContractRules | undefined): MarginTier[] {
  return rules?.tiers.map((tier) => ({ ...tier })) ?? [];
}
