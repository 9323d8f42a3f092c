/**
 * The 24h change, coloured by direction (the sign is in the text, so colour is never the only cue).
 *
 * @module
 */

import { Box } from '@chakra-ui/react';
import type { TickerRowView } from '../lib/wasm';

const BG = { up: 'upSubtle', down: 'downSubtle', flat: 'bg.muted' } as const;

export function ChangePill({ view, size = 'sm' }: { view: TickerRowView; size?: 'sm' | 'md' }) {
  return (
    <Box
      as="span"
      display="inline-block"
      minW={size === 'md' ? '20' : '18'}
      px="2"
      py={size === 'md' ? '1' : '0.5'}
      rounded="md"
      textAlign="center"
      fontSize={size === 'md' ? 'sm' : 'xs'}
      fontWeight="semibold"
      fontVariantNumeric="tabular-nums"
      bg={BG[view.direction]}
      color={view.direction}
    >
      {view.changeText}
    </Box>
  );
}

/**
 * Splits `BTC/USDT` into base and quote for two-tone display; where the pair must wrap (a narrow
 * card), it wraps before the slash rather than inside a symbol.
 */
export function PairLabel({ pair }: { pair: string }) {
  const slash = pair.indexOf('/');
  if (slash < 0) return <>{pair}</>;
  return (
    <>
      {pair.slice(0, slash)}
      <wbr />
      <Box as="span" color="fg.muted" fontWeight="normal">
        {pair.slice(slash)}
      </Box>
    </>
  );
}
