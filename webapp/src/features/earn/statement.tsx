/**
 * The statement of one earn order (`POST /api/earn/statement`), in a dialog opened from its card on
 * /pledge/order: the subscription, each day's reward (day, rate version), the maturity or early
 * redemption with its deduction, each with its date, its journal entry and the running totals, a
 * page at a time, and the sum that closes it — principal + rewards − deducted = returned.
 *
 * @module
 */

import { Box, Button, Dialog, Flex, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetEarnStatement } from '../../api/generated/earn/earn';
import type { PositionView, StatementLine } from '../../api/generated/model';
import { coinAmount } from './product-card';
import { utcDay } from './lib/schedule';
import { QueryState } from './parts';

/** Lines per page of the statement. */
export const STATEMENT_PAGE = 50;

/** The signed amount a line moves on the user's funding account (the subscription leaves it). */
export function lineSign(line: Pick<StatementLine, 'kind'>): '−' | '+' {
  return line.kind === 'subscription' ? '−' : '+';
}

function Line({ line }: { line: StatementLine }) {
  const { t } = useTranslation();
  const coin = line.coin.toUpperCase();
  return (
    <Flex as="li" justify="space-between" gap="3" py="2" borderBottomWidth="1px" _last={{ borderBottomWidth: 0 }} minW="0">
      <Box minW="0">
        <Text fontSize="sm" fontWeight="medium">
          {line.kind === 'reward' ? t('earn.statement.kind.reward', { day: line.day }) : t(`earn.statement.kind.${line.kind}`)}
        </Text>
        <Text fontSize="xs" color="fg.muted" overflowWrap="anywhere">
          {`${utcDay(line.time)} UTC`}
          {line.rateVersionId != null && ` · ${t('earn.statement.rateVersion', { version: line.rateVersionId })}`}
          {` · ${line.entryId != null ? t('earn.statement.entry', { id: line.entryId }) : t('earn.statement.noEntry')}`}
        </Text>
        {line.kind === 'redemption' && (
          <Text fontSize="xs" color="fg.muted">
            {t('earn.statement.deducted', { amount: coinAmount(line.deduction, coin) })}
          </Text>
        )}
      </Box>
      <Box textAlign="end" flexShrink={0}>
        <Text fontSize="sm" fontWeight="semibold" fontVariantNumeric="tabular-nums">
          {`${lineSign(line)}${coinAmount(line.amount, coin)}`}
        </Text>
        <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
          {t('earn.statement.cameBackTotal', { amount: coinAmount(line.cameBackTotal, coin) })}
        </Text>
      </Box>
    </Flex>
  );
}

/** The statement dialog of `position`. */
export function StatementDialog({ position, onClose }: { position: PositionView; onClose: () => void }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const statement = useGetEarnStatement({ id: position.id, page, pageSize: STATEMENT_PAGE });
  const data = statement.data;
  const pages = data ? Math.max(1, Math.ceil(data.total / STATEMENT_PAGE)) : 1;
  const coin = position.coin.toUpperCase();
  const reward = position.rewardCoin.toUpperCase();
  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center" size={{ base: 'full', sm: 'lg' }} scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{t('earn.statement.title', { id: position.id })}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              {!data ? (
                <QueryState failed={statement.isError} onRetry={() => void statement.refetch()} />
              ) : (
                <Stack gap="3">
                  <Box as="ol" listStyleType="none" aria-label={t('earn.statement.title', { id: position.id })}>
                    {data.lines.map((line) => (
                      <Line key={line.seq} line={line} />
                    ))}
                  </Box>
                  {pages > 1 && (
                    <Flex justify="space-between" align="center" gap="2">
                      <Button size="xs" variant="outline" disabled={page <= 1} onClick={() => setPage(page - 1)}>
                        {t('earn.statement.previous')}
                      </Button>
                      <Text fontSize="xs" color="fg.muted">
                        {t('earn.statement.page', { page, pages })}
                      </Text>
                      <Button size="xs" variant="outline" disabled={page >= pages} onClick={() => setPage(page + 1)}>
                        {t('earn.statement.next')}
                      </Button>
                    </Flex>
                  )}
                  <Box borderTopWidth="1px" pt="2" role="group" aria-label={t('earn.statement.sum')}>
                    <Text fontSize="sm" fontWeight="semibold">
                      {t('earn.statement.sum')}
                    </Text>
                    {data.status === 'in_progress' ? (
                      <Text fontSize="sm" fontVariantNumeric="tabular-nums" overflowWrap="anywhere">
                        {t('earn.statement.open', { principal: coinAmount(data.principal, coin), rewards: coinAmount(data.rewards, reward) })}
                      </Text>
                    ) : (
                      <>
                        <Text fontSize="sm" fontVariantNumeric="tabular-nums" overflowWrap="anywhere">
                          {`${coinAmount(data.principal, coin)} + ${coinAmount(data.rewards, reward)} − ${coinAmount(data.deduction, coin)} = ${coinAmount(data.cameBack, coin)}`}
                        </Text>
                        <Text fontSize="xs" color="fg.muted">
                          {t('earn.statement.closed')}
                        </Text>
                      </>
                    )}
                  </Box>
                </Stack>
              )}
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('earn.statement.close')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
