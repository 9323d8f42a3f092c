/**
 * What the user already holds of each product (subscriptions made and amount subscribed, from
 * `POST /api/mingOrder/list`) and their tier: the per-user limits and the Member Zone rule of the
 * subscribe button. A visitor holds nothing and has no tier.
 *
 * @module
 */

import { useMemo } from 'react';
import { useListEarnPositions } from '../../api/generated/earn/earn';
import { useCurrentUser } from '../../hooks/use-current-user';
import { sumDecimals } from '../../lib/decimal-math';
import { useIsLoggedIn } from '../../lib/session';
import type { Holder } from './lib/availability';

/** The most recent positions read to count a user's holdings (a user with more sees the server refuse). */
const HOLDINGS_PAGE = 100;

/** The holder of each product id, and the user's tier. */
export function useHolder(): { holderOf: (productId: number) => Holder; userType: string | undefined } {
  const loggedIn = useIsLoggedIn();
  const { user } = useCurrentUser();
  const positions = useListEarnPositions({ pageSize: HOLDINGS_PAGE }, { query: { enabled: loggedIn } });
  const userType = user?.user.userType;
  const byProduct = useMemo(() => {
    const map = new Map<number, { subscriptions: number; amounts: string[] }>();
    for (const position of positions.data?.records ?? []) {
      const entry = map.get(position.productId) ?? { subscriptions: 0, amounts: [] };
      entry.subscriptions += 1;
      entry.amounts.push(position.amount);
      map.set(position.productId, entry);
    }
    return map;
  }, [positions.data]);
  return {
    userType,
    holderOf: (productId) => {
      const entry = byProduct.get(productId);
      return { userType, subscriptions: entry?.subscriptions ?? 0, subscribed: entry ? sumDecimals(entry.amounts) : '0' };
    },
  };
}
