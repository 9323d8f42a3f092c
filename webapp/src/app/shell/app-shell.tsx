/**
 * The shell: top bar, side menu, routed content (main) and footer.
 *
 * @module
 */

import { Box, Flex, chakra } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Outlet, useLocation } from 'react-router';
import { isFooterVisible } from '../route-helpers';
import { Footer } from './footer';
import { LazySideMenu } from './lazy-side-menu';
import { TopBar } from './top-bar';

export function AppShell() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  return (
    <Flex direction="column" minH="100vh">
      <chakra.a
        href="#main"
        position="absolute"
        left="2"
        top="-12"
        zIndex="skipLink"
        bg="bg.panel"
        px="3"
        py="2"
        rounded="md"
        _focus={{ top: '2' }}
      >
        {t('nav.skipToContent')}
      </chakra.a>
      <TopBar onOpenMenu={() => setMenuOpen(true)} />
      <LazySideMenu open={menuOpen} onOpenChange={setMenuOpen} />
      <Box as="main" id="main" flex="1" tabIndex={-1} outline="none">
        <Outlet />
      </Box>
      {isFooterVisible(pathname) && <Footer />}
    </Flex>
  );
}
