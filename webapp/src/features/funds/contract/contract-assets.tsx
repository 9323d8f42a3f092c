/**
 * /assets/index?key=contract: the contract (USDT-M futures) assets — the trading wallet's available
 * USDT and what its isolated margins and order holds keep (getMyBalance of the trading bucket), the
 * futures equity and unrealised PnL of the open positions pushed by the user channel (`au`), and the
 * open positions with their margin (the shared futures tables, read-only). Transfers in and out of
 * the trading wallet go through the transfer screen.
 *
 * @module
 */

import { Box, Button, SimpleGrid, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useGetCoinList } from '../../../api/generated/common/common';
import { useGetMyBalance } from '../../../api/generated/reports/reports';
import { FuturesPositionsTable, tone, useOpenFuturesPositions } from '../../../components/futures-orders';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { pairName } from '../../../hooks/use-market-rows';
import { useApiHead } from '../../../lib/api-calls';
import { useIsLoggedIn } from '../../../lib/session';
import { type AccountValues, useUserPush } from '../../../lib/user-push';
import { ScreenHeader } from '../components/frame';
import { TransferIcon } from '../components/icons';
import { formatResult, formatUsdt } from '../lib/format';
import { useFundsHref } from '../lib/links';

/** Values are refetched this often (the user channel pushes the equity every second). */
const REFRESH_MS = 15_000;

function Figure({ label, hint, value, color, result = false }: { label: string; hint: string; value: string | null; color?: string; result?: boolean }) {
  return (
    <Box as="section" aria-label={label} borderWidth="1px" rounded="xl" bg="bg.panel" px="5" py="4" minW="0" display="flex" flexDirection="column">
      <Text fontSize="sm" fontWeight="semibold">
        {label}
      </Text>
      <Text fontSize="xs" color="fg.muted" mb="3">
        {hint}
      </Text>
      {/* The figures line up at the bottom of their cards, whatever the length of the hints. */}
      {value === null ? (
        <Skeleton h="8" w="32" mt="auto" />
      ) : (
        <Text mt="auto" fontSize="xl" fontWeight="bold" fontVariantNumeric="tabular-nums" overflowWrap="anywhere" color={color}>
          {result ? formatResult(value) : formatUsdt(value)}{' '}
          <Text as="span" fontSize="sm" color="fg.muted" fontWeight="medium">
            USDT
          </Text>
        </Text>
      )}
    </Box>
  );
}

export function ContractAssets() {
  const { t } = useTranslation();
  const head = useApiHead();
  const href = useFundsHref();
  const loggedIn = useIsLoggedIn();
  const { user } = useCurrentUser();
  const [account, setAccount] = useState<AccountValues | null>(null);
  useUserPush(user?.user.userId ?? null, (message) => {
    if (message.type === 'au') setAccount(message.data);
  });
  const balance = useGetMyBalance(head, { type: 'trading' }, { query: { refetchInterval: REFRESH_MS } });
  const usdt = balance.data ? (balance.data.coins.find((c) => c.coin.toLowerCase() === 'usdt') ?? null) : undefined;
  const positions = useOpenFuturesPositions();
  const coins = useGetCoinList().data?.contractList ?? [];
  const coinOf = (symbol: string) => coins.find((c) => c.symbol === symbol);
  const name = (symbol: string) => {
    const listed = coinOf(symbol);
    return listed ? pairName(listed) : symbol.toUpperCase();
  };

  return (
    <Stack gap="5">
      <ScreenHeader
        title={t('funds.screens.contract')}
        description={t('funds.contract.description')}
        actions={
          <>
            <Button asChild size="sm" variant="outline">
              <RouterLink to={href({ screen: 'transfer', coin: 'usdt' })}>
                <TransferIcon />
                {t('funds.contract.transfer')}
              </RouterLink>
            </Button>
            <Button asChild size="sm" colorPalette="brand">
              <RouterLink to="/trade/index?type=usta">{t('funds.contract.trade')}</RouterLink>
            </Button>
          </>
        }
      />
      <SimpleGrid columns={{ base: 1, sm: 2, lg: 4 }} gap="4">
        <Figure label={t('funds.contract.available')} hint={t('funds.contract.availableHint')} value={usdt === undefined ? null : (usdt?.available ?? '0')} />
        <Figure label={t('funds.contract.held')} hint={t('funds.contract.heldHint')} value={usdt === undefined ? null : (usdt?.frozen ?? '0')} />
        <Figure label={t('funds.contract.equity')} hint={t('funds.contract.equityHint')} value={account?.allMargin ?? null} />
        <Figure label={t('funds.contract.unrealised')} hint={t('funds.contract.unrealisedHint')} value={account?.userEar ?? null} color={tone(account?.userEar)} result />
      </SimpleGrid>
      <Stack gap="2">
        <Text as="h3" fontWeight="semibold">
          {t('funds.contract.positions')}
        </Text>
        <Box borderWidth="1px" rounded="xl" bg="bg.panel" minW="0">
          <FuturesPositionsTable loggedIn={loggedIn} positions={positions.data ?? []} name={name} coinOf={coinOf} busy={positions.isFetching} />
        </Box>
      </Stack>
    </Stack>
  );
}
