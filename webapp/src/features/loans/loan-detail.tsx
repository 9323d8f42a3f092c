/**
 * One loan (`GET /api/loan/{id}`): its figures, what is owed now, its instalments with their state
 * and penalty, its status history and the application's documents; early repayment in full and,
 * where the repayment way has instalments, the next instalment. Each repayment opens a dialog with
 * the server's preview (`POST /api/loan/{id}/repay/preview`, wasm-core's figures, checked against
 * the same calculation in the browser) and confirms exactly that amount (`POST /api/loan/{id}/repay`
 * with an `Idempotency-Key`).
 *
 * @module
 */

import { Box, Button, Dialog, Flex, Grid, Link, Portal, Stack, Table, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getGetUserCoinQueryKey } from '../../api/generated/funds/funds';
import { getGetCreditScoreQueryKey, getGetLoanDetailQueryKey, getGetMyLoansQueryKey, useGetLoanDetail, useGetLoanProducts, usePreviewLoanRepayment, useRepayLoan } from '../../api/generated/loans/loans';
import type { LoanView, RepayMode } from '../../api/generated/model';
import { SILENT, failure } from '../../lib/api-calls';
import { compareDecimal } from '../../lib/decimal';
import { isZero, sumDecimals } from '../../lib/decimal-math';
import { idempotencyHeader, useIdempotencyKey } from '../../lib/idempotency';
import { invalidateOperations } from '../../lib/query-keys';
import { toaster } from '../../lib/toaster';
import { formatQuantity } from '../../lib/wasm';
import { isRepayWay, loanPreview, penaltyRule } from './lib/preview';
import { QueryState, Row, StateBadge, coinAmount, dayPercent, utcDay, utcTime } from './parts';

/** What repaying everything early costs at `atTime` by the browser's own wasm-core, for a loan nothing was repaid of yet. */
function browserEarlyFigure(loan: LoanView, atTime: number, scale: number): string | null {
  if (!isRepayWay(loan.repayWay) || !isZero(loan.principalPaid) || !isZero(loan.interestPaid)) return null;
  try {
    return loanPreview({ principal: loan.principal, dayRate: loan.dayRate, cycleDays: loan.cycleDays, repayWay: loan.repayWay, startTime: loan.startTime, scale }, atTime).early?.amount ?? null;
  } catch {
    return null;
  }
}

