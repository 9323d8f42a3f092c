/**
 * /admin: the operator's review screen — identity, deposit and withdrawal queues. Only accounts
 * whose getInfo `user.role` is `operator` see the queues; other users get an "operators only"
 * notice and visitors are sent to the login, which returns here.
 *
 * @module
 */

import { Box, Button, Container, Flex, Heading, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Navigate, Link as RouterLink } from 'react-router';
import { ShieldIcon } from '../../components/icons';
import { useCurrentUser } from '../../hooks/use-current-user';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useIsLoggedIn } from '../../lib/session';
import { AdminConsole } from './admin-console';

/** The role allowed in. */
const OPERATOR_ROLE = 'operator';
/** Where visitors go. */
const LOGIN_REDIRECT = '/user/login?redirect=/admin';

export function AdminPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const { user, isLoading } = useCurrentUser();
  useDocumentTitle(t('kyc.admin.title'));

  if (!loggedIn) return <Navigate to={LOGIN_REDIRECT} replace />;

  return (
    <Container maxW="1440px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      {isLoading || !user ? (
        <Stack gap="4" role="status" aria-label={t('common.loading')}>
          <Skeleton h="10" w="64" />
          <Skeleton h="80" rounded="xl" />
        </Stack>
      ) : user.user.role === OPERATOR_ROLE ? (
        <AdminConsole />
      ) : (
        <OperatorsOnly />
      )}
    </Container>
  );
}

function OperatorsOnly() {
  const { t } = useTranslation();
  return (
    <Stack gap="5" align="center" textAlign="center" maxW="lg" mx="auto" py={{ base: '10', md: '16' }}>
      <Flex boxSize="14" rounded="full" bg="red.subtle" color="red.fg" align="center" justify="center">
        <ShieldIcon boxSize="7" />
      </Flex>
      <Heading as="h1" size="2xl" letterSpacing="-0.02em">
        {t('kyc.admin.operatorsOnlyTitle')}
      </Heading>
      <Box role="alert">
        <Text color="fg.muted">{t('kyc.admin.operatorsOnly')}</Text>
      </Box>
      <Button asChild colorPalette="brand">
        <RouterLink to="/home/index">{t('kyc.admin.backHome')}</RouterLink>
      </Button>
    </Stack>
  );
}
