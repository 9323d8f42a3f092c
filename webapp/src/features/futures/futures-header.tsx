/**
 * The futures screen's header: the pair with a "Perpetual" badge, the last price, and the mark
 * price, index price, funding rate with a live countdown to the next funding (read from
 * `contract/coin/fundingInfo` every few seconds, counted down locally every second), and the 24h
 * change and volume of the live ticker.
 *
 * @module
 */

import { Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useGetFuturesFundingInfo } from '../../api/generated/futures/futures';
import type { CoinListEntry } from '../../api/generated/model';
import { type HeaderStat, PairTickerHeader, pairPrice, tickerStats } from '../../components/pair-ticker-header';
import { secondsLeft, useNow } from '../../hooks/use-now';
import type { Direction } from '../../hooks/use-tick-direction';
import { SILENT } from '../../lib/api-calls';
import { fractionToPercent } from '../../lib/decimal-math';
import { useFeedStatus, useTicker } from '../../lib/live';

/** The funding info is read again this often (the mark moves with the book). */
const FUNDING_REFRESH_MS = 3_000;

/** `hh:mm:ss` of a number of seconds. */
export function countdownText(seconds: number): string {
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = seconds % 60;
  return [h, m, s].map((n) => String(n).padStart(2, '0')).join(':');
}

/** A funding rate (a fraction) as a signed percent with 4 decimals or more (`0.0001` → `0.0100%`). */
export function fundingRateText(rate: string | null | undefined): string {
  if (!rate) return '--';
  const negative = rate.startsWith('-');
  const percent = fractionToPercent(negative ? rate.slice(1) : rate);
  const [int, frac = ''] = percent.split('.');
  return `${negative ? '-' : ''}${int}.${frac.padEnd(4, '0')}%`;
}

export function FuturesHeader({
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
  // The pair's own ticker and the feed's status: another pair's ticker does not re-render it.
  const ticker = useTicker(coin.symbol);
  const status = useFeedStatus();
  const funding = useGetFuturesFundingInfo({ symbol: coin.symbol }, { query: { refetchInterval: FUNDING_REFRESH_MS }, request: SILENT });
  const now = useNow();
  const info = funding.data;
  const left = info ? secondsLeft(info.nextFundingTime, now) : null;
  const [change, , , volume] = tickerStats(coin, ticker, {
    change: t('futures.header.change'),
    high: '',
    low: '',
    volume: t('futures.header.volume', { coin: coin.coin.toUpperCase() }),
    turnover: '',
  });
  const stats: HeaderStat[] = [
    { key: 'mark', label: t('futures.header.markPrice'), value: pairPrice(coin, info?.markPrice) },
    { key: 'index', label: t('futures.header.indexPrice'), value: pairPrice(coin, info?.indexPrice) },
    {
      key: 'funding',
      label: t('futures.header.funding'),
      value: info ? `${fundingRateText(info.fundingRate)} / ${countdownText(left ?? 0)}` : '--',
      color: info?.fundingRate.startsWith('-') ? 'down' : 'up',
    },
    ...(change ? [change] : []),
    ...(volume ? [volume] : []),
  ];
  return (
    <PairTickerHeader
      as="header"
      size="md"
      coin={coin}
      pair={pair}
      lastPrice={lastPrice}
      lastPriceLabel={t('futures.header.lastPrice')}
      direction={direction}
      stats={stats}
      status={status}
      beside={
        <Text as="span" fontSize="xs" fontWeight="semibold" color="brand.fg" bg="brand.subtle" px="2" py="0.5" rounded="md" whiteSpace="nowrap">
          {t('futures.badge')}
        </Text>
      }
    />
  );
}
