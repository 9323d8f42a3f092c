/**
 * "Hot coins": cards of the coins flagged `hot` in the coin list. The number of columns follows the
 * room the panel has (two on a phone and beside the hero text at `lg`, three where the panel is
 * wider), and a card stacks pair, price and change so that a long price or pair wraps inside the
 * card instead of spilling out of it.
 *
 * @module
 */

import { Box, Heading, HStack, SimpleGrid, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
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
    <Box as="section" aria-labelledby={id} bg="bg.panel" borderWidth="1px" rounded="2xl" p={{ base: '4', md: '5' }} shadow="sm" minW="0">
      <Heading as="h2" id={id} fontSize="md" fontWeight="semibold" mb="4">
        {t('home.hotCoins')}
      </Heading>
      <SimpleGrid as="ul" columns={{ base: 2, md: 3, lg: 2, xl: 3 }} gap={{ base: '2', md: '3' }} listStyleType="none">
        {rows.map((row) => (
          <li key={row.coin.symbol}>
            <Box asChild display="block" h="full" rounded="xl" _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}>
              {/* Named by what it shows, with the figures' labels for screen readers. */}
              <RouterLink to={`/trade/index?type=bb&symbol=${encodeURIComponent(row.coin.symbol)}`}>
                <Stack
                  gap="2"
                  h="full"
                  p={{ base: '3', md: '4' }}
                  rounded="xl"
                  bg={{ base: 'bg.subtle', _dark: 'bg.muted' }}
                  borderWidth="1px"
                  borderColor={{ base: 'transparent', _dark: 'border' }}
                  transition="border-color 0.15s, background 0.15s"
                  _hover={{ borderColor: 'brand.solid', bg: { base: 'bg.muted', _dark: 'bg.emphasized' } }}
                >
                  <HStack gap="2" minW="0">
                    <CoinLogo src={row.coin.logo} coin={row.coin.coin} size="6" />
                    <Text as="span" fontWeight="semibold" fontSize="sm">
                      <PairLabel pair={row.pair} />
                    </Text>
                  </HStack>
                  <Text
                    as="span"
                    display="block"
                    fontSize={{ base: 'lg', md: 'xl' }}
                    fontWeight="semibold"
                    fontVariantNumeric="tabular-nums"
                    letterSpacing="-0.01em"
                    lineHeight="short"
                    overflowWrap="anywhere"
                  >
                    <VisuallyHidden>{` ${t('ticker.lastPrice')} `}</VisuallyHidden>
                    {row.view.price}
                  </Text>
                  <Box>
                    <VisuallyHidden>{` ${t('ticker.change24h')} `}</VisuallyHidden>
                    <ChangePill view={row.view} />
                  </Box>
                </Stack>
              </RouterLink>
            </Box>
          </li>
        ))}
      </SimpleGrid>
    </Box>
  );
}
