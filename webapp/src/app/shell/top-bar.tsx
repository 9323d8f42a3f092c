/**
 * The top bar (banner): menu button, logo, Markets and Features, BTC/USDT price, the announcements
 * bell, language, theme,
 * and Login / Register for visitors or the account menu for logged-in users.
 *
 * @module
 */

import { Box, Button, type ButtonProps, Flex, HStack, IconButton, Spacer } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ChevronDownIcon, MenuIcon } from '../../components/icons';
import { Logo } from '../../components/logo';
import { useSiteName } from '../../hooks/use-settings';
import { useIsLoggedIn } from '../../lib/session';
import { DeferredWidget, deferredModule } from '../deferred';
import { HOME_PATH } from '../route-helpers';
import { SCREEN_AREAS } from '../screen-areas';
import { AccountButton } from './account-button';
import { BtcTicker } from './btc-ticker';
import { LanguageButton } from './language-button';
import { NoticeBellButton } from './notice-bell-button';
import { ThemeSwitch } from './theme-switch';

/** Spot, USDT-M futures and flash (seconds) contract trading pages. */
export const FEATURE_LINKS = [
  { key: 'nav.spot', to: '/trade/index?type=bb', value: 'spot' },
  { key: 'nav.futures', to: '/trade/index?type=usta', value: 'futures' },
  { key: 'nav.seconds', to: '/trade/index?type=seconds', value: 'seconds' },
] as const;

/** The Features menu's trigger (its placeholder until the menu's code has arrived). */
export function FeaturesButton(props: ButtonProps) {
  const { t } = useTranslation();
  return (
    <Button variant="ghost" size="sm" fontWeight="medium" {...props}>
      {t('nav.features')}
      <ChevronDownIcon boxSize="4" />
    </Button>
  );
}

// The menus and the language list: fetched on first use (deferred.tsx), not with the page.
const featuresMenu = deferredModule(() => import('./features-menu'), SCREEN_AREAS['app/shell/features-menu']);
const accountMenu = deferredModule(() => import('./account-menu'), SCREEN_AREAS['app/shell/account-menu']);
const languageSwitcher = deferredModule(() => import('./language-switcher'), SCREEN_AREAS['app/shell/language-switcher']);

/** Inert stand-in for a trigger of a popup not loaded yet (same look, role and name). */
const closedPopup = (popup: 'menu' | 'listbox') => ({ 'aria-haspopup': popup, 'aria-expanded': false, 'data-state': 'closed' }) as const;

/**
 * The top bar. It fits every width from 360 px up in every language: below `lg` Markets and Features
 * live in the side menu only, the BTC/USDT price shows from `xl`, the language select is compact
 * (globe and code) below `lg`, the site name shows from `md` (and may shrink with an ellipsis), and
 * below `sm` Register is left to the side menu's Sign up.
 *
 * `minimal` (the full-page login, register and reset screens) keeps the menu button, the logo, the
 * language select and the theme switch at the same places, without navigation, price or account
 * buttons.
 */
export function TopBar({ onOpenMenu, minimal = false }: { onOpenMenu: () => void; minimal?: boolean }) {
  const { t } = useTranslation();
  const siteName = useSiteName();
  const loggedIn = useIsLoggedIn();

  return (
    <Box
      as="header"
      position="sticky"
      top="0"
      zIndex="sticky"
      bg={{ base: 'rgba(255,255,255,0.86)', _dark: 'rgba(11,14,20,0.86)' }}
      backdropFilter="saturate(180%) blur(12px)"
      borderBottomWidth="1px"
    >
      <Flex h="16" px={{ base: '3', md: '6' }} align="center" gap={{ base: '1.5', sm: '2', md: '4' }} maxW="1440px" mx="auto">
        <IconButton aria-label={t('nav.openMenu')} variant="ghost" size="sm" flexShrink={0} onClick={onOpenMenu}>
          <MenuIcon />
        </IconButton>
        <Box asChild minW="0">
          <RouterLink to={HOME_PATH} aria-label={t('nav.homeLink', { siteName })}>
            <Logo siteName={siteName} compact />
          </RouterLink>
        </Box>

        {!minimal && (
          <HStack as="nav" aria-label={t('nav.primary')} gap="1" display={{ base: 'none', lg: 'flex' }} flexShrink={0}>
            <Button asChild variant="ghost" size="sm" fontWeight="medium">
              <RouterLink to="/quotes/index">{t('nav.markets')}</RouterLink>
            </Button>
            <DeferredWidget deferred={featuresMenu} placeholder={<FeaturesButton {...closedPopup('menu')} />}>
              {(m) => <m.FeaturesMenu />}
            </DeferredWidget>
          </HStack>
        )}

        <Spacer />

        {!minimal && (
          <Box display={{ base: 'none', xl: 'block' }} flexShrink={0}>
            <BtcTicker />
          </Box>
        )}
        {!minimal && <NoticeBellButton />}
        <Box flexShrink={0}>
          <DeferredWidget deferred={languageSwitcher} placeholder={<LanguageButton {...closedPopup('listbox')} />}>
            {(m) => <m.LanguageSwitcher />}
          </DeferredWidget>
        </Box>
        <ThemeSwitch />
        {!minimal &&
          (loggedIn ? (
            <DeferredWidget deferred={accountMenu} placeholder={<AccountButton {...closedPopup('menu')} />}>
              {(m) => <m.AccountMenu />}
            </DeferredWidget>
          ) : (
            <HStack gap="2" flexShrink={0}>
              <Button asChild size="sm" variant="ghost" fontWeight="medium">
                <RouterLink to="/user/login">{t('nav.login')}</RouterLink>
              </Button>
              <Button asChild size="sm" colorPalette="brand" display={{ base: 'none', sm: 'inline-flex' }}>
                <RouterLink to="/user/register">{t('nav.register')}</RouterLink>
              </Button>
            </HStack>
          ))}
      </Flex>
    </Box>
  );
}
