/**
 * The operator's tiers view (`/admin?queue=tiers`, issue 26), read-only: the published table
 * (`GET /api/tiers/table`) — the account tiers' minimum deposits in USD, the VIP thresholds and
 * fee discount — and how often they are recomputed. They are configuration (`[tiers]` in the
 * server's configuration file), so there is nothing to edit here.
 *
 * @module
 */

import { Alert, Flex, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useTierTable } from '../../api/generated/tiers/tiers';
import { AccountTierTable, VipRules } from '../../components/tiers/tier-table';

export function TiersView() {
  const { t } = useTranslation();
  const table = useTierTable();
  return (
    <Stack gap="5">
      <Stack gap="1">
        <Heading as="h2" size="lg">
          {t('tiers.admin.tiersTitle')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('tiers.admin.tiersDescription')}
        </Text>
      </Stack>
      {!table.data ? (
        <Flex justify="center" py="6">
          {table.isError ? <Text color="fg.error">{t('tiers.admin.loadFailed')}</Text> : <Spinner />}
        </Flex>
      ) : (
        <>
          <Stack gap="2" maxW="2xl">
            <Heading as="h3" size="sm">
              {t('tiers.table.accountTiers')}
            </Heading>
            <AccountTierTable table={table.data} />
          </Stack>
          <Stack gap="2">
            <Heading as="h3" size="sm">
              {t('tiers.vip.title')}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {t('tiers.vip.rule')}
            </Text>
            <VipRules table={table.data} />
          </Stack>
          <Alert.Root status="info" rounded="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('tiers.admin.configTitle')}</Alert.Title>
              <Alert.Description>{t('tiers.admin.configBody', { minutes: table.data.recomputeMinutes })}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
        </>
      )}
    </Stack>
  );
}
