//! `key=order`: the order centre belongs to spot trading, which comes in a later release. Until then
//! this is a designed notice (what will be here, where to go meanwhile), not a broken page.

import { Box, Button, Flex, Heading, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { CandlesIcon, OrdersIcon, RecordsIcon } from '../components/icons';
import { useFundsHref } from '../lib/links';

/** The markets list (spot pairs). */
const MARKETS_PATH = '/quotes/index';

export function OrderCentre() {
  const { t } = useTranslation();
  const href = useFundsHref();
  const upcoming = ['open', 'history', 'fills'] as const;
  return (
    <Box as="section" aria-labelledby="order-centre-title" borderWidth="1px" rounded="2xl" bg="bg.panel" px={{ base: '5', md: '10' }} py={{ base: '8', md: '12' }}>
      <Stack gap="6" align="center" textAlign="center" maxW="2xl" mx="auto">
        <Flex boxSize="16" rounded="2xl" bg="brand.subtle" color="brand.fg" align="center" justify="center">
          <OrdersIcon boxSize="8" />
        </Flex>
        <Stack gap="2">
          <Heading as="h2" id="order-centre-title" fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em">
            {t('funds.order.title')}
          </Heading>
          <Text color="fg.muted">{t('funds.order.body')}</Text>
        </Stack>
        <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3" w="full">
          {upcoming.map((item) => (
            <Box key={item} borderWidth="1px" borderStyle="dashed" rounded="lg" px="4" py="3" bg="bg.subtle" textAlign="start">
              <Text fontSize="sm" fontWeight="semibold">
                {t(`funds.order.${item}`)}
              </Text>
              <Text fontSize="xs" color="fg.muted">
                {t(`funds.order.${item}Hint`)}
              </Text>
            </Box>
          ))}
        </SimpleGrid>
        <Flex gap="3" wrap="wrap" justify="center">
          <Button asChild colorPalette="brand">
            <RouterLink to={MARKETS_PATH}>
              <CandlesIcon />
              {t('funds.order.markets')}
            </RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to={href({ screen: 'records', tab: 'bills' })}>
              <RecordsIcon />
              {t('funds.order.bills')}
            </RouterLink>
          </Button>
        </Flex>
      </Stack>
    </Box>
  );
}
