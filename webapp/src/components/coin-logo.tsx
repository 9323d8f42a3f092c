/**
 * A coin's logo (decorative: the pair name is always shown beside it). A 1px ring in a border colour
 * keeps dark logos (XRP's near-black disc) visible on dark surfaces and light ones on white.
 *
 * @module
 */

import { Box, Image } from '@chakra-ui/react';
import { useState } from 'react';

const RING = '0 0 0 1px {colors.border.emphasized}';

export function CoinLogo({ src, coin, size = 7 }: { src: string; coin: string; size?: number | string }) {
  const [failed, setFailed] = useState(false);
  if (failed || !src) {
    return (
      <Box
        aria-hidden="true"
        boxSize={size}
        rounded="full"
        bg="bg.emphasized"
        color="fg.muted"
        fontSize="xs"
        fontWeight="bold"
        display="inline-flex"
        alignItems="center"
        justifyContent="center"
        flexShrink={0}
        boxShadow={RING}
      >
        {coin.slice(0, 1).toUpperCase()}
      </Box>
    );
  }
  return (
    <Image src={src} alt="" boxSize={size} rounded="full" flexShrink={0} boxShadow={RING} onError={() => setFailed(true)} loading="lazy" />
  );
}
