/**
 * Conversion between two assets of the funding account. Once the amount follows the rules, a firm
 * quote is asked for (getExchangeQuote); its countdown runs on screen and a new quote replaces it
 * when it expires — for at most the spec's exchange time (5 minutes) after the user last touched the
 * form; then quoting pauses until they ask for a new price. The quote shows the house's spread and
 * what the user may still convert today. Convert accepts the quote shown (currencyExchange); a quote
 * that expired on the way (409 `quote_expired`) is replaced and the user is told to confirm again.
 *
 * @module
 */

import { Box, Button, Flex, HStack, IconButton, Progress, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useEffect, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { useCurrencyExchange, useGetExchangeQuote } from '../../../api/generated/exchange/exchange';
import type { ExchangeQuote } from '../../../api/generated/model';
import { toaster } from '../../../lib/toaster';
import { AmountField, FormError, SelectField, SummaryRow, coinOptions } from '../components/fields';
import { ScreenHeader } from '../components/frame';
import { RefreshIcon, SwapIcon } from '../components/icons';
import { LoadFailed } from '../components/load-failed';
import { amountError } from '../lib/amount';
import { SILENT, failure } from '../../../lib/api-calls';
import { fractionToPercent } from '../../../lib/decimal-math';
import { coinName, formatCoin, formatRate, formatUsdt } from '../lib/format';
import { useBalances, useRefreshFunds } from '../lib/queries';

/** How long typing must pause before a quote is asked for. */
const QUOTE_DEBOUNCE_MS = 400;
/** A quote is replaced this long before it expires (the accept must reach the server in time). */
const EXPIRY_MARGIN_MS = 500;
/** The spec's exchange time: how long quotes keep being renewed after the user last touched the form. */
export const EXCHANGE_TIME_MS = 300_000;

/** The amount once typing has paused. */
function useDebounced(value: string, delay: number): string {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setDebounced(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return debounced;
}

/** When the quote shown stops being acceptable, by the browser's clock (its own TTL from arrival). */
function quoteDeadline(quote: ExchangeQuote, receivedAt: number): number {
  return receivedAt + quote.ttlMs - EXPIRY_MARGIN_MS;
}

/** The current time, ticking every 250 ms while `active`. */
function useNow(active: boolean): number {
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 250);
    return () => clearInterval(timer);
  }, [active]);
  return now;
}

export function SwapForm() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const { coins, balance, isError, refetch } = useBalances();
  const refresh = useRefreshFunds();
  const names = useMemo(() => coins.map((c) => c.coin), [coins]);
  const preset = search.get('coin')?.toLowerCase() ?? '';
  const [from, setFrom] = useState(preset || 'usdt');
  const [to, setTo] = useState(preset && preset !== 'usdt' ? 'usdt' : 'btc');
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [formError, setFormError] = useState<string>();
  // When the user last touched the form: quotes are renewed for EXCHANGE_TIME_MS after it.
  const [activeAt, setActiveAt] = useState(() => Date.now());
  const touch = () => setActiveAt(Date.now());
  const available = balance(from)?.funding ?? '0';

  const error = from === to ? t('funds.swap.sameCoin') : amountError(t, amount, { available });
  const debounced = useDebounced(amount, QUOTE_DEBOUNCE_MS);
  const quotable = from !== to && debounced === amount && !amountError(t, debounced, { available });

  const quote = useGetExchangeQuote(
    { from, to, amount: debounced },
    {
      query: {
        enabled: quotable,
        staleTime: 0,
        gcTime: 0,
        retry: false,
        refetchOnWindowFocus: false,
        // A new quote as soon as this one expires, while the user is still about.
        refetchInterval: (q) =>
          q.state.data && Date.now() - activeAt < EXCHANGE_TIME_MS ? Math.max(quoteDeadline(q.state.data, q.state.dataUpdatedAt) - Date.now(), 50) : false,
      },
      request: SILENT,
    },
  );
  const current = quotable ? quote.data : undefined;
  // The clock ticks every 250 ms: never read it as earlier than the quote's arrival.
  const now = Math.max(useNow(Boolean(current)), quote.dataUpdatedAt);
  const deadline = current ? quoteDeadline(current, quote.dataUpdatedAt) : 0;
  const secondsLeft = current ? Math.max(Math.ceil((deadline - now) / 1000), 0) : 0;
  const expired = Boolean(current) && now >= deadline;
  const paused = expired && now - activeAt >= EXCHANGE_TIME_MS;
  const renew = () => {
    touch();
    void quote.refetch();
  };

  const exchange = useCurrencyExchange({ request: SILENT });

  const flip = () => {
    touch();
    setFrom(to);
    setTo(from);
    setFormError(undefined);
  };

  const onConvert = async () => {
    setTouched(true);
    setFormError(undefined);
    touch();
    if (error || !current || expired) return;
    try {
      const result = await exchange.mutateAsync({ data: { quoteId: current.quoteId } });
      toaster.create({
        type: 'success',
        title: t('funds.swap.done', {
          amount: formatCoin(result.amount),
          from: coinName(result.from),
          receive: formatCoin(result.receive),
          to: coinName(result.to),
        }),
      });
      setAmount('');
      setTouched(false);
      refresh();
    } catch (err) {
      const info = failure(err, t('errors.unknown'));
      if (info.reason === 'quote_expired') {
        toaster.create({ type: 'info', title: t('funds.swap.expired') });
        void quote.refetch();
      } else if (info.field === 'amount' || info.reason === 'insufficient_balance') {
        setFormError(info.message);
        refresh();
      } else {
        toaster.create({ type: 'error', title: info.message });
      }
    }
  };

  const quoteFailure = quotable && quote.isError && !quote.data ? failure(quote.error, t('errors.unknown')).message : undefined;

  return (
    <Stack gap="5">
      <ScreenHeader title={t('funds.screens.swap')} description={t('funds.swap.description')} />
      {isError && <LoadFailed onRetry={refetch} />}
      <Box as="section" aria-label={t('funds.screens.swap')} borderWidth="1px" rounded="xl" bg="bg.panel" p={{ base: '4', md: '6' }} maxW="2xl">
        <Stack gap="4">
          <Box bg="bg.subtle" rounded="lg" p="4">
            <Stack gap="3">
              <SelectField
                label={t('funds.swap.from')}
                value={from}
                options={coinOptions(names)}
                onChange={(value) => {
                  touch();
                  setFrom(value);
                }}
              />
              <AmountField
                label={t('funds.swap.amount')}
                value={amount}
                onChange={(value) => {
                  touch();
                  setAmount(value);
                  setFormError(undefined);
                }}
                onBlur={() => setTouched(true)}
                coin={from}
                available={available}
                error={touched ? error : undefined}
              />
            </Stack>
          </Box>
          <Flex justify="center" my="-6" position="relative" zIndex="1">
            <IconButton aria-label={t('funds.swap.flip')} onClick={flip} rounded="full" variant="outline" bg="bg.panel" size="sm">
              <SwapIcon transform="rotate(90deg)" />
            </IconButton>
          </Flex>
          <Box bg="bg.subtle" rounded="lg" p="4">
            <Stack gap="3">
              <SelectField
                label={t('funds.swap.to')}
                value={to}
                options={coinOptions(names)}
                onChange={(value) => {
                  touch();
                  setTo(value);
                }}
              />
              <Flex justify="space-between" align="baseline" gap="3" wrap="wrap">
                <Text fontSize="sm" color="fg.muted">
                  {t('funds.swap.receive')}
                </Text>
                <Text fontSize="xl" fontWeight="bold" fontVariantNumeric="tabular-nums" overflowWrap="anywhere" aria-live="polite">
                  {current ? `${formatCoin(current.receive)} ${coinName(to)}` : '--'}
                </Text>
              </Flex>
            </Stack>
          </Box>

          <QuotePanel
            quote={current}
            loading={quotable && quote.isFetching && !current}
            secondsLeft={secondsLeft}
            paused={paused}
            failure={quoteFailure}
            onRefresh={renew}
          />
          <FormError message={formError} />
          <Button colorPalette="brand" size="lg" onClick={() => void onConvert()} loading={exchange.isPending} disabled={!current || expired || quote.isFetching}>
            {t('funds.swap.convert')}
          </Button>
        </Stack>
      </Box>
    </Stack>
  );
}

