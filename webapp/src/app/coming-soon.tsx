/**
 * The page of a screen that is not built yet: its name and a sentence in the user's language.
 *
 * @module
 */

import { Box, Button, Container, Heading, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ClockIcon } from '../components/icons';
import { useDocumentTitle } from '../hooks/use-document-title';
import { HOME_PATH } from './route-helpers';

function Body({ screen }: { screen: string }) {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const invite = screen === 'userRegister' ? search.get('invite_code') : null;
  useDocumentTitle(t(`screens.${screen}`));
  return (
    <Stack gap="5" align="center" textAlign="center" maxW="lg" mx="auto">
      <Box
        display="inline-flex"
        alignItems="center"
        justifyContent="center"
        boxSize="14"
        rounded="full"
        bg="brand.subtle"
        color="brand.fg"
      >
        <ClockIcon boxSize="7" />
      </Box>
      <Heading as="h1" size="2xl" letterSpacing="-0.02em">
        {t(`screens.${screen}`)}
      </Heading>
      <Text color="fg.muted" fontSize="md">
        {t('comingSoon.body')}
      </Text>
      {invite && (
        <Text fontSize="sm" color="fg.muted">
          {t('comingSoon.inviteCode', { code: invite })}
        </Text>
      )}
      <Button asChild colorPalette="brand" size="md">
        <RouterLink to={HOME_PATH}>{t('comingSoon.backHome')}</RouterLink>
      </Button>
    </Stack>
  );
}

/** A "coming soon" screen inside the shell. */
export function ComingSoonPage({ screen }: { screen: string }) {
  return (
    <Container maxW="6xl" py={{ base: '16', md: '24' }}>
      <Body screen={screen} />
    </Container>
  );
}

/** A "coming soon" screen of the full-page (shell-less) routes: login, register, reset. */
export function FullPageComingSoon({ screen }: { screen: string }) {
  return (
    <Box w="full" maxW="lg" mx="auto" bg="bg.panel" borderWidth="1px" rounded="2xl" px={{ base: '6', md: '10' }} py="12" shadow="sm">
      <Body screen={screen} />
    </Box>
  );
}
