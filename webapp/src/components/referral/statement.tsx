/**
 * The referral statement (`GET /api/referral/statement`), newest first, paged 20 a page: each
 * rebate line shows its fill, generation and outcome and opens to its whole derivation — source,
 * fill id and time, pair, member, fee, fee after the security fund, rate, amount (or the reason it
 * was withheld) and the batch entry that paid it. `entryId` narrows it to one `referral_rebate`
 * bill; `generation` to one generation.
 *
 * @module
 */

import { Badge, Box, Button, Flex, Grid, HStack, Spinner, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
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
        <Stack as="ul" listStyleType="none" gap="2" aria-label={t('referral.statement.title')}>
          {lines.map((line) => (
            <Box as="li" key={line.id} borderWidth="1px" rounded="lg" p="3">
              <Flex gap="3" align="center" justify="space-between" wrap="wrap">
                <Stack gap="1" minW="0">
                  <HStack gap="2" wrap="wrap">
                    <Text fontWeight="semibold">{line.symbol.toUpperCase()}</Text>
                    <Badge variant="subtle">{t('referral.generationN', { n: line.generation })}</Badge>
                  </HStack>
                  <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
                    {formatTime(line.fillTime)}
                  </Text>
                </Stack>
                <HStack gap="2" ms="auto" minW="0">
                  <Text fontSize="sm" fontWeight="medium" textAlign="end" color={line.status === 'withheld' ? 'fg.warning' : 'fg.success'}>
                    {rebateOutcome(t, line)}
                  </Text>
                  <Button size="xs" variant="ghost" aria-expanded={open === line.id} onClick={() => setOpen(open === line.id ? null : line.id)}>
                    {open === line.id ? t('referral.statement.hide') : t('referral.statement.details')}
                  </Button>
                </HStack>
              </Flex>
              {open === line.id && (
                <Box mt="3">
                  <LineDetail line={line} />
                </Box>
              )}
            </Box>
          ))}
        </Stack>
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
