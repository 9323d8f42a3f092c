/**
 * /user/register: account (e-mail or phone with country code), verification code with a resend
 * countdown, password (rule A) and its confirmation, and an optional invitation code (prefilled and
 * read-only from `?invite_code=`, which the `/i&CODE` links lead to). The form is checked with
 * wasm-core before the call; server errors show under their field. Success goes to the login with
 * the account filled in.
 *
 * @module
 */

import { Button, Link, Stack } from '@chakra-ui/react';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { useRegister } from '../../api/generated/user/user';
import { useSiteName } from '../../hooks/use-settings';
import { LOGIN_PATH } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { fieldErrors, validatePasswordChange } from '../../lib/wasm';
import { AuthCard } from './auth-card';
import { CodeField, FormError, PasswordField, TextField } from './fields';
import { type FieldErrors, accountError, callErrors, hasErrors, requiredError } from './form-errors';
import { useFocusFirstError } from './use-focus-first-error';
import { useSendCode } from './use-send-code';

const FIELDS = ['account', 'code', 'password', 'confirmPassword', 'inviteCode'] as const;
type RegisterField = (typeof FIELDS)[number];

/** What the login screen reads from the navigation state: the account to fill in. */
export interface LoginPrefill {
  account?: string;
}

export function RegisterPage() {
  const { t } = useTranslation();
  const siteName = useSiteName();
  const navigate = useNavigate();
  const [search] = useSearchParams();
  const invited = search.get('invite_code')?.trim() ?? '';

  const [values, setValues] = useState<Record<RegisterField, string>>({
    account: '',
    code: '',
    password: '',
    confirmPassword: '',
    inviteCode: invited,
  });
  const [errors, setErrors] = useState<FieldErrors<RegisterField>>({});
  const [formError, setFormError] = useState<string>();
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstError(formRef);
  const code = useSendCode('register');
  const register = useRegister({ request: { silent: true } });

  const set = (field: RegisterField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(undefined);
  };

  const sendCode = () => code.sendFrom({ account: values.account, codeField: 'code', setErrors, focusFirstError });

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (register.isPending) return;
    const found: FieldErrors<RegisterField> = {
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
    const inviteCode = values.inviteCode.trim();
    try {
      await register.mutateAsync({
        data: {
          account: values.account.trim(),
          password: values.password,
          confirmPassword: values.confirmPassword,
          code: values.code.trim(),
          ...(inviteCode ? { inviteCode } : {}),
        },
      });
    } catch (failure) {
      const split = callErrors(t, failure, FIELDS);
      setErrors(split.fields);
      setFormError(split.form);
      focusFirstError();
      return;
    }
    toaster.create({ type: 'success', title: t('auth.register.success') });
    const prefill: LoginPrefill = { account: values.account.trim() };
    await navigate(LOGIN_PATH, { state: prefill });
  }

  return (
    <AuthCard
      title={t('screens.userRegister')}
      subtitle={t('auth.register.subtitle', { siteName })}
      footer={
        <>
          {t('auth.register.haveAccount')}{' '}
          <Link asChild color="brand.fg" fontWeight="semibold">
            <RouterLink to={LOGIN_PATH}>{t('auth.register.logIn')}</RouterLink>
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
            hint={t('auth.field.accountHint')}
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
            label={t('auth.field.password')}
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
          <TextField
            label={t('auth.field.inviteCode')}
            name="inviteCode"
            autoComplete="off"
            autoCapitalize="characters"
            spellCheck={false}
            maxLength={16}
            readOnly={invited !== ''}
            hint={invited ? t('auth.register.inviteFromLink') : undefined}
            value={values.inviteCode}
            onChange={set('inviteCode')}
            error={errors.inviteCode}
          />
          <FormError message={formError} />
          <Button type="submit" size="lg" colorPalette="brand" w="full" mt="1" loading={register.isPending}>
            {t('auth.register.submit')}
          </Button>
        </Stack>
      </form>
    </AuthCard>
  );
}
