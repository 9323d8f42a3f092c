/**
 * The assets overview: the total value of every bucket in USDT and BTC (getWalletAccount), one card
 * per bucket (funding, trading, earn), and the coin table of a bucket — available, frozen and value —
 * from getCurrencyAccount (funding: every asset) or getMyBalance (trading, earn: the coins held).
 * Actions lead to deposit, withdrawal, transfer and conversion, with the coin chosen. On phones each
 * coin is a card (available, frozen, value and the actions at touch size), so Value and the actions
 * never scroll out of sight.
 *
 * @module
 */

import { Box, Button, Checkbox, Flex, HStack, IconButton, Input, InputGroup, SimpleGrid, Skeleton, Stack, Table, Tabs, Text } from '@chakra-ui/react';
import type { TFunction } from 'i18next';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { BucketHoldings, CoinHolding, WalletAccount } from '../../../api/generated/model';
import { useGetCurrencyAccount, useGetMyBalance, useGetWalletAccount } from '../../../api/generated/reports/reports';
import { CoinLogo } from '../../../components/coin-logo';
import { CardButton, CardList, CardListState, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';
import { compareDecimal } from '../../../lib/decimal';
import { ScreenHeader } from '../components/frame';
import { DepositIcon, EyeIcon, EyeOffIcon, SearchIcon, SwapIcon, TransferIcon, WithdrawIcon } from '../components/icons';
import { LoadFailed } from '../components/load-failed';
import { Panel } from '../components/panel';
import { useApiHead } from '../../../lib/api-calls';
import { coinLogo, coinName, formatBtc, formatCoin, formatUsdt } from '../lib/format';
import { useFundsHref } from '../lib/links';
import { BUCKETS, type Bucket } from '../lib/queries';

/** Values are refetched this often while the overview is open. */
const REFRESH_MS = 30_000;
/** What hidden amounts show. */
const MASK = '******';

export function Overview() {
  const { t } = useTranslation();
  const head = useApiHead();
  const [hidden, setHidden] = useState(false);
  const account = useGetWalletAccount(head, { query: { refetchInterval: REFRESH_MS } });
  return (
    <Stack gap="5">
      <ScreenHeader title={t('funds.screens.overview')} description={t('funds.overview.description')} />
      {account.isError && !account.data ? (
        <LoadFailed onRetry={() => void account.refetch()} />
      ) : (
        <>
          <TotalCard account={account.data} hidden={hidden} onToggleHidden={() => setHidden((h) => !h)} />
          <BucketCards account={account.data} hidden={hidden} />
        </>
      )}
      <CoinTable hidden={hidden} />
    </Stack>
  );
}

function TotalCard({ account, hidden, onToggleHidden }: { account?: WalletAccount; hidden: boolean; onToggleHidden: () => void }) {
  const { t } = useTranslation();
  const href = useFundsHref();
  return (
    <Box
      as="section"
      aria-label={t('funds.overview.total')}
      rounded="2xl"
      borderWidth="1px"
      bg="bg.panel"
      bgImage={{ _light: 'linear-gradient(135deg, {colors.brand.50}, transparent 60%)', _dark: 'linear-gradient(135deg, {colors.brand.950}, transparent 60%)' }}
      px={{ base: '5', md: '7' }}
      py={{ base: '5', md: '6' }}
    >
      <Flex gap="5" justify="space-between" align={{ base: 'stretch', xl: 'flex-end' }} direction={{ base: 'column', xl: 'row' }}>
        <Stack gap="1" minW="0">
          <HStack gap="1.5" color="fg.muted" fontSize="sm">
            <Text>{t('funds.overview.total')}</Text>
            <IconButton
              size="2xs"
              variant="ghost"
              aria-label={hidden ? t('funds.overview.showAmounts') : t('funds.overview.hideAmounts')}
              aria-pressed={hidden}
              onClick={onToggleHidden}
            >
              {hidden ? <EyeOffIcon /> : <EyeIcon />}
            </IconButton>
          </HStack>
          {account ? (
            <>
              <Text fontSize={{ base: '2xl', md: '4xl' }} fontWeight="bold" letterSpacing="-0.02em" fontVariantNumeric="tabular-nums" overflowWrap="anywhere" lineHeight="1.15">
                {hidden ? MASK : formatUsdt(account.total.usdt)}{' '}
                <Text as="span" fontSize={{ base: 'md', md: 'lg' }} fontWeight="semibold" color="fg.muted">
                  USDT
                </Text>
              </Text>
              <Text color="fg.muted" fontSize="sm" fontVariantNumeric="tabular-nums">
                ≈ {hidden ? MASK : formatBtc(account.total.btc)} BTC
              </Text>
            </>
          ) : (
            <Stack gap="2" role="status" aria-label={t('funds.loading')}>
              <Skeleton h="10" w="64" maxW="full" />
              <Skeleton h="4" w="32" />
            </Stack>
          )}
        </Stack>
        <SimpleGrid columns={{ base: 2, md: 4 }} gap="2" flexShrink={0}>
          <Button asChild colorPalette="brand" size="sm">
            <RouterLink to={href({ screen: 'recharge' })}>
              <DepositIcon />
              {t('funds.actions.deposit')}
            </RouterLink>
          </Button>
          <Button asChild variant="outline" size="sm">
            <RouterLink to={href({ screen: 'withdraw' })}>
              <WithdrawIcon />
              {t('funds.actions.withdraw')}
            </RouterLink>
          </Button>
          <Button asChild variant="outline" size="sm">
            <RouterLink to={href({ screen: 'transfer' })}>
              <TransferIcon />
              {t('funds.actions.transfer')}
            </RouterLink>
          </Button>
          <Button asChild variant="outline" size="sm">
            <RouterLink to={href({ screen: 'swap' })}>
              <SwapIcon />
              {t('funds.actions.convert')}
            </RouterLink>
          </Button>
        </SimpleGrid>
      </Flex>
    </Box>
  );
}

function BucketCards({ account, hidden }: { account?: WalletAccount; hidden: boolean }) {
  const { t } = useTranslation();
  return (
    <SimpleGrid columns={{ base: 1, md: 3 }} gap="4">
      {BUCKETS.map((bucket) => {
        const value = account?.buckets.find((b) => b.bucket === bucket)?.value;
        return (
          <Box key={bucket} as="section" aria-label={t(`funds.buckets.${bucket}`)} borderWidth="1px" rounded="xl" bg="bg.panel" px="5" py="4" minW="0">
            <Text fontSize="sm" fontWeight="semibold">
              {t(`funds.buckets.${bucket}`)}
            </Text>
            <Text fontSize="xs" color="fg.muted" mb="3">
              {t(`funds.buckets.${bucket}Hint`)}
            </Text>
            {account ? (
              <>
                <Text fontSize="xl" fontWeight="bold" fontVariantNumeric="tabular-nums" overflowWrap="anywhere">
                  {hidden ? MASK : formatUsdt(value?.usdt ?? '0')}{' '}
                  <Text as="span" fontSize="sm" color="fg.muted" fontWeight="medium">
                    USDT
                  </Text>
                </Text>
                <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
                  ≈ {hidden ? MASK : formatBtc(value?.btc ?? '0')} BTC
                </Text>
              </>
            ) : (
              <Skeleton h="10" w="40" />
            )}
          </Box>
        );
      })}
    </SimpleGrid>
  );
}

/** The holdings of `bucket`: every asset for funding, the coins held for trading and earn. */
function useHoldings(bucket: Bucket) {
  const head = useApiHead();
  const funding = useGetCurrencyAccount(head, { query: { enabled: bucket === 'funding', refetchInterval: REFRESH_MS } });
  const other = useGetMyBalance(head, { type: bucket === 'funding' ? 'trading' : bucket }, { query: { enabled: bucket !== 'funding', refetchInterval: REFRESH_MS } });
  return bucket === 'funding' ? funding : other;
}

function CoinTable({ hidden }: { hidden: boolean }) {
  const { t } = useTranslation();
  const [bucket, setBucket] = useState<Bucket>('funding');
  const [query, setQuery] = useState('');
  const [hideZero, setHideZero] = useState(false);
  const holdings = useHoldings(bucket);

  return (
    <Panel title={t('funds.overview.coins')} description={t('funds.overview.coinsHint')}>
      <Tabs.Root value={bucket} onValueChange={(details) => setBucket(details.value as Bucket)} variant="subtle" size="sm">
        <Stack gap="4">
          <Flex gap="3" justify="space-between" align={{ base: 'stretch', md: 'center' }} direction={{ base: 'column', md: 'row' }}>
            <Tabs.List aria-label={t('funds.overview.bucketLabel')} maxW="full" overflowX="auto">
              {BUCKETS.map((b) => (
                <Tabs.Trigger key={b} value={b} whiteSpace="nowrap" flexShrink={0}>
                  {t(`funds.buckets.${b}`)}
                </Tabs.Trigger>
              ))}
            </Tabs.List>
            <Flex gap="3" align="center" wrap="wrap">
              <InputGroup startElement={<SearchIcon />} w={{ base: 'full', sm: '52' }}>
                <Input size="sm" value={query} onChange={(e) => setQuery(e.currentTarget.value)} placeholder={t('funds.overview.search')} aria-label={t('funds.overview.search')} />
              </InputGroup>
              <Checkbox.Root size="sm" checked={hideZero} onCheckedChange={(details) => setHideZero(details.checked === true)}>
                <Checkbox.HiddenInput />
                <Checkbox.Control />
                <Checkbox.Label>{t('funds.overview.hideZero')}</Checkbox.Label>
              </Checkbox.Root>
            </Flex>
          </Flex>
          {/* The tab's panel: the selected bucket's table (each tab controls it). */}
          <Tabs.Content value={bucket} p="0">
            {holdings.isError && !holdings.data ? (
              <LoadFailed onRetry={() => void holdings.refetch()} />
            ) : (
              <HoldingsTable data={holdings.data} loading={holdings.isLoading} bucket={bucket} query={query} hideZero={hideZero} hidden={hidden} />
            )}
          </Tabs.Content>
        </Stack>
      </Tabs.Root>
    </Panel>
  );
}

function HoldingsTable({
  data,
  loading,
  bucket,
  query,
  hideZero,
  hidden,
}: {
  data?: BucketHoldings;
  loading: boolean;
  bucket: Bucket;
  query: string;
  hideZero: boolean;
  hidden: boolean;
}) {
  const { t } = useTranslation();
  const phone = useIsPhone();
  const rows = useMemo(() => {
    const q = query.trim().toLowerCase();
    return (data?.coins ?? [])
      .filter((c) => !q || c.coin.toLowerCase().includes(q))
      .filter((c) => !hideZero || compareDecimal(c.total, '0') > 0)
      .sort((a, b) => compareDecimal(b.value.usdt, a.value.usdt) || a.coin.localeCompare(b.coin));
  }, [data, query, hideZero]);
  const mask = (text: string) => (hidden ? MASK : text);
  const label = t('funds.overview.tableLabel', { bucket: t(`funds.buckets.${bucket}`) });

  if (phone) {
    return (
      <Box borderWidth="1px" rounded="lg" bg="bg.subtle">
        <CardList label={label}>
          {rows.map((row) => (
            <HoldingCard key={row.coin} row={row} bucket={bucket} mask={mask} />
          ))}
          {rows.length === 0 && <CardListState>{loading ? t('funds.loading') : t('funds.overview.empty')}</CardListState>}
        </CardList>
      </Box>
    );
  }
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg">
      <Table.Root size="sm" aria-label={label}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader ps="4">{t('funds.columns.coin')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('funds.columns.available')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('funds.columns.frozen')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">{t('funds.columns.valuation')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end" pe="4">
              {t('funds.columns.action')}
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => (
            <HoldingRow key={row.coin} row={row} bucket={bucket} mask={mask} />
          ))}
          {rows.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={5} textAlign="center" py="10" color="fg.muted">
                {loading ? t('funds.loading') : t('funds.overview.empty')}
              </Table.Cell>
            </Table.Row>
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

function HoldingRow({ row, bucket, mask }: { row: CoinHolding; bucket: Bucket; mask: (text: string) => string }) {
  const { t } = useTranslation();
  const href = useFundsHref();
  const name = coinName(row.coin);
  return (
    <Table.Row>
      <Table.Cell ps="4">
        <HStack gap="2.5">
          <CoinLogo src={coinLogo(row.coin)} coin={row.coin} size="6" />
          <Text fontWeight="semibold">{name}</Text>
        </HStack>
      </Table.Cell>
      <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
        {mask(formatCoin(row.available))}
      </Table.Cell>
      <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" whiteSpace="nowrap" color="fg.muted">
        {mask(formatCoin(row.frozen))}
      </Table.Cell>
      <Table.Cell textAlign="end" fontVariantNumeric="tabular-nums" whiteSpace="nowrap">
        {mask(formatUsdt(row.value.usdt))} <Text as="span" color="fg.muted" fontSize="xs">USDT</Text>
      </Table.Cell>
      <Table.Cell textAlign="end" pe="4">
        <HStack gap="1" justify="flex-end">
          {bucket === 'funding' ? (
            <>
              <Button asChild size="xs" variant="ghost" colorPalette="brand">
                <RouterLink to={href({ screen: 'recharge', coin: row.coin })} aria-label={t('funds.actions.depositCoin', { coin: name })}>
                  {t('funds.actions.deposit')}
                </RouterLink>
              </Button>
              <Button asChild size="xs" variant="ghost" colorPalette="brand">
                <RouterLink to={href({ screen: 'withdraw', coin: row.coin })} aria-label={t('funds.actions.withdrawCoin', { coin: name })}>
                  {t('funds.actions.withdraw')}
                </RouterLink>
              </Button>
              <Button asChild size="xs" variant="ghost" colorPalette="brand">
                <RouterLink to={href({ screen: 'swap', coin: row.coin })} aria-label={t('funds.actions.convertCoin', { coin: name })}>
                  {t('funds.actions.convert')}
                </RouterLink>
              </Button>
            </>
          ) : (
            <Button asChild size="xs" variant="ghost" colorPalette="brand">
              <RouterLink to={href({ screen: 'transfer', coin: row.coin })} aria-label={t('funds.actions.transferCoin', { coin: name })}>
                {t('funds.actions.transfer')}
              </RouterLink>
            </Button>
          )}
        </HStack>
      </Table.Cell>
    </Table.Row>
  );
}

/** The links of a coin's actions: deposit, withdraw and convert in funding, transfer elsewhere. */
function holdingActions(bucket: Bucket, coin: string, name: string, t: TFunction, href: ReturnType<typeof useFundsHref>) {
  return bucket === 'funding'
    ? [
        { to: href({ screen: 'recharge', coin }), label: t('funds.actions.deposit'), name: t('funds.actions.depositCoin', { coin: name }) },
        { to: href({ screen: 'withdraw', coin }), label: t('funds.actions.withdraw'), name: t('funds.actions.withdrawCoin', { coin: name }) },
        { to: href({ screen: 'swap', coin }), label: t('funds.actions.convert'), name: t('funds.actions.convertCoin', { coin: name }) },
      ]
    : [{ to: href({ screen: 'transfer', coin }), label: t('funds.actions.transfer'), name: t('funds.actions.transferCoin', { coin: name }) }];
}

/** A coin of the bucket as a card (phones). */
function HoldingCard({ row, bucket, mask }: { row: CoinHolding; bucket: Bucket; mask: (text: string) => string }) {
  const { t } = useTranslation();
  const href = useFundsHref();
  const name = coinName(row.coin);
  return (
    <ItemCard
      label={t('funds.overview.card', { coin: name })}
      title={
        <HStack gap="2">
          <CoinLogo src={coinLogo(row.coin)} coin={row.coin} size="6" />
          <Text as="span" fontWeight="semibold">
            {name}
          </Text>
        </HStack>
      }
      fields={[
        { label: t('funds.columns.valuation'), value: `${mask(formatUsdt(row.value.usdt))} USDT`, wide: true },
        { label: t('funds.columns.available'), value: mask(formatCoin(row.available)) },
        { label: t('funds.columns.frozen'), value: mask(formatCoin(row.frozen)) },
      ]}
      actions={holdingActions(bucket, row.coin, name, t, href).map((action) => (
        <CardButton key={action.to} asChild colorPalette="brand" variant="subtle">
          <RouterLink to={action.to} aria-label={action.name}>
            {action.label}
          </RouterLink>
        </CardButton>
      ))}
    />
  );
}
