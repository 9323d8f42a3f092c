/**
 * The frame of the full-page screens (login, register, reset): no navigation, price or footer, but
 * the top bar's menu button, logo, language select and theme switch at the same places as in the
 * shell, so the logo does not move between pages and a visitor can read the screen in their language.
 *
 * @module
 */

import { Box, Flex } from '@chakra-ui/react';
import { useState } from 'react';
import { Outlet } from 'react-router';
import { LazySideMenu } from './lazy-side-menu';
import { TopBar } from './top-bar';

export function FullPageLayout() {
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <Flex direction="column" minH="100vh" bg="bg.subtle">
      <TopBar minimal onOpenMenu={() => setMenuOpen(true)} />
      <LazySideMenu open={menuOpen} onOpenChange={setMenuOpen} />
      <Box as="main" id="main" flex="1" display="flex" alignItems="center" px="4" py={{ base: '10', md: '16' }} tabIndex={-1} outline="none">
        <Outlet />
      </Box>
    </Flex>
  );
}
