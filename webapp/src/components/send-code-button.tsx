/**
 * "Send code" with a countdown: after a code went out the button waits `resendAfterSecs` before
 * it can ask again.
 *
 * @module
 */

import { Button } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';

export function SendCodeButton({
  onSend,
  disabled,
}: {
  /** Sends the code; resolves the seconds to wait before the next one, or `undefined` when it failed. */
  onSend: () => Promise<number | undefined>;
  disabled?: boolean;
}) {
  const { t } = useTranslation();
  const [remaining, setRemaining] = useState(0);
  const [sending, setSending] = useState(false);
  const [sentOnce, setSentOnce] = useState(false);

  useEffect(() => {
    if (remaining <= 0) return;
    const timer = window.setTimeout(() => setRemaining((seconds) => seconds - 1), 1000);
    return () => window.clearTimeout(timer);
  }, [remaining]);

  const send = async () => {
    setSending(true);
    try {
      const wait = await onSend();
      if (wait !== undefined) {
        setSentOnce(true);
        setRemaining(Math.max(0, Math.ceil(wait)));
      }
    } finally {
      setSending(false);
    }
  };

  return (
    <Button
      type="button"
      size="lg"
      variant="outline"
      flexShrink={0}
      minW="32"
      loading={sending}
      disabled={disabled || remaining > 0}
      onClick={() => void send()}
    >
      {remaining > 0
        ? t('verify.resendIn', { seconds: remaining })
        : sentOnce
          ? t('verify.resend')
          : t('verify.send')}
    </Button>
  );
}
