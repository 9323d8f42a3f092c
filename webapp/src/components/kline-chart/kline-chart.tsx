/**
 * The candlestick chart of a pair on klinecharts 10: an interval toolbar (spec section 7), indicator
 * toggles (MA, EMA, BOLL on the price pane; VOL, MACD, RSI in panes below), a legend with the
 * newest (or pointed-at) candle's exact values, history loaded page by page as the user scrolls
 * back, and the live candle built from trades (`ChartLoader`). Light and dark follow the app's
 * colour mode; times follow the platform's time zone.
 *
 * On phones (below 768 px) the bar shows the most used intervals as buttons and the others in a
 * compact select, indicator legends drop their parameters, and the price pane keeps room at its top
 * for them (`./phone-layout.ts`), so they never cover the highest candle's label.
 *
 * The canvas is `role="img"`, named after the pair and interval and described by how many candles
 * it holds; everything it shows as text (legend, loading, errors) is also HTML.
 *
 * @module
 */

import { Box, Button, Flex, HStack, NativeSelect, Spinner, Text, chakra } from '@chakra-ui/react';
import { type Chart, dispose, init, utils } from 'klinecharts';
import { memo, useEffect, useId, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getKline } from '../../api/generated/market/market';
import { useColorMode } from '../../hooks/use-color-mode';
import { marketFeed } from '../../lib/live';
import { readStored, writeStored } from '../../lib/storage';
import { type Candle, formatCompact, formatDateTime, formatPrice, priceChangePercent, formatPercent } from '../../lib/wasm';
import { sourceOf } from './candles';
import { ChartLoader, type ChartState } from './chart-loader';
import { chartStyles } from './chart-theme';
import { CHART_INTERVALS, type ChartInterval, DEFAULT_INTERVAL, periodOf, toChartInterval } from './intervals';
import { useTimeZone } from '../../hooks/use-time-zone';
import { useIsPhone } from '../../hooks/use-is-phone';
import { BOTTOM_GAP, MORE_INTERVALS, PHONE_INTERVALS, candlePaneTopGap, subPaneTopGap } from './phone-layout';

/** The indicators the toolbar toggles: three on the price pane, three in panes of their own. */
export const MAIN_INDICATORS = ['MA', 'EMA', 'BOLL'] as const;
export const SUB_INDICATORS = ['VOL', 'MACD', 'RSI'] as const;
export type IndicatorName = (typeof MAIN_INDICATORS)[number] | (typeof SUB_INDICATORS)[number];
const ALL_INDICATORS: readonly IndicatorName[] = [...MAIN_INDICATORS, ...SUB_INDICATORS];
const DEFAULT_INDICATORS: IndicatorName[] = ['MA', 'VOL'];
const CANDLE_PANE = 'candle_pane';

/** Storage keys (under `coin_web-`) of the chosen interval and indicators. */
export const INTERVAL_STORAGE_KEY = 'chart-interval';
export const INDICATORS_STORAGE_KEY = 'chart-indicators';

/** klinecharts' date templates (`YYYY-MM-DD HH:mm`) in the app's order (spec: `MM/DD/YYYY HH:mm:ss`). */
export function appDateTemplate(template: string): string {
  return template.replace('YYYY-MM-DD', 'MM/DD/YYYY').replace('YYYY-MM', 'MM/YYYY').replace('MM-DD', 'MM/DD');
}

function storedInterval(): ChartInterval {
  return toChartInterval(readStored(INTERVAL_STORAGE_KEY)) ?? DEFAULT_INTERVAL;
}

function storedIndicators(): IndicatorName[] {
  try {
    const list: unknown = JSON.parse(readStored(INDICATORS_STORAGE_KEY) ?? 'null');
    if (Array.isArray(list)) return ALL_INDICATORS.filter((name) => list.includes(name));
  } catch {
    // Fall through to the defaults.
  }
  return DEFAULT_INDICATORS;
}

/** What the chart needs to know about the pair. */
export interface KlineChartProps {
  /** Pair id (`btcusdt`). */
  symbol: string;
  /** Display name (`BTC/USDT`). */
  pair: string;
  /** Decimals of prices and quantities (from the coin list). */
  pricePrecision: number;
  quantityPrecision: number;
  /** Height of the price pane in pixels by breakpoint; each indicator pane below adds its own. */
  height?: Partial<Record<'base' | 'md' | 'lg' | 'xl', number>>;
}

/** Height of the price pane by breakpoint (klinecharts gives each indicator pane 100 px). */
const DEFAULT_HEIGHT = { base: 280, lg: 380, xl: 520 };
const SUB_PANE_HEIGHT = 100;

const INITIAL_STATE: ChartState = { loading: true, error: null, count: 0, firstTime: null, last: null };

