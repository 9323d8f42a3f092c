/**
 * One document photo of the advanced form: a drop zone showing the illustration, then the chosen
 * image's preview (a PDF shows its name), the upload state (uploading with a progress bar,
 * uploaded, failed with the reason) and a button that opens the file picker. The slot is a group
 * named by its title; its button is named "Choose file: <title>".
 *
 * @module
 */

import { Box, Button, Flex, HStack, Image, Progress, Spinner, Stack, Text, VisuallyHidden } from '@chakra-ui/react';
import { type DragEvent, type ReactNode, useId, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ACCEPT_ATTRIBUTE } from './file-check';
import { CheckIcon, FileIcon, InfoIcon, UploadIcon } from './kyc-icons';

/** Where one slot's file is in its life. */
export type SlotState =
  | { phase: 'empty' }
  | { phase: 'uploading'; fileName: string; previewUrl?: string }
  | { phase: 'uploaded'; fileName: string; previewUrl?: string; fileId: number }
  | { phase: 'error'; message: string; fileName?: string; previewUrl?: string; retryable: boolean };

export function UploadSlot({
  title,
  hint,
  art,
  state,
  disabled,
  invalid,
  onFile,
  onRetry,
}: {
  title: string;
  hint: string;
  art: ReactNode;
  state: SlotState;
  disabled?: boolean;
  /** Marks the slot as missing (after a submit without it). */
  invalid?: boolean;
  onFile: (file: File) => void;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  const inputRef = useRef<HTMLInputElement>(null);
  const titleId = useId();
  const statusId = useId();
  const [dragging, setDragging] = useState(false);
  const previewUrl = state.phase === 'empty' ? undefined : state.previewUrl;
  const fileName = state.phase === 'empty' ? undefined : state.fileName;
  const busy = state.phase === 'uploading';
  const hasFile = state.phase !== 'empty';
  const error = state.phase === 'error' || invalid;

  const pick = () => inputRef.current?.click();
  const onDrop = (event: DragEvent) => {
    event.preventDefault();
    setDragging(false);
    const file = event.dataTransfer.files[0];
    if (file && !disabled && !busy) onFile(file);
  };

  return (
    <Flex role="group" aria-labelledby={titleId} aria-describedby={statusId} gap={{ base: '3', sm: '5' }} direction={{ base: 'column', sm: 'row' }} minW="0">
      <Stack gap="2" w={{ base: 'full', sm: '15rem' }} flexShrink={0}>
        <Box
          position="relative"
          aspectRatio={16 / 10}
          rounded="xl"
          borderWidth="2px"
          borderStyle={hasFile ? 'solid' : 'dashed'}
          borderColor={dragging ? 'brand.solid' : error ? 'border.error' : state.phase === 'uploaded' ? 'green.solid' : 'border.emphasized'}
          bg={dragging ? 'brand.subtle' : 'bg.subtle'}
          overflow="hidden"
          transition="border-color 0.15s, background 0.15s"
          cursor={disabled || busy ? 'default' : 'pointer'}
          onClick={() => {
            if (!disabled && !busy) pick();
          }}
          onDragOver={(event) => {
            event.preventDefault();
            if (!disabled && !busy) setDragging(true);
          }}
          onDragLeave={() => setDragging(false)}
          onDrop={onDrop}
          _hover={disabled || busy ? undefined : { borderColor: 'brand.solid' }}
        >
          <Preview title={title} art={art} previewUrl={previewUrl} fileName={fileName} />
          {busy && (
            <Flex position="absolute" inset="0" align="center" justify="center" bg={{ base: 'whiteAlpha.700', _dark: 'blackAlpha.600' }}>
              <Spinner size="lg" color="brand.solid" />
            </Flex>
          )}
          {state.phase === 'uploaded' && (
            <Flex position="absolute" top="2" insetEnd="2" boxSize="7" rounded="full" bg="green.solid" color="white" align="center" justify="center" shadow="sm">
              <CheckIcon boxSize="4" />
            </Flex>
          )}
        </Box>
        {busy && (
          <Progress.Root value={null} size="xs" colorPalette="brand" aria-label={t('kyc.upload.uploading')}>
            <Progress.Track>
              <Progress.Range />
            </Progress.Track>
          </Progress.Root>
        )}
      </Stack>

      <Stack gap="2.5" minW="0" flex="1" justify="center">
        <Stack gap="0.5" minW="0">
          <Text id={titleId} fontWeight="semibold" fontSize="sm">
            {title}
            <Text as="span" color="fg.error" ms="0.5" aria-hidden="true">
              *
            </Text>
          </Text>
          <Text fontSize="xs" color="fg.muted">
            {hint}
          </Text>
        </Stack>
        <Box id={statusId} aria-live="polite" fontSize="xs">
          <SlotStatus state={state} invalid={Boolean(invalid)} />
        </Box>
        <HStack gap="2" flexWrap="wrap">
          <Button
            size="sm"
            variant="outline"
            onClick={pick}
            disabled={disabled || busy}
            aria-label={hasFile ? t('kyc.upload.replaceFor', { slot: title }) : t('kyc.upload.chooseFor', { slot: title })}
          >
            <UploadIcon boxSize="4" />
            {hasFile ? t('kyc.upload.replace') : t('kyc.upload.choose')}
          </Button>
          {state.phase === 'error' && state.retryable && (
            <Button size="sm" variant="ghost" colorPalette="brand" onClick={onRetry} disabled={disabled} aria-label={t('kyc.upload.retryFor', { slot: title })}>
              {t('kyc.upload.retry')}
            </Button>
          )}
        </HStack>
      </Stack>

      <VisuallyHidden asChild>
        <input
          ref={inputRef}
          type="file"
          tabIndex={-1}
          aria-hidden="true"
          accept={ACCEPT_ATTRIBUTE}
          disabled={disabled}
          onChange={(event) => {
            const file = event.currentTarget.files?.[0];
            // Cleared so that choosing the same file again still fires a change.
            event.currentTarget.value = '';
            if (file) onFile(file);
          }}
        />
      </VisuallyHidden>
    </Flex>
  );
}

/** The drop zone's content: the image, a PDF's name, or the illustration of the photo asked for. */
function Preview({ title, art, previewUrl, fileName }: { title: string; art: ReactNode; previewUrl?: string; fileName?: string }) {
  const { t } = useTranslation();
  if (previewUrl) return <Image src={previewUrl} alt={t('kyc.upload.preview', { slot: title })} w="full" h="full" objectFit="contain" bg="bg.muted" />;
  if (fileName)
    return (
      <Flex direction="column" align="center" justify="center" h="full" gap="2" px="4" color="fg.muted">
        <FileIcon boxSize="10" />
        <Text fontSize="sm" fontWeight="medium" color="fg" textAlign="center" overflowWrap="anywhere" lineClamp={2}>
          {fileName}
        </Text>
      </Flex>
    );
  return (
    <Flex direction="column" align="center" justify="center" h="full" gap="2" px="3" textAlign="center">
      <Box color={{ base: 'gray.400', _dark: 'gray.500' }}>{art}</Box>
      <HStack gap="1.5" color="fg.muted" fontSize="xs" align="flex-start">
        <UploadIcon boxSize="3.5" flexShrink={0} mt="0.5" />
        <Text>{t('kyc.upload.drop')}</Text>
      </HStack>
    </Flex>
  );
}

/** One line saying where the file is: formats (empty), uploading, uploaded, or what went wrong. */
function SlotStatus({ state, invalid }: { state: SlotState; invalid: boolean }) {
  const { t } = useTranslation();
  switch (state.phase) {
    case 'uploading':
      return (
        <HStack gap="1.5" color="fg.muted">
          <Spinner size="xs" />
          <Text>{t('kyc.upload.uploading')}</Text>
        </HStack>
      );
    case 'uploaded':
      return (
        <HStack gap="1.5" color="fg.success" fontWeight="medium">
          <CheckIcon boxSize="3.5" />
          <Text>{t('kyc.upload.uploaded')}</Text>
        </HStack>
      );
    case 'error':
      return (
        <HStack gap="1.5" color="fg.error" align="flex-start">
          <InfoIcon boxSize="3.5" mt="0.5" flexShrink={0} />
          <Text>{state.message}</Text>
        </HStack>
      );
    case 'empty':
      return <Text color={invalid ? 'fg.error' : 'fg.muted'}>{t('kyc.upload.formats')}</Text>;
  }
}
