/**
 * The overview (`/user/index?key=all`): the balances valued in USDT (getWalletAccount: the total and
 * each bucket), the security status (getInfo), the latest spot orders (`orderList`), the latest bills
 * (getMyBill) and the latest announcements from the content store. Every panel links to its full
 * screen.
 *
 * @module
 */

import { Badge, Box, Button, Flex, Heading, HStack, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useContentAnnouncements } from '../../api/generated/content/content';
import type { SecurityStatus } from '../../api/generated/model';
import { useGetMyBill, useGetWalletAccount } from '../../api/generated/reports/reports';
import { useListSpotOrders } from '../../api/generated/spot-trading/spot-trading';
import { useCurrentUser } from '../../hooks/use-current-user';
import { useApiHead } from '../../lib/api-calls';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { formatBalance, formatQuantity } from '../../lib/wasm';
import { useLangQuery } from '../../components/content/content-parts';
import { useReadAnnouncements } from '../../lib/announcement-reads';

const REFRESH_MS = 30_000;
const RECENT = 5;

function Panel({ title, to, linkLabel, children }: { title: string; to: string; linkLabel: string; children: ReactNode }) {
  return (
    <Stack as="section" aria-label={title} gap="3" borderWidth="1px" rounded="2xl" bg="bg.panel" p={{ base: '4', md: '5' }} minW="0">
      <Flex align="center" justify="space-between" gap="3">
        <Heading as="h2" fontSize="md">
          {title}
        </Heading>
        <Button asChild size="xs" variant="ghost" colorPalette="brand">
          <RouterLink to={to}>{linkLabel}</RouterLink>
        </Button>
      </Flex>
      {children}
    </Stack>
  );
}

function Rows({ empty, children }: { empty: string; children: ReactNode[] | undefined }) {
  if (!children) return <Skeleton h="16" rounded="md" />;
  if (children.length === 0) return <Text fontSize="sm" color="fg.muted">{empty}</Text>;
  return (
    <Stack as="ul" listStyleType="none" gap="0" divideY="1px">
      {children}
    </Stack>
  );
}

function Row({ start, end, sub }: { start: ReactNode; end: ReactNode; sub?: ReactNode }) {
  return (
    <Flex as="li" py="2" gap="3" justify="space-between" align="center" fontSize="sm" minW="0">
      <Stack gap="0" minW="0">
        <Text truncate fontWeight="medium">
          {start}
        </Text>
        {sub && (
          <Text fontSize="xs" color="fg.muted">
            {sub}
          </Text>
        )}
      </Stack>
      <Box textAlign="end" flexShrink={0} fontVariantNumeric="tabular-nums">
        {end}
      </Box>
    </Flex>
  );
}

function Balances() {
  const { t } = useTranslation();
  const head = useApiHead();
  const account = useGetWalletAccount(head, { query: { refetchInterval: REFRESH_MS } });
  const data = account.data;
  return (
    <Panel title={t('content.overview.balances')} to="/assets/index?key=overview" linkLabel={t('content.overview.allAssets')}>
      <Stack gap="1">
        <Text fontSize="xs" color="fg.muted">
          {t('content.overview.totalUsdt')}
        </Text>
        {data ? (
          <Text fontSize="2xl" fontWeight="bold" fontVariantNumeric="tabular-nums">
            {formatBalance(data.total.usdt)} <Text as="span" fontSize="sm" color="fg.muted">USDT</Text>
          </Text>
        ) : (
          <Skeleton h="8" w="40" />
        )}
      </Stack>
      <Rows empty={t('content.overview.none')}>
        {data?.buckets.map((bucket) => (
          <Row key={bucket.bucket} start={t(`funds.buckets.${bucket.bucket}`, { defaultValue: bucket.bucket })} end={`${formatBalance(bucket.value.usdt)} USDT`} />
        ))}
      </Rows>
    </Panel>
  );
}

const SECURITY_ITEMS: readonly (keyof SecurityStatus)[] = ['emailBound', 'phoneBound', 'totpEnabled', 'fundPasswordSet', 'antiCodeSet'];

