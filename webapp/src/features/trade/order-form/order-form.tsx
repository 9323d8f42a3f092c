/**
 * The spot order form: Buy / Sell, Limit / Market / Stop-limit, the fields the type needs (trigger
 * price, price, quantity — or, for a market buy, the amount to spend), the percentage buttons, time
 * in force and post-only under "Advanced", the available balance, and a preview (cost or proceeds,
 * fee at the taker rate, what arrives, balances after) recomputed by wasm-core on every keystroke.
 * The same core rule the server runs (`validateSpotOrder`) shows each field's error as it is typed;
 * the order goes out with an `Idempotency-Key`, and the toast says what happened to it.
 * Visitors see log-in and sign-up buttons instead of the submit button.
 *
 * @module
 */

import { Box, Button, Checkbox, Collapsible, Field, Flex, HStack, NativeSelect, Stack, Tabs, Text, chakra } from '@chakra-ui/react';
import { type FormEvent, memo, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useGetUserCoin } from '../../../api/generated/funds/funds';
import type { CoinListEntry } from '../../../api/generated/model';
import { useSubmitSpotOrder } from '../../../api/generated/spot-trading/spot-trading';
import { useRefreshSpot, useSpotFormat } from '../../../components/spot-orders';
import { SILENT, failure } from '../../../lib/api-calls';
import { ChevronDownIcon } from '../../../components/icons';
import { useLastPrice, useMarketPrice } from '../../../lib/live';
import { loginPath, useIsLoggedIn } from '../../../lib/session';
import { toaster } from '../../../lib/toaster';
import { fieldErrors, formatBalance, formatQuantity, orDash, spotOrderPreview, validateSpotOrder } from '../../../lib/wasm';
import { fractionToPercent } from '../../../lib/decimal-math';
import { idempotencyHeader, useIdempotencyKey } from '../../../lib/idempotency';
import {
  type Context,
  EMPTY_DRAFT,
  FORM_FIELDS,
  type FormField,
  type OrderDraft,
  type OrderType,
  PERCENTS,
  type PairRules,
  type Side,
  TIME_IN_FORCE,
  type TimeInForce,
  fieldDecimals,
  hasPrice,
  orderBody,
  percentFill,
  previewInput,
  usesQuoteAmount,
  validationInput,
  visibleFields,
} from './model';
import { NumberField } from '../../../components/number-field';
import { resultToast } from './result';

/** Balances are refetched this often while the form shows them (the user channel refetches sooner). */
const BALANCE_REFRESH_MS = 30_000;

/** A price picked elsewhere (the order book); `n` tells two picks of the same price apart. */
export interface PickedPrice {
  price: string;
  n: number;
}

/** A coin amount with its own decimals, `--` when unreadable. */
function amountText(value: string | null | undefined): string {
  return orDash((v) => formatQuantity(v), value);
}

/**
 * A balance shown as available, never larger than held: USDT as every USDT balance shows (2 decimals,
 * truncated), another coin with its own digits (exact).
 */
export function availableText(value: string | null | undefined, coin: string): string {
  return coin.toUpperCase() === 'USDT' ? orDash((v) => formatBalance(v), value) : amountText(value);
}

/** The pair's rules for the form. */
function rulesOf(coin: CoinListEntry): PairRules {
  return {
    symbol: coin.symbol,
    tickSize: coin.tickSize,
    stepSize: coin.stepSize,
    minNotional: coin.minNotional,
    pricePrecision: coin.pricePrecision,
    takerFeeRate: coin.takerFeeRate || '0',
  };
}

/**
 * The spot order form. Memoised: the trade page re-renders when the last price moves, the form
 * only when its own inputs (pair, picked price, balances, the market price of a market order) do.
 * `initialSide` is the side it opens with (the phone sheet opens it on the side tapped); `onPlaced`
 * hears of every order the server accepted (the sheet closes then).
 */