function QuotePanel({
  quote,
  loading,
  secondsLeft,
  paused,
  failure: message,
  onRefresh,
}: {
  quote?: ExchangeQuote;
  loading: boolean;
  secondsLeft: number;
  /** Quoting stopped after the exchange time without the user: a new price needs a click. */
  paused: boolean;
  failure?: string;
  onRefresh: () => void;
}) {
  const { t } = useTranslation();
  if (message) {
    return (
      <Flex role="alert" borderWidth="1px" borderColor="border.error" bg="red.subtle" color="red.fg" rounded="lg" px="4" py="3" gap="3" align="center" justify="space-between" wrap="wrap">
        <Text fontSize="sm">{message}</Text>
        <Button size="xs" variant="outline" onClick={onRefresh}>
          <RefreshIcon />
          {t('funds.swap.retryQuote')}
        </Button>
      </Flex>
    );
  }
  if (paused) {
    return (
      <Flex role="status" borderWidth="1px" rounded="lg" px="4" py="3" gap="3" align="center" justify="space-between" wrap="wrap">
        <Text fontSize="sm" color="fg.muted">
          {t('funds.swap.paused')}
        </Text>
        <Button size="xs" variant="outline" onClick={onRefresh}>
          <RefreshIcon />
          {t('funds.swap.newPrice')}
        </Button>
      </Flex>
    );
  }
  if (loading) return <Skeleton h="20" rounded="lg" role="status" aria-label={t('funds.swap.quoting')} />;
  if (!quote) {
    return (
      <Text fontSize="sm" color="fg.muted">
        {t('funds.swap.enterAmount')}
      </Text>
    );
  }
  const total = Math.max(Math.round(quote.ttlMs / 1000), 1);
  return (
    <Stack as="section" aria-label={t('funds.swap.quote')} gap="2.5" borderWidth="1px" rounded="lg" px="4" py="3">
      <SummaryRow label={t('funds.swap.rate')} value={`1 ${coinName(quote.from)} ≈ ${formatRate(quote.rate)} ${coinName(quote.to)}`} />
      <SummaryRow label={t('funds.swap.receive')} value={`${formatCoin(quote.receive)} ${coinName(quote.to)}`} strong />
      <SummaryRow label={t('funds.swap.spread')} value={`${fractionToPercent(quote.spread)}%`} />
      <SummaryRow label={t('funds.swap.leftToday')} value={`${formatUsdt(quote.dailyLeftUsdt)} USDT`} />
      <HStack gap="3">
        <Progress.Root value={Math.min((secondsLeft / total) * 100, 100)} size="xs" colorPalette="brand" flex="1" aria-label={t('funds.swap.countdownLabel')}>
          <Progress.Track>
            <Progress.Range />
          </Progress.Track>
        </Progress.Root>
        <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums" whiteSpace="nowrap" aria-live="off">
          {t('funds.swap.refreshesIn', { count: secondsLeft })}
        </Text>
      </HStack>
    </Stack>
  );
}
