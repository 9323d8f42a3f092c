/**
 * What a bill is about, in the reader's language: the server sends each bill's details as data
 * (`Bill.detail`: pair, side, prices, network, address, buckets, counterparty, conversion legs,
 * seconds bet, earn product and reward day, loan and its repayment's parts…), worded here through i18n (`funds.bills.details.*`) with wasm-core's number formats.
 * The journal's English note (`Bill.memo`) is never shown: a bill without details says its kind.
 * The CSV export words its rows with the same functions.
 *
 * @module
 */

import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Bill, BillDetails } from '../../../api/generated/model';
import { formatPrice, formatQuantity, orDash } from '../../../lib/wasm';

/** What a bill's wording needs of it. */
export type BillText = Pick<Bill, 'kind' | 'detail'>;

const DETAILS = 'funds.bills.details';

/** The name of bill kind `kind` in the language of `t` (`--` for a kind the interface does not know). */
export function billKindText(t: TFunction, kind: string): string {
  return t(`funds.bills.kinds.${kind}`, { defaultValue: '--' });
}

/** `amount coin` with the amount in wasm-core's quantity format (`25 USDT`). */
function coinAmount(amount: string | undefined, coin: string | undefined): string {
  return `${orDash((v) => formatQuantity(v), amount)} ${(coin ?? '').toUpperCase()}`.trim();
}

