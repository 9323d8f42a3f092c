/**
 * The live-data freshness indicator: Live / Connecting / Reconnecting / Stale.
 *
 * @module
 */

import { Box, HStack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import type { FeedStatus } from '../lib/live';

const COLORS: Record<FeedStatus, string> = {
  live: 'up',
  connecting: 'fg.subtle',
  reconnecting: 'orange.500',
  stale: 'down',
};

export function FeedStatusBadge({ status, compact = false }: { status: FeedStatus; compact?: boolean }) {
  const { t } = useTranslation();
  return (
    <HStack
      role="status"
      gap="1.5"
      px={compact ? '0' : '2.5'}
      py={compact ? '0' : '1'}
      rounded="full"
      bg={compact ? undefined : 'bg.muted'}
      title={t(`live.hint.${status}`)}
    >
      <Box position="relative" boxSize="2" flexShrink={0}>
        {status === 'live' && (
          <Box
            position="absolute"
            inset="0"
            rounded="full"
            bg={COLORS[status]}
            opacity={0.5}
            animation="ping 1.6s cubic-bezier(0, 0, 0.2, 1) infinite"
          />
        )}
        <Box position="absolute" inset="0" rounded="full" bg={COLORS[status]} />
      </Box>
      <Text as="span" fontSize="xs" fontWeight="medium" color="fg.muted" whiteSpace="nowrap">
        {t(`live.${status}`)}
      </Text>
    </HStack>
  );
}
