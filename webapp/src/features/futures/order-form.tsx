/**
 * The futures order form: margin mode (cross / isolated) and leverage (whole, 1 to the symbol's
 * maximum) — both the user's setting for the symbol, saved by `contract/position/leverage` (a mode
 * change while a position or an order is open is refused by the server, whose translated message
 * the toast shows) —, Limit / Market, price, quantity with 25-100 % of the largest size the balance
 * opens, optional take profit and stop loss, reduce-only, and a preview recomputed by wasm-core on
 * every keystroke (`./lib/preview.ts`): initial margin, fee, estimated liquidation price, max size,
 * PnL / ROE at the triggers. Open Long / Open Short send the order with an `Idempotency-Key`; a
 * filled order with triggers then gets its TP/SL. Visitors see log-in buttons.
 *
 * @module
 */

import { Box, Button, Checkbox, Flex, HStack, Stack, Tabs, Text, chakra } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, memo, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import {
  getSetFuturesLeverageQueryKey,
  setFuturesLeverage,
  useSetFuturesLeverage,
  useSetFuturesTpSl,
  useSubmitFuturesOrder,
} from '../../api/generated/futures/futures';
import { useGetUserCoin } from '../../api/generated/funds/funds';
import type { CoinListEntry, FuturesOrderRequest, FuturesSetting } from '../../api/generated/model';
import { useOpenFuturesPositions } from '../../components/futures-orders';
import { NumberField } from '../../components/number-field';
import { SILENT, failure } from '../../lib/api-calls';
import { compareDecimal } from '../../lib/decimal';
import { decimalsOfStep, floorToStep, isPositive, percentOf } from '../../lib/decimal-math';
import { marginTiers, useContractRules } from '../../hooks/use-contract-rules';
import { idempotencyHeader, useIdempotencyKey } from '../../lib/idempotency';
import { useMarketPrice } from '../../lib/live';
import { loginPath, useIsLoggedIn } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import type { AccountValues } from '../../lib/user-push';
import { formatBalance, formatPercent, formatPnl, formatPrice, formatQuantity, orDash } from '../../lib/wasm';
import { useRefreshFutures } from '../../hooks/use-refresh-futures';
import { type MarginModeValue, type PositionSide, availableToOpen, crossOthers, orderPreview, wrongSide } from './lib/preview';

/** A price picked in the order book; `n` tells two picks of the same price apart. */
export interface PickedPrice {
  price: string;
  n: number;
}

/** Balances are refetched this often (the user channel refetches sooner). */
const BALANCE_REFRESH_MS = 15_000;
const PERCENTS = [25, 50, 75, 100] as const;

type Field = 'price' | 'quantity' | 'leverage' | 'takeProfit' | 'stopLoss';

interface Draft {
  orderType: 'limit' | 'market';
  price: string;
  quantity: string;
  withTpSl: boolean;
  takeProfit: string;
  stopLoss: string;
  reduceOnly: boolean;
}

const EMPTY: Draft = { orderType: 'market', price: '', quantity: '', withTpSl: false, takeProfit: '', stopLoss: '', reduceOnly: false };

/** Whether `value` lies on `step` (a whole number of steps). */
function onStep(value: string, step: string): boolean {
  return compareDecimal(floorToStep(value, step), value) === 0;
}

function signed(value: string): string {
  return value.startsWith('-') || /^0*(\.0*)?$/.test(value) ? value : `+${value}`;
}

/**
 * The futures order form. Memoised: the page re-renders when the last price moves, the form only
 * when its own inputs (pair, picked price, account, the market prices of a market order) do. With
 * `side` (the phone sheet, opened by Long or Short) only that side's button shows; `onPlaced` hears
 * of every order the server accepted (the sheet closes then).
 */
