/**
 * The slide-out side menu (a dialog named "Main menu"): Resource, Features, Account and
 * Preferences (the time zone) groups.
 * Overview, My Assets and Help are for logged-in users; Sign in / Sign up for visitors; Exit logs
 * out (on the server and in the browser, `useSignOut`) and goes to /. Features also holds Markets,
 * which the top bar shows only from `lg`.
 *
 * @module
 */

import { Box, CloseButton, Drawer, Heading, HStack, Portal, Stack, Text, chakra } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ChatIcon, CloseIcon } from '../../components/icons';
import { LogoMark } from '../../components/logo';
import { useSiteName } from '../../hooks/use-settings';
import { useSignOut } from '../../hooks/use-sign-out';
import { useIsLoggedIn } from '../../lib/session';
import { ChatBadge } from './chat-badge';
import { openChat } from '../../lib/chat-store';
import { TimeZoneSelect } from './time-zone-select';
import { FEATURE_LINKS } from './top-bar';

const itemStyles = {
  display: 'flex',
  alignItems: 'center',
  gap: '3',
  w: 'full',
  px: '3',
  py: '2.5',
  rounded: 'md',
  fontSize: 'sm',
  fontWeight: 'medium',
  textAlign: 'start',
  color: 'fg',
  cursor: 'pointer',
  _hover: { bg: 'bg.muted' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing' },
} as const;

const ItemButton = chakra('button', { base: itemStyles });

function MenuLink({ to, children, onNavigate }: { to: string; children: ReactNode; onNavigate: () => void }) {
  return (
    <chakra.a asChild {...itemStyles}>
      <RouterLink to={to} onClick={onNavigate}>
        {children}
      </RouterLink>
    </chakra.a>
  );
}

function Group({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Box as="section" aria-labelledby={id}>
      <Heading
        as="h2"
        id={id}
        fontSize="xs"
        fontWeight="semibold"
        color="fg.subtle"
        textTransform="uppercase"
        letterSpacing="0.06em"
        px="3"
        mb="1"
      >
        {title}
      </Heading>
      <Stack as="ul" gap="0.5" listStyleType="none">
        {children}
      </Stack>
    </Box>
  );
}

export function SideMenu({ open, onOpenChange }: { open: boolean; onOpenChange: (open: boolean) => void }) {
  const { t } = useTranslation();
  const siteName = useSiteName();
  const loggedIn = useIsLoggedIn();
  const signOut = useSignOut();
  const close = () => onOpenChange(false);

  return (
    <Drawer.Root open={open} onOpenChange={(e) => onOpenChange(e.open)} placement="start" size="xs">
      <Portal>
        <Drawer.Backdrop />
        <Drawer.Positioner>
          {/* Named by its purpose rather than by the site name shown at its top. */}
          <Drawer.Content aria-label={t('nav.mainMenu')}>
            <Drawer.Header borderBottomWidth="1px" py="4">
              <HStack gap="2">
                <LogoMark size={24} />
                <Text as="span" fontSize="md" fontWeight="semibold">
                  {siteName}
                </Text>
              </HStack>
            </Drawer.Header>
            <Drawer.Body py="5">
              <Stack as="nav" aria-label={t('nav.mainMenu')} gap="6">
                <Group title={t('menu.resource')}>
                  <li>
                    <MenuLink to="/rule/index" onNavigate={close}>
                      {t('menu.notice')}
                    </MenuLink>
                  </li>
                  <li>
                    <ItemButton
                      type="button"
                      onClick={() => {
                        close();
                        openChat();
                      }}
                    >
                      {t('menu.onlineCustomer')}
                      <ChatBadge />
                      <ChatIcon boxSize="4" color="fg.muted" ms="auto" />
                    </ItemButton>
                  </li>
                  {loggedIn && (
                    <>
                      <li>
                        <MenuLink to="/user/index?key=all" onNavigate={close}>
                          {t('menu.overview')}
                        </MenuLink>
                      </li>
                      <li>
                        <MenuLink to="/assets/index?key=overview" onNavigate={close}>
                          {t('menu.myAssets')}
                        </MenuLink>
                      </li>
                      <li>
                        <MenuLink to="/user/index?key=helper" onNavigate={close}>
                          {t('menu.help')}
                        </MenuLink>
                      </li>
                    </>
                  )}
                  <li>
                    <MenuLink to="/about/index" onNavigate={close}>
                      {t('menu.company')}
                    </MenuLink>
                  </li>
                </Group>

                <Group title={t('menu.features')}>
                  <li>
                    <MenuLink to="/quotes/index" onNavigate={close}>
                      {t('nav.markets')}
                    </MenuLink>
                  </li>
                  {FEATURE_LINKS.map((link) => (
                    <li key={link.value}>
                      <MenuLink to={link.to} onNavigate={close}>
                        {t(link.key)}
                      </MenuLink>
                    </li>
                  ))}
                </Group>

                <Group title={t('menu.account')}>
                  {loggedIn ? (
                    <li>
                      <ItemButton
                        type="button"
                        color="down"
                        onClick={() => {
                          close();
                          void signOut();
                        }}
                      >
                        {t('menu.exit')}
                      </ItemButton>
                    </li>
                  ) : (
                    <>
                      <li>
                        <MenuLink to="/user/login" onNavigate={close}>
                          {t('menu.signIn')}
                        </MenuLink>
                      </li>
                      <li>
                        <MenuLink to="/user/register" onNavigate={close}>
                          {t('menu.signUp')}
                        </MenuLink>
                      </li>
                    </>
                  )}
                </Group>
                <Group title={t('menu.preferences')}>
                  <li>
                    <TimeZoneSelect />
                  </li>
                </Group>
              </Stack>
            </Drawer.Body>
            <Drawer.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('nav.closeMenu')}>
                <CloseIcon />
              </CloseButton>
            </Drawer.CloseTrigger>
          </Drawer.Content>
        </Drawer.Positioner>
      </Portal>
    </Drawer.Root>
  );
}
