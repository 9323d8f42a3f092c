/**
 * The merchant tab (merchants only, `is_merchant === 2`): the merchant status and an honest note
 * that merchant tools are not available yet, with the support address.
 *
 * @module
 */

import { Alert, DataList, Link, Stack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { useSupportEmail } from '../../../hooks/use-settings';
import { TabHeader } from '../account-layout';
import { StoreIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { StatusBadge } from '../components/status-badge';
import { MERCHANT } from '../lib/tabs';

export function MerchantTab() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  const supportEmail = useSupportEmail();
  if (!user) return null;
  const active = user.is_merchant === MERCHANT;
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.merchant')} description={t('account.merchant.description')} />
      <SectionCard title={t('account.merchant.toolsTitle')} icon={<StoreIcon boxSize="5" />}>
        <Stack gap="5">
          <DataList.Root orientation="horizontal" gap="3">
            <DataList.Item>
              <DataList.ItemLabel>{t('account.merchant.status')}</DataList.ItemLabel>
              <DataList.ItemValue>
                <StatusBadge on={active} label={active ? t('account.merchant.active') : t('account.merchant.inactive')} />
              </DataList.ItemValue>
            </DataList.Item>
            <DataList.Item>
              <DataList.ItemLabel>{t('account.info.userId')}</DataList.ItemLabel>
              <DataList.ItemValue fontFamily="mono">{user.user.userId}</DataList.ItemValue>
            </DataList.Item>
          </DataList.Root>
          <Alert.Root status="info" rounded="lg">
            <Alert.Indicator />
            <Alert.Content>
              <Alert.Title>{t('account.merchant.notYetTitle')}</Alert.Title>
              <Alert.Description>
                {t('account.merchant.notYetBody')}{' '}
                {supportEmail && (
                  <Link href={`mailto:${supportEmail}`} color="brand.fg" fontWeight="medium">
                    {supportEmail}
                  </Link>
                )}
              </Alert.Description>
            </Alert.Content>
          </Alert.Root>
        </Stack>
      </SectionCard>
    </Stack>
  );
}
