/**
 * The screens the topics link to.
 *
 * @module
 */

/** Spot trading. */
export const SPOT_TRADE_PATH = '/trade/index?type=bb';
/** Flash (seconds) contracts. */
export const SECONDS_TRADE_PATH = '/trade/index?type=seconds';
/** The order centre. */
export const ORDER_CENTRE_PATH = '/assets/index?key=order';
/** The deposit screen. */
export const DEPOSIT_PATH = '/assets/index?key=recharge';
/** Deposit, withdrawal and transfer records and bills. */
export const RECORDS_PATH = '/assets/index?key=records';
/** The account centre's security tab. */
export const SECURITY_PATH = '/account/center/security';
/** USDT-M futures. */
export const FUTURES_TRADE_PATH = '/trade/index?type=usta';
