/**
 * The detail dialog of one submission: who sent it, what they entered, the document photos
 * (signed links from the list; a link that fails offers the original in a new tab, which also
 * covers PDFs), and — while it is under review — Approve, or Reject with a reason (a second dialog).
 * A decision refreshes the list and closes the dialog.
 *
 * @module
 */

import { Badge, Box, Button, CloseButton, DataList, Dialog, Field, Flex, Heading, HStack, Image, Link, Portal, SimpleGrid, Stack, Text, Textarea } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '../../lib/api-client';
import { toaster } from '../../lib/toaster';
import { type AdminIdentityRecord, useRefreshSubmissions, useReview } from './admin-api';
import { STATUS_PALETTE, countryName, formatTime } from './admin-format';

/** The longest reason the server keeps. */
const MAX_REASON_CHARS = 500;

/** `data.reason` of a failed call, if any. */
function failureReason(error: unknown): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const data = (error.body as { data?: { reason?: unknown } } | undefined)?.data;
  return typeof data?.reason === 'string' ? data.reason : undefined;
}

export function ReviewDialog({ record, onClose }: { record: AdminIdentityRecord; onClose: () => void }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const review = useReview();
  const refresh = useRefreshSubmissions();
  const [rejecting, setRejecting] = useState(false);
  const underReview = record.status === 'review';

  /**
   * Sends the decision. Resolves to the server's message when it wants a reason (shown under the
   * reason field), else `null`; other failures are shown as a toast.
   */
  const decide = async (approve: boolean, reason?: string): Promise<string | null> => {
    try {
      await review.mutateAsync({ data: { id: record.id, approve, ...(reason ? { reason } : {}) } });
      toaster.create({ type: 'success', title: approve ? t('kyc.admin.approved') : t('kyc.admin.rejected') });
      setRejecting(false);
      onClose();
      void refresh();
      return null;
    } catch (error) {
      const message = error instanceof Error && error.message ? error.message : t('errors.unknown');
      if (failureReason(error) === 'kyc_reason_required') return message;
      toaster.create({ type: 'error', title: message });
      // Reviewed meanwhile by someone else: show the list as it is now.
      if (failureReason(error) === 'kyc_already_reviewed') {
        setRejecting(false);
        onClose();
        void refresh();
      }
      return null;
    }
  };

  const details: [string, string][] = [
    [t('kyc.admin.columns.user'), `#${record.userId}`],
    [t('kyc.admin.columns.account'), record.account || '--'],
    [t('kyc.admin.columns.name'), record.name],
    [t('kyc.admin.columns.idCard'), record.idCard],
    [t('kyc.admin.columns.country'), countryName(record.country, lang)],
    [t('kyc.admin.columns.cardType'), t(`kyc.cardType.${record.cardType}`)],
    [t('kyc.details.submittedAt'), formatTime(record.createdAt)],
  ];
  if (record.reviewedAt) details.push([t('kyc.details.reviewedAt'), formatTime(record.reviewedAt)]);
  const documents = (
    [
      ['front', record.frontUrl],
      ['back', record.backUrl],
      ['hold', record.holdUrl],
    ] as const
  ).filter(([, url]) => Boolean(url));

  return (
    <>
      <Dialog.Root
        open
        onOpenChange={(details) => {
          if (!details.open && !rejecting) onClose();
        }}
        size="xl"
        scrollBehavior="inside"
        placement="center"
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content maxW={{ md: '3xl' }}>
              <Dialog.Header flexDirection="column" alignItems="flex-start" gap="2" pe="14">
                <Dialog.Title fontSize="xl">{t('kyc.admin.detailTitle', { id: record.id })}</Dialog.Title>
                <HStack gap="2" flexWrap="wrap">
                  <Badge variant="outline" colorPalette={record.level === 'advanced' ? 'purple' : 'blue'}>
                    {t(`kyc.admin.levels.${record.level}`)}
                  </Badge>
                  <Badge variant="subtle" colorPalette={STATUS_PALETTE[record.status]}>
                    {t(`kyc.status.${record.status}`)}
                  </Badge>
                </HStack>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="6">
                  {record.status === 'failed' && (
                    <Box bg="red.subtle" color="red.fg" rounded="lg" px="4" py="3" fontSize="sm" overflowWrap="anywhere">
                      {record.reason ? t('kyc.reason', { reason: record.reason }) : t('kyc.noReason')}
                    </Box>
                  )}
                  <DataList.Root orientation="horizontal" size="sm" gap="2.5">
                    {details.map(([label, value]) => (
                      <DataList.Item key={label} flexWrap="wrap" gap="1">
                        <DataList.ItemLabel minW={{ base: '8rem', md: '10rem' }}>{label}</DataList.ItemLabel>
                        <DataList.ItemValue fontWeight="medium" overflowWrap="anywhere" fontVariantNumeric="tabular-nums">
                          {value}
                        </DataList.ItemValue>
                      </DataList.Item>
                    ))}
                  </DataList.Root>
                  <Stack gap="3" as="section" aria-label={t('kyc.admin.documents')}>
                    <Heading as="h3" fontSize="md">
                      {t('kyc.admin.documents')}
                    </Heading>
                    {documents.length === 0 ? (
                      <Text fontSize="sm" color="fg.muted">
                        {t('kyc.admin.noDocuments')}
                      </Text>
                    ) : (
                      <SimpleGrid columns={{ base: 1, sm: 3 }} gap="3">
                        {documents.map(([slot, url]) => (
                          <DocumentImage key={slot} url={url ?? ''} caption={t(`kyc.advanced.${slot}`)} />
                        ))}
                      </SimpleGrid>
                    )}
                  </Stack>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer borderTopWidth="1px" pt="4" flexWrap="wrap">
                {underReview ? (
                  <>
                    <Button variant="outline" colorPalette="red" onClick={() => setRejecting(true)} disabled={review.isPending}>
                      {t('kyc.admin.reject')}
                    </Button>
                    <Button colorPalette="green" onClick={() => void decide(true)} loading={review.isPending && !rejecting}>
                      {t('kyc.admin.approve')}
                    </Button>
                  </>
                ) : (
                  <Dialog.ActionTrigger asChild>
                    <Button variant="outline">{t('common.close')}</Button>
                  </Dialog.ActionTrigger>
                )}
              </Dialog.Footer>
              <Dialog.CloseTrigger asChild>
                <CloseButton size="sm" aria-label={t('common.close')} />
              </Dialog.CloseTrigger>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
      {rejecting && <RejectDialog id={record.id} pending={review.isPending} onCancel={() => setRejecting(false)} onReject={(reason) => decide(false, reason)} />}
    </>
  );
}

