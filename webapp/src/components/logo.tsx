/**
 * The Kestrel mark (a swept wing in a rounded square) and the site name.
 *
 * @module
 */

import { Box, HStack, Text } from '@chakra-ui/react';

export function LogoMark({ size = 28 }: { size?: number }) {
  return (
    <Box as="span" display="inline-flex" flexShrink={0} aria-hidden="true">
      <svg width={size} height={size} viewBox="0 0 32 32" focusable="false">
        <defs>
          <linearGradient id="kestrel-mark" x1="0" y1="0" x2="1" y2="1">
            <stop offset="0" stopColor="#ffad6d" />
            <stop offset="1" stopColor="#db540b" />
          </linearGradient>
        </defs>
        <rect width="32" height="32" rx="8" fill="url(#kestrel-mark)" />
        <path d="M8 23 L8 9 L12 9 L12 15 L20 9 L25 9 L15.5 16.2 L25 23 L20 23 L12 17.2 L12 23 Z" fill="#fff" />
      </svg>
    </Box>
  );
}

/**
 * The mark and the site name; `compact` (the top bar) hides the name below `md` and lets a long
 * name shrink with an ellipsis, so the bar's controls always fit.
 */
export function Logo({ siteName, compact = false }: { siteName: string; compact?: boolean }) {
  return (
    <HStack gap="2" minW="0">
      <LogoMark />
      <Text
        as="span"
        fontWeight="700"
        fontSize="lg"
        letterSpacing="-0.01em"
        whiteSpace="nowrap"
        truncate={compact}
        display={compact ? { base: 'none', md: 'block' } : 'inline'}
      >
        {siteName}
      </Text>
    </HStack>
  );
}
