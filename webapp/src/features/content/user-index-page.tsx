/**
 * /user/index (spec section 2): `?key=all` the overview (logged in), `?key=helper` the help centre
 * (open to visitors). Any other key shows the overview. A visitor on the overview is offered the
 * login, which comes back here.
 *
 * @module
 */

import { Button, Container, Heading, Stack, Tabs, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useIsLoggedIn } from '../../lib/session';
import { HelpCentre } from './help-centre';
import { Overview } from './overview';

export function UserIndexPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [search, setSearch] = useSearchParams();
  const key = search.get('key') === 'helper' ? 'helper' : 'all';
  useDocumentTitle(key === 'helper' ? t('content.help.title') : t('content.overview.title'));
  return (
    <Container maxW="1200px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em" mb="5">
        {t('screens.userIndex')}
      </Heading>
      <Tabs.Root value={key} onValueChange={(details) => setSearch({ key: details.value })} variant="line" mb="6" lazyMount unmountOnExit>
        <Tabs.List>
          <Tabs.Trigger value="all">{t('content.overview.title')}</Tabs.Trigger>
          <Tabs.Trigger value="helper">{t('content.help.title')}</Tabs.Trigger>
        </Tabs.List>
        <Tabs.Content value="all" pt="5">
          {loggedIn ? (
            <Overview />
          ) : (
            <Stack gap="3" align="start" borderWidth="1px" rounded="2xl" p="6" bg="bg.panel">
              <Text>{t('content.overview.loginFirst')}</Text>
              <Button asChild colorPalette="brand">
                <RouterLink to={`/user/login?redirect=${encodeURIComponent('/user/index?key=all')}`}>{t('nav.login')}</RouterLink>
              </Button>
            </Stack>
          )}
        </Tabs.Content>
        <Tabs.Content value="helper" pt="5">
          <HelpCentre />
        </Tabs.Content>
      </Tabs.Root>
    </Container>
  );
}
