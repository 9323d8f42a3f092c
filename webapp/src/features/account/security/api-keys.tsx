/**
 * API keys of the security tab: the list (a card per key on a phone), creation (label,
 * permissions, IP whitelist; the secret is shown once, with copy buttons) and deletion after a
 * confirmation. Creating a key may need re-authentication (`useReauth`).
 *
 * @module
 */

import {
  Alert,
  Badge,
  Box,
  Button,
  Checkbox,
  CheckboxGroup,
  Code,
  Dialog,
  EmptyState,
  Field,
  Fieldset,
  Flex,
  HStack,
  IconButton,
  Portal,
  Skeleton,
  Stack,
  Table,
  Text,
  Textarea,
} from '@chakra-ui/react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { ApiKeyView, CreatedApiKey } from '../../../api/generated/model';
import { deleteApiKey, getListApiKeysQueryKey, useCreateApiKey, useListApiKeys } from '../../../api/generated/security/security';
import { CardButton, CardList, ItemCard } from '../../../components/item-cards';
import { useIsPhone } from '../../../hooks/use-is-phone';
import { toaster } from '../../../lib/toaster';
import { ConfirmDialog } from '../components/confirm-dialog';
import { CopyButton } from '../components/copy-button';
import { type FormErrors, FormError, TextField } from '../components/form';
import { CopyIcon, KeyIcon, PlusIcon, TrashIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { SILENT, errorInfo, serverFieldErrors, useApiHead } from '../lib/api';
import { copyText } from '../lib/copy';
import { useDateTimeFormatter } from '../lib/format';
import { isReauthCancelled, useReauth } from '../reauth/reauth';

/** The permissions a key can have. */
export const API_PERMISSIONS = ['read', 'trade', 'withdraw'] as const;
type Permission = (typeof API_PERMISSIONS)[number];

/** The IP whitelist as typed (one per line, or separated by commas or spaces), without blanks. */
export function parseIpList(text: string): string[] {
  return text
    .split(/[\s,;]+/)
    .map((ip) => ip.trim())
    .filter(Boolean);
}

function CreateKeyForm({ onCreated, onCancel }: { onCreated: (key: CreatedApiKey) => void; onCancel: () => void }) {
  const { t } = useTranslation();
  const head = useApiHead();
  const withReauth = useReauth();
  const create = useCreateApiKey({ request: SILENT });
  const [label, setLabel] = useState('');
  const [permissions, setPermissions] = useState<string[]>(['read']);
  const [ips, setIps] = useState('');
  const [errors, setErrors] = useState<FormErrors>({});

  const submit = async () => {
    const found: FormErrors = {};
    if (label.trim() === '') found.label = t('account.apiKeys.labelRequired');
    else if (label.trim().length > 64) found.label = t('account.apiKeys.labelTooLong');
    if (permissions.length === 0) found.permissions = t('account.apiKeys.permissionRequired');
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const ipWhitelist = parseIpList(ips);
    try {
      const key = await withReauth(() =>
        create.mutateAsync({
          head,
          data: { label: label.trim(), permissions: API_PERMISSIONS.filter((p) => permissions.includes(p)), ipWhitelist: ipWhitelist.length ? ipWhitelist : undefined },
        }),
      );
      onCreated(key);
    } catch (error) {
      if (isReauthCancelled(error)) return;
      setErrors(
        serverFieldErrors(
          error,
          ['label', 'permissions', 'ipWhitelist'],
          { invalid_ip: 'ipWhitelist', invalid_permission: 'permissions' },
          errorInfo(error)?.message ?? t('account.errors.generic'),
        ),
      );
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
        <Stack gap="5">
          <TextField label={t('account.apiKeys.label')} value={label} onChange={(e) => setLabel(e.currentTarget.value)} error={errors.label} maxLength={64} required autoFocus />
          <Fieldset.Root invalid={Boolean(errors.permissions)}>
            <Fieldset.Legend fontWeight="medium" fontSize="sm">
              {t('account.apiKeys.permissions')}
            </Fieldset.Legend>
            <CheckboxGroup value={permissions} onValueChange={setPermissions} name="permissions">
              <Stack gap="2.5" mt="1">
                {API_PERMISSIONS.map((permission) => (
                  <Checkbox.Root key={permission} value={permission} colorPalette="brand" alignItems="flex-start">
                    <Checkbox.HiddenInput />
                    <Checkbox.Control mt="0.5" />
                    <Stack gap="0">
                      <Checkbox.Label>{t(`account.apiKeys.permission.${permission}`)}</Checkbox.Label>
                      <Text fontSize="xs" color="fg.muted">
                        {t(`account.apiKeys.permissionHint.${permission}`)}
                      </Text>
                    </Stack>
                  </Checkbox.Root>
                ))}
              </Stack>
            </CheckboxGroup>
            <Fieldset.ErrorText>{errors.permissions}</Fieldset.ErrorText>
          </Fieldset.Root>
          <Field.Root invalid={Boolean(errors.ipWhitelist)}>
            <Field.Label fontWeight="medium">{t('account.apiKeys.ipWhitelist')}</Field.Label>
            <Textarea value={ips} onChange={(e) => setIps(e.currentTarget.value)} rows={3} fontFamily="mono" fontSize="sm" placeholder="203.0.113.7" />
            {!errors.ipWhitelist && <Field.HelperText>{t('account.apiKeys.ipHint')}</Field.HelperText>}
            <Field.ErrorText>{errors.ipWhitelist}</Field.ErrorText>
          </Field.Root>
          {permissions.includes('withdraw') && ips.trim() === '' && (
            <Alert.Root status="warning" rounded="lg" size="sm">
              <Alert.Indicator />
              <Alert.Title fontWeight="normal">{t('account.apiKeys.withdrawWarning')}</Alert.Title>
            </Alert.Root>
          )}
          <FormError message={errors.form} />
        </Stack>
      </Dialog.Body>
      <Dialog.Footer>
        <Button variant="outline" type="button" onClick={onCancel}>
          {t('account.actions.cancel')}
        </Button>
        <Button type="submit" colorPalette="brand" loading={create.isPending}>
          {t('account.apiKeys.create')}
        </Button>
      </Dialog.Footer>
    </form>
  );
}

function SecretRow({ label, value, copyLabel }: { label: string; value: string; copyLabel: string }) {
  return (
    <Stack gap="1">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Flex align="center" gap="2" bg="bg.subtle" borderWidth="1px" rounded="lg" ps="3" pe="1" py="1">
        <Code variant="plain" bg="transparent" px="0" flex="1" minW="0" wordBreak="break-all" whiteSpace="normal" fontSize="sm">
          {value}
        </Code>
        <CopyButton value={value} label={copyLabel} />
      </Flex>
    </Stack>
  );
}

/** A key's permissions as badges. */
function PermissionBadges({ permissions }: { permissions: string[] }) {
  const { t } = useTranslation();
  return (
    <HStack as="span" gap="1" flexWrap="wrap">
      {permissions.map((p) => (
        <Badge key={p} size="sm" variant="subtle" colorPalette={p === 'withdraw' ? 'orange' : p === 'trade' ? 'blue' : 'gray'}>
          {API_PERMISSIONS.includes(p as Permission) ? t(`account.apiKeys.permission.${p}`) : p}
        </Badge>
      ))}
    </HStack>
  );
}

/** The keys on a phone: a card per key with every column's figure and its buttons at touch size. */
function KeyCards({ keys, onDelete }: { keys: ApiKeyView[]; onDelete: (key: ApiKeyView) => void }) {
  const { t } = useTranslation();
  const formatDate = useDateTimeFormatter();
  return (
    <Box borderWidth="1px" rounded="lg" bg="bg.subtle">
      <CardList label={t('account.apiKeys.title')}>
        {keys.map((key) => (
          <ItemCard
            key={key.id}
            label={key.label}
            title={
              <Text fontWeight="semibold" overflowWrap="anywhere">
                {key.label}
              </Text>
            }
            fields={[
              {
                label: t('account.apiKeys.accessKey'),
                value: (
                  <Code as="span" variant="plain" bg="transparent" px="0" fontSize="xs" wordBreak="break-all" whiteSpace="normal">
                    {key.accessKey}
                  </Code>
                ),
                wide: true,
              },
              { label: t('account.apiKeys.permissions'), value: <PermissionBadges permissions={key.permissions} /> },
              { label: t('account.apiKeys.created'), value: formatDate(key.createdAt) },
              {
                label: t('account.apiKeys.ipWhitelist'),
                value: key.ipWhitelist.length ? key.ipWhitelist.join(', ') : t('account.apiKeys.anyIp'),
                color: key.ipWhitelist.length ? undefined : 'fg.muted',
                wide: true,
              },
            ]}
            actions={
              <>
                <CardButton aria-label={t('account.apiKeys.copyAccessKey')} onClick={() => void copyText(key.accessKey, t)}>
                  <CopyIcon />
                  {t('account.copy.action')}
                </CardButton>
                <CardButton colorPalette="red" aria-label={t('account.apiKeys.deleteNamed', { label: key.label })} onClick={() => onDelete(key)}>
                  <TrashIcon />
                  {t('account.actions.delete')}
                </CardButton>
              </>
            }
          />
        ))}
      </CardList>
    </Box>
  );
}

function KeysTable({ keys, onDelete }: { keys: ApiKeyView[]; onDelete: (key: ApiKeyView) => void }) {
  const { t } = useTranslation();
  const formatDate = useDateTimeFormatter();
  return (
    <Table.ScrollArea borderWidth="1px" rounded="lg">
      <Table.Root size="sm" aria-label={t('account.apiKeys.title')}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader>{t('account.apiKeys.label')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('account.apiKeys.accessKey')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('account.apiKeys.permissions')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('account.apiKeys.ipWhitelist')}</Table.ColumnHeader>
            <Table.ColumnHeader>{t('account.apiKeys.created')}</Table.ColumnHeader>
            <Table.ColumnHeader textAlign="end">
              <Box as="span" srOnly>
                {t('account.apiKeys.actions')}
              </Box>
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {keys.map((key) => (
            <Table.Row key={key.id}>
              <Table.Cell fontWeight="medium" maxW="48" truncate title={key.label}>
                {key.label}
              </Table.Cell>
              <Table.Cell>
                <HStack gap="1">
                  <Code variant="plain" bg="transparent" px="0" fontSize="xs" truncate maxW="40" title={key.accessKey}>
                    {key.accessKey}
                  </Code>
                  <CopyButton value={key.accessKey} label={t('account.apiKeys.copyAccessKey')} />
                </HStack>
              </Table.Cell>
              <Table.Cell>
                <PermissionBadges permissions={key.permissions} />
              </Table.Cell>
              <Table.Cell fontSize="xs" fontFamily={key.ipWhitelist.length ? 'mono' : undefined} color={key.ipWhitelist.length ? 'fg' : 'fg.muted'}>
                {key.ipWhitelist.length ? key.ipWhitelist.join(', ') : t('account.apiKeys.anyIp')}
              </Table.Cell>
              <Table.Cell fontSize="xs" whiteSpace="nowrap" fontVariantNumeric="tabular-nums">
                {formatDate(key.createdAt)}
              </Table.Cell>
              <Table.Cell textAlign="end">
                <IconButton size="xs" variant="ghost" colorPalette="red" aria-label={t('account.apiKeys.deleteNamed', { label: key.label })} onClick={() => onDelete(key)}>
                  <TrashIcon />
                </IconButton>
              </Table.Cell>
            </Table.Row>
          ))}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

export function ApiKeysSection() {
  const { t } = useTranslation();
  const head = useApiHead();
  const queryClient = useQueryClient();
  const withReauth = useReauth();
  const keys = useListApiKeys(head, { request: SILENT });
  const phone = useIsPhone();
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreatedApiKey | null>(null);
  const [deleting, setDeleting] = useState<ApiKeyView | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getListApiKeysQueryKey(head) });

  const remove = useMutation({
    mutationFn: (id: number) => withReauth(() => deleteApiKey(head, { id }, SILENT)),
    onSuccess: () => {
      setDeleting(null);
      toaster.create({ type: 'success', title: t('account.apiKeys.deleted') });
      void refresh();
    },
    onError: (error) => {
      if (isReauthCancelled(error)) return;
      toaster.create({ type: 'error', title: errorInfo(error)?.message ?? t('account.errors.generic') });
    },
  });

  return (
    <SectionCard
      title={t('account.apiKeys.title')}
      description={t('account.apiKeys.description')}
      icon={<KeyIcon boxSize="5" />}
      actions={
        <Button size="sm" colorPalette="brand" onClick={() => setCreating(true)}>
          <PlusIcon />
          {t('account.apiKeys.create')}
        </Button>
      }
    >
      {keys.isLoading ? (
        <Skeleton h="20" rounded="lg" />
      ) : keys.isError ? (
        <FormError message={t('account.apiKeys.loadFailed')} />
      ) : keys.data && keys.data.length > 0 ? (
        phone ? (
          <KeyCards keys={keys.data} onDelete={setDeleting} />
        ) : (
          <KeysTable keys={keys.data} onDelete={setDeleting} />
        )
      ) : (
        <EmptyState.Root size="sm" borderWidth="1px" borderStyle="dashed" rounded="lg">
          <EmptyState.Content>
            <EmptyState.Title fontSize="sm">{t('account.apiKeys.empty')}</EmptyState.Title>
            <EmptyState.Description fontSize="sm">{t('account.apiKeys.emptyHint')}</EmptyState.Description>
          </EmptyState.Content>
        </EmptyState.Root>
      )}

      <Dialog.Root open={creating} onOpenChange={(event) => setCreating(event.open)} placement="center" size="md" closeOnInteractOutside={false}>
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content rounded="xl" mx="4">
              <Dialog.Header>
                <Dialog.Title>{t('account.apiKeys.createTitle')}</Dialog.Title>
              </Dialog.Header>
              {creating && (
                <CreateKeyForm
                  onCancel={() => setCreating(false)}
                  onCreated={(key) => {
                    setCreating(false);
                    setCreated(key);
                    void refresh();
                  }}
                />
              )}
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>

      <Dialog.Root
        open={created !== null}
        onOpenChange={(event) => {
          if (!event.open) setCreated(null);
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
                <Dialog.Title>{t('account.apiKeys.secretTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                {created && (
                  <Stack gap="4">
                    <Alert.Root status="warning" rounded="lg">
                      <Alert.Indicator />
                      <Alert.Title fontWeight="normal">{t('account.apiKeys.secretOnce')}</Alert.Title>
                    </Alert.Root>
                    <SecretRow label={t('account.apiKeys.accessKey')} value={created.accessKey} copyLabel={t('account.apiKeys.copyAccessKey')} />
                    <SecretRow label={t('account.apiKeys.secretKey')} value={created.secret} copyLabel={t('account.apiKeys.copySecret')} />
                  </Stack>
                )}
              </Dialog.Body>
              <Dialog.Footer>
                <Button colorPalette="brand" onClick={() => setCreated(null)}>
                  {t('account.apiKeys.savedIt')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>

      <ConfirmDialog
        open={deleting !== null}
        title={t('account.apiKeys.deleteTitle', { label: deleting?.label ?? '' })}
        body={t('account.apiKeys.deleteBody')}
        confirmLabel={t('account.actions.delete')}
        busy={remove.isPending}
        onConfirm={() => deleting && remove.mutate(deleting.id)}
        onClose={() => setDeleting(null)}
      />
    </SectionCard>
  );
}
