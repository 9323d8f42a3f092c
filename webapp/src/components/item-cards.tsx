/**
 * Lists shown as cards on phones, where a table would hide its right-hand columns: a list named like
 * the table it replaces, one card per row — a title line (pair, side, status), the row's figures as
 * label / value pairs in two columns (labels wrap, figures never truncate) and the row's buttons at
 * full touch size (44 px) — plus the list's one-line states (loading, empty, failed).
 *
 * @module
 */

import { Box, Button, type ButtonProps, Flex, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';

/** One figure of a card: its label, its value (text or a node) and an optional colour. */
export interface CardField {
  label: string;
  value: ReactNode;
  /** A colour token for the value (`up`, `down`, `orange.fg` …). */
  color?: string;
  /** Takes the card's whole width (long values: addresses, reasons, memos). */
  wide?: boolean;
  /** An accessible name for the value when its label alone is ambiguous (several cards). */
  valueLabel?: string;
}

/** The minimum height of a card's buttons: the touch target a finger needs (WCAG 2.5.5). */
export const TOUCH_TARGET = '44px';

/** A list of cards named `label` (what the table it stands for is named). */
export function CardList({ label, busy, children }: { label: string; busy?: boolean; children: ReactNode }) {
  return (
    <Stack as="ul" role="list" aria-label={label} aria-busy={busy || undefined} listStyleType="none" gap="2" p="2" m="0">
      {children}
    </Stack>
  );
}

/** The one-line state of an empty list (loading, nothing to show, failed with its retry button). */
export function CardListState({ children, role }: { children: ReactNode; role?: 'status' | 'alert' }) {
  return (
    <Box as="li" role={role} textAlign="center" py="8" px="3" color="fg.muted" fontSize="sm">
      {children}
    </Box>
  );
}

/**
 * One row as a card: `title` (and `aside` at its end) on top, the `fields` under it, the `actions`
 * at the bottom. `label` names the card for assistive technology and tests.
 */
export function ItemCard({
  label,
  title,
  aside,
  fields,
  actions,
}: {
  label: string;
  title: ReactNode;
  aside?: ReactNode;
  fields: CardField[];
  actions?: ReactNode;
}) {
  return (
    <Box as="li" aria-label={label} borderWidth="1px" rounded="lg" bg="bg.panel" px="3" py="2.5">
      <Flex align="center" justify="space-between" gap="2" wrap="wrap" mb="2">
        <Flex align="center" gap="2" wrap="wrap" minW="0" fontSize="sm">
          {title}
        </Flex>
        {aside && (
          <Flex align="center" gap="2" fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
            {aside}
          </Flex>
        )}
      </Flex>
      <SimpleGrid as="dl" columns={2} columnGap="3" rowGap="1.5" fontSize="xs">
        {fields.map((field) => (
          <Box key={field.label} gridColumn={field.wide ? 'span 2' : undefined} minW="0">
            <Text as="dt" color="fg.muted" lineHeight="1.3" overflowWrap="break-word" hyphens="auto">
              {field.label}
            </Text>
            <Text
              as="dd"
              aria-label={field.valueLabel}
              fontWeight="medium"
              fontVariantNumeric="tabular-nums"
              color={field.color}
              overflowWrap="anywhere"
              lineHeight="1.4"
            >
              {field.value}
            </Text>
          </Box>
        ))}
      </SimpleGrid>
      {actions && (
        <Flex gap="2" mt="2.5" wrap="wrap" css={{ '& > *': { flex: '1 1 auto' } }}>
          {actions}
        </Flex>
      )}
    </Box>
  );
}

/** A card's button at touch size. */
export function CardButton(props: ButtonProps) {
  return <Button size="sm" variant="outline" minH={TOUCH_TARGET} {...props} />;
}