function Security() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  const status = user?.security;
  const done = status ? SECURITY_ITEMS.filter((item) => status[item]).length : 0;
  return (
    <Panel title={t('content.overview.security')} to="/account/center/security" linkLabel={t('content.overview.manage')}>
      {status ? (
        <>
          <Text fontSize="sm" color="fg.muted">
            {t('content.overview.securityScore', { done, total: SECURITY_ITEMS.length })}
          </Text>
          <Stack as="ul" listStyleType="none" gap="1.5">
            {SECURITY_ITEMS.map((item) => (
              <HStack as="li" key={item} justify="space-between" fontSize="sm">
                <Text>{t(`content.overview.securityItems.${item}`)}</Text>
                <Badge colorPalette={status[item] ? 'green' : 'orange'} variant="subtle">
                  {status[item] ? t('content.overview.on') : t('content.overview.off')}
                </Badge>
              </HStack>
            ))}
          </Stack>
        </>
      ) : (
        <Skeleton h="24" rounded="md" />
      )}
    </Panel>
  );
}

function Orders() {
  const { t } = useTranslation();
  const format = useDateTimeFormatter();
  const orders = useListSpotOrders({ scope: 'history', page: 1, pageSize: RECENT });
  return (
    <Panel title={t('content.overview.orders')} to="/account/entrust/spot" linkLabel={t('content.overview.allOrders')}>
      <Rows empty={t('content.overview.noOrders')}>
        {orders.data?.records.map((order) => (
          <Row
            key={order.id}
            start={`${order.symbol.toUpperCase()} · ${t(`trade.orders.side.${order.side}`)}`}
            sub={format(order.commissTime)}
            end={
              <Stack gap="0">
                <Text>{formatQuantity(order.haveDealNum)}</Text>
                <Text fontSize="xs" color="fg.muted">
                  {t(`trade.orders.status.${order.status}`)}
                </Text>
              </Stack>
            }
          />
        ))}
      </Rows>
    </Panel>
  );
}

function Bills() {
  const { t } = useTranslation();
  const head = useApiHead();
  const format = useDateTimeFormatter();
  const bills = useGetMyBill(head, { page: 1, pageSize: RECENT });
  return (
    <Panel title={t('content.overview.bills')} to="/assets/index?key=records" linkLabel={t('content.overview.allBills')}>
      <Rows empty={t('content.overview.noBills')}>
        {bills.data?.records.map((bill) => (
          <Row
            key={bill.id}
            start={t(`funds.bills.kinds.${bill.kind}`, { defaultValue: bill.kind })}
            sub={format(bill.createdAt)}
            end={
              <Text color={bill.amount.startsWith('-') ? 'fg.error' : 'fg.success'}>
                {bill.amount.startsWith('-') ? '' : '+'}
                {formatQuantity(bill.amount)} {bill.coin.toUpperCase()}
              </Text>
            }
          />
        ))}
      </Rows>
    </Panel>
  );
}

function Announcements() {
  const { t } = useTranslation();
  const { isRead } = useReadAnnouncements();
  const params = { page: 1, pageSize: RECENT };
  const list = useContentAnnouncements(params, { query: useLangQuery(['/api/content/announcements', params]) });
  return (
    <Panel title={t('content.overview.announcements')} to="/notice/index" linkLabel={t('content.overview.allAnnouncements')}>
      <Rows empty={t('content.notices.empty')}>
        {list.data?.records.map((record) => (
          <Row
            key={record.id}
            start={
              <RouterLink to={`/notice/index?id=${record.id}`}>
                {!isRead(record.id) && <Box as="span" display="inline-block" boxSize="2" rounded="full" bg="brand.solid" me="2" aria-label={t('content.notices.unread')} />}
                {record.title}
              </RouterLink>
            }
            end={null}
            sub={record.publishedAt ? format(record.publishedAt) : undefined}
          />
        ))}
      </Rows>
    </Panel>
  );

  function format(at: number) {
    return new Date(at).toLocaleDateString();
  }
}

export function Overview() {
  return (
    <SimpleGrid columns={{ base: 1, lg: 2 }} gap="4">
      <Balances />
      <Security />
      <Orders />
      <Bills />
      <Box gridColumn={{ lg: 'span 2' }}>
        <Announcements />
      </Box>
    </SimpleGrid>
  );
}
