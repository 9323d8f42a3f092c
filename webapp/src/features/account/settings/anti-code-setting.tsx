/**
 * setting/anti-code: the anti-phishing code (4 to 20 letters or digits) that every e-mail of the
 * platform shows. May need re-authentication.
 *
 * @module
 */

import { Alert, Box, Button, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetAntiCode } from '../../../api/generated/security/security';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { useSiteName } from '../../../hooks/use-settings';
import { coreErrorText, validateAntiCode } from '../../../lib/wasm';
import { type FormErrors, FormError, TextField } from '../components/form';
import { SILENT, errorInfo, serverFieldErrors, useApiHead } from '../lib/api';
import { isReauthCancelled, useReauth } from '../reauth/reauth';
import { SettingScreen, useSettingDone } from './setting-screen';

export function AntiCodeSetting() {
  const { t } = useTranslation();
  const head = useApiHead();
  const siteName = useSiteName();
  const { user } = useCurrentUser();
  const withReauth = useReauth();
  const done = useSettingDone();
  const save = useSetAntiCode({ request: SILENT });
  const [code, setCode] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});
  const isSet = user?.security.antiCodeSet ?? false;

  const submit = async () => {
    const antiCode = code.trim();
    const problem = validateAntiCode(antiCode);
    if (problem) {
      setErrors({ antiCode: coreErrorText(t, problem) });
      return;
    }
    setErrors({});
    try {
      await withReauth(() => save.mutateAsync({ head, data: { antiCode } }));
    } catch (error) {
      if (isReauthCancelled(error)) return;
      setErrors(serverFieldErrors(error, ['antiCode'], { anti_code_format: 'antiCode' }, errorInfo(error)?.message ?? t('account.errors.generic')));
      return;
    }
    await done(t('account.antiCode.saved'));
  };

  return (
    <SettingScreen title={isSet ? t('account.antiCode.changeTitle') : t('account.antiCode.setTitle')} description={t('account.antiCode.description', { siteName })}>
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
            <Alert.Title fontWeight="normal">{t('account.antiCode.explain', { siteName })}</Alert.Title>
          </Alert.Root>
          <TextField
            label={t('account.antiCode.label')}
            value={code}
            onChange={(event) => setCode(event.currentTarget.value.replace(/[^A-Za-z0-9]/g, '').slice(0, 20))}
            error={errors.antiCode}
            helper={t('account.antiCode.format')}
            autoComplete="off"
            spellCheck={false}
            maxLength={20}
            required
          />
          {code.trim() !== '' && (
            <Box borderWidth="1px" rounded="lg" p="3" bg="bg.subtle" aria-hidden="true">
              <Text fontSize="xs" color="fg.muted">
                {t('account.antiCode.preview')}
              </Text>
              <Text fontFamily="mono" fontWeight="semibold" color="brand.fg">
                {t('account.antiCode.previewLine', { code: code.trim() })}
              </Text>
            </Box>
          )}
          <FormError message={errors.form} />
          <Button type="submit" colorPalette="brand" size="lg" loading={save.isPending} alignSelf={{ base: 'stretch', sm: 'flex-start' }} minW="40">
            {t('account.actions.save')}
          </Button>
        </Stack>
      </form>
    </SettingScreen>
  );
}
