/**
 * The operators' account freezing (`/admin?queue=accounts`, docs/api.md "Account freezing"): find
 * an account by the e-mail or phone it logs in with (`GET /api/admin/users/find`), see whether it
 * is frozen, and freeze or unfreeze it (`POST /api/admin/users/{id}/freeze`, `…/unfreeze`; freezing
 * asks for a confirmation first). Freezing ends every session of the account at once: its open
 * pages get `USER_STATUS` `frozen` and sign out with a message saying so.
 *
 * @module
 */

import { Badge, Button, Field, Flex, HStack, Heading, Input, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { adminFindAccount, adminFreezeAccount, adminUnfreezeAccount } from '../../api/generated/admin-accounts/admin-accounts';
import type { AdminAccount } from '../../api/generated/model';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { SILENT, failure } from '../../lib/api-calls';
import { toaster } from '../../lib/toaster';

/** The account freezing screen of the operator console (see the module comment). */
export function AccountFreeze() {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  const [query, setQuery] = useState('');
  const [account, setAccount] = useState<AdminAccount | null>(null);
  const [error, setError] = useState<string | undefined>();
  const [busy, setBusy] = useState(false);
  const [confirming, setConfirming] = useState(false);

  const find = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    setConfirming(false);
    if (query.trim() === '') {
      setError(t('errors.fieldRequired'));
      return;
    }
    setBusy(true);
    try {
      setAccount(await adminFindAccount({ account: query.trim() }, SILENT));
    } catch (caught) {
      setAccount(null);
      setError(failure(caught, t('kyc.admin.freeze.failed')).message);
    } finally {
      setBusy(false);
    }
  };

  const change = async (freeze: boolean) => {
    if (!account) return;
    setError(undefined);
    setBusy(true);
    try {
      const changed = await (freeze ? adminFreezeAccount(account.userId, SILENT) : adminUnfreezeAccount(account.userId, SILENT));
      setAccount(changed);
      toaster.create({ type: 'success', title: freeze ? t('kyc.admin.freeze.frozenDone') : t('kyc.admin.freeze.unfrozenDone') });
    } catch (caught) {
      setError(failure(caught, t('kyc.admin.freeze.failed')).message);
    } finally {
      setBusy(false);
      setConfirming(false);
    }
  };

  return (
    <Stack as="section" aria-labelledby="account-freeze-title" gap="5" maxW="2xl">
      <Heading as="h2" size="md" id="account-freeze-title">
        {t('kyc.admin.freeze.title')}
      </Heading>
      <Text color="fg.muted" fontSize="sm">
        {t('kyc.admin.freeze.intro')}
      </Text>
      <form onSubmit={(event) => void find(event)} noValidate>
        <Flex gap="3" align="end" wrap="wrap">
          <Field.Root flex="1" minW="64" invalid={Boolean(error) && !account}>
            <Field.Label>{t('kyc.admin.freeze.account')}</Field.Label>
            <Input value={query} onChange={(event) => setQuery(event.target.value)} autoComplete="off" maxLength={254} />
          </Field.Root>
          <Button type="submit" colorPalette="brand" loading={busy && !account}>
            {t('kyc.admin.freeze.find')}
          </Button>
        </Flex>
      </form>
      {error && (
        <Text color="fg.error" fontSize="sm" role="alert">
          {error}
        </Text>
      )}
      {account && (
        <Stack as="article" aria-label={t('kyc.admin.freeze.accountNamed', { id: account.userId })} gap="3" borderWidth="1px" rounded="xl" p="4">
          <HStack justify="space-between" wrap="wrap">
            <Text fontWeight="semibold">
              #{account.userId} · {account.account}
            </Text>
            <Badge colorPalette={account.frozen ? 'red' : 'green'}>{account.frozen ? t('kyc.admin.freeze.frozen') : t('kyc.admin.freeze.active')}</Badge>
          </HStack>
          {account.frozen && account.frozenAt !== undefined && (
            <Text fontSize="sm" color="fg.muted">
              {t('kyc.admin.freeze.frozenSince', { time: formatTime(account.frozenAt) })}
            </Text>
          )}
          <HStack gap="2">
            {account.frozen ? (
              <Button size="sm" variant="outline" loading={busy} onClick={() => void change(false)}>
                {t('kyc.admin.freeze.unfreeze')}
              </Button>
            ) : confirming ? (
              <>
                <Button size="sm" colorPalette="red" loading={busy} onClick={() => void change(true)}>
                  {t('kyc.admin.freeze.confirm')}
                </Button>
                <Button size="sm" variant="ghost" disabled={busy} onClick={() => setConfirming(false)}>
                  {t('kyc.admin.freeze.cancel')}
                </Button>
              </>
            ) : (
              <Button size="sm" colorPalette="red" variant="outline" onClick={() => setConfirming(true)}>
                {t('kyc.admin.freeze.freeze')}
              </Button>
            )}
          </HStack>
        </Stack>
      )}
    </Stack>
  );
}
