/**
 * The login log of the security tab: the user's login attempts, newest first, 20 per page; on a
 * phone a card per attempt (time, result, IP address and device), where a table cut columns off.
 *
 * @module
 */

import { Badge, Box, EmptyState, Skeleton, Stack, Table, Text } from '@chakra-ui/react';
import { keepPreviousData } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetLoginLog } from '../../../api/generated/security/security';
import { CardList, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';
import { FormError } from '../components/form';
import { HistoryIcon } from '../components/icons';
import { Pager } from '../components/pager';
import { SectionCard } from '../components/section-card';
import { SILENT, useApiHead } from '../lib/api';
import { describeUserAgent, useDateTimeFormatter } from '../lib/format';

/** Rows per page of the login log. */
export const LOGIN_LOG_PAGE_SIZE = 20;

export function LoginLogSection() {
  const { t } = useTranslation();
  const head = useApiHead();
  const formatDate = useDateTimeFormatter();
  const phone = useIsPhone();
  const [page, setPage] = useState(1);
  const log = useGetLoginLog(head, { page, pageSize: LOGIN_LOG_PAGE_SIZE }, { query: { placeholderData: keepPreviousData }, request: SILENT });
  const records = log.data?.records ?? [];

  return (
    <SectionCard title={t('account.loginLog.title')} description={t('account.loginLog.description')} icon={<HistoryIcon boxSize="5" />}>
      {log.isLoading ? (
        <Skeleton h="32" rounded="lg" />
      ) : log.isError ? (
        <FormError message={t('account.loginLog.loadFailed')} />
      ) : records.length === 0 ? (
        <EmptyState.Root size="sm">
          <EmptyState.Content>
            <EmptyState.Description>{t('account.loginLog.empty')}</EmptyState.Description>
          </EmptyState.Content>
        </EmptyState.Root>
      ) : (
        <Stack gap="4" align="stretch">
          {phone ? (
            <Box borderWidth="1px" rounded="lg" bg="bg.subtle">
              <CardList label={t('account.loginLog.title')}>
                {records.map((record) => {
                  const result = record.success ? t('account.loginLog.success') : t('account.loginLog.failed');
                  return (
                    <ItemCard
                      key={record.id}
                      label={`${formatDate(record.createdAt)} ${result}`}
                      title={<Text fontVariantNumeric="tabular-nums">{formatDate(record.createdAt)}</Text>}
                      aside={
                        <Badge size="sm" variant="subtle" colorPalette={record.success ? 'green' : 'red'}>
                          {result}
                        </Badge>
                      }
                      fields={[
                        { label: t('account.loginLog.ip'), value: record.ip || '--' },
                        { label: t('account.loginLog.device'), value: describeUserAgent(record.userAgent) || t('account.devices.unknownDevice') },
                      ]}
                    />
                  );
                })}
              </CardList>
            </Box>
          ) : (
            <Table.ScrollArea borderWidth="1px" rounded="lg">
              <Table.Root size="sm" aria-label={t('account.loginLog.title')}>
                <Table.Header>
                  <Table.Row bg="bg.subtle">
                    <Table.ColumnHeader>{t('account.loginLog.time')}</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('account.loginLog.ip')}</Table.ColumnHeader>
                    <Table.ColumnHeader>{t('account.loginLog.device')}</Table.ColumnHeader>
                    <Table.ColumnHeader textAlign="end">{t('account.loginLog.result')}</Table.ColumnHeader>
                  </Table.Row>
                </Table.Header>
                <Table.Body>
                  {records.map((record) => (
                    <Table.Row key={record.id}>
                      <Table.Cell whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                        {formatDate(record.createdAt)}
                      </Table.Cell>
                      <Table.Cell fontFamily="mono" fontSize="xs">
                        {record.ip || '--'}
                      </Table.Cell>
                      <Table.Cell maxW="64">
                        <Text truncate title={record.userAgent}>
                          {describeUserAgent(record.userAgent) || t('account.devices.unknownDevice')}
                        </Text>
                      </Table.Cell>
                      <Table.Cell textAlign="end">
                        <Badge size="sm" variant="subtle" colorPalette={record.success ? 'green' : 'red'}>
                          {record.success ? t('account.loginLog.success') : t('account.loginLog.failed')}
                        </Badge>
                      </Table.Cell>
                    </Table.Row>
                  ))}
                </Table.Body>
              </Table.Root>
            </Table.ScrollArea>
          )}
          <Box alignSelf="center">
            <Pager count={Number(log.data?.total ?? 0)} pageSize={LOGIN_LOG_PAGE_SIZE} page={page} onPageChange={setPage} />
          </Box>
        </Stack>
      )}
    </SectionCard>
  );
}
