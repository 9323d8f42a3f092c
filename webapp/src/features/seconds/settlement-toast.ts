/**
 * Telling the user that one of their seconds bets settled: the user channel's `SETTLEMENT` message
 * becomes a toast with the pair and the result (won and how much, lost and how much, or a tie).
 *
 * @module
 */

import type { TFunction } from 'i18next';
import type { SecondsOrder } from '../../api/generated/model';
import { formatPnl } from '../../lib/wasm';

/** The toast of a settled bet: its type and title in the language of `t`. */
export function settlementToast(t: TFunction, order: Pick<SecondsOrder, 'result' | 'profit' | 'quantity'>, pair: string): { type: 'success' | 'error' | 'info'; title: string } {
  const profit = order.profit ?? '0';
  switch (order.result) {
    case 'win':
      return { type: 'success', title: t('seconds.settled.win', { pair, amount: formatPnl(profit) }) };
    case 'loss':
      return { type: 'error', title: t('seconds.settled.loss', { pair, amount: formatPnl(profit.replace(/^-/, '')) }) };
    default:
      return { type: 'info', title: t('seconds.settled.tie', { pair }) };
  }
}
