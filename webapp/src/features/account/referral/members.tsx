/**
 * The members of the reader's three generations, newest first, paged 20 a page: masked account,
 * generation, registration time, trading value and what each brought the reader. The reward centre
 * reads them from `GET /api/referral/members`, agent management from
 * `POST /api/agentActivityInfo/getAgentList` (the same page). On phones each member is a card.
 *
 * @module
 */

import { Badge, Flex, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGetAgentList, useReferralMembers } from '../../../api/generated/referral/referral';
import type { ReferralMemberPage } from '../../../api/generated/model';
import { useDateTimeFormatter } from '../../../hooks/use-time-zone';
import { formatQuantity } from '../../../lib/wasm';
import { GenerationFilter } from '../../../components/referral/generation-filter';
import { Pager } from '../../../components/referral/pager';
import { coinAmountsText } from '../../../lib/referral-format';
import { CardList, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';

const PAGE_SIZE = 20;

function MembersTable({ data, pending, commissionLabel }: { data: ReferralMemberPage | undefined; pending: boolean; commissionLabel: string }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  const phone = useIsPhone();
  if (pending)
    return (
      <Flex justify="center" py="6">
        <Spinner />
      </Flex>
    );
  const rows = data?.records ?? [];
  if (rows.length === 0)
    return (
      <Text color="fg.muted" fontSize="sm" py="4" textAlign="center">
        {t('referral.members.empty')}
      </Text>
    );
  if (phone) {
    return (
      <CardList label={t('referral.members.title')}>
        {rows.map((member) => (
          <ItemCard
            key={member.userId}
            label={member.account}
            title={
              <>
                <Text as="span" fontWeight="semibold" overflowWrap="anywhere">
                  {member.account}
                </Text>
                <Badge variant="subtle">{t('referral.generationN', { n: member.generation })}</Badge>
              </>
            }
            fields={[
              { label: t('referral.members.registered'), value: formatTime(member.regisTime), wide: true },
              { label: t('referral.members.tradingValue'), value: `${formatQuantity(member.totolInvestValue)} USDT` },
              { label: commissionLabel, value: coinAmountsText(member.rebateAmount) },
            ]}
          />
        ))}
      </CardList>
    );
  }
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg">
      <Table.Root size="sm" aria-label={t('referral.members.title')}>
        <Table.Header>
          <Table.Row>
            <Table.ColumnHeader>{t('referral.members.account')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('referral.statement.generation')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('referral.members.registered')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('referral.members.tradingValue')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{commissionLabel}</Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((member) => (
            <Table.Row key={member.userId}>
              <Table.Cell whiteSpace="nowrap">{member.account}</Table.Cell>
              <Table.Cell>
                <Badge variant="subtle">{t('referral.generationN', { n: member.generation })}</Badge>
              </Table.Cell>
              <Table.Cell whiteSpace="nowrap">{formatTime(member.regisTime)}</Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {formatQuantity(member.totolInvestValue)} USDT
              </Table.Cell>
              <Table.Cell textAlign="end" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {coinAmountsText(member.rebateAmount)}
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** The reader's members, from the reward centre's call (`agent` false) or the agent list. */
export function Members({ agent = false }: { agent?: boolean }) {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [generation, setGeneration] = useState<number | undefined>(undefined);
  const params = { page, pageSize: PAGE_SIZE, ...(generation ? { generation } : {}) };
  const members = useReferralMembers(params, { query: { enabled: !agent } });
  const team = useGetAgentList(params, { query: { enabled: agent } });
  const query = agent ? team : members;
  return (
    <Stack gap="3">
      <GenerationFilter
        value={generation}
        onChange={(value) => {
          setGeneration(value);
          setPage(1);
        }}
      />
      <MembersTable data={query.data} pending={query.isPending} commissionLabel={agent ? t('referral.agent.commission') : t('referral.members.rebates')} />
      <Flex justify="flex-end">
        <Pager count={query.data?.total ?? 0} pageSize={PAGE_SIZE} page={page} onPageChange={setPage} />
      </Flex>
    </Stack>
  );
}
