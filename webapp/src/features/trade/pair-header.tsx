/**
 * The trade screen's header: the pair (with its favourite star), the last price coloured by its
 * last move, and the 24h change, high, low, volume and turnover of the live ticker, with the feed's
 * status — the shared pair header in its dense size. It reads the pair's own ticker, so another
 * pair's ticker does not re-render it.
 *
 * @module
 */

import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../../api/generated/model';
import { PairTickerHeader, tickerStats } from '../../components/pair-ticker-header';
import type { Direction } from '../../hooks/use-tick-direction';
import { useFeedStatus, useTicker } from '../../lib/live';

export function PairHeader({
  coin,
  pair,
  lastPrice,
  direction,
}: {
  coin: CoinListEntry;
  pair: string;
  lastPrice: string | null;
  direction: Direction;
}) {
  const { t } = useTranslation();
  const ticker = useTicker(coin.symbol);
  const status = useFeedStatus();
  const stats = tickerStats(coin, ticker, {
    change: t('trade.header.change'),
    high: t('trade.header.high'),
    low: t('trade.header.low'),
    volume: t('trade.header.volume', { coin: coin.coin.toUpperCase() }),
    turnover: t('trade.header.turnover', { coin: coin.baseCoin.toUpperCase() }),
  });
  return (
    <PairTickerHeader
      as="header"
      size="md"
      coin={coin}
      pair={pair}
      lastPrice={lastPrice}
      lastPriceLabel={t('trade.header.lastPrice')}
      direction={direction}
      stats={stats}
      status={status}
    />
  );
}
