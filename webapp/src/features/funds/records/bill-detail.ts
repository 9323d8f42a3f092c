/**
 * What a bill is about, in the reader's language: the server sends the details of futures entries
 * and spot trades as data (`Bill.detail`: symbol, side, quantity, price, rate, direction, order),
 * worded here through i18n with wasm-core's number formats. Bills of other kinds show the journal's
 * note as it is.
 *
 * @module
 */

import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { Bill } from '../../../api/generated/model';
import { formatPrice, formatQuantity, orDash } from '../../../lib/wasm';

/** The detail line of `bill` in the language of `t` (`--` when there is nothing to say). */
export function billDetailText(t: TFunction, bill: Pick<Bill, 'kind' | 'memo' | 'detail'>): string {
  const detail = bill.detail;
  if (!detail) return bill.memo || '--';
  const pair = detail.symbol.toUpperCase();
  const price = orDash((v) => formatPrice(v), detail.price);
  switch (bill.kind) {
    case 'futures_fill':
      return t('funds.bills.details.fill', {
        side: t(`funds.bills.details.${detail.side === 'sell' ? 'sell' : 'buy'}`),
        quantity: orDash((v) => formatQuantity(v), detail.quantity),
        pair,
        price,
      });
    case 'futures_liquidation':
      return t('funds.bills.details.liquidation', { pair, price });
    case 'futures_funding':
      return t('funds.bills.details.funding', { pair, rate: detail.rate ?? '--' });
    case 'futures_margin':
      return t(detail.direction === 'remove' ? 'funds.bills.details.marginRemove' : 'funds.bills.details.marginAdd', { pair });
    case 'futures_hold':
      return t('funds.bills.details.hold', { pair });
    case 'futures_release':
      return t('funds.bills.details.release', { pair, id: detail.orderId ?? '--' });
    default:
      return pair;
  }
}

/** {@link billDetailText} in the interface language. */
export function useBillDetail(): (bill: Pick<Bill, 'kind' | 'memo' | 'detail'>) => string {
  const { t } = useTranslation();
  return (bill) => billDetailText(t, bill);
}
