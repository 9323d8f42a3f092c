/**
 * The last step of a withdrawal: a summary of what leaves and where it goes (coin, network, the
 * whole address, amount with fee, fee, amount received) and the user's second factor — the
 * authenticator code when 2FA is on, else a security code sent to the user — before anything is
 * sent. Closing it sends nothing.
 *
 * @module
 */

import { Alert, Button, Dialog, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SecondFactorField, secondFactorOf, secondFactorProblem } from '../../../components/second-factor-field';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { FormError, SummaryRow } from '../components/fields';
import { coinName, formatCoin } from '../lib/format';

/** What the user is about to withdraw. */
export interface WithdrawalSummary {
  coin: string;
  network: string;
  address: string;
  /** What leaves the balance, fee included. */
  amount: string;
  fee: string;
  received: string;
}

/** Errors of the dialog: the code field's and one for the whole step. */
export interface ConfirmErrors {
  code?: string;
  form?: string;
}

/** The confirmation dialog of `summary` (open while it is set). */
export function WithdrawConfirmDialog({
  summary,
  busy,
  errors,
  onErrors,
  onConfirm,
  onClose,
}: {
  summary: WithdrawalSummary | undefined;
  busy: boolean;
  errors: ConfirmErrors;
  onErrors: (errors: ConfirmErrors) => void;
  /** Sends the withdrawal with the second factor's field name and code. */
  onConfirm: (field: 'totpCode' | 'securityCode', code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root
      open={summary !== undefined}
      onOpenChange={(event) => {
        if (!event.open && !busy) onClose();
      }}
      placement="center"
      size="md"
      closeOnInteractOutside={false}
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content rounded="xl" mx="4">
            <Dialog.Header>
              <Dialog.Title>{t('funds.withdraw.confirmTitle')}</Dialog.Title>
            </Dialog.Header>
            {/* Mounted only while open, so every opening starts with an empty code. */}
            {summary && <ConfirmForm summary={summary} busy={busy} errors={errors} onErrors={onErrors} onConfirm={onConfirm} onClose={onClose} />}
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function ConfirmForm({
  summary,
  busy,
  errors,
  onErrors,
  onConfirm,
  onClose,
}: {
  summary: WithdrawalSummary;
  busy: boolean;
  errors: ConfirmErrors;
  onErrors: (errors: ConfirmErrors) => void;
  onConfirm: (field: 'totpCode' | 'securityCode', code: string) => void;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  const factor = secondFactorOf(user);
  const [code, setCode] = useState('');
  const unit = coinName(summary.coin);

  return (
    <form
      noValidate
      aria-label={t('funds.withdraw.confirmTitle')}
      onSubmit={(event) => {
        event.preventDefault();
        const problem = secondFactorProblem(t, code);
        if (problem) onErrors({ code: problem });
        else onConfirm(factor, code);
      }}
    >
      <Dialog.Body>
        <Stack gap="4">
          <Stack as="section" aria-label={t('funds.withdraw.summary')} gap="2" borderWidth="1px" rounded="lg" bg="bg.subtle" px="4" py="3">
            <SummaryRow label={t('funds.withdraw.coin')} value={unit} />
            <SummaryRow label={t('funds.withdraw.network')} value={summary.network} />
            <Stack gap="0.5">
              <Text fontSize="sm" color="fg.muted">
                {t('funds.withdraw.address')}
              </Text>
              <Text fontFamily="mono" fontSize="sm" wordBreak="break-all">
                {summary.address}
              </Text>
            </Stack>
            <SummaryRow label={t('funds.withdraw.amount')} value={`${formatCoin(summary.amount)} ${unit}`} />
            <SummaryRow label={t('funds.withdraw.fee')} value={`${formatCoin(summary.fee)} ${unit}`} />
            <SummaryRow label={t('funds.withdraw.received')} value={`${formatCoin(summary.received)} ${unit}`} strong />
          </Stack>
          <Alert.Root status="warning" rounded="lg" size="sm">
            <Alert.Indicator />
            <Alert.Description>{t('funds.withdraw.confirmHint')}</Alert.Description>
          </Alert.Root>
          <SecondFactorField
            user={user}
            value={code}
            onChange={(value) => {
              setCode(value);
              onErrors({});
            }}
            error={errors.code}
            onError={(message) => onErrors(message ? { code: message } : {})}
            autoFocus
          />
          <FormError message={errors.form} />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" onClick={onClose} type="button" disabled={busy}>
          {t('funds.withdraw.back')}
        </Button>
        <Button type="submit" colorPalette="brand" loading={busy}>
          {t('funds.withdraw.confirm')}
        </Button>
      </Dialog.Footer>
    </form>
  );
}
