/**
 * A state badge: green when a protection is on, grey when it is not.
 *
 * @module
 */

import { Badge, Box } from '@chakra-ui/react';

export function StatusBadge({ on, label }: { on: boolean; label: string }) {
  return (
    <Badge colorPalette={on ? 'green' : 'gray'} variant="surface" size="md" rounded="full" px="2.5" gap="1.5" whiteSpace="nowrap">
      <Box as="span" aria-hidden="true" boxSize="1.5" rounded="full" bg={on ? 'green.solid' : 'fg.subtle'} />
      {label}
    </Badge>
  );
}
