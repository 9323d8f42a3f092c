/**
 * setting/email and setting/phone: bind (or change) the e-mail address or phone with a code sent
 * to it (purpose `bind`). Sending and binding may need re-authentication.
 *
 * @module
 */

import { Button, DataList, Flex, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { sendMemberEmailCode, sendMemberSmsCode, useBindAccount } from '../../../api/generated/security/security';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { toaster } from '../../../lib/toaster';
import { coreErrorText, normalizePhone, validateEmail } from '../../../lib/wasm';
import { digitsOnly, type FormErrors, FormError, TextField } from '../components/form';
import { SendCodeButton } from '../../../components/send-code-button';
import { SILENT, errorInfo, serverFieldErrors, useApiHead } from '../lib/api';
import { isReauthCancelled, useReauth } from '../reauth/reauth';
import { SettingScreen, useSettingDone } from './setting-screen';

/** Which contact a screen binds. */
export type ContactKind = 'email' | 'phone';

const REASON_FIELDS = { contact_taken: 'account', invalid_code: 'code', too_many_requests: 'account', sms_unavailable: 'form' };

export function ContactSetting({ kind }: { kind: ContactKind }) {
  const { t } = useTranslation();
  const head = useApiHead();
  const { user } = useCurrentUser();
  const withReauth = useReauth();
  const done = useSettingDone();
  const bind = useBindAccount({ request: SILENT });
  const [account, setAccount] = useState('');
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const current = kind === 'email' ? user?.user.email : user?.user.phone;

  /** The address or number as it is sent (a phone as `+` and its digits), or the message of its local check. */
  const checked = (): { value: string; problem?: string } => {
    const value = account.trim();
    if (value === '') return { value, problem: t('account.errors.required') };
    if (kind === 'email') {
      const error = validateEmail(value);
      return { value, problem: error ? coreErrorText(t, error) : undefined };
    }
    const phone = normalizePhone(value);
    return phone.error === null ? { value: phone.phone } : { value, problem: coreErrorText(t, phone.error) };
  };

  const sendCode = async (): Promise<number | undefined> => {
    const { value, problem } = checked();
    if (problem) {
      setErrors({ account: problem });
      return undefined;
    }
    setErrors({});
    try {
      const sent = await withReauth(() =>
        kind === 'email'
          ? sendMemberEmailCode(head, { purpose: 'bind', email: value }, SILENT)
          : sendMemberSmsCode(head, { purpose: 'bind', phone: value }, SILENT),
      );
      toaster.create({ type: 'success', title: t('verify.sent') });
      return sent.resendAfterSecs;
    } catch (error) {
      if (!isReauthCancelled(error)) {
        setErrors(serverFieldErrors(error, ['account'], { ...REASON_FIELDS, invalid_field: 'account' }, errorInfo(error)?.message ?? t('account.errors.generic')));
      }
      return undefined;
    }
  };

  const submit = async () => {
    const { value, problem } = checked();
    const found: FormErrors = {};
    if (problem) found.account = problem;
    if (code.trim() === '') found.code = t('account.errors.required');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    let updated;
    try {
      updated = await withReauth(() => bind.mutateAsync({ head, data: { type: kind, account: value, code: code.trim() } }));
    } catch (error) {
      if (isReauthCancelled(error)) return;
      setErrors(serverFieldErrors(error, ['account', 'code'], REASON_FIELDS, errorInfo(error)?.message ?? t('account.errors.generic')));
      return;
    }
    await done(t('account.contact.bound'), updated ?? undefined);
  };

  const title = current ? t(`account.contact.${kind}.changeTitle`) : t(`account.contact.${kind}.bindTitle`);
  return (
    <SettingScreen title={title} description={t(`account.contact.${kind}.description`)}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="5">
          {current && (
            <DataList.Root orientation="horizontal">
              <DataList.Item>
                <DataList.ItemLabel>{t(`account.contact.${kind}.current`)}</DataList.ItemLabel>
                <DataList.ItemValue wordBreak="break-all">{current}</DataList.ItemValue>
              </DataList.Item>
            </DataList.Root>
          )}
          <TextField
            label={t(`account.contact.${kind}.newLabel`)}
            type={kind === 'email' ? 'email' : 'tel'}
            inputMode={kind === 'email' ? 'email' : 'tel'}
            autoComplete={kind === 'email' ? 'email' : 'tel'}
            placeholder={kind === 'email' ? 'name@example.com' : '+491701234567'}
            value={account}
            onChange={(event) => setAccount(event.currentTarget.value)}
            error={errors.account}
            helper={kind === 'phone' ? t('account.contact.phoneHint') : undefined}
            required
          />
          <Flex gap="3" align="flex-start" direction={{ base: 'column', sm: 'row' }}>
            <Stack flex="1" w="full">
              <TextField
                label={t('account.fields.verificationCode')}
                value={code}
                onChange={(event) => setCode(digitsOnly(event.currentTarget.value, 8))}
                error={errors.code}
                inputMode="numeric"
                autoComplete="one-time-code"
                required
              />
            </Stack>
            <Flex pt={{ base: '0', sm: '7' }} w={{ base: 'full', sm: 'auto' }}>
              <SendCodeButton onSend={sendCode} />
            </Flex>
          </Flex>
          <FormError message={errors.form} />
          <Button type="submit" colorPalette="brand" size="lg" loading={bind.isPending} alignSelf={{ base: 'stretch', sm: 'flex-start' }} minW="40">
            {current ? t('account.contact.submitChange') : t('account.contact.submitBind')}
          </Button>
        </Stack>
      </form>
    </SettingScreen>
  );
}
