/**
 * setting/google: bind an authenticator app (scan the QR code or type the key, then confirm with
 * its first 6-digit code), or unbind it with a current code. Both may need re-authentication;
 * so may fetching a new secret, which happens when the screen opens.
 *
 * @module
 */

import { Alert, Box, Button, Field, Flex, Grid, Image, Input, InputGroup, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getGetGoogleVerificationQueryKey, getGoogleVerification, googleVerificationBindingOrReset } from '../../../api/generated/security/security';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { CopyButton } from '../components/copy-button';
import { coreErrorText, validateOtpCode } from '../../../lib/wasm';
import { digitsOnly, type FormErrors, FormError, TextField } from '../components/form';
import { SILENT, errorInfo, serverFieldErrors, useApiHead } from '../lib/api';
import { isReauthCancelled, useReauth } from '../reauth/reauth';
import { SettingScreen, useSettingDone } from './setting-screen';

/** `y` of googleVerificationBindingOrReset. */
const BIND = 2;
const UNBIND = 1;

/** Groups a base32 secret in fours for reading it off the screen. */
export function groupSecret(secret: string): string {
  return secret.replace(/(.{4})(?=.)/g, '$1 ');
}

function Step({ n, title, children }: { n: number; title: string; children?: React.ReactNode }) {
  return (
    <Flex as="li" gap="3" align="flex-start">
      <Box flexShrink={0} boxSize="7" rounded="full" bg="brand.subtle" color="brand.fg" fontWeight="bold" fontSize="sm" display="inline-flex" alignItems="center" justifyContent="center" aria-hidden="true">
        {n}
      </Box>
      <Stack gap="3" flex="1" minW="0" pt="0.5">
        <Text fontWeight="semibold">{title}</Text>
        {children}
      </Stack>
    </Flex>
  );
}

function CodeForm({ y, submitLabel, onDone }: { y: number; submitLabel: string; onDone: () => Promise<void> }) {
  const { t } = useTranslation();
  const head = useApiHead();
  const withReauth = useReauth();
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const confirm = useMutation({ mutationFn: (value: string) => withReauth(() => googleVerificationBindingOrReset(head, value, y, SILENT)) });

  const submit = async () => {
    const problem = validateOtpCode(code);
    if (problem) {
      setErrors({ code: coreErrorText(t, problem) });
      return;
    }
    setErrors({});
    try {
      await confirm.mutateAsync(code);
    } catch (error) {
      if (isReauthCancelled(error)) return;
      setErrors(serverFieldErrors(error, ['code'], { invalid_totp: 'code', invalid_field: 'code' }, errorInfo(error)?.message ?? t('account.errors.generic')));
      return;
    }
    await onDone();
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Stack gap="4" maxW="sm">
        <TextField
          label={t('account.fields.totpCode')}
          value={code}
          onChange={(event) => setCode(digitsOnly(event.currentTarget.value))}
          error={errors.code}
          inputMode="numeric"
          autoComplete="one-time-code"
          placeholder="000000"
          fontFamily="mono"
          letterSpacing="0.3em"
          required
        />
        <FormError message={errors.form} />
        <Button type="submit" colorPalette={y === BIND ? 'brand' : 'red'} size="lg" loading={confirm.isPending} alignSelf={{ base: 'stretch', sm: 'flex-start' }} minW="40">
          {submitLabel}
        </Button>
      </Stack>
    </form>
  );
}

function BindGoogle() {
  const { t } = useTranslation();
  const head = useApiHead();
  const withReauth = useReauth();
  const done = useSettingDone();
  // A new secret each time the screen opens; never refetched behind the user's back, as that
  // would replace the secret they are scanning.
  const setup = useQuery({
    queryKey: getGetGoogleVerificationQueryKey(head, 'bind'),
    queryFn: () => withReauth(() => getGoogleVerification(head, 'bind', SILENT)),
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  return (
    <Stack as="ol" listStyleType="none" gap="6">
      <Step n={1} title={t('account.google.step1')}>
        <Text fontSize="sm" color="fg.muted">
          {t('account.google.step1Hint')}
        </Text>
      </Step>
      <Step n={2} title={t('account.google.step2')}>
        {setup.isLoading ? (
          <Skeleton h="40" w="full" rounded="lg" />
        ) : setup.isError ? (
          <Alert.Root status={isReauthCancelled(setup.error) ? 'info' : 'error'} rounded="lg" alignItems="center">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal" flex="1">
              {isReauthCancelled(setup.error) ? t('account.google.verifyFirst') : (errorInfo(setup.error)?.message ?? t('account.errors.generic'))}
            </Alert.Title>
            <Button size="sm" variant="outline" onClick={() => void setup.refetch()}>
              {t('account.retry')}
            </Button>
          </Alert.Root>
        ) : setup.data ? (
          <Grid templateColumns={{ base: 'minmax(0, 1fr)', sm: 'auto minmax(0, 1fr)' }} gap="5" alignItems="center">
            <Box bg="white" p="2" rounded="lg" borderWidth="1px" w="44" h="44" justifySelf={{ base: 'center', sm: 'start' }}>
              <Image src={setup.data.qrSvgDataUrl} alt={t('account.google.qrAlt')} w="full" h="full" />
            </Box>
            <Stack gap="2" minW="0">
              <Field.Root>
                <Field.Label fontSize="sm" color="fg.muted">
                  {t('account.google.manualKey')}
                </Field.Label>
                <InputGroup endElement={<CopyButton value={setup.data.secret} label={t('account.google.copySecret')} />}>
                  <Input readOnly value={groupSecret(setup.data.secret)} fontFamily="mono" fontSize="sm" bg="bg.subtle" onFocus={(event) => event.currentTarget.select()} />
                </InputGroup>
              </Field.Root>
              <Text fontSize="xs" color="fg.muted">
                {t('account.google.keepSafe')}
              </Text>
            </Stack>
          </Grid>
        ) : null}
      </Step>
      <Step n={3} title={t('account.google.step3')}>
        {setup.data && <CodeForm y={BIND} submitLabel={t('account.google.enable')} onDone={() => done(t('account.google.enabled'))} />}
      </Step>
    </Stack>
  );
}

function UnbindGoogle() {
  const { t } = useTranslation();
  const done = useSettingDone();
  return (
    <Stack gap="5">
      <Alert.Root status="warning" rounded="lg">
        <Alert.Indicator />
        <Alert.Title fontWeight="normal">{t('account.google.unbindWarning')}</Alert.Title>
      </Alert.Root>
      <Text fontSize="sm" color="fg.muted">
        {t('account.google.unbindHint')}
      </Text>
      <CodeForm y={UNBIND} submitLabel={t('account.google.unbind')} onDone={() => done(t('account.google.unbound'))} />
    </Stack>
  );
}

export function GoogleSetting() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  const enabled = user?.security.totpEnabled ?? false;
  return (
    <SettingScreen
      title={enabled ? t('account.google.unbindTitle') : t('account.google.bindTitle')}
      description={enabled ? t('account.google.unbindDescription') : t('account.google.bindDescription')}
    >
      {enabled ? <UnbindGoogle /> : <BindGoogle />}
    </SettingScreen>
  );
}
