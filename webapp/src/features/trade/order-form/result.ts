/**
 * The toast after an order was accepted: what happened to it, in the user's language — filled at an
 * average price, partly filled (the rest on the book, or cancelled), placed on the book, waiting
 * for its trigger, or not filled at all (and why).
 *
 * @module
 */

import type { TFunction } from 'i18next';
import type { SpotOrder } from '../../../api/generated/model';
import type { SpotFormat } from '../../../components/spot-orders';
import { isZero } from '../../../lib/decimal-math';

/** A toast's kind and title. */
export interface ResultToast {
  type: 'success' | 'info' | 'warning';
  title: string;
}

/** The toast of `order` as the server answered it. */
export function resultToast(t: TFunction, order: SpotOrder, format: SpotFormat): ResultToast {
  const buy = order.side === 'buy';
  const values = {
    coin: format.base(order.symbol),
    quote: format.quote(order.symbol),
    filled: format.quantity(order.symbol, order.haveDealNum),
    quantity: format.quantity(order.symbol, order.commissNum),
    price: format.price(order.symbol, order.dealAverPrice ?? order.commissPrice),
    limit: format.price(order.symbol, order.commissPrice),
    trigger: format.price(order.symbol, order.triggerPrice),
    amount: format.amount(order.dealAmount),
  };
  switch (order.status) {
    case 'dealTotol':
      return { type: 'success', title: t(buy ? 'trade.result.bought' : 'trade.result.sold', values) };
    case 'partDeal':
      return { type: 'info', title: t(buy ? 'trade.result.partBuy' : 'trade.result.partSell', values) };
    case 'waitDeal':
      return { type: 'success', title: t(buy ? 'trade.result.placedBuy' : 'trade.result.placedSell', values) };
    case 'waitTrigger':
      return { type: 'success', title: t('trade.result.placedStop', values) };
    default: {
      if (!isZero(order.haveDealNum)) {
        return { type: 'info', title: t(buy ? 'trade.result.partCancelledBuy' : 'trade.result.partCancelledSell', values) };
      }
      const reason = order.cancelReason ? t(`trade.orders.cancelReason.${order.cancelReason}`, { defaultValue: order.cancelReason }) : '';
      return { type: 'warning', title: reason ? t('trade.result.notFilledBecause', { reason }) : t('trade.result.notFilled') };
    }
  }
}
