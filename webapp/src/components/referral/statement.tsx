/**
 * The referral statement (`GET /api/referral/statement`), newest first, paged 20 a page: each
 * rebate line shows its fill, generation and outcome and opens to its whole derivation — source,
 * fill id and time, pair, member, fee, fee after the security fund, rate, amount (or the reason it
 * was withheld) and the batch entry that paid it. `entryId` narrows it to one `referral_rebate`
 * bill; `generation` to one generation.
 *
 * @module
 */

import { Badge, Box, Button, Flex, Grid, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { Fragment, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useReferralStatement } from '../../api/generated/referral/referral';
import type { RebateLine } from '../../api/generated/model';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { formatQuantity } from '../../lib/wasm';
import { Pager } from './pager';
import { GenerationFilter } from './generation-filter';
import { ratePercent, rebateOutcome } from '../../lib/referral-format';

const PAGE_SIZE = 20;

function Fact({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap="0" minW="0">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="sm" fontVariantNumeric="tabular-nums" wordBreak="break-word">
        {value}
      </Text>
    </Stack>
  );
}

/** The derivation of one line: every figure the rebate was computed from. */
function LineDetail({ line }: { line: RebateLine }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  const coin = line.coin.toUpperCase();
  return (
    <Grid templateColumns={{ base: 'repeat(2, minmax(0, 1fr))', md: 'repeat(4, minmax(0, 1fr))' }} gap="3" p="3" bg="bg.subtle" rounded="md">
      <Fact label={t('referral.statement.source')} value={t(`referral.statement.sources.${line.source === 'futures' ? 'futures' : 'spot'}`)} />
      <Fact label={t('referral.statement.fill')} value={`#${line.fillId}`} />
      <Fact label={t('referral.statement.fillTime')} value={formatTime(line.fillTime)} />
      <Fact label={t('referral.statement.pair')} value={line.symbol.toUpperCase()} />
      <Fact label={t('referral.statement.member')} value={line.member} />
      <Fact label={t('referral.statement.generation')} value={t('referral.generationN', { n: line.generation })} />
      <Fact label={t('referral.statement.fee')} value={`${formatQuantity(line.fee)} ${coin}`} />
      <Fact label={t('referral.statement.feeAfterFund')} value={`${formatQuantity(line.feeAfterFund)} ${coin}`} />
      <Fact label={t('referral.statement.rate')} value={ratePercent(line.rate)} />
      <Fact label={t('referral.statement.amount')} value={`${formatQuantity(line.amount)} ${coin}`} />
      <Fact label={t('referral.statement.outcome')} value={rebateOutcome(t, line)} />
      <Fact label={t('referral.statement.entry')} value={line.entryId != null ? `#${line.entryId}` : '--'} />
    </Grid>
  );
}

/** The statement, optionally narrowed to one batch entry (a bill). */
export function Statement({ entryId }: { entryId?: number }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  const [page, setPage] = useState(1);
  const [generation, setGeneration] = useState<number | undefined>(undefined);
  const [open, setOpen] = useState<number | null>(null);
  const query = useReferralStatement({ page, pageSize: PAGE_SIZE, ...(entryId != null ? { entryId } : {}), ...(generation ? { generation } : {}) });
  const lines = query.data?.records ?? [];
  return (
    <Stack gap="3">
      {entryId == null && (
        <GenerationFilter
          value={generation}
          onChange={(value) => {
            setGeneration(value);
            setPage(1);
          }}
        />
      )}
      {query.isPending ? (
        <Flex justify="center" py="6">
          <Spinner />
        </Flex>
      ) : lines.length === 0 ? (
        <Text color="fg.muted" fontSize="sm" py="4" textAlign="center">
          {t('referral.statement.empty')}
        </Text>
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="lg">
          <Table.Root size="sm" aria-label={t('referral.statement.title')}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{t('referral.statement.fillTime')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('referral.statement.pair')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('referral.statement.generation')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('referral.statement.outcome')}</Table.ColumnHeader>
                <Table.ColumnHeader />
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {lines.map((line) => (
                <Fragment key={line.id}>
                  <Table.Row>
                    <Table.Cell whiteSpace="nowrap">{formatTime(line.fillTime)}</Table.Cell>
                    <Table.Cell whiteSpace="nowrap">{line.symbol.toUpperCase()}</Table.Cell>
                    <Table.Cell>
                      <Badge variant="subtle">{t('referral.generationN', { n: line.generation })}</Badge>
                    </Table.Cell>
                    <Table.Cell textAlign="end" whiteSpace="nowrap" color={line.status === 'withheld' ? 'fg.warning' : 'fg.success'}>
                      {rebateOutcome(t, line)}
                    </Table.Cell>
                    <Table.Cell textAlign="end">
                      <Button size="xs" variant="ghost" aria-expanded={open === line.id} onClick={() => setOpen(open === line.id ? null : line.id)}>
                        {open === line.id ? t('referral.statement.hide') : t('referral.statement.details')}
                      </Button>
                    </Table.Cell>
                  </Table.Row>
                  {open === line.id && (
                    <Table.Row>
                      <Table.Cell colSpan={5}>
                        <Box maxW="100%">
                          <LineDetail line={line} />
                        </Box>
                      </Table.Cell>
                    </Table.Row>
                  )}
                </Fragment>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
      <Flex justify="space-between" align="center" gap="2" wrap="wrap">
        <Text fontSize="xs" color="fg.muted">
          {query.data ? t('referral.statement.count', { total: query.data.total }) : ''}
        </Text>
        <Pager count={query.data?.total ?? 0} pageSize={PAGE_SIZE} page={page} onPageChange={setPage} />
      </Flex>
      {entryId == null && lines.length > 0 && (
        <Text fontSize="xs" color="fg.muted">
          {t('referral.statement.recordedAt', { time: formatTime(lines[0]!.createdAt) })}
        </Text>
      )}
    </Stack>
  );
}