function RepayDialog({ loan, mode, onClose }: { loan: LoanView; mode: RepayMode; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const keys = useIdempotencyKey();
  const preview = usePreviewLoanRepayment({ request: SILENT });
  const repay = useRepayLoan({ request: SILENT });
  const coin = loan.coin.toUpperCase();
  const { mutate } = preview;
  useEffect(() => {
    mutate({ id: loan.id, data: mode === 'instalments' ? { mode, count: 1 } : { mode } });
  }, [mutate, loan.id, mode]);
  const figures = preview.data;
  const products = useGetLoanProducts();
  const scale = products.data?.find((offer) => offer.product.id === loan.productId)?.product.scale;
  const browser = figures && figures.stage === 'early' && scale !== undefined ? browserEarlyFigure(loan, figures.atTime, scale) : null;
  const short = figures ? compareDecimal(figures.available, figures.amount) < 0 : false;

  const confirm = async () => {
    if (!figures) return;
    const body = mode === 'instalments' ? { mode, count: 1, amount: figures.amount } : { mode, amount: figures.amount };
    try {
      const done = await repay.mutateAsync({ id: loan.id, data: body, headers: idempotencyHeader(keys.keyFor({ id: loan.id, ...body })) });
      keys.settle();
      toaster.create({ type: 'success', title: t('loans.repay.done', { amount: coinAmount(done.amount, coin) }) });
      void invalidateOperations(queryClient, [getGetLoanDetailQueryKey(loan.id), getGetMyLoansQueryKey(), getGetUserCoinQueryKey(), getGetCreditScoreQueryKey()]);
      onClose();
    } catch (caught) {
      const info = failure(caught, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      toaster.create({ type: 'error', title: info.message });
      mutate({ id: loan.id, data: mode === 'instalments' ? { mode, count: 1 } : { mode } });
    }
  };

  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center" size={{ base: 'full', sm: 'md' }}>
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t(mode === 'full' ? 'loans.repay.fullTitle' : 'loans.repay.instalmentTitle')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {!figures ? (
                preview.isError ? (
                  <Text role="alert">{failure(preview.error, t('errors.unknown')).message}</Text>
                ) : (
                  <QueryState failed={false} onRetry={() => undefined} />
                )
              ) : (
                <Stack gap="3">
                  <Box as="dl" aria-label={t('loans.repay.preview')}>
                    <Row label={t('loans.repay.principal')} value={coinAmount(figures.principal, coin)} />
                    <Row label={t('loans.repay.interest')} value={coinAmount(figures.interest, coin)} />
                    <Row label={t('loans.repay.penalty')} value={coinAmount(figures.penalty, coin)} />
                    <Row label={t('loans.repay.amount')} value={coinAmount(figures.amount, coin)} strong />
                    {figures.stage === 'early' && <Row label={t('loans.repay.saved')} value={coinAmount(figures.interestSaved, coin)} />}
                    <Row label={t('loans.repay.available')} value={coinAmount(figures.available, coin)} />
                  </Box>
                  <Text fontSize="sm">{figures.settles ? t('loans.repay.settles') : t('loans.repay.instalments', { list: figures.instalments.join(', ') })}</Text>
                  {browser !== null && browser === figures.amount && (
                    <Text fontSize="xs" color="fg.success">
                      {t('loans.repay.checked')}
                    </Text>
                  )}
                  <Text fontSize="xs" color="fg.muted">
                    {t('loans.repay.at', { time: utcTime(figures.atTime) })}
                  </Text>
                  {short && (
                    <Text fontSize="sm" color="fg.error" role="status">
                      {t('loans.repay.short')}
                    </Text>
                  )}
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('loans.repay.cancel')}
              </Button>
              <Button colorPalette="brand" loading={repay.isPending} disabled={!figures || short} onClick={() => void confirm()}>
                {t('loans.repay.confirm', { amount: figures ? coinAmount(figures.amount, coin) : '' })}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A loan's detail, with the way back to the list. */
export function LoanDetailPanel({ id, onBack }: { id: number; onBack: () => void }) {
  const { t } = useTranslation();
  const detail = useGetLoanDetail(id, { query: { retry: false } });
  const products = useGetLoanProducts();
  const [repaying, setRepaying] = useState<RepayMode | null>(null);
  const back = (
    <Button variant="ghost" size="sm" alignSelf="start" onClick={onBack}>
      ← {t('loans.back')}
    </Button>
  );
  if (!detail.data) {
    return (
      <Stack gap="2">
        {back}
        <QueryState failed={detail.isError} onRetry={() => void detail.refetch()} />
      </Stack>
    );
  }
  const { loan, instalments, history, application, repayInFull } = detail.data;
  const scale = products.data?.find((offer) => offer.product.id === loan.productId)?.product.scale ?? 8;
  const coin = loan.coin.toUpperCase();
  const unpaid = instalments.filter((row) => row.status !== 'paid').length;
  return (
    <Stack gap="4">
      {back}
      <Grid gap="4" templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }} alignItems="start">
        <Stack as="section" aria-labelledby="loan-detail-heading" gap="3" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
          <Flex justify="space-between" align="center" gap="2">
            <Text as="h2" id="loan-detail-heading" fontWeight="semibold">
              {t('loans.order.loan', { id: loan.id })}
            </Text>
            <StateBadge status={loan.status} />
          </Flex>
          <Box as="dl">
            <Row label={t('loans.detail.principal')} value={coinAmount(loan.principal, coin)} strong />
            <Row label={t('loans.product.dayRate')} value={dayPercent(loan.dayRate)} />
            <Row label={t('loans.order.cycle')} value={t('loans.days', { days: loan.cycleDays })} />
            <Row label={t('loans.order.way')} value={t(`loans.ways.${loan.repayWay}`, { defaultValue: loan.repayWay })} />
            <Row label={t('loans.product.institution')} value={loan.institution} />
            <Row label={t('loans.detail.start')} value={utcTime(loan.startTime)} />
            <Row label={t('loans.order.end')} value={utcTime(loan.endTime)} />
            <Row label={t('loans.detail.totalInterest')} value={coinAmount(loan.totalInterest, coin)} />
            <Row label={t('loans.detail.paid')} value={coinAmount(sumDecimals([loan.principalPaid, loan.interestPaid, loan.penaltyPaid]), coin)} />
            <Row label={t('loans.order.penalty')} value={coinAmount(loan.penaltyAccrued, coin)} />
          </Box>
          <Text fontSize="xs" color="fg.muted">
            {t('loans.preview.penalty', { days: loan.graceDays, rate: dayPercent(loan.penaltyDayRate), perDay: coinAmount(penaltyRule({ ...loan, scale }, loan.nextDueAmount ?? '0').perDay, coin) })}
          </Text>
          {repayInFull && (
            <Box rounded="md" bg="bg.subtle" px="3" py="2">
              <Box as="dl">
                <Row label={t('loans.detail.owedNow')} value={coinAmount(repayInFull.amount, coin)} strong />
              </Box>
              <Flex gap="2" mt="2" wrap="wrap">
                <Button colorPalette="brand" size="sm" onClick={() => setRepaying('full')}>
                  {t('loans.detail.repayFull')}
                </Button>
                {loan.repayWay !== 'maturity' && unpaid > 1 && (
                  <Button variant="outline" size="sm" onClick={() => setRepaying('instalments')}>
                    {t('loans.detail.repayNext')}
                  </Button>
                )}
              </Flex>
            </Box>
          )}
          {application.documentUrls.length > 0 && (
            <Flex gap="3" wrap="wrap" fontSize="sm">
              {application.documentUrls.map((url, index) => (
                <Link key={url} href={url} target="_blank" rel="noreferrer" colorPalette="brand" variant="underline">
                  {t(`loans.apply.documents.${(['front', 'back', 'hold'] as const)[index] ?? 'front'}`)}
                </Link>
              ))}
            </Flex>
          )}
        </Stack>
        <Stack gap="4" minW="0">
          <Stack as="section" aria-labelledby="loan-instalments-heading" gap="2" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
            <Text as="h2" id="loan-instalments-heading" fontWeight="semibold">
              {t('loans.detail.instalments')}
            </Text>
            <Box overflowX="auto" hideBelow="md">
              <Table.Root size="sm" variant="line">
                <Table.Header>
                  <Table.Row>
                    <Table.ColumnHeader>#</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('loans.preview.due')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('loans.preview.amount')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('loans.repay.penalty')}</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('loans.detail.state')}</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {instalments.map((row) => (
                    <Table.Row key={row.number}>
                      <Table.Cell>{row.number}</Table.Cell>
                      <Table.Cell whiteSpace="nowrap">{utcDay(row.dueTime)}</Table.Cell>
                      <Table.Cell textAlign="end">{formatQuantity(row.amount)}</Table.Cell>
                      <Table.Cell textAlign="end">{formatQuantity(row.penalty)}</Table.Cell>
                      <Table.Cell>
                        <StateBadge status={row.status} instalment />
                        {row.daysOverdue > 0 && row.status !== 'paid' && (
                          <Text as="span" fontSize="xs" color="fg.error" ms="1">
                            {t('loans.detail.daysOverdue', { days: row.daysOverdue })}
                          </Text>
                        )}
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Box>
            <Stack as="ol" listStyleType="none" gap="2" hideFrom="md">
              {instalments.map((row) => (
                <Box as="li" key={row.number} borderTopWidth="1px" pt="2">
                  <Flex justify="space-between" align="center" gap="2" mb="1">
                    <Text fontWeight="semibold">
                      #{row.number} · {utcDay(row.dueTime)}
                    </Text>
                    <StateBadge status={row.status} instalment />
                  </Flex>
                  <Box as="dl">
                    <Row label={t('loans.preview.amount')} value={coinAmount(row.amount, coin)} />
                    {(row.status !== 'pending' || row.daysOverdue > 0) && <Row label={t('loans.repay.penalty')} value={coinAmount(row.penalty, coin)} />}
                  </Box>
                  {row.daysOverdue > 0 && row.status !== 'paid' && (
                    <Text fontSize="xs" color="fg.error">
                      {t('loans.detail.daysOverdue', { days: row.daysOverdue })}
                    </Text>
                  )}
                </Box>
              ))}
            </Stack>
          </Stack>
          <Stack as="section" aria-labelledby="loan-history-heading" gap="2" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
            <Text as="h2" id="loan-history-heading" fontWeight="semibold">
              {t('loans.detail.history')}
            </Text>
            <Box as="ol" listStyleType="none" fontSize="sm">
              {history.map((step) => (
                <Flex as="li" key={`${step.at}-${step.toStatus}`} justify="space-between" gap="3" py="1" borderTopWidth="1px" wrap="wrap">
                  <Text>
                    {t(`loans.status.${step.toStatus}`, { defaultValue: step.toStatus })} · {t(`loans.actors.${step.actor}`, { defaultValue: step.actor })}
                    {step.reason ? ` · ${t(`loans.reasons.${step.reason}`, { defaultValue: step.reason })}` : ''}
                  </Text>
                  <Text color="fg.muted" whiteSpace="nowrap">
                    {utcTime(step.at)}
                  </Text>
                </Flex>
              ))}
            </Box>
          </Stack>
        </Stack>
      </Grid>
      {repaying && <RepayDialog loan={loan} mode={repaying} onClose={() => setRepaying(null)} />}
    </Stack>
  );
}
