//! /trade/index?type=usta: USDT-M futures are not open yet. A designed panel says what is coming
//! (leverage, take-profit and stop-loss, margin management) and leads to spot trading meanwhile.

import { Box, Button, Container, Heading, HStack, List, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ClockIcon } from '../../components/icons';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { tradePath } from './pair-list';

export function FuturesComingSoon({ symbol }: { symbol: string | null }) {
  const { t } = useTranslation();
  useDocumentTitle(t('trade.futures.title'));
  const spot = symbol ? symbol.toLowerCase() : 'btcusdt';
  return (
    <Container maxW="3xl" py={{ base: '12', md: '20' }} px={{ base: '4', md: '6' }}>
      <Stack gap="6" align="center" textAlign="center" borderWidth="1px" rounded="2xl" bg="bg.panel" px={{ base: '5', md: '10' }} py="10">
        <Box display="inline-flex" alignItems="center" justifyContent="center" boxSize="14" rounded="full" bg="brand.subtle" color="brand.fg">
          <ClockIcon boxSize="7" />
        </Box>
        <Stack gap="2">
          <Heading as="h1" size="2xl" letterSpacing="-0.02em">
            {t('trade.futures.title')}
          </Heading>
          <Text color="fg.muted">{t('trade.futures.body')}</Text>
        </Stack>
        <List.Root gap="1.5" textAlign="start" fontSize="sm" color="fg.muted" ps="5">
          <List.Item>{t('trade.futures.leverage')}</List.Item>
          <List.Item>{t('trade.futures.tpsl')}</List.Item>
          <List.Item>{t('trade.futures.margin')}</List.Item>
        </List.Root>
        <HStack gap="3" wrap="wrap" justify="center">
          <Button asChild colorPalette="brand">
            <RouterLink to={tradePath(spot)}>{t('trade.futures.toSpot')}</RouterLink>
          </Button>
          <Button asChild variant="outline">
            <RouterLink to="/quotes/index">{t('trade.futures.markets')}</RouterLink>
          </Button>
        </HStack>
      </Stack>
    </Container>
  );
}
