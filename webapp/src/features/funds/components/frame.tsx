/**
 * The frame of both funds hosts (/assets/index and /account/wallet): the page heading, the screen
 * list — a side list from `lg`, a horizontally scrolling row below — and the routed screen. The
 * list's links keep the host's URL form (`?key=` or a path), so a reload or a shared link shows the
 * same screen.
 *
 * @module
 */

import { Box, Container, Flex, Grid, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';

/** One entry of the screen list. */
export interface NavItem {
  id: string;
  label: string;
  to: string;
  icon: (props: { boxSize?: string }) => ReactNode;
  active: boolean;
}

const navItemStyles = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  px: '3',
  py: '2.5',
  rounded: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  lineHeight: '1.3',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'bg.muted', color: 'fg' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' },
  '&[aria-current=page]': { bg: 'brand.subtle', color: 'brand.fg', fontWeight: 'semibold' },
} as const;

function FundsNav({ items, label }: { items: readonly NavItem[]; label: string }) {
  return (
    <Box
      as="nav"
      aria-label={label}
      position={{ lg: 'sticky' }}
      top={{ lg: '6' }}
      borderWidth={{ lg: '1px' }}
      rounded={{ lg: 'xl' }}
      bg={{ lg: 'bg.panel' }}
      p={{ lg: '2' }}
      mx={{ base: '-4', md: '0' }}
      px={{ base: '4', md: '0', lg: '2' }}
      overflowX={{ base: 'auto', lg: 'visible' }}
      borderBottomWidth="1px"
      pb="2"
      css={{ scrollbarWidth: 'thin' }}
    >
      <Flex as="ul" listStyleType="none" direction={{ base: 'row', lg: 'column' }} gap={{ base: '1', lg: '0.5' }} w={{ base: 'max-content', lg: 'auto' }}>
        {items.map((item) => {
          const Icon = item.icon;
          return (
            <li key={item.id}>
              <chakra.a asChild {...navItemStyles} whiteSpace={{ base: 'nowrap', lg: 'normal' }}>
                <RouterLink to={item.to} aria-current={item.active ? 'page' : undefined}>
                  <Box as="span" display="inline-flex" flexShrink={0} aria-hidden="true">
                    <Icon boxSize="4.5" />
                  </Box>
                  {item.label}
                </RouterLink>
              </chakra.a>
            </li>
          );
        })}
      </Flex>
    </Box>
  );
}

/** Page heading, screen list and the screen. */
export function FundsFrame({ title, items, children }: { title: string; items: readonly NavItem[]; children: ReactNode }) {
  const { t } = useTranslation();
  return (
    <Container maxW="1280px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em" mb={{ base: '4', md: '6' }}>
        {title}
      </Heading>
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '240px minmax(0, 1fr)' }} gap={{ base: '5', lg: '8' }} alignItems="start">
        <FundsNav items={items} label={t('funds.nav')} />
        <Box minW="0">{children}</Box>
      </Grid>
    </Container>
  );
}

/** The heading of a screen, with an optional description and actions at the end. */
export function ScreenHeader({ title, description, actions }: { title: string; description?: string; actions?: ReactNode }) {
  return (
    <Flex gap="4" align={{ base: 'flex-start', md: 'flex-end' }} justify="space-between" direction={{ base: 'column', md: 'row' }} mb="5">
      <Stack gap="1" minW="0">
        <Heading as="h2" fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em">
          {title}
        </Heading>
        {description && (
          <Text color="fg.muted" fontSize="sm" maxW="2xl">
            {description}
          </Text>
        )}
      </Stack>
      {actions && (
        <Flex gap="2" flexWrap="wrap">
          {actions}
        </Flex>
      )}
    </Flex>
  );
}
