/**
 * The frame of a product section's screens (earn, loans): a row of links between the section's
 * screens with the current one marked, the page title, an optional introduction, and the screen.
 *
 * @module
 */

import { Box, Container, Flex, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { Link as RouterLink } from 'react-router';

/** One link of a section's navigation. */
export interface SectionLink {
  id: string;
  to: string;
  label: string;
}

const linkStyles = {
  display: 'inline-flex',
  alignItems: 'center',
  px: '3',
  py: '1.5',
  rounded: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  whiteSpace: 'nowrap',
  _hover: { bg: 'bg.muted', color: 'fg' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' },
  '&[aria-current=page]': { bg: 'brand.subtle', color: 'brand.fg', fontWeight: 'semibold' },
} as const;

/** The frame: `links` named `navLabel` with `current` marked, the `title`, the `intro` and `children`. */
export function SectionFrame({
  navLabel,
  links,
  current,
  title,
  intro,
  children,
}: {
  navLabel: string;
  links: readonly SectionLink[];
  current: string;
  title: string;
  intro?: string;
  children: ReactNode;
}) {
  return (
    <Container maxW="1200px" px={{ base: '3', md: '6' }} py={{ base: '3', md: '6' }}>
      <Stack gap="4">
        <Box as="nav" aria-label={navLabel} overflowX="auto" borderBottomWidth="1px" pb="2">
          <Flex as="ul" listStyleType="none" gap="1" w="max-content">
            {links.map((link) => (
              <li key={link.id}>
                <chakra.a asChild {...linkStyles}>
                  <RouterLink to={link.to} aria-current={link.id === current ? 'page' : undefined}>
                    {link.label}
                  </RouterLink>
                </chakra.a>
              </li>
            ))}
          </Flex>
        </Box>
        <Stack gap="1">
          <Heading as="h1" size={{ base: 'lg', md: 'xl' }}>
            {title}
          </Heading>
          {intro && (
            <Text color="fg.muted" fontSize="sm" maxW="70ch">
              {intro}
            </Text>
          )}
        </Stack>
        {children}
      </Stack>
    </Container>
  );
}
