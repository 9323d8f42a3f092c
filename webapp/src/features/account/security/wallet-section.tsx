/**
 * The security tab's wallet card: the Ethereum wallet linked for Sign-In with Ethereum (its
 * `walletAddress`), and linking or unlinking one. Linking asks the browser's wallet for its
 * account, confirms the user's identity (re-authentication) before the server gives the one-time
 * message, has the wallet sign it and sends the signature; unlinking confirms the identity too.
 *
 * @module
 */

import { Button, Flex, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getGetInfoQueryKey } from '../../../api/generated/user/user';
import type { UserInfo } from '../../../api/generated/model';
import { walletLink, walletLinkChallenge, walletUnlink } from '../../../api/generated/wallet/wallet';
import { ethereumProvider, isWalletError, personalSign, requestAccount, walletProblemKey } from '../../../lib/ethereum';
import { toaster } from '../../../lib/toaster';
import { WalletIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { StatusBadge } from '../components/status-badge';
import { SILENT, errorInfo, useApiHead } from '../lib/api';
import { isReauthCancelled, useReauth } from '../reauth/reauth';

export function WalletSection({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const head = useApiHead();
  const queryClient = useQueryClient();
  const withReauth = useReauth();
  const [busy, setBusy] = useState<'link' | 'unlink'>();
  const [error, setError] = useState<string>();
  const linked = user.walletAddress ?? undefined;

  async function run(kind: 'link' | 'unlink', action: () => Promise<UserInfo>, done: string) {
    setBusy(kind);
    setError(undefined);
    try {
      const updated = await action();
      queryClient.setQueryData(getGetInfoQueryKey(), updated);
      await queryClient.invalidateQueries({ queryKey: getGetInfoQueryKey() });
      toaster.create({ type: 'success', title: done });
    } catch (failure) {
      if (isReauthCancelled(failure)) return;
      if (isWalletError(failure)) {
        // The account area's own copy of the text: this screen does not load the auth area.
        setError(t(walletProblemKey(failure.problem, 'account.wallet.noWallet')));
      } else {
        setError(errorInfo(failure)?.message ?? t('account.errors.generic'));
      }
    } finally {
      setBusy(undefined);
    }
  }

  const link = () =>
    run(
      'link',
      async () => {
        const provider = ethereumProvider();
        const address = await requestAccount(provider);
        const challenge = await withReauth(() => walletLinkChallenge(head, { address }, SILENT));
        const signature = await personalSign(challenge.message, address, provider);
        return walletLink(head, { message: challenge.message, signature }, SILENT);
      },
      t('account.wallet.linked'),
    );

  const unlink = () => run('unlink', () => withReauth(() => walletUnlink(head, SILENT)), t('account.wallet.unlinked'));

  return (
    <SectionCard
      headingLevel="h3"
      title={t('account.wallet.title')}
      description={t('account.wallet.description')}
      icon={<WalletIcon boxSize="5" />}
      actions={
        linked ? (
          <Button size="sm" variant="outline" minW="24" loading={busy === 'unlink'} disabled={busy !== undefined} onClick={() => void unlink()}>
            {t('account.wallet.unlink')}
          </Button>
        ) : (
          <Button size="sm" colorPalette="brand" minW="24" loading={busy === 'link'} disabled={busy !== undefined} onClick={() => void link()}>
            {t('account.wallet.link')}
          </Button>
        )
      }
    >
      <Stack gap="2" px={{ base: '4', md: '6' }} py="4">
        <Flex gap="2" align="center" wrap="wrap">
          <StatusBadge on={linked !== undefined} label={t(linked ? 'account.wallet.statusLinked' : 'account.wallet.statusNotLinked')} />
          {linked && (
            <Text as="span" fontFamily="mono" fontSize="sm" wordBreak="break-all" title={t('account.wallet.address')}>
              {linked}
            </Text>
          )}
        </Flex>
        {error && (
          <Text role="alert" fontSize="sm" color="fg.error">
            {error}
          </Text>
        )}
      </Stack>
    </SectionCard>
  );
}
