/**
 * Sending a verification code (`POST /api/user/sendEmailCode`, type register, reset or login) with the
 * resend countdown the server asks for (`resendAfterSecs`).
 *
 * @module
 */

import { type Dispatch, type SetStateAction, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendEmailCode } from '../../api/generated/user/user';
import type { CodeSent, VisitorCodeType } from '../../api/generated/model';
import { toaster } from '../../lib/toaster';
import { type FieldErrors, accountError, callErrors } from './form-errors';
import { useCountdown } from './use-countdown';

/** The form a code is sent from: its account, the code field's name and how it shows errors. */
export interface CodeForm<C extends string> {
  account: string;
  codeField: C;
  setErrors: Dispatch<SetStateAction<FieldErrors<'account' | C>>>;
  focusFirstError: () => void;
}

/** Where the last code went, for the hint under the code field. */
export interface SentCode extends CodeSent {
  account: string;
}

export function useSendCode(type: VisitorCodeType) {
  const { t } = useTranslation();
  const mutation = useSendEmailCode({ request: { silent: true } });
  const [secondsLeft, startCountdown] = useCountdown();
  const [sent, setSent] = useState<SentCode | null>(null);

  /** Sends a code to `account`; resolves when sent, rejects with the call's error. */
  async function send(account: string): Promise<void> {
    const answer = await mutation.mutateAsync({ data: { account: account.trim(), type } });
    startCountdown(answer.resendAfterSecs);
    setSent({ ...answer, account: account.trim() });
    toaster.create({ id: 'auth-code-sent', type: 'success', title: t('auth.code.sent') });
  }

  /** The code field's input, focused once a code went out. */
  const codeRef = useRef<HTMLInputElement>(null);

  /**
   * The form's "Send code": checks the account first (its error on the account field), sends, then
   * focuses the code field; a refused send (too many requests, delivery failure) shows under the code.
   */
  async function sendFrom<C extends string>({ account, codeField, setErrors, focusFirstError }: CodeForm<C>): Promise<void> {
    const error = accountError(t, account);
    if (error) {
      setErrors((current) => ({ ...current, account: error }));
      focusFirstError();
      return;
    }
    setErrors((current) => ({ ...current, account: undefined, [codeField]: undefined }));
    try {
      await send(account);
      codeRef.current?.focus();
    } catch (failure) {
      const split = callErrors(t, failure, ['account'] as const);
      setErrors((current) => ({ ...current, ...split.fields, ...(split.form ? { [codeField]: split.form } : {}) }));
      focusFirstError();
    }
  }

  /** The hint under the code field once a code went out. */
  const hint = sent
    ? t(sent.channel === 'sms' ? 'auth.code.sentBySms' : 'auth.code.sentByEmail', {
        account: sent.account,
        minutes: Math.max(1, Math.round(sent.expiresInSecs / 60)),
      })
    : undefined;

  return { send, sendFrom, codeRef, sending: mutation.isPending, secondsLeft, sentOnce: sent !== null, hint };
}
