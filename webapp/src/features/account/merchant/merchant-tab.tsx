/**
 * /account/center/merchant (issue 26). Merchants (`is_merchant === 2`, whose tab list shows the
 * merchant tab) get the merchant tool; everyone else — who reaches this screen from the tier tab's
 * merchant programme — gets the application: the form, the pending state, or a rejection with the
 * operator's reason and the form again. An approval the cached user record does not know yet
 * reloads it, which turns the screen into the tool and adds the tab.
 *
 * @module
 */

import { Alert, Button, Flex, Spinner, Stack } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useMyMerchant } from '../../../api/generated/merchant/merchant';
import { getGetInfoQueryKey } from '../../../api/generated/user/user';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { TabHeader } from '../account-layout';
import { MERCHANT } from '../lib/tabs';
import { MerchantApplication } from './application';
import { MerchantTool } from './merchant-tool';

export function MerchantTab() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const { user } = useCurrentUser();
  const mine = useMyMerchant();
  const merchant = user?.is_merchant === MERCHANT;
  const approvedMeanwhile = Boolean(user) && !merchant && mine.data?.isMerchant === MERCHANT;
  useEffect(() => {
    if (approvedMeanwhile) void queryClient.invalidateQueries({ queryKey: getGetInfoQueryKey() });
  }, [approvedMeanwhile, queryClient]);

  if (!user) return null;
  return (
    <Stack gap="5">
      <TabHeader
        title={merchant || approvedMeanwhile ? t('account.tabs.merchant') : t('tiers.merchant.applyTitle')}
        description={merchant || approvedMeanwhile ? t('tiers.merchant.toolDescription') : t('tiers.merchant.applyDescription')}
      />
      {!mine.data ? (
        <Flex justify="center" py="10">
          {mine.isError ? (
            <Alert.Root status="error" rounded="xl" alignItems="center">
              <Alert.Indicator />
              <Alert.Title flex="1">{t('tiers.merchant.loadFailed')}</Alert.Title>
              <Button size="sm" variant="outline" onClick={() => void mine.refetch()}>
                {t('tiers.mine.retry')}
              </Button>
            </Alert.Root>
          ) : (
            <Spinner aria-label={t('tiers.mine.loading')} />
          )}
        </Flex>
      ) : merchant || approvedMeanwhile ? (
        <MerchantTool record={mine.data.application} inviteCode={user.user.inviteCode} userId={user.user.userId} />
      ) : (
        <MerchantApplication application={mine.data.application} />
      )}
    </Stack>
  );
}
