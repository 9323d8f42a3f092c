/**
 * The detail dialogs of one deposit or withdrawal: who sent it, what it is, the deposit's payment
 * screenshot (a signed link, refreshed before it expires) or the withdrawal's destination, and —
 * while it is under review — the decision. Failing needs a reason (the user sees it); passing a
 * withdrawal needs the hash of the network transaction that sent it. A decision refreshes the queue
 * and closes the dialog; a record someone else reviewed meanwhile (409) does too, with a notice.
 *
 * @module
 */

import { Badge, Box, Button, Clipboard, CloseButton, DataList, Dialog, Field, Flex, Heading, HStack, IconButton, Image, Input, Link, Portal, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { toaster } from '../../lib/toaster';
import { STATUS_PALETTE, type ReviewStatus, formatTime } from './admin-format';
import {
  type AdminDepositRecord,
  type AdminWithdrawalRecord,
  type FundsQueueKind,
  useDepositReview,
  useRefreshFundsQueue,
  useScreenshotUrl,
  useWithdrawalReview,
} from './funds-api';
import { amountText } from './funds-format';

/** The longest reason the server keeps. */
const MAX_REASON_CHARS = 500;
/** The longest transaction hash the server keeps. */
const MAX_TX_HASH_CHARS = 128;

/** What a failed decision says: its message, the field at fault, and whether the record was reviewed meanwhile. */
function decisionFailure(error: unknown, fallback: string): { message: string; field?: string; conflict: boolean } {
  if (!(error instanceof ApiError)) return { message: fallback, conflict: false };
  const data = (error.body as { data?: { field?: unknown } } | undefined)?.data;
  return {
    message: error.message || fallback,
    field: typeof data?.field === 'string' ? data.field : undefined,
    conflict: error.status === 409 || error.code === 409,
  };
}

/**
 * Sends a decision for the queue of `kind`. Resolves to the server's message when it blames the
 * prompt's field (shown under it), else `null`; other failures are a toast.
 */
function useDecide(kind: FundsQueueKind, onDone: () => void) {
  const { t } = useTranslation();
  const refresh = useRefreshFundsQueue(kind);
  return async (send: () => Promise<unknown>, approve: boolean, promptField?: string): Promise<string | null> => {
    try {
      await send();
      toaster.create({ type: 'success', title: approve ? t(`funds.admin.${kind}.passed`) : t(`funds.admin.${kind}.failed`) });
      onDone();
      void refresh();
      return null;
    } catch (error) {
      const info = decisionFailure(error, t('errors.unknown'));
      if (info.conflict) {
        toaster.create({ type: 'info', title: t('funds.admin.alreadyReviewed') });
        onDone();
        void refresh();
        return null;
      }
      if (promptField && info.field === promptField) return info.message;
      toaster.create({ type: 'error', title: info.message });
      return null;
    }
  };
}

/** The frame both dialogs share: title, badges, the details, the extra section and the footer. */
function RecordDialog({
  title,
  status,
  reason,
  details,
  children,
  footer,
  onClose,
  blocked,
}: {
  title: string;
  status: ReviewStatus;
  reason?: string | null;
  details: [string, ReactNode][];
  children?: ReactNode;
  footer: ReactNode;
  onClose: () => void;
  /** A prompt is open on top: Escape and outside clicks belong to it. */
  blocked: boolean;
}) {
  const { t } = useTranslation();
  return (
    <Dialog.Root
      open
      onOpenChange={(details) => {
        if (!details.open && !blocked) onClose();
      }}
      size="lg"
      scrollBehavior="inside"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header flexDirection="column" alignItems="flex-start" gap="2" pe="14">
              <Dialog.Title fontSize="xl">{title}</Dialog.Title>
              <Badge variant="subtle" colorPalette={STATUS_PALETTE[status]}>
                {t(`funds.status.${status}`)}
              </Badge>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="6">
                {status === 'failed' && (
                  <Box bg="red.subtle" color="red.fg" rounded="lg" px="4" py="3" fontSize="sm" overflowWrap="anywhere">
                    {reason ? t('funds.records.reason', { reason }) : t('funds.records.noReason')}
                  </Box>
                )}
                <DataList.Root orientation="horizontal" size="sm" gap="2.5">
                  {details.map(([label, value]) => (
                    <DataList.Item key={label} flexWrap="wrap" gap="1">
                      <DataList.ItemLabel minW={{ base: '8rem', md: '10rem' }}>{label}</DataList.ItemLabel>
                      <DataList.ItemValue fontWeight="medium" overflowWrap="anywhere" fontVariantNumeric="tabular-nums" minW="0">
                        {value}
                      </DataList.ItemValue>
                    </DataList.Item>
                  ))}
                </DataList.Root>
                {children}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer borderTopWidth="1px" pt="4" flexWrap="wrap">
              {footer}
            </Dialog.Footer>
            <Dialog.CloseTrigger asChild>
              <CloseButton size="sm" aria-label={t('common.close')} />
            </Dialog.CloseTrigger>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

/** A long value (address, hash) with a copy button. */
function Copyable({ value, label }: { value: string; label: string }) {
  return (
    <HStack gap="1" align="flex-start">
      <Text as="span" fontFamily="mono" fontSize="xs" wordBreak="break-all">
        {value}
      </Text>
      <Clipboard.Root value={value}>
        <Clipboard.Trigger asChild>
          <IconButton size="2xs" variant="ghost" aria-label={label}>
            <Clipboard.Indicator />
          </IconButton>
        </Clipboard.Trigger>
      </Clipboard.Root>
    </HStack>
  );
}

export function DepositReviewDialog({ record, onClose }: { record: AdminDepositRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const review = useDepositReview();
  const decide = useDecide('deposits', onClose);
  const [rejecting, setRejecting] = useState(false);
  const screenshot = useScreenshotUrl(record);
  const [broken, setBroken] = useState(false);

  const details: [string, ReactNode][] = [
    [t('funds.admin.columns.user'), `#${record.userId}`],
    [t('funds.admin.columns.account'), record.account || '--'],
    [t('funds.admin.columns.coin'), `${record.coin.toUpperCase()} · ${record.network}`],
    [t('funds.admin.columns.amount'), amountText(record.amount, record.coin)],
    [t('funds.admin.depositAddress'), <Copyable key="address" value={record.address} label={t('funds.admin.copyAddress')} />],
    [t('funds.admin.columns.submittedAt'), formatTime(record.createdAt)],
  ];
  if (record.reviewedAt) details.push([t('funds.admin.reviewedAt'), formatTime(record.reviewedAt)]);

  return (
    <>
      <RecordDialog
        title={t('funds.admin.deposits.detailTitle', { id: record.id })}
        status={record.status}
        reason={record.reason}
        details={details}
        onClose={onClose}
        blocked={rejecting}
        footer={
          record.status === 'review' ? (
            <>
              <Button variant="outline" colorPalette="red" onClick={() => setRejecting(true)} disabled={review.isPending}>
                {t('funds.admin.reject')}
              </Button>
              <Button colorPalette="green" loading={review.isPending && !rejecting} onClick={() => void decide(() => review.mutateAsync({ id: record.id, data: { approve: true } }), true)}>
                {t('funds.admin.deposits.approve')}
              </Button>
            </>
          ) : (
            <Button variant="outline" onClick={onClose}>
              {t('common.close')}
            </Button>
          )
        }
      >
        <Stack as="section" aria-label={t('funds.admin.screenshot')} gap="3">
          <Heading as="h3" fontSize="md">
            {t('funds.admin.screenshot')}
          </Heading>
          <Box rounded="lg" overflow="hidden" borderWidth="1px" bg="bg.muted" minH="40" maxH="md" display="flex" alignItems="center" justifyContent="center">
            {screenshot && !broken ? (
              <Link href={screenshot} target="_blank" rel="noopener noreferrer" display="block" w="full">
                <Image src={screenshot} alt={t('funds.admin.screenshotAlt', { id: record.id })} w="full" maxH="md" objectFit="contain" onError={() => setBroken(true)} />
              </Link>
            ) : (
              <Text fontSize="sm" color="fg.muted" p="4" textAlign="center">
                {t('funds.admin.screenshotUnavailable')}
              </Text>
            )}
          </Box>
          {screenshot && (
            <Link href={screenshot} target="_blank" rel="noopener noreferrer" color="brand.fg" fontSize="sm" alignSelf="flex-start">
              {t('funds.admin.openOriginal')}
            </Link>
          )}
        </Stack>
      </RecordDialog>
      {rejecting && (
        <PromptDialog
          title={t('funds.admin.rejectTitle', { id: record.id })}
          label={t('funds.admin.reasonLabel')}
          placeholder={t('funds.admin.reasonPlaceholder')}
          hint={t('funds.admin.reasonHint')}
          requiredMessage={t('funds.admin.reasonRequired')}
          confirm={t('funds.admin.confirmReject')}
          palette="red"
          multiline
          maxLength={MAX_REASON_CHARS}
          pending={review.isPending}
          onCancel={() => setRejecting(false)}
          onConfirm={(reason) => decide(() => review.mutateAsync({ id: record.id, data: { approve: false, reason } }), false, 'reason')}
        />
      )}
    </>
  );
}

export function WithdrawalReviewDialog({ record, onClose }: { record: AdminWithdrawalRecord; onClose: () => void }) {
  const { t } = useTranslation();
  const review = useWithdrawalReview();
  const decide = useDecide('withdrawals', onClose);
  const [prompt, setPrompt] = useState<'reject' | 'pass' | null>(null);

  const details: [string, ReactNode][] = [
    [t('funds.admin.columns.user'), `#${record.userId}`],
    [t('funds.admin.columns.account'), record.account || '--'],
    [t('funds.admin.columns.coin'), `${record.coin.toUpperCase()} · ${record.network}`],
    [t('funds.admin.columns.address'), <Copyable key="address" value={record.address} label={t('funds.admin.copyAddress')} />],
    [t('funds.admin.columns.amount'), amountText(record.amount, record.coin)],
    [t('funds.admin.columns.fee'), amountText(record.fee, record.coin)],
    [t('funds.admin.toSend'), <Text key="send" as="span" fontWeight="bold">{amountText(record.received, record.coin)}</Text>],
    [t('funds.admin.columns.submittedAt'), formatTime(record.createdAt)],
  ];
  if (record.txHash) details.push([t('funds.admin.txHash'), <Copyable key="tx" value={record.txHash} label={t('funds.admin.copyTxHash')} />]);
  if (record.reviewedAt) details.push([t('funds.admin.reviewedAt'), formatTime(record.reviewedAt)]);

  return (
    <>
      <RecordDialog
        title={t('funds.admin.withdrawals.detailTitle', { id: record.id })}
        status={record.status}
        reason={record.reason}
        details={details}
        onClose={onClose}
        blocked={prompt !== null}
        footer={
          record.status === 'review' ? (
            <>
              <Button variant="outline" colorPalette="red" onClick={() => setPrompt('reject')} disabled={review.isPending}>
                {t('funds.admin.reject')}
              </Button>
              <Button colorPalette="green" onClick={() => setPrompt('pass')} disabled={review.isPending}>
                {t('funds.admin.withdrawals.approve')}
              </Button>
            </>
          ) : (
            <Button variant="outline" onClick={onClose}>
              {t('common.close')}
            </Button>
          )
        }
      >
        {record.status === 'review' && (
          <Flex bg="orange.subtle" color="orange.fg" rounded="lg" px="4" py="3" fontSize="sm">
            {t('funds.admin.withdrawals.sendFirst', { amount: amountText(record.received, record.coin), network: record.network })}
          </Flex>
        )}
      </RecordDialog>
      {prompt === 'reject' && (
        <PromptDialog
          title={t('funds.admin.rejectTitle', { id: record.id })}
          label={t('funds.admin.reasonLabel')}
          placeholder={t('funds.admin.reasonPlaceholder')}
          hint={t('funds.admin.withdrawals.rejectHint')}
          requiredMessage={t('funds.admin.reasonRequired')}
          confirm={t('funds.admin.confirmReject')}
          palette="red"
          multiline
          maxLength={MAX_REASON_CHARS}
          pending={review.isPending}
          onCancel={() => setPrompt(null)}
          onConfirm={(reason) => decide(() => review.mutateAsync({ id: record.id, data: { approve: false, reason } }), false, 'reason')}
        />
      )}
      {prompt === 'pass' && (
        <PromptDialog
          title={t('funds.admin.withdrawals.passTitle', { id: record.id })}
          label={t('funds.admin.txHash')}
          placeholder={t('funds.admin.txHashPlaceholder')}
          hint={t('funds.admin.txHashHint')}
          requiredMessage={t('funds.admin.txHashRequired')}
          confirm={t('funds.admin.withdrawals.confirmPass')}
          palette="green"
          maxLength={MAX_TX_HASH_CHARS}
          pending={review.isPending}
          onCancel={() => setPrompt(null)}
          onConfirm={(txHash) => decide(() => review.mutateAsync({ id: record.id, data: { approve: true, txHash } }), true, 'txHash')}
        />
      )}
    </>
  );
}

/** A required text for a decision (a reason, a transaction hash), in a dialog of its own. */
function PromptDialog({
  title,
  label,
  placeholder,
  hint,
  requiredMessage,
  confirm,
  palette,
  multiline,
  maxLength,
  pending,
  onCancel,
  onConfirm,
}: {
  title: string;
  label: string;
  placeholder: string;
  hint: string;
  requiredMessage: string;
  confirm: string;
  palette: 'red' | 'green';
  multiline?: boolean;
  maxLength: number;
  pending: boolean;
  onCancel: () => void;
  onConfirm: (text: string) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const value = text.trim();
    if (!value) {
      setError(requiredMessage);
      return;
    }
    setError(await onConfirm(value));
  };

  const change = (value: string) => {
    setText(value);
    setError(null);
  };

  return (
    <Dialog.Root
      open
      role="alertdialog"
      onOpenChange={(details) => {
        if (!details.open && !pending) onCancel();
      }}
      size="md"
      placement="center"
    >
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content asChild>
            <form onSubmit={(e) => void onSubmit(e)} noValidate>
              <Dialog.Header>
                <Dialog.Title>{title}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Field.Root required invalid={Boolean(error)}>
                  <Field.Label>
                    {label}
                    <Field.RequiredIndicator />
                  </Field.Label>
                  {multiline ? (
                    <Textarea value={text} onChange={(e) => change(e.currentTarget.value)} placeholder={placeholder} maxLength={maxLength} rows={4} autoresize />
                  ) : (
                    <Input value={text} onChange={(e) => change(e.currentTarget.value)} placeholder={placeholder} maxLength={maxLength} fontFamily="mono" autoComplete="off" spellCheck={false} />
                  )}
                  {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>{hint}</Field.HelperText>}
                </Field.Root>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="ghost" onClick={onCancel} disabled={pending}>
                  {t('funds.admin.cancel')}
                </Button>
                <Button type="submit" colorPalette={palette} loading={pending}>
                  {confirm}
                </Button>
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('common.close')} disabled={pending} />
              </Dialog.CloseTrigger>
            </form>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