export const FuturesOrderForm = memo(function FuturesOrderForm({
  coin,
  pair,
  picked,
  account,
  side: onlySide,
  onPlaced,
}: {
  coin: CoinListEntry;
  pair: string;
  picked: PickedPrice | null;
  account: AccountValues | null;
  side?: PositionSide;
  onPlaced?: () => void;
}) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const queryClient = useQueryClient();
  const keys = useIdempotencyKey();
  const refresh = useRefreshFutures();
  const submit = useSubmitFuturesOrder({ request: SILENT });
  const setTpSl = useSetFuturesTpSl({ request: SILENT });
  const rules = useContractRules(coin.symbol);
  const tiers = useMemo(() => marginTiers(rules), [rules]);
  const balances = useGetUserCoin({ query: { enabled: loggedIn, refetchInterval: BALANCE_REFRESH_MS } });
  // The user's setting for the symbol: `contract/position/leverage` with the symbol only reads it.
  const setting = useSetFuturesLeverage({ symbol: coin.symbol }, { query: { enabled: loggedIn }, request: SILENT });
  const quote = coin.baseCoin.toUpperCase();
  const base = coin.coin.toUpperCase();
  const availableId = useId();
  const modeLabelId = useId();

  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [leverageText, setLeverageText] = useState<string | null>(null);
  const [touched, setTouched] = useState<ReadonlySet<Field>>(new Set());
  const [submitted, setSubmitted] = useState(false);
  const [serverErrors, setServerErrors] = useState<Partial<Record<Field, string>>>({});
  const [busySide, setBusySide] = useState<PositionSide | null>(null);
  const [seenPick, setSeenPick] = useState<number | null>(null);
  // A market order fills near the best price of the side it takes, else the last price: followed
  // only while the form is on a market order, so a limit order's form does not re-render as the
  // market moves.
  const market = draft.orderType !== 'limit';
  const longPrice = useMarketPrice(coin.symbol, 'ask', { fallback: coin.amount ?? null, enabled: market });
  const shortPrice = useMarketPrice(coin.symbol, 'bid', { fallback: coin.amount ?? null, enabled: market });

  if (picked && picked.n !== seenPick) {
    setSeenPick(picked.n);
    setDraft((d) => ({ ...d, price: picked.price, orderType: 'limit' }));
  }

  const maxLeverage = setting.data?.maxLeverage ?? tiers[0]?.maxLeverage ?? '125';
  const savedLeverage = setting.data?.leverage ?? '10';
  const leverage = leverageText ?? savedLeverage;
  const marginMode: MarginModeValue = setting.data?.marginMode ?? 'isolated';
  const available = loggedIn && balances.data ? (balances.data.coins.find((c) => c.coin.toLowerCase() === coin.baseCoin.toLowerCase())?.trading ?? '0') : null;
  const positions = useOpenFuturesPositions();
  const otherCross = useMemo(() => crossOthers(positions.data, coin.symbol), [positions.data, coin.symbol]);
  const usable = useMemo(() => availableToOpen(available, positions.data), [available, positions.data]);
  const fillPrice = (side: PositionSide): string | null =>
    draft.orderType === 'limit' ? draft.price || null : side === 'long' ? longPrice : shortPrice;

  const previewFor = (side: PositionSide) =>
    orderPreview({
      side,
      price: fillPrice(side),
      quantity: draft.quantity,
      leverage,
      marginMode,
      available,
      availableToOpen: usable,
      otherCross,
      takerFeeRate: rules?.takerFeeRate ?? '',
      stepSize: coin.stepSize,
      tickSize: coin.tickSize,
      tiers,
      takeProfit: draft.withTpSl ? draft.takeProfit : '',
      stopLoss: draft.withTpSl ? draft.stopLoss : '',
    });
  const long = previewFor('long');
  const short = previewFor('short');

  const leverageError = (): string | undefined => {
    if (!/^\d+$/.test(leverage) || !isPositive(leverage)) return t('futures.form.errors.leverageWhole');
    if (compareDecimal(leverage, maxLeverage) > 0) return t('futures.form.errors.leverageMax', { max: maxLeverage });
    return undefined;
  };
  const fieldError = (field: Field, side: PositionSide): string | undefined => {
    const preview = side === 'long' ? long : short;
    switch (field) {
      case 'price':
        if (draft.orderType !== 'limit') return undefined;
        if (!isPositive(draft.price)) return t('futures.form.errors.pricePositive');
        if (!onStep(draft.price, coin.tickSize)) return t('futures.form.errors.offTick', { tick: coin.tickSize });
        return undefined;
      case 'quantity':
        if (!isPositive(draft.quantity)) return t('futures.form.errors.quantityPositive');
        if (!onStep(draft.quantity, coin.stepSize)) return t('futures.form.errors.offStep', { step: coin.stepSize });
        if (!draft.reduceOnly && preview.maxSize !== null && compareDecimal(draft.quantity, preview.maxSize) > 0)
          return t('futures.form.errors.aboveMax', { max: formatQuantity(preview.maxSize), coin: base });
        return undefined;
      case 'leverage':
        return leverageError();
      case 'takeProfit':
      case 'stopLoss': {
        const value = field === 'takeProfit' ? draft.takeProfit : draft.stopLoss;
        if (!draft.withTpSl || value === '') return undefined;
        if (!isPositive(value)) return t('futures.form.errors.pricePositive');
        if (!onStep(value, coin.tickSize)) return t('futures.form.errors.offTick', { tick: coin.tickSize });
        const reference = fillPrice(side);
        if (reference && wrongSide(field, side, value, reference, compareDecimal))
          return t(field === 'takeProfit' ? `futures.tpsl.errors.takeProfit.${side}` : `futures.tpsl.errors.stopLoss.${side}`);
        return undefined;
      }
    }
  };
  const FIELDS: Field[] = ['price', 'quantity', 'leverage', 'takeProfit', 'stopLoss'];
  const shown = (field: Field): string | undefined =>
    serverErrors[field] ?? (submitted || touched.has(field) ? (fieldError(field, 'long') ?? undefined) : undefined);

  const update = (change: Partial<Draft>, field?: Field) => {
    setDraft((d) => ({ ...d, ...change }));
    if (field) {
      setTouched((current) => (current.has(field) ? current : new Set([...current, field])));
      setServerErrors((current) => (current[field] ? { ...current, [field]: undefined } : current));
    }
  };

  const saveSetting = async (change: { leverage?: string; marginMode?: MarginModeValue }) => {
    try {
      const next = await setFuturesLeverage({ symbol: coin.symbol, ...change });
      queryClient.setQueryData<FuturesSetting>(getSetFuturesLeverageQueryKey({ symbol: coin.symbol }), next);
      setLeverageText(null);
      return true;
    } catch {
      // The mutator's toast already says why (e.g. the mode is locked while a position is open).
      return false;
    }
  };

  const onLeverageBlur = () => {
    setTouched((current) => new Set([...current, 'leverage']));
    if (leverageText !== null && leverageText !== savedLeverage && !leverageError()) void saveSetting({ leverage: leverageText });
  };

  const onPercent = (percent: number) => {
    const max = long.maxSize;
    if (!max) return;
    update({ quantity: floorToStep(percentOf(max, percent), coin.stepSize) }, 'quantity');
  };

  const place = async (side: PositionSide) => {
    setSubmitted(true);
    if (FIELDS.some((field) => fieldError(field, side))) return;
    if (leverageText !== null && leverageText !== savedLeverage && !(await saveSetting({ leverage: leverageText }))) return;
    const body: FuturesOrderRequest = {
      symbol: coin.symbol,
      side: side === 'long' ? 'buy' : 'sell',
      orderType: draft.orderType,
      quantity: draft.quantity,
      leverage,
      marginMode,
      ...(draft.orderType === 'limit' ? { price: draft.price } : {}),
      ...(draft.reduceOnly ? { reduceOnly: true } : {}),
    };
    setBusySide(side);
    try {
      const order = await submit.mutateAsync({ data: body, headers: idempotencyHeader(keys.keyFor(body)) });
      keys.settle();
      const filled = order.status === 'dealTotol';
      toaster.create({
        type: order.status === 'cancelled' ? 'warning' : 'success',
        title: t(`futures.form.result.${order.status}`, {
          side: t(side === 'long' ? 'futures.side.long' : 'futures.side.short'),
          quantity: formatQuantity(order.haveDealNum !== '0' ? order.haveDealNum : order.commissNum),
          coin: base,
          price: order.dealAverPrice ? formatPrice(order.dealAverPrice, coin.pricePrecision) : '',
        }),
      });
      if (filled && draft.withTpSl && (draft.takeProfit || draft.stopLoss) && !draft.reduceOnly) {
        try {
          await setTpSl.mutateAsync({
            data: { symbol: coin.symbol, ...(draft.takeProfit ? { takeProfitPrice: draft.takeProfit } : {}), ...(draft.stopLoss ? { stopLossPrice: draft.stopLoss } : {}) },
          });
        } catch (error) {
          toaster.create({ type: 'error', title: failure(error, t('errors.unknown')).message });
        }
      }
      setDraft((d) => ({ ...d, quantity: '', takeProfit: '', stopLoss: '' }));
      setTouched(new Set());
      setSubmitted(false);
      setServerErrors({});
      onPlaced?.();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      toaster.create({ type: 'error', title: info.message });
      if (info.field && (FIELDS as string[]).includes(info.field)) setServerErrors({ [info.field]: info.message });
    } finally {
      setBusySide(null);
      refresh();
    }
  };

  const price = (value: string | null) => orDash((v) => formatPrice(v, coin.pricePrecision), value);
  const usdt = (value: string | null) => (value ? `${orDash((v) => formatBalance(v), value)} ${quote}` : '--');
  const result = (value: string | null) => (value ? `${orDash(formatPnl, value)} ${quote}` : '--');
  const trigger = (value: { pnl: string; roePercent: string } | null) =>
    value ? `${signed(orDash(formatPnl, value.pnl))} ${quote} (${formatPercent(value.roePercent)})` : '--';

  return (
    <Box as="section" aria-labelledby="futures-form-heading" borderWidth="1px" rounded="xl" bg="bg.panel" minW="0">
      <Text as="h2" id="futures-form-heading" srOnly>
        {t('futures.form.title', { pair })}
      </Text>
      <Stack gap="3" p="3">
        <Flex gap="2" align="flex-end" wrap="wrap">
          <Stack gap="1" flex="1" minW="9rem">
            <Text id={modeLabelId} fontSize="xs" fontWeight="medium" color="fg.muted">
              {t('futures.form.marginMode')}
            </Text>
            <HStack role="radiogroup" aria-labelledby={modeLabelId} gap="1" bg="bg.muted" rounded="md" p="0.5">
              {(['cross', 'isolated'] as const).map((mode) => (
                <Button
                  key={mode}
                  role="radio"
                  aria-checked={marginMode === mode}
                  size="xs"
                  flex="1"
                  variant={marginMode === mode ? 'surface' : 'ghost'}
                  disabled={!loggedIn}
                  onClick={() => {
                    if (mode !== marginMode) void saveSetting({ marginMode: mode });
                  }}
                >
                  {t(`futures.marginMode.${mode}`)}
                </Button>
              ))}
            </HStack>
          </Stack>
          <Box w="7.5rem">
            <NumberField
              label={t('futures.form.leverage', { max: maxLeverage })}
              value={leverage}
              unit="x"
              decimals={0}
              error={shown('leverage')}
              onChange={(value) => setLeverageText(value)}
              onBlur={onLeverageBlur}
            />
          </Box>
        </Flex>

        <Tabs.Root value={draft.orderType} onValueChange={(details) => update({ orderType: details.value as Draft['orderType'] })} variant="line" size="sm">
          <Tabs.List aria-label={t('futures.form.orderType')}>
            <Tabs.Trigger value="limit">{t('futures.form.limit')}</Tabs.Trigger>
            <Tabs.Trigger value="market">{t('futures.form.market')}</Tabs.Trigger>
          </Tabs.List>
          {/* The form is the order type's panel. */}
          <Tabs.Content value={draft.orderType} p="0">
            <chakra.form aria-label={t('futures.form.title', { pair })} noValidate onSubmit={(event: FormEvent) => event.preventDefault()} display="flex" flexDirection="column" gap="3">
              <Flex justify="space-between" fontSize="xs" gap="2" wrap="wrap">
                <chakra.label htmlFor={availableId} color="fg.muted">
                  {t('futures.form.available')}
                </chakra.label>
                <chakra.output id={availableId} fontWeight="medium" fontVariantNumeric="tabular-nums">
                  {loggedIn ? usdt(usable ?? '0') : '--'}
                </chakra.output>
              </Flex>
              {account && (
                <Flex justify="space-between" fontSize="xs" gap="2" wrap="wrap">
                  <Text color="fg.muted">{t('futures.form.equity')}</Text>
                  <Text fontWeight="medium" fontVariantNumeric="tabular-nums">
                    {usdt(account.allMargin)}
                  </Text>
                </Flex>
              )}

              {draft.orderType === 'limit' ? (
                <NumberField
                  label={t('futures.form.price')}
                  value={draft.price}
                  unit={quote}
                  decimals={decimalsOfStep(coin.tickSize)}
                  error={shown('price')}
                  onChange={(value) => update({ price: value }, 'price')}
                />
              ) : (
                <Stack gap="1">
                  <Text fontSize="xs" fontWeight="medium" color="fg.muted">
                    {t('futures.form.price')}
                  </Text>
                  <Box px="3" py="1.5" rounded="md" bg="bg.muted" fontSize="sm" color="fg.muted">
                    {t('futures.form.marketPrice')}
                  </Box>
                </Stack>
              )}
              <NumberField
                label={t('futures.form.quantity')}
                value={draft.quantity}
                unit={base}
                decimals={decimalsOfStep(coin.stepSize)}
                error={shown('quantity')}
                onChange={(value) => update({ quantity: value }, 'quantity')}
              />
              <HStack gap="1.5" role="group" aria-label={t('futures.form.percentGroup')}>
                {PERCENTS.map((percent) => (
                  <Button
                    key={percent}
                    size="2xs"
                    flex="1"
                    variant="outline"
                    aria-label={t('futures.form.percent', { percent })}
                    disabled={!loggedIn || !long.maxSize}
                    onClick={() => onPercent(percent)}
                  >
                    {percent}%
                  </Button>
                ))}
              </HStack>

              <HStack gap="4" wrap="wrap">
                <Checkbox.Root size="sm" checked={draft.withTpSl} onCheckedChange={(details) => update({ withTpSl: details.checked === true })}>
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label fontSize="sm">{t('futures.form.tpsl')}</Checkbox.Label>
                </Checkbox.Root>
                <Checkbox.Root size="sm" checked={draft.reduceOnly} onCheckedChange={(details) => update({ reduceOnly: details.checked === true })}>
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label fontSize="sm">{t('futures.form.reduceOnly')}</Checkbox.Label>
                </Checkbox.Root>
              </HStack>
              {draft.withTpSl && (
                <Stack gap="3">
                  <NumberField
                    label={t('futures.form.takeProfit')}
                    value={draft.takeProfit}
                    unit={quote}
                    decimals={decimalsOfStep(coin.tickSize)}
                    error={shown('takeProfit')}
                    helper={t('futures.form.triggerHint')}
                    onChange={(value) => update({ takeProfit: value }, 'takeProfit')}
                  />
                  <NumberField
                    label={t('futures.form.stopLoss')}
                    value={draft.stopLoss}
                    unit={quote}
                    decimals={decimalsOfStep(coin.tickSize)}
                    error={shown('stopLoss')}
                    onChange={(value) => update({ stopLoss: value }, 'stopLoss')}
                  />
                </Stack>
              )}

              <Box role="group" aria-label={t('futures.preview.title')} rounded="md" bg="bg.subtle" px="3" py="2" fontSize="xs">
                <PreviewHead long={t('futures.side.long')} short={t('futures.side.short')} />
                <dl>
                  <PreviewRow label={t('futures.preview.margin')} long={usdt(long.initialMargin)} short={usdt(short.initialMargin)} />
                  <PreviewRow label={t('futures.preview.fee')} long={result(long.fee)} short={result(short.fee)} />
                  <PreviewRow label={t('futures.preview.liquidation')} long={price(long.liquidationPrice)} short={price(short.liquidationPrice)} strong />
                  <PreviewRow
                    label={t('futures.preview.maxSize')}
                    long={long.maxSize ? `${formatQuantity(long.maxSize)} ${base}` : '--'}
                    short={short.maxSize ? `${formatQuantity(short.maxSize)} ${base}` : '--'}
                  />
                  {draft.withTpSl && (
                    <>
                      <PreviewRow label={t('futures.preview.atTakeProfit')} long={trigger(long.takeProfit)} short={trigger(short.takeProfit)} />
                      <PreviewRow label={t('futures.preview.atStopLoss')} long={trigger(long.stopLoss)} short={trigger(short.stopLoss)} />
                    </>
                  )}
                </dl>
                <Text color="fg.subtle" mt="1.5" fontSize="2xs">
                  {t('futures.preview.note')}
                </Text>
              </Box>

              {loggedIn ? (
                <HStack gap="2">
                  {(onlySide ? [onlySide] : (['long', 'short'] as const)).map((side) => (
                    <Button
                      key={side}
                      type="button"
                      flex="1"
                      size="md"
                      bg={side === 'long' ? 'up' : 'down'}
                      color={side === 'long' ? 'onUp' : 'onDown'}
                      _hover={{ opacity: 0.9 }}
                      loading={busySide === side}
                      disabled={busySide !== null}
                      onClick={() => void place(side)}
                    >
                      {t(side === 'long' ? 'futures.form.openLong' : 'futures.form.openShort')}
                    </Button>
                  ))}
                </HStack>
              ) : (
                <Stack gap="2" role="group" aria-label={t('futures.form.loginToTrade')}>
                  <Text fontSize="sm" textAlign="center" color="fg.muted">
                    {t('futures.form.loginToTrade')}
                  </Text>
                  <HStack gap="2">
                    <Button asChild flex="1" colorPalette="brand" size="sm">
                      <RouterLink to={loginPath(`${location.pathname}${location.search}`)}>{t('futures.form.login')}</RouterLink>
                    </Button>
                    <Button asChild flex="1" variant="outline" colorPalette="brand" size="sm">
                      <RouterLink to="/user/register">{t('futures.form.signup')}</RouterLink>
                    </Button>
                  </HStack>
                </Stack>
              )}
            </chakra.form>
          </Tabs.Content>
        </Tabs.Root>
      </Stack>
    </Box>
  );
});

function PreviewHead({ long, short }: { long: string; short: string }) {
  return (
    <Flex justify="flex-end" gap="3" pb="1" fontWeight="semibold" aria-hidden="true">
      <Text w="45%" textAlign="end" color="up">
        {long}
      </Text>
      <Text w="45%" textAlign="end" color="down">
        {short}
      </Text>
    </Flex>
  );
}

function PreviewRow({ label, long, short, strong }: { label: string; long: string; short: string; strong?: boolean }) {
  const { t } = useTranslation();
  return (
    <Box py="0.5">
      <Text as="dt" color="fg.muted">
        {label}
      </Text>
      <Flex as="dd" justify="flex-end" gap="3" fontVariantNumeric="tabular-nums" fontWeight={strong ? 'semibold' : 'medium'}>
        <Text as="span" w="45%" textAlign="end" aria-label={t('futures.preview.forLong', { label })}>
          {long}
        </Text>
        <Text as="span" w="45%" textAlign="end" aria-label={t('futures.preview.forShort', { label })}>
          {short}
        </Text>
      </Flex>
    </Box>
  );
}
