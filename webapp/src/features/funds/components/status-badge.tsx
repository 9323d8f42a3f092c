/**
 * The state of a deposit or withdrawal: under review (orange), passed (green), failed (red).
 *
 * @module
 */

import { Badge, Box } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

/** The review states of deposits and withdrawals. */
export const REVIEW_STATES = ['review', 'passed', 'failed'] as const;
export type ReviewState = (typeof REVIEW_STATES)[number];

const PALETTE: Record<ReviewState, { palette: 'orange' | 'green' | 'red'; dot: string }> = {
  review: { palette: 'orange', dot: 'orange.solid' },
  passed: { palette: 'green', dot: 'green.solid' },
  failed: { palette: 'red', dot: 'red.solid' },
};

export function ReviewBadge({ status }: { status: string }) {
  const { t } = useTranslation();
  const known = (REVIEW_STATES as readonly string[]).includes(status) ? (status as ReviewState) : null;
  const style = known ? PALETTE[known] : { palette: 'gray' as const, dot: 'fg.subtle' };
  return (
    <Badge colorPalette={style.palette} variant="surface" size="md" rounded="full" px="2.5" gap="1.5" whiteSpace="nowrap">
      <Box as="span" aria-hidden="true" boxSize="1.5" rounded="full" bg={style.dot} />
      {known ? t(`funds.status.${known}`) : status}
    </Badge>
  );
}
