/**
 * The chart area of the trade screen: the candlestick chart (with its interval bar and indicators)
 * or, on the Depth tab, the cumulative depth of the live book. From 1024 px the panel fills the
 * height its grid cell gives it (the band beside the book and the form).
 *
 * @module
 */

import { Box, Tabs, type SystemStyleObject } from '@chakra-ui/react';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { CoinListEntry } from '../../api/generated/model';
import { KlineChart } from '../../components/kline-chart';
import { DepthChart } from './depth-chart';

/** Height of the chart's price pane on phones and tablets (from 1024 px it fills the panel). */
const CHART_HEIGHT = { base: 260, lg: 340, xl: 400 };

/**
 * From 1024 px the chart's plot (the box holding the canvas, `role="img"`) takes the height left
 * under the toolbar and legend instead of its fixed one; klinecharts follows its container's size
 * (the indicator panes keep theirs, the price pane gets the rest).
 */
const FILL_CHART: SystemStyleObject = {
  '& > section': {
    flex: { lg: '1 1 auto' },
    display: { lg: 'flex' },
    flexDirection: { lg: 'column' },
  },
  '& > section > div:has(> [role="img"])': {
    flex: { lg: '1 1 0' },
    height: { lg: 'auto' },
    minHeight: { lg: '320px' },
  },
};

export const ChartPanel = memo(function ChartPanel({ coin, pair }: { coin: CoinListEntry; pair: string }) {
  const { t } = useTranslation();
  const [view, setView] = useState<'candles' | 'depth'>('candles');
  return (
    <Box as="section" aria-label={t('trade.chart.title', { pair })} minW="0" h="full" display="flex" flexDirection="column">
      <Tabs.Root
        value={view}
        onValueChange={(details) => setView(details.value as 'candles' | 'depth')}
        size="sm"
        variant="line"
        lazyMount
        unmountOnExit
        display="flex"
        flexDirection="column"
        flex="1"
        minH="0"
      >
        <Tabs.List aria-label={t('trade.chart.view')} mb="2">
          <Tabs.Trigger value="candles">{t('trade.chart.candles')}</Tabs.Trigger>
          <Tabs.Trigger value="depth">{t('trade.chart.depth')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="candles" p="0" flex="1" minH="0" display="flex" flexDirection="column" _hidden={{ display: 'none' }} css={FILL_CHART}>
          <KlineChart symbol={coin.symbol} pair={pair} pricePrecision={coin.pricePrecision} quantityPrecision={coin.quantityPrecision} height={CHART_HEIGHT} />
        </Tabs.Content>
        <Tabs.Content value="depth" p="0" flex="1" minH="0" display="flex" flexDirection="column" _hidden={{ display: 'none' }}>
          <Box borderWidth="1px" rounded="xl" bg="bg.panel" flex="1" display="flex" flexDirection="column">
            <DepthChart coin={coin} pair={pair} />
          </Box>
        </Tabs.Content>
      </Tabs.Root>
    </Box>
  );
});