/** The words of `detail` for a bill of `kind`, or `undefined` when its fields say nothing of it. */
function detailWords(t: TFunction, kind: string, detail: BillDetails): string | undefined {
  const pair = detail.symbol?.toUpperCase();
  const price = orDash((v) => formatPrice(v), detail.price);
  const destination = detail.address
    ? detail.network
      ? t(`${DETAILS}.destination`, { address: detail.address, network: detail.network })
      : detail.address
    : undefined;
  const bucket = (name: string | undefined) => (name ? t(`funds.buckets.${name}`, { defaultValue: '--' }) : '--');
  switch (kind) {
    case 'futures_fill':
      return t(`${DETAILS}.fill`, {
        side: t(`${DETAILS}.${detail.side === 'sell' ? 'sell' : 'buy'}`),
        quantity: orDash((v) => formatQuantity(v), detail.quantity),
        pair,
        price,
      });
    case 'futures_liquidation':
      return t(`${DETAILS}.liquidation`, { pair, price });
    case 'futures_funding':
      return t(`${DETAILS}.funding`, { pair, rate: detail.rate ?? '--' });
    case 'futures_margin':
      return t(detail.direction === 'remove' ? `${DETAILS}.marginRemove` : `${DETAILS}.marginAdd`, { pair });
    case 'futures_hold':
      return t(`${DETAILS}.hold`, { pair });
    case 'futures_release':
      return t(`${DETAILS}.release`, { pair, id: detail.orderId ?? '--' });
    case 'spot_trade':
      return pair ? t(`${DETAILS}.spotTrade`, { pair }) : undefined;
    case 'spot_freeze':
    case 'spot_release': {
      if (detail.orderId == null) return undefined;
      const which = kind === 'spot_freeze' ? 'spotHold' : 'spotRelease';
      return pair ? t(`${DETAILS}.${which}`, { pair, id: detail.orderId }) : t(`${DETAILS}.${which}Order`, { id: detail.orderId });
    }
    case 'deposit':
      return detail.network ? t(`${DETAILS}.deposit`, { network: detail.network }) : undefined;
    case 'withdrawal':
      if (!destination) return undefined;
      return t(detail.stage === 'held' ? `${DETAILS}.withdrawalHeld` : `${DETAILS}.withdrawalSent`, { destination });
    case 'withdrawal_refund':
      return destination ? t(`${DETAILS}.refund`, { destination }) : t(`${DETAILS}.refundPlain`);
    case 'fee':
      if (detail.feeOf !== 'withdrawal') return undefined;
      return detail.network ? t(`${DETAILS}.withdrawalFeeNetwork`, { network: detail.network }) : t(`${DETAILS}.withdrawalFee`);
    case 'bucket_transfer':
      return t(`${DETAILS}.bucketTransfer`, { from: bucket(detail.fromBucket), to: bucket(detail.toBucket) });
    case 'user_transfer':
      if (detail.counterparty == null) return undefined;
      return t(detail.direction === 'received' ? `${DETAILS}.transferReceived` : `${DETAILS}.transferSent`, { id: detail.counterparty });
    case 'exchange':
      return t(`${DETAILS}.exchange`, {
        from: coinAmount(detail.fromAmount, detail.fromCoin),
        to: coinAmount(detail.toAmount, detail.toCoin),
      });
    case 'seconds_stake':
    case 'seconds_settle': {
      const bet = {
        pair,
        direction: t(`${DETAILS}.${detail.direction === 'down' ? 'down' : 'up'}`),
        period: detail.periodSeconds ?? '--',
        price,
      };
      if (kind === 'seconds_stake') return t(`${DETAILS}.secondsStake`, bet);
      const result = detail.result === 'win' || detail.result === 'loss' || detail.result === 'tie' ? detail.result : undefined;
      return t(`${DETAILS}.secondsSettle`, {
        ...bet,
        result: result ? t(`${DETAILS}.${result}`) : '--',
        open: orDash((v) => formatPrice(v), detail.openPrice),
      });
    }
    case 'earn_subscribe':
      return detail.productId == null ? undefined : t(`${DETAILS}.earnSubscribe`, { id: detail.productId });
    case 'referral_rebate':
      // The batch pays the fills before an hour boundary: shown in UTC, as the batch counts hours.
      return detail.rebatedUntil != null ? t(`${DETAILS}.referralRebate`, { time: `${new Date(detail.rebatedUntil).toISOString().slice(0, 16).replace('T', ' ')} UTC` }) : undefined;
    case 'earn_income':
      if (detail.productId == null) return undefined;
      return t(`${DETAILS}.earnIncome`, { id: detail.productId, date: detail.date ?? '--' });
    case 'earn_maturity':
      return detail.productId == null ? undefined : t(`${DETAILS}.earnMaturity`, { id: detail.productId });
    case 'earn_redeem':
      if (detail.productId == null) return undefined;
      return t(`${DETAILS}.earnRedeem`, { id: detail.productId, deduction: orDash((v) => formatQuantity(v), detail.deduction) });
    case 'loan_disburse':
      if (detail.loanId == null) return undefined;
      return t(`${DETAILS}.loanDisburse`, { id: detail.loanId, principal: orDash((v) => formatQuantity(v), detail.principal) });
    case 'loan_repay': {
      if (detail.loanId == null) return undefined;
      const figures = {
        id: detail.loanId,
        principal: orDash((v) => formatQuantity(v), detail.principal),
        interest: orDash((v) => formatQuantity(v), detail.interest),
        penalty: orDash((v) => formatQuantity(v), detail.penalty),
        first: detail.firstInstalment ?? '--',
        last: detail.lastInstalment ?? '--',
      };
      const how = detail.stage === 'early' ? 'loanRepayEarly' : detail.stage === 'auto' ? 'loanRepayAuto' : 'loanRepayInstalments';
      return t(`${DETAILS}.${how}`, figures);
    }
    default:
      return undefined;
  }
}

/** The detail line of `bill` in the language of `t`: its details worded, else its kind's name. */
export function billDetailText(t: TFunction, bill: BillText): string {
  const words = bill.detail ? detailWords(t, bill.kind, bill.detail) : undefined;
  return words ?? billKindText(t, bill.kind);
}

/** {@link billDetailText} in the interface language. */
export function useBillDetail(): (bill: BillText) => string {
  const { t } = useTranslation();
  return (bill) => billDetailText(t, bill);
}