export const OrderForm = memo(function OrderForm({
  coin,
  picked,
  initialSide = 'buy',
  onPlaced,
}: {
  coin: CoinListEntry;
  picked: PickedPrice | null;
  initialSide?: Side;
  onPlaced?: () => void;
}) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const format = useSpotFormat();
  const refresh = useRefreshSpot();
  const keys = useIdempotencyKey();
  const submit = useSubmitSpotOrder({ request: SILENT });
  const balances = useGetUserCoin({ query: { enabled: loggedIn, refetchInterval: BALANCE_REFRESH_MS } });
  const rules = useMemo(() => rulesOf(coin), [coin]);
  const base = coin.coin.toUpperCase();
  const quote = coin.baseCoin.toUpperCase();
  const availableId = useId();

  const [draft, setDraft] = useState<OrderDraft>(() => ({ ...EMPTY_DRAFT, side: initialSide }));
  const [touched, setTouched] = useState<ReadonlySet<FormField>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<FormField, string>>>({});
  const [seenPick, setSeenPick] = useState<number | null>(null);
  const [prefilled, setPrefilled] = useState(false);
  // What the market does matters to a market order only (its estimate and minimum): the form
  // follows the best price (else the last one) while it is on a market order, and the last price
  // only until it has prefilled the limit price — not on every price change.
  const lastPrice = useLastPrice(coin.symbol, coin.amount ?? null, true, !prefilled);
  const marketPrice = useMarketPrice(coin.symbol, draft.side === 'buy' ? 'ask' : 'bid', {
    fallback: coin.amount ?? null,
    detailFallback: true,
    tickerClose: true,
    enabled: draft.orderType === 'market',
  });

  // A level picked in the order book becomes the limit price (a market order turns into a limit one).
  if (picked && picked.n !== seenPick) {
    setSeenPick(picked.n);
    setPrefilled(true);
    setDraft((d) => ({ ...d, price: picked.price, orderType: d.orderType === 'market' ? 'limit' : d.orderType }));
  }
  // The limit price starts at the last price once it is known (until the user types one).
  if (!prefilled && lastPrice && draft.price === '') {
    setPrefilled(true);
    setDraft((d) => ({ ...d, price: lastPrice }));
  }

  const funding = (asset: string): string | null => {
    if (!loggedIn || !balances.data) return null;
    return balances.data.coins.find((c) => c.coin.toLowerCase() === asset)?.funding ?? '0';
  };
  const context: Context = {
    marketPrice,
    availableBase: funding(coin.coin.toLowerCase()),
    availableQuote: funding(coin.baseCoin.toLowerCase()),
  };
  const available = draft.side === 'buy' ? context.availableQuote : context.availableBase;

  const coreErrors = useMemo(() => {
    try {
      return validateSpotOrder(validationInput(draft, rules, context));
    } catch (error) {
      // Only the pair's own rules (tick, step, minimum) can make the core throw: a configuration fault.
      console.error('validateSpotOrder failed', error);
      return [];
    }
    // `context` is rebuilt every render; its three values are the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft, rules, context.marketPrice, context.availableBase, context.availableQuote]);
  const fields = visibleFields(draft);
  const messages = fieldErrors(t, coreErrors.filter((error) => (fields as string[]).includes(error.field)));
  const errorOf = (field: FormField): string | undefined =>
    serverErrors[field] ?? (submitted || touched.has(field) ? messages[field] : undefined);

  const preview = useMemo(() => {
    const input = previewInput(draft, rules, context);
    if (!input) return null;
    try {
      return spotOrderPreview(input);
    } catch {
      return null;
    }
    // `context` is rebuilt every render; its three values are the dependencies.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [draft, rules, context.marketPrice, context.availableBase, context.availableQuote]);

  const update = (change: Partial<OrderDraft>, field?: FormField) => {
    setDraft((d) => ({ ...d, ...change }));
    if (field) {
      setTouched((current) => (current.has(field) ? current : new Set([...current, field])));
      setServerErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
    }
  };

  const onPercent = (percent: number) => {
    const change = percentFill(draft, percent, rules, context);
    if (!change) return;
    update(change, usesQuoteAmount(draft) ? 'quoteAmount' : 'quantity');
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    setSubmitted(true);
    if (Object.keys(messages).length > 0) return;
    const body = orderBody(draft, coin.symbol);
    try {
      const order = await submit.mutateAsync({ data: body, headers: idempotencyHeader(keys.keyFor(body)) });
      keys.settle();
      toaster.create(resultToast(t, order, format));
      setDraft((d) => ({ ...d, quantity: '', quoteAmount: '' }));
      setTouched(new Set());
      setSubmitted(false);
      setServerErrors({});
      onPlaced?.();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      toaster.create({ type: 'error', title: info.message });
      if (info.field && (FORM_FIELDS as readonly string[]).includes(info.field)) setServerErrors({ [info.field]: info.message });
    } finally {
      refresh();
    }
  };

  const sideColor = draft.side === 'buy' ? 'up' : 'down';
  const feePercent = fractionToPercent(rules.takerFeeRate);
  const receiveCoin = draft.side === 'buy' ? base : quote;
  const estimate = draft.orderType === 'market';

  return (
    <Box as="section" aria-labelledby="trade-form-heading" borderWidth="1px" rounded="xl" bg="bg.panel" minW="0">
      <Text as="h2" id="trade-form-heading" srOnly>
        {t('trade.form.title')}
      </Text>
      <Tabs.Root
        value={draft.side}
        onValueChange={(details) => update({ side: details.value as Side })}
        variant="plain"
        fitted
        size="sm"
      >
        <Tabs.List aria-label={t('trade.form.side')} bg="bg.muted" rounded="lg" p="1" m="3" mb="0">
          <Tabs.Trigger value="buy" fontWeight="semibold" rounded="md" _selected={{ bg: 'up', color: 'onUp' }}>
            {t('trade.form.buy')}
          </Tabs.Trigger>
          <Tabs.Trigger value="sell" fontWeight="semibold" rounded="md" _selected={{ bg: 'down', color: 'onDown' }}>
            {t('trade.form.sell')}
          </Tabs.Trigger>
        </Tabs.List>
        {/* The form is the panel of both tab lists: side and order type choose what it does. */}
        <Tabs.Content value={draft.side} p="0">
          <Tabs.Root value={draft.orderType} onValueChange={(details) => update({ orderType: details.value as OrderType })} variant="line" size="sm">
            <Tabs.List aria-label={t('trade.form.orderType')} px="3">
              <Tabs.Trigger value="limit">{t('trade.form.limit')}</Tabs.Trigger>
              <Tabs.Trigger value="market">{t('trade.form.market')}</Tabs.Trigger>
              <Tabs.Trigger value="stop_limit">{t('trade.form.stopLimit')}</Tabs.Trigger>
            </Tabs.List>
            <Tabs.Content value={draft.orderType} p="0">
              <chakra.form
                aria-label={t(draft.side === 'buy' ? 'trade.form.buyForm' : 'trade.form.sellForm', { coin: base })}
                noValidate
                onSubmit={(event: FormEvent) => void onSubmit(event)}
                display="flex"
                flexDirection="column"
                gap="3"
                p="3"
              >
                <Flex justify="space-between" fontSize="xs" gap="2" wrap="wrap">
                  <chakra.label htmlFor={availableId} color="fg.muted">
                    {t('trade.form.available')}
                  </chakra.label>
                  {/* An <output> is a polite status region: a balance that changes after a fill is announced. */}
                  <chakra.output id={availableId} fontWeight="medium" fontVariantNumeric="tabular-nums">
                    {available != null ? `${availableText(available, draft.side === 'buy' ? quote : base)} ${draft.side === 'buy' ? quote : base}` : '--'}
                  </chakra.output>
                </Flex>

                {draft.orderType === 'stop_limit' && (
                  <NumberField
                    label={t('trade.form.triggerPrice')}
                    value={draft.triggerPrice}
                    unit={quote}
                    decimals={fieldDecimals('triggerPrice', rules)}
                    error={errorOf('triggerPrice')}
                    helper={t('trade.form.triggerHint')}
                    onChange={(value) => update({ triggerPrice: value }, 'triggerPrice')}
                  />
                )}
                {hasPrice(draft) ? (
                  <NumberField
                    label={t('trade.form.price')}
                    value={draft.price}
                    unit={quote}
                    decimals={fieldDecimals('price', rules)}
                    error={errorOf('price')}
                    onChange={(value) => update({ price: value }, 'price')}
                  />
                ) : (
                  <Field.Root disabled>
                    <Field.Label fontSize="xs" fontWeight="medium" color="fg.muted">
                      {t('trade.form.price')}
                    </Field.Label>
                    <Box w="full" px="3" py="1.5" rounded="md" bg="bg.muted" fontSize="sm" color="fg.muted">
                      {t('trade.form.marketPrice')}
                    </Box>
                  </Field.Root>
                )}

                {draft.side === 'buy' && draft.orderType === 'market' && (
                  <HStack role="radiogroup" aria-label={t('trade.form.marketMode')} gap="1" bg="bg.muted" rounded="md" p="0.5">
                    {(['quantity', 'amount'] as const).map((mode) => (
                      <Button
                        key={mode}
                        role="radio"
                        aria-checked={draft.marketMode === mode}
                        size="2xs"
                        flex="1"
                        variant={draft.marketMode === mode ? 'surface' : 'ghost'}
                        onClick={() => update({ marketMode: mode })}
                      >
                        {t(mode === 'quantity' ? 'trade.form.byQuantity' : 'trade.form.byAmount')}
                      </Button>
                    ))}
                  </HStack>
                )}

                {usesQuoteAmount(draft) ? (
                  <NumberField
                    label={t('trade.form.quoteAmount')}
                    value={draft.quoteAmount}
                    unit={quote}
                    decimals={fieldDecimals('quoteAmount', rules)}
                    error={errorOf('quoteAmount')}
                    onChange={(value) => update({ quoteAmount: value }, 'quoteAmount')}
                  />
                ) : (
                  <NumberField
                    label={t('trade.form.quantity')}
                    value={draft.quantity}
                    unit={base}
                    decimals={fieldDecimals('quantity', rules)}
                    error={errorOf('quantity')}
                    onChange={(value) => update({ quantity: value }, 'quantity')}
                  />
                )}

                <HStack gap="1.5" role="group" aria-label={t('trade.form.percentGroup')}>
                  {PERCENTS.map((percent) => (
                    <Button
                      key={percent}
                      size="2xs"
                      flex="1"
                      variant="outline"
                      aria-label={t('trade.form.percent', { percent })}
                      disabled={!loggedIn}
                      onClick={() => onPercent(percent)}
                    >
                      {percent}%
                    </Button>
                  ))}
                </HStack>

                {draft.orderType === 'limit' && (
                  <Collapsible.Root>
                    <Collapsible.Trigger asChild>
                      <Button variant="plain" size="xs" px="0" color="fg.muted" gap="1" css={{ '&[data-state=open] svg': { transform: 'rotate(180deg)' } }}>
                        {t('trade.form.advanced')}
                        <ChevronDownIcon boxSize="3.5" />
                      </Button>
                    </Collapsible.Trigger>
                    <Collapsible.Content>
                      <Stack gap="3" pt="2">
                        <Field.Root>
                          <Field.Label fontSize="xs" fontWeight="medium" color="fg.muted">
                            {t('trade.form.timeInForce')}
                          </Field.Label>
                          <NativeSelect.Root size="sm">
                            <NativeSelect.Field
                              value={draft.timeInForce}
                              onChange={(event) => {
                                const timeInForce = event.currentTarget.value as TimeInForce;
                                update({ timeInForce, postOnly: timeInForce === 'gtc' ? draft.postOnly : false });
                              }}
                            >
                              {TIME_IN_FORCE.map((tif) => (
                                <option key={tif} value={tif}>
                                  {t(`trade.form.tif.${tif}`)}
                                </option>
                              ))}
                            </NativeSelect.Field>
                            <NativeSelect.Indicator />
                          </NativeSelect.Root>
                        </Field.Root>
                        <Checkbox.Root
                          size="sm"
                          checked={draft.postOnly}
                          disabled={draft.timeInForce !== 'gtc'}
                          onCheckedChange={(details) => update({ postOnly: details.checked === true })}
                          alignItems="flex-start"
                        >
                          <Checkbox.HiddenInput />
                          <Checkbox.Control mt="0.5" />
                          <Stack gap="0">
                            <Checkbox.Label fontSize="sm">{t('trade.form.postOnly')}</Checkbox.Label>
                            <Text fontSize="xs" color="fg.muted">
                              {t('trade.form.postOnlyHint')}
                            </Text>
                          </Stack>
                        </Checkbox.Root>
                      </Stack>
                    </Collapsible.Content>
                  </Collapsible.Root>
                )}

                <Box role="group" aria-label={t('trade.preview.title')} rounded="md" bg="bg.subtle" px="3" py="2" fontSize="xs">
                  <dl>
                    <PreviewRow
                      label={t(draft.side === 'buy' ? 'trade.preview.cost' : 'trade.preview.proceeds')}
                      value={preview ? `${estimate ? '≈ ' : ''}${amountText(preview.amount)} ${quote}` : '--'}
                    />
                    {estimate && (
                      <PreviewRow label={t('trade.preview.quantity')} value={preview ? `≈ ${amountText(preview.quantity)} ${base}` : '--'} />
                    )}
                    <PreviewRow label={t('trade.preview.fee', { rate: feePercent })} value={preview ? `${amountText(preview.fee)} ${receiveCoin}` : '--'} />
                    <PreviewRow label={t('trade.preview.receive')} value={preview ? `${amountText(preview.receive)} ${receiveCoin}` : '--'} strong />
                    {loggedIn && (
                      <>
                        <PreviewRow label={t('trade.preview.balanceAfter', { coin: quote })} value={preview ? amountText(preview.quoteBalanceAfter) : '--'} />
                        <PreviewRow label={t('trade.preview.balanceAfter', { coin: base })} value={preview ? amountText(preview.baseBalanceAfter) : '--'} />
                      </>
                    )}
                  </dl>
                  <Text color="fg.subtle" mt="1.5" fontSize="2xs">
                    {t('trade.preview.securityFund')}
                  </Text>
                </Box>

                {loggedIn ? (
                  <Button
                    type="submit"
                    size="md"
                    bg={sideColor}
                    color={sideColor === 'up' ? 'onUp' : 'onDown'}
                    _hover={{ bg: sideColor, opacity: 0.9 }}
                    loading={submit.isPending}
                  >
                    {t(draft.side === 'buy' ? 'trade.form.submitBuy' : 'trade.form.submitSell', { coin: base })}
                  </Button>
                ) : (
                  <Stack gap="2" role="group" aria-label={t('trade.form.loginToTrade')}>
                    <Text fontSize="sm" textAlign="center" color="fg.muted">
                      {t('trade.form.loginToTrade')}
                    </Text>
                    <HStack gap="2">
                      <Button asChild flex="1" colorPalette="brand" size="sm">
                        <RouterLink to={loginPath(`${location.pathname}${location.search}`)}>{t('trade.form.login')}</RouterLink>
                      </Button>
                      <Button asChild flex="1" variant="outline" colorPalette="brand" size="sm">
                        <RouterLink to="/user/register">{t('trade.form.signup')}</RouterLink>
                      </Button>
                    </HStack>
                  </Stack>
                )}
              </chakra.form>
            </Tabs.Content>
          </Tabs.Root>
        </Tabs.Content>
      </Tabs.Root>
    </Box>
  );
});

function PreviewRow({ label, value, strong }: { label: string; value: string; strong?: boolean }) {
  return (
    <Flex justify="space-between" gap="3" py="0.5">
      <Text as="dt" color="fg.muted">
        {label}
      </Text>
      <Text as="dd" fontVariantNumeric="tabular-nums" fontWeight={strong ? 'semibold' : 'medium'} textAlign="end">
        {value}
      </Text>
    </Flex>
  );
}
