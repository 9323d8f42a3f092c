/**
 * Test helpers of the funds screens: the shared fake backend and member (`src/test`), logged in at
 * a funds screen, and the balances and channels the funds calls answer with.
 *
 * @module
 */

import type { UserInfo } from '../../api/generated/model';
import { makeUser } from '../../test/fake-backend';
import { renderSignedIn } from '../../test/render';

export { type Call, callsTo, fail, fakeBackend, makeUser, ok } from '../../test/fake-backend';

/** Logs in (a session cookie) and renders the app at `path` with `user` in the cache. */
export function renderFunds(path: string, user: UserInfo = makeUser()) {
  return renderSignedIn(path, user);
}

/** Balances of getUserCoin: `usdt` 1000 funding, 50 trading; `btc` 0.5 funding; `eth` nothing. */
export const USER_COINS = {
  coins: [
    { coin: 'usdt', funding: '1000', trading: '50', earn: '0', frozen: '25', total: '1075' },
    { coin: 'btc', funding: '0.5', trading: '0', earn: '0', frozen: '0', total: '0.5' },
    { coin: 'eth', funding: '0', trading: '0', earn: '0', frozen: '0', total: '0' },
  ],
};

/** Deposit addresses of the channels below (valid for their networks). */
export const TRC20_ADDRESS = 'TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7';
export const ERC20_ADDRESS = '0x52908400098527886E0F7030069857D2E4169EE7';

/** getRechargeCurrency: USDT on TRC20 and ERC20, BTC on BTC. */
export const CHANNELS = {
  coins: [
    {
      coin: 'usdt',
      networks: [
        { network: 'TRC20', address: TRC20_ADDRESS, minDeposit: '10', withdrawFee: '1', minWithdraw: '10', precision: 6 },
        { network: 'ERC20', address: ERC20_ADDRESS, minDeposit: '20', withdrawFee: '5', minWithdraw: '20', precision: 6 },
      ],
    },
    { coin: 'btc', networks: [{ network: 'BTC', address: 'bc1qar0srrr7xfkvy5l643lydnw9re59gtzzwf5mdq', minDeposit: '0.0005', withdrawFee: '0.0002', minWithdraw: '0.001', precision: 8 }] },
  ],
};