/** One document photo, with a link to the original (a PDF, or an image that fails to show). */
function DocumentImage({ url, caption }: { url: string; caption: string }) {
  const { t } = useTranslation();
  const [failed, setFailed] = useState(false);
  return (
    <Stack as="figure" gap="2" minW="0">
      <Box aspectRatio={4 / 3} rounded="lg" overflow="hidden" borderWidth="1px" bg="bg.muted">
        {failed ? (
          <Flex h="full" align="center" justify="center" p="3" textAlign="center" fontSize="xs" color="fg.muted">
            {t('kyc.admin.imageUnavailable')}
          </Flex>
        ) : (
          <Link href={url} target="_blank" rel="noopener noreferrer" display="block" h="full" w="full">
            <Image src={url} alt={caption} w="full" h="full" objectFit="contain" onError={() => setFailed(true)} />
          </Link>
        )}
      </Box>
      <Stack as="figcaption" gap="0.5" fontSize="xs" align="flex-start">
        <Text fontWeight="medium">{caption}</Text>
        <Link href={url} target="_blank" rel="noopener noreferrer" color="brand.fg" aria-label={t('kyc.admin.openOriginalFor', { slot: caption })}>
          {t('kyc.admin.openOriginal')}
        </Link>
      </Stack>
    </Stack>
  );
}

/** The reason a rejection needs (the user sees it). */
function RejectDialog({
  id,
  pending,
  onCancel,
  onReject,
}: {
  id: number;
  pending: boolean;
  onCancel: () => void;
  onReject: (reason: string) => Promise<string | null>;
}) {
  const { t } = useTranslation();
  const [reason, setReason] = useState('');
  const [error, setError] = useState<string | null>(null);

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const text = reason.trim();
    if (!text) {
      setError(t('kyc.admin.reasonRequired'));
      return;
    }
    setError(await onReject(text));
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
            <form onSubmit={onSubmit} noValidate>
              <Dialog.Header>
                <Dialog.Title>{t('kyc.admin.rejectTitle', { id })}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Field.Root required invalid={Boolean(error)}>
                  <Field.Label>
                    {t('kyc.admin.reasonLabel')}
                    <Field.RequiredIndicator />
                  </Field.Label>
                  <Textarea
                    value={reason}
                    onChange={(e) => {
                      setReason(e.currentTarget.value);
                      setError(null);
                    }}
                    placeholder={t('kyc.admin.reasonPlaceholder')}
                    maxLength={MAX_REASON_CHARS}
                    rows={4}
                    autoresize
                  />
                  {error ? <Field.ErrorText>{error}</Field.ErrorText> : <Field.HelperText>{t('kyc.admin.reasonHint')}</Field.HelperText>}
                </Field.Root>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="ghost" onClick={onCancel} disabled={pending}>
                  {t('kyc.cancel')}
                </Button>
                <Button type="submit" colorPalette="red" loading={pending}>
                  {t('kyc.admin.confirmReject')}
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
