/**
 * The bills: every posting of the user's journal (getMyBill), filtered by kind, coin and a date range
 * in the user's time zone, paged, with a CSV export of the same filters (exportMyBill's bills written
 * as a file in the reader's language by {@link billsCsv}). On phones each bill is a card (the table
 * would cut its amount, balance and details off).
 *
 * @module
 */

import { Box, Button, Field, Flex, HStack, Input, Link, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { BillQuery } from '../../../api/generated/model';
import { getExportMyBillQueryOptions, useGetMyBill } from '../../../api/generated/reports/reports';
import { CoinLogo } from '../../../components/coin-logo';
import { CardList, CardListState, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';
import { compareDecimal } from '../../../lib/decimal';
import { toaster } from '../../../lib/toaster';
import { SelectField, coinOptions } from '../components/fields';
import { DownloadIcon } from '../components/icons';
import { LoadFailed } from '../components/load-failed';
import { Pager } from '../components/pager';
import { SILENT, failure, useApiHead } from '../../../lib/api-calls';
import { promotionHref } from '../lib/screens';
import { coinLogo, coinName, formatCoin, useDateTimeFormatter, useTimeZoneOffset } from '../lib/format';
import { useBalances } from '../lib/queries';
import { billKindText, useBillDetail } from './bill-detail';
import { billsCsv } from './bills-csv';

/** The kinds of bill a user can filter by. */
export const BILL_KINDS = [
  'deposit',
  'withdrawal',
  'withdrawal_refund',
  'bucket_transfer',
  'user_transfer',
  'exchange',
  'spot_trade',
  'spot_freeze',
  'spot_release',
  'seconds_stake',
  'seconds_settle',
  'fee',
  'earn_subscribe',
  'earn_income',
  'earn_maturity',
  'earn_redeem',
  'futures',
] as const;

/** Bills per page. */
const PAGE_SIZE = 20;
const DAY_MS = 24 * 60 * 60 * 1000;

/** Unix ms of the start of `date` (`YYYY-MM-DD`) at `offsetMinutes` from UTC, or `undefined`. */
export function dayStart(date: string, offsetMinutes: number): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  return Date.UTC(Number(match[1]), Number(match[2]) - 1, Number(match[3])) - offsetMinutes * 60_000;
}

/** Saves `text` as a file named `fileName`. */
function download(fileName: string, text: string): void {
  const url = URL.createObjectURL(new Blob([text], { type: 'text/csv;charset=utf-8' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 0);
}

/** The i18n text of a bill kind (`--` when the interface has no name for it). */
export function useKindLabel(): (kind: string) => string {
  const { t } = useTranslation();
  return (kind: string) => billKindText(t, kind);
}

/** A bill's details; a rebate bill's open the statement lines its entry paid, down to each fill. */
function BillDetail({ kind, entryId, detail }: { kind: string; entryId: number; detail: string }) {
  if (kind !== 'referral_rebate') return <>{detail}</>;
  return (
    <Link asChild color="brand.fg">
      <RouterLink to={promotionHref(entryId)}>{detail}</RouterLink>
    </Link>
  );
}

export function Bills() {
  const { t } = useTranslation();
  const head = useApiHead();
  const queryClient = useQueryClient();
  const offset = useTimeZoneOffset();
  const formatTime = useDateTimeFormatter();
  const kindLabel = useKindLabel();
  const detailText = useBillDetail();
  const { coins } = useBalances();
  const [kind, setKind] = useState('');
  const [coin, setCoin] = useState('');
  const [fromDate, setFromDate] = useState('');
  const [toDate, setToDate] = useState('');
  const [page, setPage] = useState(1);
  const [exporting, setExporting] = useState(false);
  const phone = useIsPhone();

  const rangeError = fromDate && toDate && fromDate > toDate ? t('funds.bills.rangeError') : undefined;
  const filters = useMemo(() => {
    const start = dayStart(fromDate, offset);
    const end = dayStart(toDate, offset);
    return {
      ...(kind ? { kind } : {}),
      ...(coin ? { coin } : {}),
      ...(start !== undefined && !rangeError ? { startTime: start } : {}),
      ...(end !== undefined && !rangeError ? { endTime: end + DAY_MS } : {}),
    } satisfies Omit<BillQuery, 'page' | 'pageSize'>;
  }, [kind, coin, fromDate, toDate, offset, rangeError]);

  const bills = useGetMyBill(head, { ...filters, page, pageSize: PAGE_SIZE }, { query: { placeholderData: (previous) => previous } });
  const records = bills.data?.records ?? [];
  const total = bills.data?.total ?? 0;

  const change = (apply: () => void) => {
    apply();
    setPage(1);
  };

  const onExport = async () => {
    setExporting(true);
    try {
      const file = await queryClient.fetchQuery({ ...getExportMyBillQueryOptions(head, { ...filters, offsetMinutes: offset }, { request: SILENT }), staleTime: 0 });
      download(file.fileName, billsCsv(t, file.records, formatTime));
      toaster.create({ type: 'success', title: t('funds.bills.exported', { count: file.records.length }) });
    } catch (error) {
      toaster.create({ type: 'error', title: failure(error, t('errors.unknown')).message });
    } finally {
      setExporting(false);
    }
  };

  return (
    <Stack gap="4">
      <Box borderWidth="1px" rounded="xl" bg="bg.panel" p="4">
        <SimpleGrid columns={{ base: 1, sm: 2, xl: 4 }} gap="3" alignItems="start">
          <SelectField
            label={t('funds.bills.kind')}
            value={kind}
            placeholder={t('funds.bills.allKinds')}
            options={BILL_KINDS.map((k) => ({ value: k, label: kindLabel(k) }))}
            onChange={(v) => change(() => setKind(v))}
          />
          <SelectField
            label={t('funds.form.coin')}
            value={coin}
            placeholder={t('funds.bills.allCoins')}
            options={coinOptions(coins.map((c) => c.coin))}
            onChange={(v) => change(() => setCoin(v))}
          />
          <Field.Root>
            <Field.Label fontWeight="medium">{t('funds.bills.fromDate')}</Field.Label>
            <Input size="lg" type="date" value={fromDate} max={toDate || undefined} onChange={(e) => change(() => setFromDate(e.currentTarget.value))} />
          </Field.Root>
          <Field.Root invalid={Boolean(rangeError)}>
            <Field.Label fontWeight="medium">{t('funds.bills.toDate')}</Field.Label>
            <Input size="lg" type="date" value={toDate} min={fromDate || undefined} onChange={(e) => change(() => setToDate(e.currentTarget.value))} />
            <Field.ErrorText>{rangeError}</Field.ErrorText>
          </Field.Root>
        </SimpleGrid>
        <Flex mt="3" gap="2" justify="flex-end" wrap="wrap">
          <Button
            size="sm"
            variant="ghost"
            onClick={() =>
              change(() => {
                setKind('');
                setCoin('');
                setFromDate('');
                setToDate('');
              })
            }
          >
            {t('funds.bills.reset')}
          </Button>
          <Button size="sm" variant="outline" onClick={() => void onExport()} loading={exporting} disabled={Boolean(rangeError)}>
            <DownloadIcon />
            {t('funds.bills.export')}
          </Button>
        </Flex>
      </Box>

      {bills.isError && !bills.data ? (
        <LoadFailed onRetry={() => void bills.refetch()} />
      ) : phone ? (
        <Box borderWidth="1px" rounded="xl" bg="bg.subtle" opacity={bills.isPlaceholderData ? 0.6 : 1}>
          <CardList label={t('funds.records.bills')} busy={bills.isFetching}>
            {records.map((bill) => {
              const credit = compareDecimal(bill.amount, '0') > 0;
              const detail = detailText(bill);
              return (
                <ItemCard
                  key={bill.id}
                  label={`${kindLabel(bill.kind)} ${coinName(bill.coin)} ${formatTime(bill.createdAt)}`}
                  title={
                    <HStack gap="2">
                      <CoinLogo src={coinLogo(bill.coin)} coin={bill.coin} size="5" />
                      <Text as="span" fontWeight="semibold">
                        {coinName(bill.coin)}
                      </Text>
                      <Text as="span" color="fg.muted">
                        {kindLabel(bill.kind)}
                      </Text>
                    </HStack>
                  }
                  aside={formatTime(bill.createdAt)}
                  fields={[
                    { label: t('funds.columns.amount'), value: `${credit ? '+' : ''}${formatCoin(bill.amount)}`, color: credit ? 'up' : 'down' },
                    { label: t('funds.columns.balance'), value: formatCoin(bill.balance) },
                    { label: t('funds.columns.account'), value: t(`funds.buckets.${bill.bucket}`, { defaultValue: bill.bucket }) },
                    { label: t('funds.columns.memo'), value: <BillDetail kind={bill.kind} entryId={bill.entryId} detail={detail} />, wide: true },
                  ]}
                />
              );
            })}
            {records.length === 0 && <CardListState>{bills.isLoading ? t('funds.loading') : t('funds.bills.empty')}</CardListState>}
          </CardList>
        </Box>
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel" opacity={bills.isPlaceholderData ? 0.6 : 1}>
          <Table.Root size="sm" aria-label={t('funds.records.bills')} aria-busy={bills.isFetching || undefined}>
            <Table.Header>
              <Table.Row bg="bg.subtle">
                <Table.ColumnHeader ps="4">{t('funds.columns.time')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('funds.columns.type')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('funds.columns.coin')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('funds.columns.account')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('funds.columns.amount')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('funds.columns.balance')}</Table.ColumnHeader>
                <Table.ColumnHeader pe="4">{t('funds.columns.memo')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {records.map((bill) => {
                const credit = compareDecimal(bill.amount, '0') > 0;
                const detail = detailText(bill);
                return (
                  <Table.Row key={bill.id}>
                    <Table.Cell ps="4" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" color="fg.muted">
                      {formatTime(bill.createdAt)}
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{kindLabel(bill.kind)}</Table.Cell>
                    <Table.Cell>
                      <HStack gap="2">
                        <CoinLogo src={coinLogo(bill.coin)} coin={bill.coin} size="5" />
                        <Text fontWeight="medium">{coinName(bill.coin)}</Text>
                      </HStack>
                    </Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{t(`funds.buckets.${bill.bucket}`, { defaultValue: bill.bucket })}</Table.Cell>
                    <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums" fontWeight="semibold" color={credit ? 'up' : 'down'}>
                      {credit ? '+' : ''}
                      {formatCoin(bill.amount)}
                    </Table.Cell>
                    <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                      {formatCoin(bill.balance)}
                    </Table.Cell>
                    <Table.Cell pe="4" color="fg.muted" fontSize="xs" maxW="16rem" truncate title={detail}>
                      <BillDetail kind={bill.kind} entryId={bill.entryId} detail={detail} />
                    </Table.Cell>
                  </Table.Row>
                );
              })}
              {records.length === 0 && (
                <Table.Row>
                  <Table.Cell colSpan={7} textAlign="center" py="12" color="fg.muted">
                    {bills.isLoading ? t('funds.loading') : t('funds.bills.empty')}
                  </Table.Cell>
                </Table.Row>
              )}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
      <Flex justify="space-between" align="center" gap="3" wrap="wrap">
        <Text fontSize="sm" color="fg.muted" aria-live="polite">
          {t('funds.records.total', { count: total })}
        </Text>
        <Pager count={total} pageSize={PAGE_SIZE} page={page} onPageChange={setPage} />
      </Flex>
    </Stack>
  );
}
