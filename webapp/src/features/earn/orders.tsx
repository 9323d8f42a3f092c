/**
 * The user's earn orders (`POST /api/mingOrder/list`) by state — in progress, completed, redeemed —
 * as cards: amount, rate, days of interest, rewards paid so far, the next payout and its date, the
 * total at maturity, the delivery date; closed ones with what came back and what was deducted. An
 * order that may be redeemed early opens a dialog with the server's preview by the product's rule
 * (`POST /api/earn/redeem/preview`: principal, rewards paid, deduction, what returns) and confirms
 * with `POST /api/earn/redeem` (with an `Idempotency-Key`). Every order opens its statement
 * (`./statement`). Used by /pledge/order and the My Investments tab of /finance/investment.
 *
 * @module
 */

import { Box, Button, Dialog, Flex, Grid, Portal, Stack, Tabs, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import {
  getListEarnPositionsQueryKey,
  getListEarnProductsQueryKey,
  useGetEarnProduct,
  useListEarnPositions,
  usePreviewEarnRedemption,
  useRedeemEarn,
} from '../../api/generated/earn/earn';
import { getGetUserCoinQueryKey } from '../../api/generated/funds/funds';
import { type PositionView, ProductListType } from '../../api/generated/model';
import { SILENT, failure } from '../../lib/api-calls';
import { idempotencyHeader, useIdempotencyKey } from '../../lib/idempotency';
import { invalidateOperations } from '../../lib/query-keys';
import { toaster } from '../../lib/toaster';
import { formatQuantity } from '../../lib/wasm';
import { coinAmount } from './product-card';
import { ratePercents } from './lib/rates';
import { utcDay } from './lib/schedule';
import { QueryState, Row } from './parts';
import { StatementDialog } from './statement';

/** The order states, in tab order. */
export const ORDER_STATES = ['in_progress', 'completed', 'redeemed'] as const;
export type OrderState = (typeof ORDER_STATES)[number];

/** `state` from the URL when it is one, else in progress. */
export function parseOrderState(value: string | null): OrderState {
  return (ORDER_STATES as readonly string[]).includes(value ?? '') ? (value as OrderState) : 'in_progress';
}

/** The most orders one page lists. */
const ORDERS_PAGE = 50;

function RedeemDialog({ position, onClose }: { position: PositionView; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useIdempotencyKey();
  const preview = usePreviewEarnRedemption({ id: position.id }, { query: { gcTime: 0, staleTime: 0 } });
  const redeem = useRedeemEarn({ request: SILENT });
  const coin = position.coin.toUpperCase();
  const reward = position.rewardCoin.toUpperCase();
  const figures = preview.data;

  const confirm = async () => {
    const body = { id: position.id };
    try {
      const done = await redeem.mutateAsync({ data: body, headers: idempotencyHeader(keys.keyFor(body)) });
      keys.settle();
      toaster.create({ type: 'success', title: t('earn.redeem.done', { amount: formatQuantity(done.returned ?? '0'), coin }) });
      void invalidateOperations(queryClient, [getListEarnPositionsQueryKey(), ...Object.values(ProductListType).map((type) => getListEarnProductsQueryKey(type)), getGetUserCoinQueryKey()]);
      onClose();
    } catch (caught) {
      const info = failure(caught, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      toaster.create({ type: 'error', title: info.message });
    }
  };

  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center" size={{ base: 'full', sm: 'md' }}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('earn.redeem.title')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {!figures ? (
                <QueryState failed={preview.isError} onRetry={() => void preview.refetch()} />
              ) : !figures.allowed ? (
                <Text role="alert">{t('earn.redeem.forbidden')}</Text>
              ) : (
                <Stack gap="3">
                  <Text fontSize="sm">{t(`earn.rule.${figures.rule === 'keep' && position.flexible ? 'flexible' : figures.rule}`)}</Text>
                  <Box role="group" aria-label={t('earn.redeem.title')}>
                    <Box as="dl">
                      <Row label={t('earn.redeem.principal')} value={coinAmount(figures.principal, coin)} />
                      <Row label={t('earn.redeem.rewardsPaid', { days: figures.paidDays })} value={coinAmount(figures.rewardsPaid, reward)} />
                      <Row label={t('earn.redeem.deduction')} value={`−${coinAmount(figures.deduction, coin)}`} />
                      <Row label={t('earn.redeem.returned')} value={coinAmount(figures.returned, coin)} strong />
                    </Box>
                  </Box>
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('earn.redeem.cancel')}
              </Button>
              <Button colorPalette="red" loading={redeem.isPending} disabled={!figures?.allowed} onClick={() => void confirm()}>
                {t('earn.redeem.confirm')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** The product's name (read once per product and cached), else its number. */
function ProductName({ id }: { id: number }) {
  const { t } = useTranslation();
  const product = useGetEarnProduct({ id }, { query: { staleTime: 5 * 60_000 } });
  return <>{product.data?.name ?? t('earn.orders.product', { id })}</>;
}

function OrderCard({ position, onRedeem, onStatement }: { position: PositionView; onRedeem: () => void; onStatement: () => void }) {
  const { t } = useTranslation();
  const coin = position.coin.toUpperCase();
  const reward = position.rewardCoin.toUpperCase();
  const rates = ratePercents({ rate: position.rate, rateBasis: position.rateBasis, dayRate: position.rateBasis === 'apr' ? '0' : position.rate });
  const open = position.status === 'in_progress';
  return (
    <Stack as="article" aria-labelledby={`earn-order-${position.id}`} gap="2" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Flex justify="space-between" gap="2" align="baseline">
        <Text as="h3" id={`earn-order-${position.id}`} fontWeight="semibold" overflowWrap="anywhere">
          <ProductName id={position.productId} />
        </Text>
        <Text fontSize="xs" color="fg.muted" whiteSpace="nowrap">
          #{position.id}
        </Text>
      </Flex>
      <Box as="dl">
        <Row label={t('earn.orders.amount')} value={coinAmount(position.amount, coin)} strong />
        <Row label={t('earn.orders.rate')} value={position.rateBasis === 'apr' ? `${rates.annual}% APR` : `${rates.daily}% / ${t('earn.product.dailyRate')}`} />
        <Row
          label={t('earn.orders.accrued')}
          value={position.flexible ? String(position.accrualDays) : t('earn.orders.accruedValue', { days: position.accrualDays, total: position.lockDays })}
        />
        <Row label={t('earn.orders.rewardSoFar')} value={coinAmount(position.rewardSoFar, reward)} />
        {open && position.nextPayDate != null && (
          <Row
            label={t('earn.orders.nextPayout')}
            value={t('earn.orders.nextPayoutValue', { amount: formatQuantity(position.nextPayAmount ?? '0'), coin: reward, date: utcDay(position.nextPayDate) })}
          />
        )}
        {!position.flexible && <Row label={t('earn.orders.totalReward')} value={coinAmount(position.totalReward, reward)} />}
        <Row label={t('earn.orders.subscribed')} value={`${utcDay(position.subscribedAt)} UTC`} />
        {position.deliveryDate != null && <Row label={t('earn.orders.delivery')} value={`${utcDay(position.deliveryDate)} UTC`} />}
        {position.closedAt != null && <Row label={t('earn.orders.closed')} value={`${utcDay(position.closedAt)} UTC`} />}
        {position.returned != null && <Row label={t('earn.orders.returned')} value={coinAmount(position.returned, coin)} />}
        {position.deduction != null && position.status === 'redeemed' && (
          <Row label={t('earn.orders.deduction')} value={coinAmount(position.deduction, coin)} />
        )}
      </Box>
      {open &&
        (position.canRedeemEarly ? (
          <Button size="sm" variant="outline" colorPalette="red" onClick={onRedeem}>
            {t('earn.orders.redeem')}
          </Button>
        ) : (
          <Text fontSize="xs" color="fg.muted">
            {t('earn.orders.noEarly')}
          </Text>
        ))}
      <Button size="sm" variant="ghost" onClick={onStatement}>
        {t('earn.statement.show')}
      </Button>
    </Stack>
  );
}

function OrderList({ state }: { state: OrderState }) {
  const { t } = useTranslation();
  const positions = useListEarnPositions({ status: state, pageSize: ORDERS_PAGE });
  const [redeeming, setRedeeming] = useState<PositionView | null>(null);
  const [reading, setReading] = useState<PositionView | null>(null);
  if (!positions.data) return <QueryState failed={positions.isError} onRetry={() => void positions.refetch()} />;
  if (positions.data.records.length === 0) {
    return (
      <Text color="fg.muted" py="8" textAlign="center">
        {t('earn.orders.empty')}
      </Text>
    );
  }
  return (
    <>
      <Grid gap="4" templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))', xl: 'repeat(3, minmax(0, 1fr))' }}>
        {positions.data.records.map((position) => (
          <OrderCard key={position.id} position={position} onRedeem={() => setRedeeming(position)} onStatement={() => setReading(position)} />
        ))}
      </Grid>
      {redeeming && <RedeemDialog position={redeeming} onClose={() => setRedeeming(null)} />}
      {reading && <StatementDialog position={reading} onClose={() => setReading(null)} />}
    </>
  );
}

/** The orders by state, the state kept in the URL (`?state=`). */
export function EarnOrders() {
  const { t } = useTranslation();
  const [search, setSearch] = useSearchParams();
  const state = parseOrderState(search.get('state'));
  return (
    <Tabs.Root
      value={state}
      onValueChange={(details) => {
        const next = new URLSearchParams(search);
        next.set('state', details.value);
        setSearch(next, { replace: true });
      }}
      variant="subtle"
      size="sm"
    >
      <Tabs.List maxW="full" overflowX="auto" mb="3">
        {ORDER_STATES.map((s) => (
          <Tabs.Trigger key={s} value={s} whiteSpace="nowrap">
            {t(`earn.orders.tabs.${s}`)}
          </Tabs.Trigger>
        ))}
      </Tabs.List>
      <Tabs.Content value={state} p="0">
        <OrderList state={state} />
      </Tabs.Content>
    </Tabs.Root>
  );
}
