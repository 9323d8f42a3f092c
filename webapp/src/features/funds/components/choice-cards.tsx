/**
 * A row of choice cards (networks): one choice of a few, each with a title and a detail line. A
 * radio group for assistive technology; arrow keys move the choice like native radios.
 *
 * @module
 */

import { Box, SimpleGrid, Text, chakra } from '@chakra-ui/react';
import { type KeyboardEvent, useRef } from 'react';

export interface Choice {
  value: string;
  title: string;
  detail?: string;
}

export function ChoiceCards({ label, choices, value, onChange }: { label: string; choices: readonly Choice[]; value: string; onChange: (value: string) => void }) {
  const group = useRef<HTMLDivElement>(null);
  const move = (event: KeyboardEvent, index: number) => {
    const step = event.key === 'ArrowRight' || event.key === 'ArrowDown' ? 1 : event.key === 'ArrowLeft' || event.key === 'ArrowUp' ? -1 : 0;
    if (!step || choices.length === 0) return;
    event.preventDefault();
    const next = (index + step + choices.length) % choices.length;
    onChange(choices[next]!.value);
    group.current?.querySelectorAll<HTMLButtonElement>('[role=radio]')[next]?.focus();
  };
  return (
    <SimpleGrid ref={group} role="radiogroup" aria-label={label} columns={{ base: 1, sm: 2, xl: 3 }} gap="2">
      {choices.map((choice, index) => {
        const checked = choice.value === value;
        return (
          <chakra.button
            key={choice.value}
            type="button"
            role="radio"
            aria-checked={checked}
            tabIndex={checked || (!value && index === 0) ? 0 : -1}
            onClick={() => onChange(choice.value)}
            onKeyDown={(event) => move(event, index)}
            textAlign="start"
            borderWidth="1.5px"
            borderColor={checked ? 'brand.solid' : 'border'}
            bg={checked ? 'brand.subtle' : 'bg.panel'}
            rounded="lg"
            px="3.5"
            py="2.5"
            minW="0"
            cursor="pointer"
            transition="border-color 0.15s, background 0.15s"
            _hover={{ borderColor: checked ? 'brand.solid' : 'border.emphasized' }}
            _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px' }}
          >
            <Box>
              <Text fontWeight="semibold" fontSize="sm" color={checked ? 'brand.fg' : 'fg'}>
                {choice.title}
              </Text>
              {choice.detail && (
                <Text fontSize="xs" color="fg.muted" overflowWrap="anywhere">
                  {choice.detail}
                </Text>
              )}
            </Box>
          </chakra.button>
        );
      })}
    </SimpleGrid>
  );
}
