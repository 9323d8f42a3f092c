/**
 * /user/login: account and password, then — when the account has 2FA on (`totp_required`) — the
 * 6-digit authenticator code, sent again with the same credentials. After too many failed sign-ins
 * on an account (`login_verification_required`) the account is not locked: the form asks for a code
 * sent to it (sendEmailCode, type login) and sends it with the password. Success starts the session
 * (cookie, getInfo stored with the login flag), says so, and goes to `?redirect=` when it is a
 * path of this site, else to /home/index.
 *
 * "Sign in with wallet" signs in with the Ethereum wallet linked to an account (Sign-In with
 * Ethereum): the browser's wallet gives its address, the server a one-time message, the wallet
 * signs it (`personal_sign`) and the server checks it; an account with 2FA then asks for the
 * authenticator code like a password login, sending the same signed message again with it.
 *
 * @module
 */

import { Button, HStack, Link, Separator, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation, useNavigate, useSearchParams } from 'react-router';
import { getGetInfoQueryOptions, useLogin } from '../../api/generated/user/user';
import type { LoginResult } from '../../api/generated/model';
import { walletLogin, walletLoginChallenge } from '../../api/generated/wallet/wallet';
import { SILENT } from '../../lib/api-calls';
import { ethereumProvider, isWalletError, personalSign, requestAccount, walletProblemKey } from '../../lib/ethereum';
import { useSiteName } from '../../hooks/use-settings';
import { clearUserQueries } from '../../hooks/use-sign-out';
import { safeRedirect, saveUserInfo, startSession } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { AuthCard } from './auth-card';
import { CodeField, FormError, PasswordField, TextField } from './fields';
import { WalletIcon } from './icons';
import { type FieldErrors, accountError, callErrors, errorReason, hasErrors, requiredError } from './form-errors';
import type { LoginPrefill } from './register-page';
import { useFocusFirstError } from './use-focus-first-error';
import { useSendCode } from './use-send-code';

type LoginField = 'account' | 'password' | 'totpCode' | 'emailCode';

/** A sign-in message and the wallet's signature of it. */
interface WalletAnswer {
  message: string;
  signature: string;
}

/** A 6-digit authenticator code. */
const TOTP_CODE = /^\d{6}$/;

