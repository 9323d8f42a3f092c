/**
 * The "Before you deposit / withdraw" card: a titled list of notes, each after a small info icon.
 *
 * @module
 */

import { Flex, Stack, Text } from '@chakra-ui/react';
import { InfoIcon } from './icons';
import { Panel } from './panel';

export function NotesPanel({ title, notes }: { title: string; notes: readonly string[] }) {
  return (
    <Panel title={title}>
      <Stack as="ul" gap="2.5" fontSize="sm" color="fg.muted" listStyleType="none">
        {notes.map((note) => (
          <Flex as="li" key={note} align="flex-start" gap="2">
            <InfoIcon boxSize="4" flexShrink={0} mt="0.5" color="brand.fg" />
            <Text as="span" minW="0">
              {note}
            </Text>
          </Flex>
        ))}
      </Stack>
    </Panel>
  );
}
