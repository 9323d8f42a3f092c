/**
 * /user/reset: account, a verification code (sendEmailCode type reset), the new password (rule A)
 * and its confirmation → backPwd, which also ends every session of the account. Success goes to
 * the login with the account filled in.
 *
 * @module
 */

import { Button, Link, Stack } from '@chakra-ui/react';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useBackPwd } from '../../api/generated/security/security';
import { LOGIN_PATH } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { fieldErrors, validatePasswordChange } from '../../lib/wasm';
import { AuthCard } from './auth-card';
import { CodeField, FormError, PasswordField, TextField } from './fields';
import { type FieldErrors, accountError, callErrors, hasErrors, requiredError } from './form-errors';
import type { LoginPrefill } from './register-page';
import { useFocusFirstError } from './use-focus-first-error';
import { useSendCode } from './use-send-code';

const FIELDS = ['account', 'code', 'password', 'confirmPassword'] as const;
type ResetField = (typeof FIELDS)[number];

export function ResetPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [values, setValues] = useState<Record<ResetField, string>>({ account: '', code: '', password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<FieldErrors<ResetField>>({});
  const [formError, setFormError] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstError(formRef);
  const code = useSendCode('reset');
  const reset = useBackPwd({ request: { silent: true } });

  const set = (field: ResetField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(undefined);
  };

  const sendCode = () => code.sendFrom({ account: values.account, codeField: 'code', setErrors, focusFirstError });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (reset.isPending) return;
    const found: FieldErrors<ResetField> = {
      account: accountError(t, values.account),
      code: requiredError(t, values.code),
      ...fieldErrors(t, validatePasswordChange({ rule: 'A', password: values.password, confirmPassword: values.confirmPassword })),
    };
    setErrors(found);
    setFormError(undefined);
    if (hasErrors(found)) {
      focusFirstError();
      return;
    }
    try {
      await reset.mutateAsync({
        data: {
          account: values.account.trim(),
          code: values.code.trim(),
          password: values.password,
          confirmPassword: values.confirmPassword,
        },
      });
    } catch (failure) {
      const split = callErrors(t, failure, FIELDS);
      setErrors(split.fields);
      setFormError(split.form);
      focusFirstError();
      return;
    }
    toaster.create({ type: 'success', title: t('auth.reset.success') });
    const prefill: LoginPrefill = { account: values.account.trim() };
    await navigate(LOGIN_PATH, { state: prefill });
  }

  return (
    <AuthCard
      title={t('screens.userReset')}
      subtitle={t('auth.reset.subtitle')}
      footer={
        <>
          {t('auth.reset.remembered')}{' '}
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink to={LOGIN_PATH}>{t('auth.reset.logIn')}</RouterLink>
          </Link>
        </>
      }
    >
      <form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
        <Stack gap="5">
          <TextField
            label={t('auth.field.account')}
            name="account"
            autoComplete="username"
            autoCapitalize="none"
            spellCheck={false}
            placeholder={t('auth.field.accountPlaceholder')}
            value={values.account}
            onChange={set('account')}
            error={errors.account}
          />
          <CodeField
            label={t('auth.field.code')}
            value={values.code}
            onChange={set('code')}
            error={errors.code}
            hint={code.hint}
            inputRef={code.codeRef}
            sending={code.sending}
            secondsLeft={code.secondsLeft}
            sentOnce={code.sentOnce}
            onSend={() => void sendCode()}
          />
          <PasswordField
            label={t('auth.field.newPassword')}
            name="password"
            autoComplete="new-password"
            hint={t('auth.field.passwordHint')}
            value={values.password}
            onChange={set('password')}
            error={errors.password}
          />
          <PasswordField
            label={t('auth.field.confirmPassword')}
            name="confirmPassword"
            autoComplete="new-password"
            value={values.confirmPassword}
            onChange={set('confirmPassword')}
            error={errors.confirmPassword}
          />
          <FormError message={formError} />
          <Button type="submit" size="lg" colorPalette="brand" w="full" mt="1" loading={reset.isPending}>
            {t('auth.reset.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
