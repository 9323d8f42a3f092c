/**
 * setting/trade-pwd: set the fund password, or change it with the current one (rule B: 6 to 20
 * letters, digits and punctuation). May need re-authentication.
 *
 * @module
 */

import { Button, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetTradePassword } from '../../../api/generated/security/security';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { fieldErrors, validatePasswordChange } from '../../../lib/wasm';
import { type FormErrors, FormError, PasswordField } from '../components/form';
import { SILENT, errorInfo, serverFieldErrors, useApiHead } from '../lib/api';
import { isReauthCancelled, useReauth } from '../reauth/reauth';
import { SettingScreen, useSettingDone } from './setting-screen';

const FIELDS = ['oldPassword', 'password', 'confirmPassword'];

export function TradePasswordSetting() {
  const { t } = useTranslation();
  const head = useApiHead();
  const { user } = useCurrentUser();
  const withReauth = useReauth();
  const done = useSettingDone();
  const save = useSetTradePassword({ request: SILENT });
  const isSet = user?.security.fundPasswordSet ?? false;
  const [form, setForm] = useState({ oldPassword: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FormErrors>({});

  const submit = async () => {
    const input = { rule: 'B' as const, password: form.password, confirmPassword: form.confirmPassword, oldPassword: isSet ? form.oldPassword : undefined };
    const found = fieldErrors(t, validatePasswordChange(input));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await withReauth(() =>
        save.mutateAsync({
          head,
          data: { password: form.password, confirmPassword: form.confirmPassword, oldPassword: isSet ? form.oldPassword : undefined },
        }),
      );
    } catch (error) {
      if (isReauthCancelled(error)) return;
      setErrors(
        serverFieldErrors(
          error,
          FIELDS,
          {
            wrong_fund_password: 'oldPassword',
            fund_password_already_set: 'oldPassword',
            password_format: 'password',
            password_unchanged: 'password',
            password_mismatch: 'confirmPassword',
          },
          errorInfo(error)?.message ?? t('account.errors.generic'),
        ),
      );
      return;
    }
    await done(t('account.tradePwd.saved'));
  };

  const bind = (field: keyof typeof form) => ({
    value: form[field],
    onChange: (event: React.ChangeEvent<HTMLInputElement>) => {
      const value = event.currentTarget.value;
      setForm((current) => ({ ...current, [field]: value }));
    },
    error: errors[field],
  });

  return (
    <SettingScreen title={isSet ? t('account.tradePwd.changeTitle') : t('account.tradePwd.setTitle')} description={t('account.tradePwd.description')}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="5">
          {isSet && <PasswordField label={t('account.fields.currentFundPassword')} autoComplete="off" required {...bind('oldPassword')} />}
          <PasswordField label={t('account.fields.newFundPassword')} autoComplete="new-password" helper={t('account.tradePwd.rule')} required {...bind('password')} />
          <PasswordField label={t('account.fields.confirmFundPassword')} autoComplete="new-password" required {...bind('confirmPassword')} />
          <FormError message={errors.form} />
          <Button type="submit" colorPalette="brand" size="lg" loading={save.isPending} alignSelf={{ base: 'stretch', sm: 'flex-start' }} minW="40">
            {t('account.actions.save')}
          </Button>
        </Stack>
      </form>
    </SettingScreen>
  );
}