/** The chart (memoised: the market screen re-renders with every trade, the chart has its own feed). */
export const KlineChart = memo(function KlineChart({
  symbol,
  pair,
  pricePrecision,
  quantityPrecision,
  height = DEFAULT_HEIGHT,
}: KlineChartProps) {
  const { t } = useTranslation();
  const { colorMode } = useColorMode();
  const phone = useIsPhone();
  const { offsetMinutes, label: zoneLabel } = useTimeZone();
  const [interval, setIntervalState] = useState<ChartInterval>(storedInterval);
  const [indicators, setIndicators] = useState<IndicatorName[]>(storedIndicators);
  const [state, setState] = useState<ChartState>(INITIAL_STATE);
  // The candle under the pointer, tagged with the pair and interval it belongs to.
  const [pointed, setPointed] = useState<{ key: string; candle: Candle | null } | null>(null);
  const containerRef = useRef<HTMLDivElement | null>(null);
  const chartRef = useRef<Chart | null>(null);
  const loaderRef = useRef<ChartLoader | null>(null);
  const offsetRef = useRef(offsetMinutes);
  const viewKey = `${symbol}|${interval}`;
  const viewKeyRef = useRef(viewKey);
  const describedBy = useId();

  // The chart and its loader live as long as the component.
  useEffect(() => {
    const container = containerRef.current;
    if (!container) return;
    const chart = init(container, {
      // Times are shifted to the platform's fixed offset and read back as UTC (the offset table has
      // no daylight saving, like the candles' buckets).
      timezone: 'UTC',
      formatter: {
        formatDate: ({ dateTimeFormat, timestamp, template }) =>
          utils.formatDate(dateTimeFormat, timestamp + offsetRef.current * 60_000, appDateTemplate(template)),
      },
      thousandsSeparator: { sign: ',' },
    });
    if (!chart) return;
    // klinecharts makes its drawing box focusable with tabindex="1", which would put the chart before
    // everything else in the page's tab order; the chart is an image described in text (its keys
    // are read on the document), so its box leaves the tab order.
    for (const focusable of container.querySelectorAll<HTMLElement>('[tabindex]')) focusable.tabIndex = -1;
    chartRef.current = chart;
    const loader = new ChartLoader(
      {
        fetchPage: (query, signal) => getKline(query, { silent: true }, signal),
        feed: marketFeed(),
        chart: () => chartRef.current,
        onState: setState,
      },
      offsetRef.current,
    );
    loaderRef.current = loader;
    chart.setDataLoader(loader);
    const onCrosshair = (data?: unknown) => {
      const x = (data as { x?: number } | undefined)?.x;
      if (typeof x !== 'number') return;
      const point = chart.convertFromPixel([{ x }], { paneId: CANDLE_PANE }) as Array<{ dataIndex?: number }>;
      const index = point[0]?.dataIndex;
      const bars = chart.getDataList();
      const candle = typeof index === 'number' ? sourceOf(bars[Math.min(Math.max(index, 0), bars.length - 1)]) : null;
      setPointed({ key: viewKeyRef.current, candle });
    };
    chart.subscribeAction('onCrosshairChange', onCrosshair);
    const resize = new ResizeObserver(() => chart.resize());
    resize.observe(container);
    return () => {
      resize.disconnect();
      chart.unsubscribeAction('onCrosshairChange', onCrosshair);
      loader.dispose();
      loaderRef.current = null;
      chartRef.current = null;
      dispose(container);
    };
  }, []);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.setStyles(colorMode);
    chart.setStyles(chartStyles(colorMode));
  }, [colorMode]);

  useEffect(() => {
    offsetRef.current = offsetMinutes;
    loaderRef.current?.setOffsetMinutes(offsetMinutes);
  }, [offsetMinutes]);

  useEffect(() => {
    viewKeyRef.current = viewKey;
  }, [viewKey]);

  // A new pair or precision reloads the history (klinecharts resets on setSymbol / setPeriod).
  useEffect(() => {
    chartRef.current?.setSymbol({ ticker: symbol, pricePrecision, volumePrecision: quantityPrecision });
  }, [symbol, pricePrecision, quantityPrecision]);

  useEffect(() => {
    chartRef.current?.setPeriod(periodOf(interval));
  }, [interval]);

  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    for (const name of ALL_INDICATORS) {
      const shown = chart.getIndicators({ id: name }).length > 0;
      const wanted = indicators.includes(name);
      if (wanted && !shown) {
        const main = (MAIN_INDICATORS as readonly string[]).includes(name);
        // MACD and RSI are not prices: two decimals read better than klinecharts' default four.
        const precision = name === 'MACD' || name === 'RSI' ? { precision: 2 } : {};
        chart.createIndicator({ name, id: name, paneId: main ? CANDLE_PANE : `pane_${name}`, ...precision }, main);
      } else if (!wanted && shown) {
        chart.removeIndicator({ id: name });
      }
    }
  }, [indicators]);

  // After the colours (setStyles with a theme name starts from that theme's styles again) and the
  // indicators (their panes must exist to be given room for their legends).
  const mainCount = indicators.filter((name) => (MAIN_INDICATORS as readonly string[]).includes(name)).length;
  const paneHeight = phone ? (height.base ?? DEFAULT_HEIGHT.base) : 0;
  useEffect(() => {
    const chart = chartRef.current;
    if (!chart) return;
    chart.setStyles({ indicator: { tooltip: { title: { showParams: !phone } } } });
    chart.overrideYAxis({ paneId: CANDLE_PANE, gap: { top: candlePaneTopGap(phone, mainCount, paneHeight), bottom: BOTTOM_GAP } });
    for (const name of indicators) {
      if ((SUB_INDICATORS as readonly string[]).includes(name)) chart.overrideYAxis({ paneId: `pane_${name}`, gap: { top: subPaneTopGap(phone, SUB_PANE_HEIGHT) } });
    }
  }, [phone, mainCount, paneHeight, colorMode, indicators]);

  const chooseInterval = (next: ChartInterval) => {
    writeStored(INTERVAL_STORAGE_KEY, next);
    setIntervalState(next);
  };

  const toggleIndicator = (name: IndicatorName) => {
    setIndicators((current) => {
      const next = current.includes(name) ? current.filter((n) => n !== name) : ALL_INDICATORS.filter((n) => n === name || current.includes(n));
      writeStored(INDICATORS_STORAGE_KEY, JSON.stringify(next));
      return next;
    });
  };

  const intervalName = t(`market.interval.long.${interval}`);
  const subPanes = indicators.filter((name) => (SUB_INDICATORS as readonly string[]).includes(name)).length;
  const plotHeight = Object.fromEntries(Object.entries(height).map(([bp, px]) => [bp, `${px + subPanes * SUB_PANE_HEIGHT}px`]));
  const hovered = pointed?.key === viewKey ? pointed.candle : null;
  const candle = hovered ?? state.last;
  const description =
    state.count > 0 && state.firstTime !== null && state.last
      ? t('market.chart.description', {
          count: state.count,
          from: formatDateTime(state.firstTime, offsetMinutes),
          to: formatDateTime(state.last.openTime, offsetMinutes),
          zone: zoneLabel,
        })
      : t('market.chart.empty');

  return (
    <Box as="section" aria-label={t('market.chart.title')} borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden">
      <Flex
        px="3"
        py="2"
        gap="2"
        align="center"
        justify="space-between"
        wrap="wrap"
        borderBottomWidth="1px"
      >
        <HStack gap="1" minW="0" maxW="full">
          <HStack
            role="radiogroup"
            aria-label={t('market.interval.label')}
            gap="0.5"
            flexWrap="nowrap"
            overflowX="auto"
            maxW="full"
            css={{ scrollbarWidth: 'none' }}
          >
            {(phone ? PHONE_INTERVALS : CHART_INTERVALS).map((value) => {
              const checked = value === interval;
              return (
                <Button
                  key={value}
                  role="radio"
                  aria-checked={checked}
                  aria-label={t(`market.interval.long.${value}`)}
                  title={t(`market.interval.long.${value}`)}
                  size="xs"
                  variant={checked ? 'subtle' : 'ghost'}
                  colorPalette={checked ? 'brand' : 'gray'}
                  fontWeight={checked ? 'semibold' : 'medium'}
                  color={checked ? 'brand.fg' : 'fg.muted'}
                  px="2"
                  minW={phone ? '9' : '0'}
                  minH={phone ? '9' : undefined}
                  flexShrink={0}
                  onClick={() => chooseInterval(value)}
                >
                  {t(`market.interval.short.${value}`)}
                </Button>
              );
            })}
          </HStack>
          {phone && (
            <NativeSelect.Root size="xs" w="auto" flexShrink={0}>
              <NativeSelect.Field
                aria-label={t('market.interval.more')}
                value={(MORE_INTERVALS as readonly string[]).includes(interval) ? interval : ''}
                onChange={(event) => {
                  const next = toChartInterval(event.currentTarget.value);
                  if (next) chooseInterval(next);
                }}
                minH="9"
                fontWeight={(MORE_INTERVALS as readonly string[]).includes(interval) ? 'semibold' : 'medium'}
                color={(MORE_INTERVALS as readonly string[]).includes(interval) ? 'brand.fg' : 'fg.muted'}
              >
                <option value="" disabled>
                  {t('market.interval.moreShort')}
                </option>
                {MORE_INTERVALS.map((value) => (
                  <option key={value} value={value}>
                    {t(`market.interval.long.${value}`)}
                  </option>
                ))}
              </NativeSelect.Field>
              <NativeSelect.Indicator />
            </NativeSelect.Root>
          )}
        </HStack>
        <HStack role="group" aria-label={t('market.indicators')} gap="0.5" flexWrap="wrap">
          {ALL_INDICATORS.map((name, index) => {
            const on = indicators.includes(name);
            return (
              <Button
                key={name}
                aria-pressed={on}
                title={t(`market.indicator.${name}`)}
                size="xs"
                variant={on ? 'subtle' : 'ghost'}
                colorPalette={on ? 'brand' : 'gray'}
                color={on ? 'brand.fg' : 'fg.muted'}
                px="2"
                minW="0"
                minH={phone ? '9' : undefined}
                ms={index === MAIN_INDICATORS.length ? '2' : undefined}
                onClick={() => toggleIndicator(name)}
              >
                {name}
              </Button>
            );
          })}
        </HStack>
      </Flex>
      <CandleLegend candle={candle} pricePrecision={pricePrecision} offsetMinutes={offsetMinutes} hovered={hovered !== null} />
      <Box position="relative" h={plotHeight}>
        <Box
          ref={containerRef}
          role="img"
          aria-label={t('market.chart.label', { pair, interval: intervalName })}
          aria-describedby={describedBy}
          aria-busy={state.loading}
          position="absolute"
          inset="0"
          onMouseLeave={() => setPointed(null)}
        />
        {state.loading && (
          <Flex role="status" position="absolute" inset="0" align="center" justify="center" gap="2" color="fg.muted" bg="bg.panel/60" pointerEvents="none">
            <Spinner size="sm" />
            <Text fontSize="sm">{t('market.chart.loading')}</Text>
          </Flex>
        )}
        {!state.loading && state.error != null && (
          <Flex role="alert" position="absolute" inset="0" direction="column" align="center" justify="center" gap="3" bg="bg.panel">
            <Text fontSize="sm" color="fg.muted">
              {t('market.chart.failed')}
            </Text>
            <Button size="sm" variant="outline" onClick={() => chartRef.current?.resetData()}>
              {t('market.retry')}
            </Button>
          </Flex>
        )}
      </Box>
      <chakra.span id={describedBy} srOnly>
        {description}
      </chakra.span>
    </Box>
  );
});

