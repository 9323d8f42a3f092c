/**
 * The earn keys of /assets/index: `finance` (finance assets — what the earn account holds per coin,
 * valued, and the rewards received in all and over the last 24 hours, from `getMyBalance?type=earn`
 * and `financial/personalIncome`; a card per coin on a phone) and `investment` (my investments —
 * the orders in progress with their rewards so far, next payout and delivery, from
 * `mingOrder/list`). Both link to the earn screens, where orders are subscribed and redeemed.
 *
 * @module
 */

import { Box, Button, Flex, SimpleGrid, Stack, Table, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useListEarnPositions } from '../../../api/generated/earn/earn';
import { useGetMyBalance, useGetPersonalIncome } from '../../../api/generated/reports/reports';
import { CardList, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';
import { useApiHead } from '../../../lib/api-calls';
import { useUserPush } from '../../../lib/user-push';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { formatQuantity, orDash } from '../../../lib/wasm';
import { Panel } from '../components/panel';

/** Balances are refetched this often while shown (the user channel refetches sooner). */
const REFRESH_MS = 30_000;

function amount(value: string | null | undefined, coin: string): string {
  return `${orDash((v) => formatQuantity(v), value)} ${coin.toUpperCase()}`;
}

function day(ms: number): string {
  return new Date(ms).toISOString().slice(0, 10);
}

function Figure({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap="0.5" borderWidth="1px" rounded="lg" p="3" minW="0">
      <Text fontSize="xs" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="lg" fontWeight="semibold" fontVariantNumeric="tabular-nums" overflowWrap="anywhere">
        {value}
      </Text>
    </Stack>
  );
}

function Live() {
  const { user } = useCurrentUser();
  useUserPush(user?.user.userId ?? null);
  return null;
}

/** /assets/index?key=finance. */
export function FinanceAssets() {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const head = useApiHead();
  const balance = useGetMyBalance(head, { type: 'earn' }, { query: { refetchInterval: REFRESH_MS } });
  const income = useGetPersonalIncome({ query: { refetchInterval: REFRESH_MS } });
  const incomeOf = (coin: string) => income.data?.coins.find((c) => c.coin.toLowerCase() === coin.toLowerCase());
  const coins = new Set([...(balance.data?.coins ?? []).map((c) => c.coin.toLowerCase()), ...(income.data?.coins ?? []).map((c) => c.coin.toLowerCase())]);
  const held = [...coins].sort().map((coin) => ({
    coin,
    principal: orDash((v) => formatQuantity(v), balance.data?.coins.find((c) => c.coin.toLowerCase() === coin)?.total ?? '0'),
    rewards: orDash((v) => formatQuantity(v), incomeOf(coin)?.total ?? '0'),
  }));
  return (
    <Panel
      title={t('earn.assets.financeTitle')}
      actions={
        <Button asChild size="sm" variant="outline">
          <RouterLink to="/pledge/index">{t('earn.assets.browse')}</RouterLink>
        </Button>
      }
    >
      <Live />
      <Stack gap="4">
        <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3">
          <Figure label={t('earn.assets.bucket')} value={balance.data ? `${orDash((v) => formatQuantity(v), balance.data.total.usdt)} USDT` : '--'} />
          <Figure label={t('earn.assets.rewards')} value={income.data ? `${orDash((v) => formatQuantity(v), income.data.total.usdt)} USDT` : '--'} />
          <Figure label={t('earn.assets.yesterday')} value={income.data ? `${orDash((v) => formatQuantity(v), income.data.yesterday.usdt)} USDT` : '--'} />
        </SimpleGrid>
        {coins.size === 0 ? (
          <Text color="fg.muted">{t('earn.assets.none')}</Text>
        ) : phone ? (
          <CardList label={t('earn.assets.financeTitle')}>
            {held.map(({ coin, principal, rewards }) => (
              <ItemCard
                key={coin}
                label={coin.toUpperCase()}
                title={<Text fontWeight="semibold">{coin.toUpperCase()}</Text>}
                fields={[
                  { label: t('earn.assets.principal'), value: principal },
                  { label: t('earn.assets.rewards'), value: rewards },
                ]}
              />
            ))}
          </CardList>
        ) : (
          <Box overflowX="auto">
            <Table.Root size="sm" aria-label={t('earn.assets.financeTitle')}>
              <Table.Header>
                <Table.Row>
                  <Table.ColumnHeader>{t('earn.assets.coin')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('earn.assets.principal')}</Table.ColumnHeader>
                  <Table.ColumnHeader textAlign="end">{t('earn.assets.rewards')}</Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {held.map(({ coin, principal, rewards }) => (
                  <Table.Row key={coin}>
                    <Table.Cell fontWeight="medium">{coin.toUpperCase()}</Table.Cell>
                    <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                      {principal}
                    </Table.Cell>
                    <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums">
                      {rewards}
                    </Table.Cell>
                  </Table.Row>
                ))}
              </Table.Body>
            </Table.Root>
          </Box>
        )}
      </Stack>
    </Panel>
  );
}

/** /assets/index?key=investment. */
export function MyInvestments() {
  const { t } = useTranslation();
  const positions = useListEarnPositions({ status: 'in_progress', pageSize: 100 }, { query: { refetchInterval: REFRESH_MS } });
  const records = positions.data?.records ?? [];
  return (
    <Panel
      title={t('earn.assets.investmentTitle')}
      actions={
        <Button asChild size="sm" variant="outline">
          <RouterLink to="/pledge/order">{t('earn.nav.orders')}</RouterLink>
        </Button>
      }
    >
      <Live />
      {positions.data && records.length === 0 ? (
        <Stack gap="2" align="start">
          <Text color="fg.muted">{t('earn.assets.none')}</Text>
          <Button asChild size="sm" colorPalette="brand">
            <RouterLink to="/pledge/index">{t('earn.assets.browse')}</RouterLink>
          </Button>
        </Stack>
      ) : (
        <Stack gap="3">
          <Text fontSize="sm" color="fg.muted">
            {t('earn.assets.inProgress')}: {positions.data?.total ?? '--'}
          </Text>
          {records.map((p) => (
            <Flex key={p.id} direction={{ base: 'column', md: 'row' }} gap={{ base: '1', md: '4' }} justify="space-between" borderWidth="1px" rounded="lg" p="3" fontSize="sm">
              <Text fontWeight="semibold">
                #{p.id} · {amount(p.amount, p.coin)}
              </Text>
              <Text>
                {t('earn.orders.rewardSoFar')}: {amount(p.rewardSoFar, p.rewardCoin)}
              </Text>
              {p.nextPayDate != null && (
                <Text>
                  {t('earn.orders.nextPayout')}: {t('earn.orders.nextPayoutValue', { amount: formatQuantity(p.nextPayAmount ?? '0'), coin: p.rewardCoin.toUpperCase(), date: day(p.nextPayDate) })}
                </Text>
              )}
              {p.deliveryDate != null && (
                <Text>
                  {t('earn.orders.delivery')}: {day(p.deliveryDate)}
                </Text>
              )}
            </Flex>
          ))}
        </Stack>
      )}
    </Panel>
  );
}
