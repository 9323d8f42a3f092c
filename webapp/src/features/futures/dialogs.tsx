/**
 * The position dialogs: take profit / stop loss (a trigger on the wrong side of the mark is refused
 * here before the server would, PnL and ROE at each trigger from wasm-core), margin adjustment
 * (add or remove isolated margin; the new liquidation price and the most removable come live from
 * wasm-core's `marginAdjustment`, the function the server runs), stop order (`contract/loss/sett`:
 * closes the quantity, or the whole position, at market when the mark reaches the trigger from the
 * side it is on now; the estimated PnL at the trigger from wasm-core) and close position (market or
 * limit, whole or part with 25 / 50 / 75 / 100 %, the estimated PnL from wasm-core).
 *
 * @module
 */

import { Box, Button, Dialog, Flex, HStack, Portal, Stack, Tabs, Text, chakra } from '@chakra-ui/react';
import { type FormEvent, type ReactNode, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAdjustFuturesMargin, useSetFuturesStop, useSetFuturesTpSl, useSubmitFuturesOrder } from '../../api/generated/futures/futures';
import { useGetUserCoin } from '../../api/generated/funds/funds';
import type { CoinListEntry, FuturesOrderRequest, FuturesPosition, StopRequest } from '../../api/generated/model';
import { NumberField } from '../../components/number-field';
import { SILENT, failure } from '../../lib/api-calls';
import { compareDecimal } from '../../lib/decimal';
import { decimalsOfStep, floorToStep, isPositive, percentOf } from '../../lib/decimal-math';
import { marginTiers, useContractRules } from '../../hooks/use-contract-rules';
import { idempotencyHeader, useIdempotencyKey } from '../../lib/idempotency';
import { toaster } from '../../lib/toaster';
import { formatBalance, formatPercent, formatPnl, formatPrice, formatQuantity, orDash, pnlAtTrigger } from '../../lib/wasm';
import { useRefreshFutures } from '../../hooks/use-refresh-futures';
import { adjustmentPreview, wrongSide } from './lib/preview';

const PERCENTS = [25, 50, 75, 100] as const;

function onStep(value: string, step: string): boolean {
  return compareDecimal(floorToStep(value, step), value) === 0;
}