/** Open, high, low, close, change and volume of one candle, from its exact strings. */
function CandleLegend({ candle, pricePrecision, offsetMinutes, hovered }: { candle: Candle | null; pricePrecision: number; offsetMinutes: number; hovered: boolean }) {
  const { t } = useTranslation();
  const view = useMemo(() => {
    if (!candle) return null;
    const change = priceChangePercent(candle.close, candle.open);
    return {
      time: formatDateTime(candle.openTime, offsetMinutes),
      open: formatPrice(candle.open, pricePrecision),
      high: formatPrice(candle.high, pricePrecision),
      low: formatPrice(candle.low, pricePrecision),
      close: formatPrice(candle.close, pricePrecision),
      change: formatPercent(change),
      direction: change === undefined || /^-?0(\.0+)?$/.test(change) ? 'fg.muted' : change.startsWith('-') ? 'down' : 'up',
      volume: formatCompact(candle.baseVolume),
    };
  }, [candle, pricePrecision, offsetMinutes]);
  const items: Array<[string, string, string?]> = view
    ? [
        ['open', view.open],
        ['high', view.high],
        ['low', view.low],
        ['close', view.close, view.direction],
        ['change', view.change, view.direction],
        ['volume', view.volume],
      ]
    : [];
  return (
    <Flex
      role="group"
      aria-label={hovered ? t('market.chart.pointedCandle') : t('market.chart.lastCandle')}
      px="3"
      py="1.5"
      gap={{ base: '2', md: '4' }}
      wrap="wrap"
      fontSize="xs"
      minH="8"
      align="center"
      fontVariantNumeric="tabular-nums"
      borderBottomWidth="1px"
      borderColor="border.muted"
    >
      {view ? (
        <>
          <Text as="span" color="fg.muted">
            {view.time}
          </Text>
          {items.map(([key, value, color]) => (
            <Text as="span" key={key} whiteSpace="nowrap">
              <Text as="span" color="fg.muted" me="1">
                {t(`market.candle.${key}`)}
              </Text>
              <Text as="span" fontWeight="medium" color={color ?? 'fg'}>
                {value}
              </Text>
            </Text>
          ))}
        </>
      ) : (
        <Text as="span" color="fg.subtle">
          --
        </Text>
      )}
    </Flex>
  );
}
