/**
 * The payment screenshot of a deposit: choose (or drop) an image, which is uploaded at once through
 * the upload call the identity documents use; the slot then shows its preview. Only images (PNG,
 * JPEG, WebP) of at most 5 MB are taken; the server's recognised type must be an image too.
 *
 * @module
 */

import { Box, Button, Field, Flex, HStack, Image, Spinner, Stack, Text } from '@chakra-ui/react';
import { type DragEvent, useEffect, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useUploadFile } from '../../../api/generated/kyc/kyc';
import { SILENT, failure } from '../../../lib/api-calls';
import { UploadIcon } from './icons';

/** The largest accepted file, in bytes (the server's limit: 5 MiB). */
export const MAX_SCREENSHOT_BYTES = 5 * 1024 * 1024;
const ACCEPT = 'image/png,image/jpeg,image/webp';

/** Where the screenshot is: nothing yet, uploading, uploaded (with the server's reference), or refused. */
export type ScreenshotState =
  | { phase: 'empty' }
  | { phase: 'uploading'; fileName: string; previewUrl?: string }
  | { phase: 'uploaded'; fileName: string; previewUrl?: string; reference: string }
  | { phase: 'error'; message: string; fileName?: string; previewUrl?: string };

/** The reference to send for an uploaded screenshot, else `null`. */
export function screenshotReference(state: ScreenshotState): string | null {
  return state.phase === 'uploaded' ? state.reference : null;
}

/** A preview URL of a local file (jsdom has none). */
function previewOf(file: File): string | undefined {
  return typeof URL.createObjectURL === 'function' ? URL.createObjectURL(file) : undefined;
}

export function ScreenshotUpload({
  label,
  state,
  onChange,
  error,
}: {
  label: string;
  state: ScreenshotState;
  onChange: (state: ScreenshotState) => void;
  error?: string;
}) {
  const { t } = useTranslation();
  const input = useRef<HTMLInputElement>(null);
  const hintId = useId();
  const [dragging, setDragging] = useState(false);
  const upload = useUploadFile({ request: SILENT });
  const previewUrl = state.phase === 'empty' ? undefined : state.previewUrl;

  // Frees the preview once it is replaced or the slot goes away.
  useEffect(() => () => {
    if (previewUrl && typeof URL.revokeObjectURL === 'function') URL.revokeObjectURL(previewUrl);
  }, [previewUrl]);

  const take = async (file: File) => {
    if (!file.type.startsWith('image/')) {
      onChange({ phase: 'error', message: t('funds.deposit.notImage'), fileName: file.name });
      return;
    }
    if (file.size === 0 || file.size > MAX_SCREENSHOT_BYTES) {
      onChange({ phase: 'error', message: t('funds.deposit.tooLarge'), fileName: file.name });
      return;
    }
    const preview = previewOf(file);
    onChange({ phase: 'uploading', fileName: file.name, previewUrl: preview });
    try {
      const uploaded = await upload.mutateAsync({ data: { file } });
      if (!uploaded.contentType.startsWith('image/')) {
        onChange({ phase: 'error', message: t('funds.deposit.notImage'), fileName: file.name, previewUrl: preview });
        return;
      }
      onChange({ phase: 'uploaded', fileName: file.name, previewUrl: preview, reference: String(uploaded.fileId) });
    } catch (err) {
      onChange({ phase: 'error', message: failure(err, t('funds.deposit.uploadFailed')).message, fileName: file.name, previewUrl: preview });
    }
  };

  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && state.phase !== 'uploading') void take(file);
  };

  const message = state.phase === 'error' ? state.message : error;
  return (
    <Field.Root invalid={Boolean(message)} required>
      <Field.Label fontWeight="medium">
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <Flex
        w="full"
        gap="4"
        align="center"
        borderWidth="2px"
        borderStyle={state.phase === 'uploaded' ? 'solid' : 'dashed'}
        borderColor={dragging ? 'brand.solid' : message ? 'border.error' : state.phase === 'uploaded' ? 'green.solid' : 'border.emphasized'}
        bg={dragging ? 'brand.subtle' : 'bg.subtle'}
        rounded="xl"
        p="3"
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
        direction={{ base: 'column', sm: 'row' }}
      >
        <Box boxSize="20" rounded="lg" bg="bg.muted" overflow="hidden" flexShrink={0} display="flex" alignItems="center" justifyContent="center" color="fg.muted">
          {previewUrl ? <Image src={previewUrl} alt={t('funds.deposit.preview')} w="full" h="full" objectFit="cover" /> : <UploadIcon boxSize="7" />}
        </Box>
        <Stack gap="1" flex="1" minW="0" textAlign={{ base: 'center', sm: 'start' }}>
          <Text fontSize="sm" fontWeight="medium" truncate>
            {state.phase === 'empty' ? t('funds.deposit.dropHint') : state.fileName}
          </Text>
          <Text id={hintId} fontSize="xs" color="fg.muted" aria-live="polite">
            {state.phase === 'uploading' ? (
              <HStack as="span" gap="1.5" display="inline-flex">
                <Spinner size="xs" />
                {t('funds.deposit.uploading')}
              </HStack>
            ) : state.phase === 'uploaded' ? (
              t('funds.deposit.uploaded')
            ) : (
              t('funds.deposit.imageRules')
            )}
          </Text>
        </Stack>
        <Button size="sm" variant="outline" onClick={() => input.current?.click()} disabled={state.phase === 'uploading'} aria-describedby={hintId} flexShrink={0}>
          <UploadIcon />
          {state.phase === 'empty' ? t('funds.deposit.choose') : t('funds.deposit.replace')}
        </Button>
        <input
          ref={input}
          type="file"
          accept={ACCEPT}
          hidden
          aria-label={label}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            event.currentTarget.value = '';
            if (file) void take(file);
          }}
        />
      </Flex>
      <Field.ErrorText>{message}</Field.ErrorText>
    </Field.Root>
  );
}
