//! The chart area of the trade screen: the candlestick chart (with its interval bar and indicators)
//! or, on the Depth tab, the cumulative depth of the live book.

import { Box, Tabs } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../../api/generated/model';
import { KlineChart } from '../../components/kline-chart';
import { DepthChart } from './depth-chart';

/** Height of the chart's price pane on the trade screen, by breakpoint. */
const CHART_HEIGHT = { base: 260, lg: 340, xl: 400 };

export function ChartPanel({ coin, pair }: { coin: CoinListEntry; pair: string }) {
  const { t } = useTranslation();
  const [view, setView] = useState<'candles' | 'depth'>('candles');
  return (
    <Box as="section" aria-label={t('trade.chart.title', { pair })} minW="0">
      <Tabs.Root value={view} onValueChange={(details) => setView(details.value as 'candles' | 'depth')} size="sm" variant="line" lazyMount unmountOnExit>
        <Tabs.List aria-label={t('trade.chart.view')} mb="2">
          <Tabs.Trigger value="candles">{t('trade.chart.candles')}</Tabs.Trigger>
          <Tabs.Trigger value="depth">{t('trade.chart.depth')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="candles" p="0">
          <KlineChart symbol={coin.symbol} pair={pair} pricePrecision={coin.pricePrecision} quantityPrecision={coin.quantityPrecision} height={CHART_HEIGHT} />
        </Tabs.Content>
        <Tabs.Content value="depth" p="0">
          <Box borderWidth="1px" rounded="xl" bg="bg.panel">
            <DepthChart coin={coin} pair={pair} />
          </Box>
        </Tabs.Content>
      </Tabs.Root>
    </Box>
  );
}
