/**
 * The device-management tab: the user's live sessions (name, browser and system, IP, last seen,
 * "This device"), renaming one, and logging one out after a confirmation. Logging out the current
 * device ends this session: the browser forgets it and goes to the login screen.
 *
 * @module
 */

import { Badge, Box, Button, Dialog, EmptyState, Flex, HStack, Portal, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { LoginDevice } from '../../../api/generated/model';
import { getGetLoginDeviceQueryKey, useDeleteDevice, useGetLoginDevice, useUpdateDevice } from '../../../api/generated/security/security';
import { clearUserQueries } from '../../../hooks/use-sign-out';
import { logout } from '../../../lib/session';
import { toaster } from '../../../lib/toaster';
import { TabHeader } from '../account-layout';
import { ConfirmDialog } from '../components/confirm-dialog';
import { type FormErrors, FormError, TextField } from '../components/form';
import { DevicesIcon, PencilIcon } from '../components/icons';
import { SILENT, errorInfo, serverFieldErrors, useApiHead } from '../lib/api';
import { describeUserAgent, useDateTimeFormatter } from '../lib/format';
import { isReauthCancelled, useReauth } from '../reauth/reauth';

/** Longest device name the server accepts. */
const MAX_NAME = 100;

function DeviceRow({ device, onRename, onRevoke }: { device: LoginDevice; onRename: () => void; onRevoke: () => void }) {
  const { t } = useTranslation();
  const formatDate = useDateTimeFormatter();
  const nameId = useId();
  const agent = describeUserAgent(device.userAgent);
  return (
    <Flex
      as="li"
      aria-labelledby={nameId}
      gap="4"
      p={{ base: '4', md: '5' }}
      borderWidth="1px"
      rounded="xl"
      bg="bg.panel"
      borderColor={device.current ? 'brand.emphasized' : 'border'}
      direction={{ base: 'column', md: 'row' }}
      align={{ base: 'stretch', md: 'center' }}
    >
      <Flex gap="3" flex="1" minW="0" align="flex-start">
        <Box display="inline-flex" alignItems="center" justifyContent="center" boxSize="10" rounded="lg" bg={device.current ? 'brand.subtle' : 'bg.muted'} color={device.current ? 'brand.fg' : 'fg.muted'} flexShrink={0}>
          <DevicesIcon boxSize="5" />
        </Box>
        <Stack gap="1" minW="0">
          <HStack gap="2" flexWrap="wrap">
            <Text id={nameId} fontWeight="semibold" wordBreak="break-word">
              {device.deviceName}
            </Text>
            {device.current && (
              <Badge colorPalette="green" variant="subtle" rounded="full">
                {t('account.devices.thisDevice')}
              </Badge>
            )}
          </HStack>
          <Text fontSize="sm" color="fg.muted">
            {[agent || t('account.devices.unknownDevice'), device.ip].filter(Boolean).join(' · ')}
          </Text>
          <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
            {t('account.devices.lastSeen', { time: formatDate(device.lastSeenAt) })} · {t('account.devices.loggedIn', { time: formatDate(device.createdAt) })}
          </Text>
        </Stack>
      </Flex>
      <HStack gap="2" flexShrink={0} justify={{ base: 'flex-end', md: 'flex-start' }}>
        <Button size="sm" variant="outline" onClick={onRename}>
          <PencilIcon />
          {t('account.devices.rename')}
        </Button>
        <Button size="sm" variant="outline" colorPalette="red" onClick={onRevoke}>
          {t('account.devices.revoke')}
        </Button>
      </HStack>
    </Flex>
  );
}

function RenameForm({ device, onDone, onCancel }: { device: LoginDevice; onDone: () => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const head = useApiHead();
  const update = useUpdateDevice({ request: SILENT });
  const [name, setName] = useState(device.deviceName);
  const [errors, setErrors] = useState<FormErrors>({});

  const submit = async () => {
    const trimmed = name.trim();
    if (trimmed === '') return setErrors({ deviceName: t('account.devices.nameRequired') });
    if (trimmed.length > MAX_NAME) return setErrors({ deviceName: t('account.devices.nameTooLong', { max: MAX_NAME }) });
    try {
      await update.mutateAsync({ head, data: { id: device.id, deviceName: trimmed } });
      onDone();
    } catch (error) {
      setErrors(serverFieldErrors(error, ['deviceName'], {}, errorInfo(error)?.message ?? t('account.errors.generic')));
    }
  };

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void submit();
      }}
    >
      <Dialog.Body>
        <Stack gap="4">
          <TextField label={t('account.devices.name')} value={name} onChange={(e) => setName(e.currentTarget.value)} error={errors.deviceName} maxLength={MAX_NAME} required autoFocus />
          <FormError message={errors.form} />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" type="button" onClick={onCancel}>
          {t('account.actions.cancel')}
        </Button>
        <Button type="submit" colorPalette="brand" loading={update.isPending}>
          {t('account.actions.save')}
        </Button>
      </Dialog.Footer>
    </form>
  );
}

