/**
 * `key=order`: the order centre — the user's spot orders of every pair: open orders (with cancel),
 * order history and trade history, with a pair filter and paging (the shared spot tables; the tab and
 * the pair stay in the URL next to `key=order`). Futures and seconds-contract orders are not offered
 * yet: a short note says so instead of an empty table.
 *
 * @module
 */

import { Box, HStack, Link, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { SpotOrdersBrowser } from '../../../components/spot-orders';
import { ScreenHeader } from '../components/frame';
import { InfoIcon } from '../components/icons';

/** Spot trading, where orders are placed. */
const SPOT_TRADE_PATH = '/trade/index?type=bb';

export function OrderCentre() {
  const { t } = useTranslation();
  return (
    <Stack gap="0">
      <ScreenHeader
        title={t('funds.screens.order')}
        description={t('entrust.centre.description')}
        actions={
          <Link asChild fontSize="sm" fontWeight="medium" color="brand.fg">
            <RouterLink to={SPOT_TRADE_PATH}>{t('entrust.centre.trade')}</RouterLink>
          </Link>
        }
      />
      <SpotOrdersBrowser label={t('entrust.centre.lists')} />
      <Box as="aside" aria-label={t('entrust.centre.otherProducts')} mt="5" px="4" py="3" rounded="lg" bg="bg.subtle" borderWidth="1px" borderStyle="dashed">
        <HStack gap="2.5" align="flex-start">
          <Box as="span" color="fg.muted" mt="0.5" aria-hidden="true" display="inline-flex">
            <InfoIcon boxSize="4" />
          </Box>
          <Text fontSize="sm" color="fg.muted">
            {t('entrust.centre.laterNote')}
          </Text>
        </HStack>
      </Box>
    </Stack>
  );
}
