/**
 * The futures tabs of /account/entrust: margin-all (cross margin) and margin-fixed (isolated margin)
 * show the user's USDT-M positions, current orders and order history in that margin mode; future/u
 * shows all of them with the stop orders. future/coin says plainly that coin-margined futures are
 * not offered — every perpetual here is margined and settled in USDT — and leads to future/u.
 *
 * @module
 */

import { Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useGetCoinList } from '../../api/generated/common/common';
import { FuturesOrdersBrowser } from '../../components/futures-orders';
import { useUserPush } from '../../lib/user-push';
import { useCurrentUser } from '../../hooks/use-current-user';
import { ENTRUST_PATH, type FuturesTabKey } from './lib/tabs';

/** The USDT-M futures screen. */
const FUTURES_TRADE_PATH = '/trade/index?type=usta';

export function FuturesOrdersPanel({ tab }: { tab: FuturesTabKey }) {
  const { t } = useTranslation();
  const coins = useGetCoinList();
  const { user } = useCurrentUser();
  useUserPush(user?.user.userId ?? null);
  if (tab === 'futureCoin') return <CoinMarginedNotice />;
  return (
    <Stack gap="3">
      <HStack justify="space-between" gap="3" wrap="wrap">
        <Text color="fg.muted" fontSize="sm">
          {t(`entrust.futures.body.${tab}`)}
        </Text>
        <Button asChild size="sm" colorPalette="brand" variant="outline">
          <RouterLink to={FUTURES_TRADE_PATH}>{t('entrust.futures.trade')}</RouterLink>
        </Button>
      </HStack>
      <FuturesOrdersBrowser
        title={t(`entrust.tabs.${tab}`)}
        coins={coins.data?.contractList ?? []}
        marginMode={tab === 'marginAll' ? 'cross' : tab === 'marginFixed' ? 'isolated' : undefined}
      />
    </Stack>
  );
}

function CoinMarginedNotice() {
  const { t } = useTranslation();
  const headingId = 'entrust-futureCoin-title';
  return (
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" rounded="2xl" bg="bg.panel" px={{ base: '5', md: '10' }} py={{ base: '8', md: '12' }}>
      <Stack gap="5" align="center" textAlign="center" maxW="xl" mx="auto">
        <Stack gap="2">
          <Heading as="h2" id={headingId} fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em">
            {t('entrust.futures.coinTitle')}
          </Heading>
          <Text color="fg.muted">{t('entrust.futures.body.futureCoin')}</Text>
        </Stack>
        <HStack gap="3" wrap="wrap" justify="center">
          <Button asChild colorPalette="brand">
            <RouterLink to={`${ENTRUST_PATH}/future/u`}>{t('entrust.futures.usdtOrders')}</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to={FUTURES_TRADE_PATH}>{t('entrust.futures.trade')}</RouterLink>
          </Button>
        </HStack>
      </Stack>
    </Box>
  );
}
