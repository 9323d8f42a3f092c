/**
 * The second factor a sensitive act needs beside a password (the server's
 * `security::second_factor`): the authenticator code when 2FA is on, else a security code the user
 * has sent to the bound e-mail address (or phone, for an account without one) with the field's own
 * "Send code" button. Used by the re-authentication dialog and the withdrawal confirmation.
 *
 * @module
 */

import { Field, Flex, Input, Stack } from '@chakra-ui/react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import type { UserInfo } from '../api/generated/model';
import { sendMemberEmailCode, sendMemberSmsCode } from '../api/generated/security/security';
import { SILENT, failure, useApiHead } from '../lib/api-calls';
import { toaster } from '../lib/toaster';
import { coreErrorText, validateOtpCode } from '../lib/wasm';
import { SendCodeButton } from './send-code-button';

/** The request field that carries the user's second factor. */
export type SecondFactor = 'totpCode' | 'securityCode';

/** The second factor of `user`: the authenticator once bound, else a sent security code. */
export function secondFactorOf(user: UserInfo | undefined): SecondFactor {
  return user?.security.totpEnabled ? 'totpCode' : 'securityCode';
}

/** The message for `code` as typed, or `null` when it has the form of a code (6 digits). */
export function secondFactorProblem(t: TFunction, code: string): string | null {
  const problem = validateOtpCode(code);
  return problem ? coreErrorText(t, problem) : null;
}

/** Reasons of a refused call that belong to the second-factor field. */
export const SECOND_FACTOR_REASONS: readonly string[] = ['invalid_totp', 'totp_required', 'invalid_code', 'security_code_required'];

/** Keeps the digits of `value`, at most 6. */
function digits(value: string): string {
  return value.replace(/\D/g, '').slice(0, 6);
}

/**
 * The code field of `user`'s second factor. For a security code it sends the code itself (to the
 * e-mail address when one is bound, else by SMS) and shows where it went; a refused send is shown
 * as the field's error through `onError`.
 */
export function SecondFactorField({
  user,
  value,
  onChange,
  error,
  onError,
  autoFocus,
}: {
  user: UserInfo | undefined;
  value: string;
  onChange: (value: string) => void;
  error?: string;
  onError: (message: string | undefined) => void;
  autoFocus?: boolean;
}) {
  const { t } = useTranslation();
  const head = useApiHead();
  const factor = secondFactorOf(user);
  const byEmail = user?.security.emailBound ?? true;
  const destination = (byEmail ? user?.user.email : user?.user.phone) ?? '';

  const send = async (): Promise<number | undefined> => {
    onError(undefined);
    try {
      const sent = await (byEmail ? sendMemberEmailCode(head, { purpose: 'security' }, SILENT) : sendMemberSmsCode(head, { purpose: 'security' }, SILENT));
      toaster.create({ type: 'success', title: t('verify.sent') });
      return sent.resendAfterSecs;
    } catch (failed) {
      onError(failure(failed, t('errors.unknown')).message);
      return undefined;
    }
  };

  const input = (
    <Field.Root invalid={Boolean(error)} required>
      <Field.Label fontWeight="medium">
        {t(factor === 'totpCode' ? 'verify.totpCode' : 'verify.securityCode')}
        <Field.RequiredIndicator />
      </Field.Label>
      <Input
        size="lg"
        value={value}
        onChange={(event) => {
          onChange(digits(event.currentTarget.value));
          onError(undefined);
        }}
        inputMode="numeric"
        autoComplete="one-time-code"
        autoFocus={autoFocus}
        fontFamily="mono"
        letterSpacing="wider"
      />
      {!error && (
        <Field.HelperText>
          {factor === 'totpCode' ? t('verify.totpHint') : t(byEmail ? 'verify.emailHint' : 'verify.phoneHint', { destination })}
        </Field.HelperText>
      )}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
  if (factor === 'totpCode') return input;
  return (
    <Flex gap="3" align="flex-start" direction={{ base: 'column', sm: 'row' }}>
      <Stack flex="1" w="full">
        {input}
      </Stack>
      <Flex pt={{ base: '0', sm: '7' }} w={{ base: 'full', sm: 'auto' }}>
        <SendCodeButton onSend={send} />
      </Flex>
    </Flex>
  );
}
