//! The futures tabs of /account/entrust (margin-all, margin-fixed, future/u, future/coin): futures
//! trading is not open yet, so instead of an empty table a designed panel says what this tab will list
//! and leads to spot trading meanwhile.

import { Box, Button, Heading, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ClockIcon } from '../../components/icons';
import { ENTRUST_PATH, type FuturesTabKey } from './lib/tabs';

/** Spot trading, open today. */
const SPOT_TRADE_PATH = '/trade/index?type=bb';

export function FuturesOrdersPanel({ tab }: { tab: FuturesTabKey }) {
  const { t } = useTranslation();
  const headingId = `entrust-${tab}-title`;
  return (
    <Box as="section" aria-labelledby={headingId} borderWidth="1px" rounded="2xl" bg="bg.panel" px={{ base: '5', md: '10' }} py={{ base: '8', md: '12' }}>
      <Stack gap="5" align="center" textAlign="center" maxW="xl" mx="auto">
        <Box display="inline-flex" alignItems="center" justifyContent="center" boxSize="14" rounded="full" bg="brand.subtle" color="brand.fg">
          <ClockIcon boxSize="7" />
        </Box>
        <Stack gap="2">
          <Heading as="h2" id={headingId} fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em">
            {t('entrust.futures.title')}
          </Heading>
          <Text color="fg.muted">{t(`entrust.futures.body.${tab}`)}</Text>
          <Text color="fg.muted" fontSize="sm">
            {t('entrust.futures.meanwhile')}
          </Text>
        </Stack>
        <HStack gap="3" wrap="wrap" justify="center">
          <Button asChild colorPalette="brand">
            <RouterLink to={SPOT_TRADE_PATH}>{t('entrust.futures.tradeSpot')}</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to={`${ENTRUST_PATH}/spot`}>{t('entrust.futures.spotOrders')}</RouterLink>
          </Button>
        </HStack>
      </Stack>
    </Box>
  );
}