export function DevicesTab() {
  const { t } = useTranslation();
  const head = useApiHead();
  const queryClient = useQueryClient();
  const withReauth = useReauth();
  const devices = useGetLoginDevice(head, { request: SILENT });
  const remove = useDeleteDevice({ request: SILENT });
  const [renaming, setRenaming] = useState<LoginDevice | null>(null);
  const [revoking, setRevoking] = useState<LoginDevice | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getGetLoginDeviceQueryKey(head) });

  const revoke = async (device: LoginDevice) => {
    try {
      await withReauth(() => remove.mutateAsync({ head, id: device.id }));
    } catch (error) {
      if (!isReauthCancelled(error)) toaster.create({ type: 'error', title: errorInfo(error)?.message ?? t('account.errors.generic') });
      return;
    }
    setRevoking(null);
    if (device.current) {
      // This session is over on the server: forget it here too. The account centre's guard then
      // sends the visitor to the login screen, which returns here after the next login.
      logout();
      clearUserQueries(queryClient);
      return;
    }
    toaster.create({ type: 'success', title: t('account.devices.revoked') });
    await refresh();
  };

  const list = devices.data ?? [];
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.devices')} description={t('account.devices.description')} />
      {devices.isLoading ? (
        <Stack gap="3">
          <Skeleton h="24" rounded="xl" />
          <Skeleton h="24" rounded="xl" />
        </Stack>
      ) : devices.isError ? (
        <FormError message={t('account.devices.loadFailed')} />
      ) : list.length === 0 ? (
        <EmptyState.Root borderWidth="1px" rounded="xl">
          <EmptyState.Content>
            <EmptyState.Description>{t('account.devices.empty')}</EmptyState.Description>
          </EmptyState.Content>
        </EmptyState.Root>
      ) : (
        <Stack as="ul" listStyleType="none" gap="3" aria-label={t('account.devices.listLabel')}>
          {list.map((device) => (
            <DeviceRow key={device.id} device={device} onRename={() => setRenaming(device)} onRevoke={() => setRevoking(device)} />
          ))}
        </Stack>
      )}

      <Dialog.Root
        open={renaming !== null}
        onOpenChange={(event) => {
          if (!event.open) setRenaming(null);
        }}
        placement="center"
        size="sm"
      >
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content rounded="xl" mx="4">
              <Dialog.Header>
                <Dialog.Title>{t('account.devices.renameTitle')}</Dialog.Title>
              </Dialog.Header>
              {renaming && (
                <RenameForm
                  key={renaming.id}
                  device={renaming}
                  onCancel={() => setRenaming(null)}
                  onDone={() => {
                    setRenaming(null);
                    toaster.create({ type: 'success', title: t('account.devices.renamed') });
                    void refresh();
                  }}
                />
              )}
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>

      <ConfirmDialog
        open={revoking !== null}
        title={t('account.devices.revokeTitle', { name: revoking?.deviceName ?? '' })}
        body={revoking?.current ? t('account.devices.revokeCurrentBody') : t('account.devices.revokeBody')}
        confirmLabel={t('account.devices.revoke')}
        busy={remove.isPending}
        onConfirm={() => revoking && void revoke(revoking)}
        onClose={() => setRevoking(null)}
      />
    </Stack>
  );
}
