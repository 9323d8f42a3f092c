/**
 * How a funds screen links to another: the host (/assets/index or /account/wallet) provides the
 * link builder, so the same screen works in both.
 *
 * @module
 */

import { createContext, useContext } from 'react';
import { type FundsTarget, assetsHref } from './screens';

const FundsLinksContext = createContext<(target: FundsTarget) => string>(assetsHref);

/** Provides the host's link builder (`assetsHref` or `walletHref`). */
export const FundsLinksProvider = FundsLinksContext.Provider;

/** The link of a funds screen in the current host. */
export function useFundsHref(): (target: FundsTarget) => string {
  return useContext(FundsLinksContext);
}
