//! "Hot coins": cards of the coins flagged `hot` in the coin list.

import { Box, Heading, HStack, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ChangePill, PairLabel } from '../../components/change-pill';
import { CoinLogo } from '../../components/coin-logo';
import type { MarketRow } from '../../hooks/use-market-rows';

export function HotCoins({ rows }: { rows: MarketRow[] }) {
  const { t } = useTranslation();
  const id = useId();
  if (rows.length === 0) return null;
  return (
    <Box as="section" aria-labelledby={id} bg="bg.panel" borderWidth="1px" rounded="2xl" p={{ base: '4', md: '5' }} shadow="sm">
      <Heading as="h2" id={id} fontSize="md" fontWeight="semibold" mb="4">
        {t('home.hotCoins')}
      </Heading>
      <SimpleGrid as="ul" columns={2} gap={{ base: '2', md: '3' }} listStyleType="none">
        {rows.map((row) => (
          <li key={row.coin.symbol}>
            <RouterLink to={`/trade/index?type=bb&symbol=${encodeURIComponent(row.coin.symbol)}`}>
              <Stack
                gap="3"
                p={{ base: '3', md: '4' }}
                rounded="xl"
                bg="bg.subtle"
                borderWidth="1px"
                borderColor="transparent"
                transition="border-color 0.15s, background 0.15s"
                _hover={{ borderColor: 'brand.solid', bg: 'bg.muted' }}
              >
                <HStack gap="2" justify="space-between" flexWrap="wrap">
                  <HStack gap="2">
                    <CoinLogo src={row.coin.logo} coin={row.coin.coin} size="6" />
                    <Text as="span" fontWeight="semibold" fontSize="sm">
                      <PairLabel pair={row.pair} />
                    </Text>
                  </HStack>
                  <ChangePill view={row.view} />
                </HStack>
                <Text fontSize="xl" fontWeight="semibold" fontVariantNumeric="tabular-nums" letterSpacing="-0.01em">
                  {row.view.price}
                </Text>
              </Stack>
            </RouterLink>
          </li>
        ))}
      </SimpleGrid>
    </Box>
  );
}
