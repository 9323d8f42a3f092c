/**
 * The advanced (real-name) verification form: three document photos, each checked in the browser
 * (type from its first bytes, at most 5 MB), previewed at once and uploaded as soon as it is chosen;
 * "Submit for review" sends the three file ids.
 *
 * @module
 */

import { Alert, Button, Flex, Separator, Stack } from '@chakra-ui/react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { toaster } from '../../../lib/toaster';
import { apiFailure } from './api-failure';
import { checkUploadFile, fileProblemKey, isImageKind } from './file-check';
import { IdBackArt, IdFrontArt, SelfieArt } from './kyc-icons';
import { useSubmitAdvanced, useUploadDocument } from './kyc-api';
import { type SlotState, UploadSlot } from './upload-slot';

/** The three photos, in the order they are asked for. */
export const SLOTS = ['front', 'back', 'hold'] as const;
export type SlotId = (typeof SLOTS)[number];

const ART = {
  front: <IdFrontArt boxSize="16" />,
  back: <IdBackArt boxSize="16" />,
  hold: <SelfieArt boxSize="16" />,
} as const;

type Slots = Record<SlotId, SlotState>;
/** The server's reasons for refusing a file as it is (not a passing failure): image undecodable or too large, PDF with active content. */
const FILE_REFUSALS = ['image_unreadable', 'image_too_many_pixels', 'pdf_active_content'];

const EMPTY: Slots = { front: { phase: 'empty' }, back: { phase: 'empty' }, hold: { phase: 'empty' } };

export function AdvancedForm({ onSubmitted, onCancel }: { onSubmitted: () => void; onCancel?: () => void }) {
  const { t } = useTranslation();
  const upload = useUploadDocument();
  const submit = useSubmitAdvanced();
  const [slots, setSlots] = useState<Slots>(EMPTY);
  const [showMissing, setShowMissing] = useState(false);
  const [formError, setFormError] = useState<string | null>(null);
  // The file each slot holds (for retries), and a counter per slot so a late answer for a replaced
  // file is ignored.
  const files = useRef<Partial<Record<SlotId, File>>>({});
  const generation = useRef<Record<SlotId, number>>({ front: 0, back: 0, hold: 0 });
  const previews = useRef(new Set<string>());

  useEffect(() => {
    const urls = previews.current;
    return () => {
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  const update = (slot: SlotId, state: SlotState) => setSlots((s) => ({ ...s, [slot]: state }));

  const dropPreview = (url: string | undefined) => {
    if (url && previews.current.delete(url)) URL.revokeObjectURL(url);
  };

  /** Checks, previews and uploads `file` into `slot`; a retry keeps the preview it has. */
  const start = async (slot: SlotId, file: File, retry = false) => {
    const run = ++generation.current[slot];
    setFormError(null);
    const current = slots[slot];
    const currentPreview = current.phase === 'empty' ? undefined : current.previewUrl;
    const check = await checkUploadFile(file);
    if (run !== generation.current[slot]) return;
    if (!retry) dropPreview(currentPreview);
    if (!check.ok) {
      files.current[slot] = undefined;
      update(slot, { phase: 'error', message: t(fileProblemKey(check.problem)), fileName: file.name, retryable: false });
      return;
    }
    let previewUrl = retry ? currentPreview : undefined;
    if (!previewUrl && isImageKind(check.kind)) {
      previewUrl = URL.createObjectURL(file);
      previews.current.add(previewUrl);
    }
    const preview = previewUrl ? { previewUrl } : {};
    files.current[slot] = file;
    update(slot, { phase: 'uploading', fileName: file.name, ...preview });
    try {
      const result = await upload.mutateAsync({ data: { file } });
      if (run !== generation.current[slot]) return;
      update(slot, { phase: 'uploaded', fileName: file.name, fileId: result.fileId, ...preview });
    } catch (error) {
      if (run !== generation.current[slot]) return;
      const failure = apiFailure(error, t('kyc.upload.failed'));
      const known = failure.reason === 'file_too_large' || failure.reason === 'unsupported_file_type';
      // The server refused the file itself (the same file fails again): no retry, its own words.
      const refused = known || FILE_REFUSALS.includes(failure.reason ?? '');
      update(slot, {
        phase: 'error',
        message: known ? t(fileProblemKey(failure.reason ?? '')) : failure.message,
        fileName: file.name,
        ...preview,
        retryable: !refused,
      });
    }
  };

  const allUploaded = SLOTS.every((slot) => slots[slot].phase === 'uploaded');
  const anyUploading = SLOTS.some((slot) => slots[slot].phase === 'uploading');

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.isPending) return;
    if (!allUploaded) {
      setShowMissing(true);
      setFormError(anyUploading ? null : t('kyc.advanced.missing'));
      return;
    }
    const id = (slot: SlotId) => {
      const state = slots[slot];
      return state.phase === 'uploaded' ? state.fileId : 0;
    };
    try {
      await submit.mutateAsync({ data: { frontFileId: id('front'), backFileId: id('back'), holdFileId: id('hold') } });
      toaster.create({ type: 'success', title: t('kyc.advanced.submitted') });
      onSubmitted();
    } catch (error) {
      const failure = apiFailure(error, t('errors.unknown'));
      setFormError(failure.message);
      if (failure.reason === 'kyc_under_review' || failure.reason === 'kyc_already_passed' || failure.reason === 'kyc_basic_required') {
        onSubmitted();
      }
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('kyc.advanced.formTitle')}>
      <Stack gap="6">
        <Stack gap="5" separator={<Separator />}>
          {SLOTS.map((slot) => (
            <UploadSlot
              key={slot}
              title={t(`kyc.advanced.${slot}`)}
              hint={t(`kyc.advanced.${slot}Hint`)}
              art={ART[slot]}
              state={slots[slot]}
              disabled={submit.isPending}
              invalid={showMissing && slots[slot].phase === 'empty'}
              onFile={(file) => void start(slot, file)}
              onRetry={() => {
                const file = files.current[slot];
                if (file) void start(slot, file, true);
              }}
            />
          ))}
        </Stack>

        {formError && (
          <Alert.Root status="error" rounded="lg" role="alert">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal">{formError}</Alert.Title>
          </Alert.Root>
        )}

        <Flex gap="3" justify="flex-end" wrap="wrap">
          {onCancel && (
            <Button variant="ghost" onClick={onCancel} disabled={submit.isPending}>
              {t('kyc.cancel')}
            </Button>
          )}
          <Button type="submit" colorPalette="brand" loading={submit.isPending} disabled={anyUploading} minW="36">
            {t('kyc.advanced.submit')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
