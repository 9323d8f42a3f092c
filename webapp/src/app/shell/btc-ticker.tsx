/**
 * The top bar's latest BTC/USDT price with its 24h change, live from the ticker stream.
 *
 * @module
 */

import { HStack, Text, VisuallyHidden } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { useMarketRows } from '../../hooks/use-market-rows';

const SYMBOLS = ['btcusdt'] as const;

export function BtcTicker() {
  const { t } = useTranslation();
  const { rows } = useMarketRows('spot', SYMBOLS);
  const row = rows[0];
  if (!row) return null;
  return (
    // Named by what it shows, with the figures' labels for screen readers.
    <RouterLink to="/trade/index?type=bb&symbol=btcusdt">
      <HStack
        gap="2"
        px="3"
        py="1.5"
        rounded="md"
        bg="bg.muted"
        _hover={{ bg: 'bg.emphasized' }}
        fontVariantNumeric="tabular-nums"
        fontSize="sm"
        whiteSpace="nowrap"
      >
        <Text as="span" fontWeight="semibold">
          {row.pair}
        </Text>
        <Text as="span" fontWeight="semibold" color={row.view.direction}>
          <VisuallyHidden>{` ${t('ticker.lastPrice')} `}</VisuallyHidden>
          {row.view.price}
        </Text>
        <Text as="span" fontSize="xs" color={row.view.direction}>
          <VisuallyHidden>{` ${t('ticker.change24h')} `}</VisuallyHidden>
          {row.view.changeText}
        </Text>
      </HStack>
    </RouterLink>
  );
}
