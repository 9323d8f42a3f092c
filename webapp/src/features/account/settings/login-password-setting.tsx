/**
 * setting/login-pwd: change the login password with the current one (rule A, different from the
 * current one); the other devices are logged out.
 *
 * @module
 */

import { Alert, Button, Stack } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUpdatePwd } from '../../../api/generated/security/security';
import { fieldErrors, validatePasswordChange } from '../../../lib/wasm';
import { type FormErrors, FormError, PasswordField } from '../components/form';
import { SILENT, errorInfo, serverFieldErrors } from '../lib/api';
import { isReauthCancelled, useReauth } from '../reauth/reauth';
import { SettingScreen, useSettingDone } from './setting-screen';

const FIELDS = ['oldPassword', 'password', 'confirmPassword'];

export function LoginPasswordSetting() {
  const { t } = useTranslation();
  const withReauth = useReauth();
  const done = useSettingDone();
  const update = useUpdatePwd({ request: SILENT });
  const [form, setForm] = useState({ oldPassword: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FormErrors>({});

  const submit = async () => {
    const found = fieldErrors(t, validatePasswordChange({ rule: 'A', ...form }));
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    try {
      await withReauth(() => update.mutateAsync({ data: form }));
    } catch (error) {
      if (isReauthCancelled(error)) return;
      setErrors(
        serverFieldErrors(
          error,
          FIELDS,
          { wrong_password: 'oldPassword', password_format: 'password', password_unchanged: 'password', password_mismatch: 'confirmPassword' },
          errorInfo(error)?.message ?? t('account.errors.generic'),
        ),
      );
      return;
    }
    await done(t('account.loginPwd.changed'));
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
    <SettingScreen title={t('account.loginPwd.title')} description={t('account.loginPwd.description')}>
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        <Stack gap="5">
          <Alert.Root status="info" rounded="lg" size="sm">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal">{t('account.loginPwd.othersLoggedOut')}</Alert.Title>
          </Alert.Root>
          <PasswordField label={t('account.fields.currentPassword')} autoComplete="current-password" required {...bind('oldPassword')} />
          <PasswordField label={t('account.fields.newPassword')} autoComplete="new-password" helper={t('account.loginPwd.rule')} required {...bind('password')} />
          <PasswordField label={t('account.fields.confirmPassword')} autoComplete="new-password" required {...bind('confirmPassword')} />
          <FormError message={errors.form} />
          <Button type="submit" colorPalette="brand" size="lg" loading={update.isPending} alignSelf={{ base: 'stretch', sm: 'flex-start' }} minW="40">
            {t('account.loginPwd.submit')}
          </Button>
        </Stack>
      </form>
    </SettingScreen>
  );
}
