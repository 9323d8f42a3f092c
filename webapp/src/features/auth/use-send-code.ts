/**
 * Sending a verification code (`POST /api/user/sendEmailCode`, type register or reset) with the
 * resend countdown the server asks for (`resendAfterSecs`).
 *
 * @module
 */

import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSendEmailCode } from '../../api/generated/user/user';
import type { CodeSent, VisitorCodeType } from '../../api/generated/model';
import { toaster } from '../../lib/toaster';
import { useCountdown } from './use-countdown';

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

  /** The hint under the code field once a code went out. */
  const hint = sent
    ? t(sent.channel === 'sms' ? 'auth.code.sentBySms' : 'auth.code.sentByEmail', {
        account: sent.account,
        minutes: Math.max(1, Math.round(sent.expiresInSecs / 60)),
      })
    : undefined;

  return { send, sending: mutation.isPending, secondsLeft, sentOnce: sent !== null, hint };
}