function Frame({
  title,
  children,
  submitLabel,
  busy,
  onSubmit,
  onClose,
}: {
  title: string;
  children: ReactNode;
  submitLabel: string;
  busy: boolean;
  onSubmit: () => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root open onOpenChange={(event) => !event.open && onClose()} placement="center" size="sm">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content rounded="xl" mx="3">
            <chakra.form
              noValidate
              onSubmit={(event: FormEvent) => {
                event.preventDefault();
                onSubmit();
              }}
            >
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">{children}</Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={onClose}>
                  {t('futures.dialogs.cancel')}
                </Button>
                <Button type="submit" colorPalette="brand" loading={busy}>
                  {submitLabel}
                </Button>
              </Dialog.Footer>
            </chakra.form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A figure row of a dialog (`label`, `value`), readable by its label. */
function Figure({ label, value, strong, tone }: { label: string; value: string; strong?: boolean; tone?: string }) {
  return (
    <Flex justify="space-between" gap="3" fontSize="sm" role="group" aria-label={label}>
      <Text color="fg.muted">{label}</Text>
      <Text fontVariantNumeric="tabular-nums" fontWeight={strong ? 'semibold' : 'medium'} color={tone} textAlign="end">
        {value}
      </Text>
    </Flex>
  );
}

function Summary({ position, coin, pair }: { position: FuturesPosition; coin: CoinListEntry; pair: string }) {
  const { t } = useTranslation();
  const price = (value?: string) => orDash((v) => formatPrice(v, coin.pricePrecision), value);
  return (
    <Box rounded="md" bg="bg.subtle" px="3" py="2">
      <Text fontWeight="semibold" fontSize="sm" color={position.side === 'long' ? 'up' : 'down'}>
        {pair} · {t(`futures.side.${position.side}`)} · {t(`futures.marginMode.${position.marginMode}`)} {position.leverage}x
      </Text>
      <Figure label={t('futures.positions.size')} value={`${formatQuantity(position.openInterest)} ${coin.coin.toUpperCase()}`} />
      <Figure label={t('futures.positions.entry')} value={price(position.averOpenPrice)} />
      <Figure label={t('futures.positions.mark')} value={price(position.markPrice)} />
    </Box>
  );
}

function tone(value: string | null | undefined): string | undefined {
  if (!value || /^[+-]?0*(\.0*)?$/.test(value)) return undefined;
  return value.startsWith('-') ? 'down' : 'up';
}

function outcome(position: FuturesPosition, triggerPrice: string, size = position.openInterest): { pnl: string; roePercent: string } | null {
  if (!isPositive(triggerPrice) || !isPositive(size)) return null;
  try {
    return pnlAtTrigger({ side: position.side, size, entryPrice: position.averOpenPrice, leverage: position.leverage, triggerPrice });
  } catch {
    return null;
  }
}

function outcomeText(value: { pnl: string; roePercent: string } | null, quote: string): string {
  return value ? `${orDash(formatPnl, value.pnl)} ${quote} (${formatPercent(value.roePercent)})` : '--';
}

export function TpSlDialog({ position, coin, pair, onClose }: { position: FuturesPosition; coin: CoinListEntry; pair: string; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshFutures();
  const save = useSetFuturesTpSl({ request: SILENT });
  const [takeProfit, setTakeProfit] = useState(position.takeProfitPrice ?? '');
  const [stopLoss, setStopLoss] = useState(position.stopLossPrice ?? '');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<{ field: 'takeProfit' | 'stopLoss'; message: string } | null>(null);
  const quote = coin.baseCoin.toUpperCase();
  const decimals = decimalsOfStep(coin.tickSize);

  const check = (kind: 'takeProfit' | 'stopLoss', value: string): string | undefined => {
    if (value === '') return undefined;
    if (!isPositive(value)) return t('futures.form.errors.pricePositive');
    if (!onStep(value, coin.tickSize)) return t('futures.form.errors.offTick', { tick: coin.tickSize });
    if (wrongSide(kind, position.side, value, position.markPrice, compareDecimal)) return t(`futures.tpsl.errors.${kind}.${position.side}`);
    return undefined;
  };
  const errors = { takeProfit: check('takeProfit', takeProfit), stopLoss: check('stopLoss', stopLoss) };
  const shown = (kind: 'takeProfit' | 'stopLoss') => (serverError?.field === kind ? serverError.message : submitted || (kind === 'takeProfit' ? takeProfit : stopLoss) ? errors[kind] : undefined);

  const onSubmit = async () => {
    setSubmitted(true);
    if (errors.takeProfit || errors.stopLoss) return;
    try {
      await save.mutateAsync({
        data: { symbol: position.symbol, ...(takeProfit ? { takeProfitPrice: takeProfit } : {}), ...(stopLoss ? { stopLossPrice: stopLoss } : {}) },
      });
      toaster.create({ type: 'success', title: t('futures.tpsl.saved') });
      refresh();
      onClose();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      const field = info.reason === 'stop_loss_wrong_side' || info.field === 'stopLossPrice' ? 'stopLoss' : 'takeProfit';
      setServerError({ field, message: info.message });
    }
  };

  return (
    <Frame title={t('futures.tpsl.title')} submitLabel={t('futures.tpsl.save')} busy={save.isPending} onSubmit={() => void onSubmit()} onClose={onClose}>
      <Summary position={position} coin={coin} pair={pair} />
      <NumberField
        label={t('futures.form.takeProfit')}
        value={takeProfit}
        unit={quote}
        decimals={decimals}
        error={shown('takeProfit')}
        onChange={(value) => {
          setTakeProfit(value);
          setServerError(null);
        }}
      />
      <Figure label={t('futures.preview.atTakeProfit')} value={outcomeText(outcome(position, takeProfit), quote)} tone={tone(outcome(position, takeProfit)?.pnl)} />
      <NumberField
        label={t('futures.form.stopLoss')}
        value={stopLoss}
        unit={quote}
        decimals={decimals}
        error={shown('stopLoss')}
        onChange={(value) => {
          setStopLoss(value);
          setServerError(null);
        }}
      />
      <Figure label={t('futures.preview.atStopLoss')} value={outcomeText(outcome(position, stopLoss), quote)} tone={tone(outcome(position, stopLoss)?.pnl)} />
      <Text fontSize="xs" color="fg.muted">
        {t('futures.tpsl.hint')}
      </Text>
    </Frame>
  );
}

export function MarginDialog({ position, coin, pair, onClose }: { position: FuturesPosition; coin: CoinListEntry; pair: string; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshFutures();
  const keys = useIdempotencyKey();
  const adjust = useAdjustFuturesMargin({ request: SILENT });
  const balances = useGetUserCoin();
  const rules = useContractRules(position.symbol);
  const tiers = useMemo(() => marginTiers(rules), [rules]);
  const [direction, setDirection] = useState<'add' | 'remove'>('add');
  const [amount, setAmount] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const quote = coin.baseCoin.toUpperCase();
  const available = balances.data?.coins.find((c) => c.coin.toLowerCase() === 'usdt')?.trading ?? null;
  const preview = adjustmentPreview(position, direction, amount, available, tiers, coin.tickSize);
  const price = (value?: string | null) => orDash((v) => formatPrice(v, coin.pricePrecision), value);

  const error = (() => {
    if (!isPositive(amount)) return t('futures.margin.errors.positive');
    if (direction === 'remove' && preview && compareDecimal(amount, preview.maxRemovable) > 0)
      return t('futures.margin.errors.aboveRemovable', { max: formatBalance(preview.maxRemovable) });
    if (direction === 'add' && available !== null && compareDecimal(amount, available) > 0) return t('futures.margin.errors.aboveAvailable', { max: formatBalance(available) });
    return undefined;
  })();

  const onSubmit = async () => {
    setSubmitted(true);
    if (error) return;
    const body = { symbol: position.symbol, direction, amount };
    try {
      await adjust.mutateAsync({ data: body, headers: idempotencyHeader(keys.keyFor(body)) });
      keys.settle();
      toaster.create({ type: 'success', title: t(direction === 'add' ? 'futures.margin.added' : 'futures.margin.removed') });
      refresh();
      onClose();
    } catch (failed) {
      const info = failure(failed, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      setServerError(info.message);
    }
  };

  return (
    <Frame title={t('futures.margin.title')} submitLabel={t('futures.margin.confirm')} busy={adjust.isPending} onSubmit={() => void onSubmit()} onClose={onClose}>
      <Summary position={position} coin={coin} pair={pair} />
      <Tabs.Root
        value={direction}
        onValueChange={(details) => {
          setDirection(details.value as 'add' | 'remove');
          setServerError(null);
        }}
        variant="enclosed"
        size="sm"
        fitted
      >
        <Tabs.List aria-label={t('futures.margin.direction')}>
          <Tabs.Trigger value="add">{t('futures.margin.add')}</Tabs.Trigger>
          <Tabs.Trigger value="remove">{t('futures.margin.remove')}</Tabs.Trigger>
        </Tabs.List>
        {/* One panel, the selected direction's: the amount and what it changes. */}
        <Tabs.Content value={direction} p="0" pt="3" display="flex" flexDirection="column" gap="3">
          <NumberField
            label={t('futures.margin.amount')}
            value={amount}
            unit={quote}
            decimals={8}
            error={serverError ?? (submitted || amount ? error : undefined)}
            onChange={(value) => {
              setAmount(value);
              setServerError(null);
            }}
          />
          <Box rounded="md" bg="bg.subtle" px="3" py="2">
            <Figure label={t('futures.margin.current')} value={`${orDash((v) => formatBalance(v), position.holdCollateralAssets)} ${quote}`} />
            <Figure label={t('futures.margin.after')} value={preview ? `${orDash((v) => formatBalance(v), preview.walletBalance)} ${quote}` : '--'} />
            <Figure
              label={t(direction === 'add' ? 'futures.margin.available' : 'futures.margin.maxRemovable')}
              value={`${orDash((v) => formatBalance(v), direction === 'add' ? available : (preview?.maxRemovable ?? null))} ${quote}`}
            />
            <Figure label={t('futures.margin.currentLiquidation')} value={price(position.expectedStrongParity)} />
            <Figure label={t('futures.margin.newLiquidation')} value={preview ? price(preview.liquidationPrice) : '--'} strong />
          </Box>
        </Tabs.Content>
      </Tabs.Root>
    </Frame>
  );
}

/** A result with its sign (`+12.30`, `-4.10`, `0.00`), `--` when unknown. */
export function signedPnl(value: string | null | undefined): string {
  const text = orDash(formatPnl, value);
  return text === '--' || text.startsWith('-') || /^[0.,]+$/.test(text) ? text : `+${text}`;
}

export function ClosePositionDialog({ position, coin, pair, onClose }: { position: FuturesPosition; coin: CoinListEntry; pair: string; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshFutures();
  const keys = useIdempotencyKey();
  const submit = useSubmitFuturesOrder({ request: SILENT });
  const [orderType, setOrderType] = useState<'market' | 'limit'>('market');
  const [price, setPrice] = useState(position.markPrice);
  const [quantity, setQuantity] = useState(position.openInterest);
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const base = coin.coin.toUpperCase();
  const quote = coin.baseCoin.toUpperCase();
  const whole = compareDecimal(quantity, position.openInterest) === 0;

  const quantityError = (() => {
    if (!isPositive(quantity)) return t('futures.form.errors.quantityPositive');
    if (!onStep(quantity, coin.stepSize)) return t('futures.form.errors.offStep', { step: coin.stepSize });
    if (compareDecimal(quantity, position.openInterest) > 0) return t('futures.close.errors.aboveSize', { size: formatQuantity(position.openInterest) });
    return undefined;
  })();
  const priceError = (() => {
    if (orderType !== 'limit') return undefined;
    if (!isPositive(price)) return t('futures.form.errors.pricePositive');
    if (!onStep(price, coin.tickSize)) return t('futures.form.errors.offTick', { tick: coin.tickSize });
    return undefined;
  })();
  const estimate = outcome(position, orderType === 'limit' ? price : position.markPrice, quantity);

  const onSubmit = async () => {
    setSubmitted(true);
    if (quantityError || priceError) return;
    const body: FuturesOrderRequest = {
      symbol: position.symbol,
      side: position.side === 'long' ? 'sell' : 'buy',
      orderType,
      ...(orderType === 'limit' ? { price } : {}),
      ...(whole ? { closePosition: true } : { quantity, reduceOnly: true }),
    };
    try {
      const order = await submit.mutateAsync({ data: body, headers: idempotencyHeader(keys.keyFor(body)) });
      keys.settle();
      toaster.create({
        type: order.status === 'cancelled' ? 'warning' : 'success',
        title: t(order.status === 'dealTotol' ? 'futures.close.closedAt' : order.status === 'cancelled' ? 'futures.close.notFilled' : 'futures.close.placed', {
          quantity: formatQuantity(order.haveDealNum !== '0' ? order.haveDealNum : order.commissNum),
          coin: base,
          // A filled close says where it closed and what it realised.
          price: orDash((v) => formatPrice(v, coin.pricePrecision), order.dealAverPrice),
          pnl: signedPnl(order.profit),
        }),
      });
      refresh();
      onClose();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      setServerError(info.message);
    }
  };

  return (
    <Frame title={t('futures.close.title')} submitLabel={t('futures.close.confirm')} busy={submit.isPending} onSubmit={() => void onSubmit()} onClose={onClose}>
      <Summary position={position} coin={coin} pair={pair} />
      <Tabs.Root value={orderType} onValueChange={(details) => setOrderType(details.value as 'market' | 'limit')} variant="enclosed" size="sm" fitted>
        <Tabs.List aria-label={t('futures.form.orderType')}>
          <Tabs.Trigger value="market">{t('futures.form.market')}</Tabs.Trigger>
          <Tabs.Trigger value="limit">{t('futures.form.limit')}</Tabs.Trigger>
        </Tabs.List>
        {/* One panel, the selected order type's: its price (limit), the quantity and the outcome. */}
        <Tabs.Content value={orderType} p="0" pt="3" display="flex" flexDirection="column" gap="3">
          {orderType === 'limit' && (
            <NumberField
              label={t('futures.form.price')}
              value={price}
              unit={quote}
              decimals={decimalsOfStep(coin.tickSize)}
              error={submitted ? priceError : undefined}
              onChange={(value) => {
                setPrice(value);
                setServerError(null);
              }}
            />
          )}
          <NumberField
            label={t('futures.close.quantity')}
            value={quantity}
            unit={base}
            decimals={decimalsOfStep(coin.stepSize)}
            error={serverError ?? (submitted || quantity !== position.openInterest ? quantityError : undefined)}
            onChange={(value) => {
              setQuantity(value);
              setServerError(null);
            }}
          />
          <HStack gap="1.5" role="group" aria-label={t('futures.form.percentGroup')}>
            {PERCENTS.map((percent) => (
              <Button
                key={percent}
                size="2xs"
                flex="1"
                variant="outline"
                aria-label={t('futures.close.percent', { percent })}
                onClick={() => {
                  setQuantity(percent === 100 ? position.openInterest : floorToStep(percentOf(position.openInterest, percent), coin.stepSize));
                  setServerError(null);
                }}
              >
                {percent}%
              </Button>
            ))}
          </HStack>
          <Figure label={t('futures.close.estimatedPnl')} value={outcomeText(estimate, quote)} tone={tone(estimate?.pnl)} strong />
        </Tabs.Content>
      </Tabs.Root>
    </Frame>
  );
}

export function StopOrderDialog({ position, coin, pair, onClose }: { position: FuturesPosition; coin: CoinListEntry; pair: string; onClose: () => void }) {
  const { t } = useTranslation();
  const refresh = useRefreshFutures();
  const keys = useIdempotencyKey();
  const place = useSetFuturesStop({ request: SILENT });
  const [trigger, setTrigger] = useState('');
  // Empty: the whole position.
  const [quantity, setQuantity] = useState('');
  const [submitted, setSubmitted] = useState(false);
  const [serverError, setServerError] = useState<{ field: 'trigger' | 'quantity'; message: string } | null>(null);
  const base = coin.coin.toUpperCase();
  const quote = coin.baseCoin.toUpperCase();
  const whole = quantity === '' || compareDecimal(quantity, position.openInterest) === 0;
  const price = (value?: string | null) => orDash((v) => formatPrice(v, coin.pricePrecision), value);

  const triggerError = (() => {
    if (!isPositive(trigger)) return t('futures.form.errors.pricePositive');
    if (!onStep(trigger, coin.tickSize)) return t('futures.form.errors.offTick', { tick: coin.tickSize });
    if (isPositive(position.markPrice) && compareDecimal(trigger, position.markPrice) === 0) return t('futures.stop.errors.atMark');
    return undefined;
  })();
  const quantityError = (() => {
    if (quantity === '') return undefined;
    if (!isPositive(quantity)) return t('futures.form.errors.quantityPositive');
    if (!onStep(quantity, coin.stepSize)) return t('futures.form.errors.offStep', { step: coin.stepSize });
    if (compareDecimal(quantity, position.openInterest) > 0) return t('futures.close.errors.aboveSize', { size: formatQuantity(position.openInterest) });
    return undefined;
  })();
  const direction = isPositive(trigger) && isPositive(position.markPrice) ? compareDecimal(trigger, position.markPrice) : 0;
  const estimate = outcome(position, trigger, whole ? position.openInterest : quantity);

  const onSubmit = async () => {
    setSubmitted(true);
    if (triggerError || quantityError) return;
    const body: StopRequest = {
      symbol: position.symbol,
      triggerPrice: trigger,
      ...(whole ? {} : { quantity }),
      positionSide: position.side,
    };
    try {
      await place.mutateAsync({ data: body, headers: idempotencyHeader(keys.keyFor(body)) });
      keys.settle();
      toaster.create({ type: 'success', title: t('futures.stop.placed', { price: price(trigger) }) });
      refresh();
      onClose();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      const field = info.field === 'quantity' || info.reason === 'no_open_position' ? 'quantity' : 'trigger';
      setServerError({ field, message: info.message });
    }
  };

  return (
    <Frame title={t('futures.stop.title')} submitLabel={t('futures.stop.confirm')} busy={place.isPending} onSubmit={() => void onSubmit()} onClose={onClose}>
      <Summary position={position} coin={coin} pair={pair} />
      <NumberField
        label={t('futures.stop.trigger')}
        value={trigger}
        unit={quote}
        decimals={decimalsOfStep(coin.tickSize)}
        helper={t('futures.stop.currentMark', { price: price(position.markPrice) })}
        error={serverError?.field === 'trigger' ? serverError.message : submitted || trigger ? triggerError : undefined}
        onChange={(value) => {
          setTrigger(value);
          setServerError(null);
        }}
      />
      {direction !== 0 && (
        <Text fontSize="xs" color={direction > 0 ? 'up' : 'down'} role="status">
          {t(direction > 0 ? 'futures.stop.firesAbove' : 'futures.stop.firesBelow', { price: price(trigger) })}
        </Text>
      )}
      <NumberField
        label={t('futures.stop.quantity')}
        value={quantity}
        unit={base}
        decimals={decimalsOfStep(coin.stepSize)}
        helper={t('futures.stop.wholeHint', { size: formatQuantity(position.openInterest) })}
        error={serverError?.field === 'quantity' ? serverError.message : submitted || quantity ? quantityError : undefined}
        onChange={(value) => {
          setQuantity(value);
          setServerError(null);
        }}
      />
      <HStack gap="1.5" role="group" aria-label={t('futures.form.percentGroup')}>
        {PERCENTS.map((percent) => (
          <Button
            key={percent}
            size="2xs"
            flex="1"
            variant="outline"
            aria-label={t('futures.stop.percent', { percent })}
            onClick={() => {
              setQuantity(percent === 100 ? position.openInterest : floorToStep(percentOf(position.openInterest, percent), coin.stepSize));
              setServerError(null);
            }}
          >
            {percent}%
          </Button>
        ))}
      </HStack>
      <Figure label={t('futures.stop.estimatedPnl')} value={outcomeText(estimate, quote)} tone={tone(estimate?.pnl)} strong />
      <Text fontSize="xs" color="fg.muted">
        {t('futures.stop.hint')}
      </Text>
    </Frame>
  );
}