export function LoginPage() {
  const { t } = useTranslation();
  const siteName = useSiteName();
  const navigate = useNavigate();
  const location = useLocation();
  const [search] = useSearchParams();
  const queryClient = useQueryClient();
  const prefill = (location.state as LoginPrefill | null)?.account ?? '';

  const [step, setStep] = useState<'credentials' | 'totp'>('credentials');
  const [values, setValues] = useState<Record<LoginField, string>>({ account: prefill, password: '', totpCode: '', emailCode: '' });
  // The server's explanation once the account needs a code sent to it for this sign-in.
  const [codeNeeded, setCodeNeeded] = useState<string>();
  const code = useSendCode('login');
  const [errors, setErrors] = useState<FieldErrors<LoginField>>({});
  const [formError, setFormError] = useState<string>();
  const [finishing, setFinishing] = useState(false);
  const formRef = useRef<HTMLFormElement>(null);
  const focusFirstError = useFocusFirstError(formRef);
  const login = useLogin({ request: { silent: true } });
  // The signed wallet message while the 2FA step asks for the code (a wallet sign-in), else none.
  const [walletAnswer, setWalletAnswer] = useState<WalletAnswer>();
  const [walletBusy, setWalletBusy] = useState(false);
  const pending = login.isPending || finishing || walletBusy;

  const set = (field: LoginField) => (value: string) => {
    setValues((current) => ({ ...current, [field]: value }));
    setErrors((current) => ({ ...current, [field]: undefined }));
    setFormError(undefined);
  };

  /** Session start after the login answered: cookie, user info and flag, toast, redirect. */
  async function finish(result: LoginResult) {
    setFinishing(true);
    try {
      clearUserQueries(queryClient);
      startSession(result.satoken);
      try {
        saveUserInfo(await queryClient.fetchQuery(getGetInfoQueryOptions()));
      } catch {
        // The session stands without the stored record; the shell fetches it again (and a 401
        // has already logged out through the API client).
      }
      toaster.create({ type: 'success', title: t('auth.login.success') });
      await navigate(safeRedirect(search.get('redirect')), { replace: true });
    } finally {
      setFinishing(false);
    }
  }

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (pending) return;
    const found: FieldErrors<LoginField> =
      step === 'credentials'
        ? {
            account: accountError(t, values.account),
            password: requiredError(t, values.password),
            emailCode: codeNeeded ? requiredError(t, values.emailCode) : undefined,
          }
        : { totpCode: TOTP_CODE.test(values.totpCode) ? undefined : t('auth.totp.format') };
    setErrors(found);
    setFormError(undefined);
    if (hasErrors(found)) {
      focusFirstError();
      return;
    }
    if (step === 'totp' && walletAnswer) {
      await sendWallet(walletAnswer, values.totpCode);
      return;
    }
    let result: LoginResult;
    try {
      result = await login.mutateAsync({
        data: {
          account: values.account.trim(),
          password: values.password,
          ...(step === 'totp' ? { totpCode: values.totpCode } : {}),
          ...(step === 'credentials' && codeNeeded ? { emailCode: values.emailCode } : {}),
        },
      });
    } catch (failure) {
      const reason = errorReason(failure);
      if (reason === 'totp_required') {
        // Password (and code, when one was needed) proven: the authenticator step needs no other.
        setCodeNeeded(undefined);
        setStep('totp');
        setValues((current) => ({ ...current, totpCode: '', emailCode: '' }));
        return;
      }
      if (reason === 'login_verification_required') {
        setCodeNeeded(callErrors(t, failure, ['emailCode'] as const).fields.emailCode ?? t('errors.unknown'));
        return;
      }
      const split = callErrors(t, failure, step === 'totp' ? (['totpCode'] as const) : (['account', 'password', 'emailCode'] as const));
      setErrors(split.fields);
      setFormError(split.form);
      focusFirstError();
      return;
    }
    await finish(result);
  }

  /** Sends a signed wallet message (with the authenticator code on the 2FA step). */
  async function sendWallet(answer: WalletAnswer, totpCode?: string) {
    let result: LoginResult;
    setWalletBusy(true);
    try {
      result = await walletLogin({ ...answer, ...(totpCode ? { totpCode } : {}) }, SILENT);
    } catch (failure) {
      if (errorReason(failure) === 'totp_required') {
        setWalletAnswer(answer);
        setStep('totp');
        setValues((current) => ({ ...current, totpCode: '' }));
        return;
      }
      const split = callErrors(t, failure, totpCode ? (['totpCode'] as const) : ([] as const));
      if (totpCode && errorReason(failure) !== 'invalid_totp') {
        // The message is used up or refused: back to the start, where the wallet signs anew.
        backToCredentials();
        setFormError(split.form ?? split.fields.totpCode);
        return;
      }
      setErrors(split.fields);
      setFormError(split.form);
      focusFirstError();
      return;
    } finally {
      setWalletBusy(false);
    }
    await finish(result);
  }

  /** "Sign in with wallet": account, message, signature, then the sign-in. */
  async function signInWithWallet() {
    if (pending) return;
    setErrors({});
    setFormError(undefined);
    let answer: WalletAnswer;
    setWalletBusy(true);
    try {
      const provider = ethereumProvider();
      const address = await requestAccount(provider);
      const challenge = await walletLoginChallenge({ address }, SILENT);
      answer = { message: challenge.message, signature: await personalSign(challenge.message, address, provider) };
    } catch (failure) {
      setFormError(isWalletError(failure) ? t(walletProblemKey(failure.problem, 'auth.wallet.noWallet')) : callErrors(t, failure, [] as const).form);
      return;
    } finally {
      setWalletBusy(false);
    }
    await sendWallet(answer);
  }

  const sendCode = () => code.sendFrom({ account: values.account, codeField: 'emailCode', setErrors, focusFirstError });

  function backToCredentials() {
    setStep('credentials');
    setWalletAnswer(undefined);
    setErrors({});
    setFormError(undefined);
    setValues((current) => ({ ...current, password: '', totpCode: '' }));
  }

  const signUp = (
    <>
      {t('auth.login.noAccount', { siteName })}{' '}
      <Link asChild color="brand.fg" fontWeight="semibold">
        <RouterLink to="/user/register">{t('auth.login.signUp')}</RouterLink>
      </Link>
    </>
  );

  if (step === 'totp') {
    return (
      <AuthCard title={t('auth.totp.title')} subtitle={t('auth.totp.subtitle')} footer={signUp}>
        <form ref={formRef} noValidate onSubmit={(event) => void submit(event)}>
          <Stack gap="5">
            <TextField
              label={t('auth.totp.code')}
              name="totpCode"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              autoFocus
              placeholder="000000"
              value={values.totpCode}
              onChange={(value) => set('totpCode')(value.replace(/\D/g, ''))}
              error={errors.totpCode}
            />
            <FormError message={formError} />
            <Button type="submit" size="lg" colorPalette="brand" w="full" loading={pending}>
              {t('auth.totp.submit')}
            </Button>
            <Button type="button" variant="ghost" size="sm" alignSelf="center" onClick={backToCredentials} disabled={pending}>
              {t('auth.totp.back')}
            </Button>
          </Stack>
        </form>
      </AuthCard>
    );
  }

  return (
    <AuthCard title={t('screens.userLogin')} subtitle={t('auth.login.subtitle', { siteName })} footer={signUp}>
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
          <Stack gap="2">
            <PasswordField
              label={t('auth.field.password')}
              name="password"
              autoComplete="current-password"
              autoFocus={prefill !== ''}
              value={values.password}
              onChange={set('password')}
              error={errors.password}
            />
            <HStack justify="flex-end">
              <Link asChild fontSize="sm" color="brand.fg" fontWeight="medium">
                <RouterLink to="/user/reset">{t('auth.login.forgot')}</RouterLink>
              </Link>
            </HStack>
          </Stack>
          {codeNeeded && (
            <Stack gap="3">
              <Text role="status" fontSize="sm" color="fg.warning">
                {codeNeeded}
              </Text>
              <CodeField
                label={t('auth.field.code')}
                value={values.emailCode}
                onChange={set('emailCode')}
                error={errors.emailCode}
                hint={code.hint}
                inputRef={code.codeRef}
                sending={code.sending}
                secondsLeft={code.secondsLeft}
                sentOnce={code.sentOnce}
                onSend={() => void sendCode()}
              />
            </Stack>
          )}
          <FormError message={formError} />
          <Button type="submit" size="lg" colorPalette="brand" w="full" loading={login.isPending || finishing} disabled={pending}>
            {t('auth.login.submit')}
          </Button>
          <HStack gap="3" aria-hidden="true">
            <Separator flex="1" />
            <Text fontSize="sm" color="fg.muted">
              {t('auth.wallet.or')}
            </Text>
            <Separator flex="1" />
          </HStack>
          <Stack gap="2">
            <Button type="button" size="lg" variant="outline" w="full" loading={walletBusy} disabled={pending} onClick={() => void signInWithWallet()}>
              <WalletIcon boxSize="5" />
              {t('auth.wallet.signIn')}
            </Button>
            <Text fontSize="sm" color="fg.muted" textAlign="center">
              {t('auth.wallet.hint')}
            </Text>
          </Stack>
        </Stack>
      </form>
    </AuthCard>
  );
}
