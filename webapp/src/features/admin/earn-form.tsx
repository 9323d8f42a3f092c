/**
 * The operator's earn product form (create and edit): kind and tab, the staked and reward coins,
 * a name per language (English required), the rate and its basis, the term or flexible, the
 * early-redemption rule, the limits and quotas, and the subscription window (UTC). Editing a
 * product's rate makes a new rate version: running orders keep theirs. The server checks every
 * field and answers a refusal with the field at fault.
 *
 * @module
 */

import { Button, Checkbox, Dialog, Field, Grid, Input, NativeSelect, Portal, Stack, Text } from '@chakra-ui/react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { EarlyRedemption, Kind, ProductInput, ProductView, RateBasisInput, Tab } from '../../api/generated/model';
import { LANGUAGES } from '../../i18n/languages';

/** The form's text fields. */
export interface ProductDraft {
  kind: Kind;
  tab: Tab;
  asset: string;
  rewardAsset: string;
  names: Record<string, string>;
  rate: string;
  rateBasis: RateBasisInput;
  lockDays: string;
  flexible: boolean;
  earlyRedemption: EarlyRedemption;
  minAmount: string;
  maxAmount: string;
  totalQuota: string;
  perUserQuota: string;
  maxSubscriptions: string;
  startAt: string;
  endAt: string;
}

const DAY_MS = 86_400_000;

/** `YYYY-MM-DDTHH:mm` of `ms` in UTC (a `datetime-local` value read as UTC). */
export function toUtcInput(ms: number): string {
  return new Date(ms).toISOString().slice(0, 16);
}

/** The epoch ms of a `datetime-local` value read as UTC, or `NaN`. */
export function fromUtcInput(value: string): number {
  return Date.parse(`${value}:00Z`);
}

/** A new product's draft: open from now for 30 days. */
export function emptyDraft(now: number): ProductDraft {
  return {
    kind: 'pledge',
    tab: 'yield',
    asset: 'usdt',
    rewardAsset: '',
    names: { en: '' },
    rate: '0.001',
    rateBasis: 'daily',
    lockDays: '30',
    flexible: false,
    earlyRedemption: 'deduct',
    minAmount: '10',
    maxAmount: '10000',
    totalQuota: '1000000',
    perUserQuota: '',
    maxSubscriptions: '',
    startAt: toUtcInput(now),
    endAt: toUtcInput(now + 30 * DAY_MS),
  };
}

/** The draft of an existing product. */
export function draftOf(product: ProductView): ProductDraft {
  return {
    kind: product.kind,
    tab: product.tab ?? 'yield',
    asset: product.coin,
    rewardAsset: product.rewardCoin === product.coin ? '' : product.rewardCoin,
    names: { ...product.names },
    rate: product.rate,
    rateBasis: product.rateBasis === 'apr' ? 'apr' : 'daily',
    lockDays: String(product.lockDays),
    flexible: product.flexible,
    earlyRedemption: product.earlyRedemption,
    minAmount: product.particAmount,
    maxAmount: product.particLimitAmount,
    totalQuota: product.subscriAmount,
    perUserQuota: product.perUserQuota ?? '',
    maxSubscriptions: product.particLimitNum > 0 ? String(product.particLimitNum) : '',
    startAt: toUtcInput(product.startTime),
    endAt: toUtcInput(product.endTime),
  };
}

/** The call's body of a draft (empty names left out, optional limits absent when empty). */
export function inputOf(draft: ProductDraft): ProductInput {
  const names = Object.fromEntries(Object.entries(draft.names).filter(([, name]) => name.trim() !== '').map(([code, name]) => [code, name.trim()]));
  return {
    kind: draft.kind,
    tab: draft.kind === 'wealth' ? draft.tab : undefined,
    asset: draft.asset.trim().toLowerCase(),
    rewardAsset: draft.kind === 'defi' && draft.rewardAsset.trim() ? draft.rewardAsset.trim().toLowerCase() : undefined,
    names,
    rate: draft.rate.trim(),
    rateBasis: draft.rateBasis,
    lockDays: Number(draft.lockDays),
    flexible: draft.flexible,
    earlyRedemption: draft.earlyRedemption,
    minAmount: draft.minAmount.trim(),
    maxAmount: draft.maxAmount.trim(),
    totalQuota: draft.totalQuota.trim(),
    perUserQuota: draft.perUserQuota.trim() || undefined,
    maxSubscriptions: draft.maxSubscriptions.trim() ? Number(draft.maxSubscriptions) : undefined,
    startAt: fromUtcInput(draft.startAt),
    endAt: fromUtcInput(draft.endAt),
  };
}

function TextField({ label, value, onChange, type = 'text', error }: { label: string; value: string; onChange: (v: string) => void; type?: string; error?: string }) {
  return (
    <Field.Root invalid={Boolean(error)}>
      <Field.Label fontSize="xs">{label}</Field.Label>
      <Input size="sm" type={type} value={value} onChange={(event) => onChange(event.currentTarget.value)} />
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

function Select<T extends string>({ label, value, options, onChange }: { label: string; value: T; options: { value: T; label: string }[]; onChange: (v: T) => void }) {
  return (
    <Field.Root>
      <Field.Label fontSize="xs">{label}</Field.Label>
      <NativeSelect.Root size="sm">
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.currentTarget.value as T)}>
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
    </Field.Root>
  );
}

/** The form in a dialog; `onSave` sends it and answers the refusal's message and field, if any. */
export function ProductFormDialog({
  title,
  initial,
  onSave,
  onClose,
}: {
  title: string;
  initial: ProductDraft;
  onSave: (input: ProductInput) => Promise<{ message: string; field?: string } | null>;
  onClose: () => void;
}) {
  const { t } = useTranslation();
  const [draft, setDraft] = useState(initial);
  const [busy, setBusy] = useState(false);
  const [refusal, setRefusal] = useState<{ message: string; field?: string } | null>(null);
  const set = <K extends keyof ProductDraft>(key: K, value: ProductDraft[K]) => setDraft((d) => ({ ...d, [key]: value }));
  const errorOf = (field: string) => (refusal?.field === field ? refusal.message : undefined);
  const save = async () => {
    setBusy(true);
    const answer = await onSave(inputOf(draft));
    setBusy(false);
    setRefusal(answer);
  };
  const f = (key: string) => t(`earn.admin.fields.${key}`);
  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} size={{ base: 'full', md: 'xl' }} scrollBehavior="inside" placement="center">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{title}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="4">
                <Grid gap="3" templateColumns={{ base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }}>
                  <Select
                    label={f('kind')}
                    value={draft.kind}
                    options={(['pledge', 'defi', 'wealth'] as const).map((k) => ({ value: k, label: t(`earn.admin.kinds.${k}`) }))}
                    onChange={(v) => set('kind', v)}
                  />
                  {draft.kind === 'wealth' && (
                    <Select
                      label={f('tab')}
                      value={draft.tab}
                      options={(['yield', 'member', 'standard'] as const).map((k) => ({ value: k, label: t(`earn.finance.tabs.${k}`) }))}
                      onChange={(v) => set('tab', v)}
                    />
                  )}
                  <TextField label={f('asset')} value={draft.asset} onChange={(v) => set('asset', v)} error={errorOf('asset')} />
                  {draft.kind === 'defi' && <TextField label={f('rewardAsset')} value={draft.rewardAsset} onChange={(v) => set('rewardAsset', v)} error={errorOf('rewardAsset')} />}
                  <TextField label={f('rate')} value={draft.rate} onChange={(v) => set('rate', v)} error={errorOf('rate')} />
                  <Select
                    label={f('rateBasis')}
                    value={draft.rateBasis}
                    options={[
                      { value: 'daily', label: f('daily') },
                      { value: 'apr', label: f('aprBasis') },
                    ]}
                    onChange={(v) => set('rateBasis', v as RateBasisInput)}
                  />
                  <TextField label={f('lockDays')} value={draft.lockDays} onChange={(v) => set('lockDays', v)} error={errorOf('lockDays')} />
                  <Select
                    label={f('earlyRedemption')}
                    value={draft.earlyRedemption}
                    options={(['forbidden', 'deduct', 'keep'] as const).map((k) => ({ value: k, label: t(`earn.admin.rules.${k}`) }))}
                    onChange={(v) => set('earlyRedemption', v)}
                  />
                  <TextField label={f('minAmount')} value={draft.minAmount} onChange={(v) => set('minAmount', v)} error={errorOf('minAmount')} />
                  <TextField label={f('maxAmount')} value={draft.maxAmount} onChange={(v) => set('maxAmount', v)} error={errorOf('maxAmount')} />
                  <TextField label={f('totalQuota')} value={draft.totalQuota} onChange={(v) => set('totalQuota', v)} error={errorOf('totalQuota')} />
                  <TextField label={f('perUserQuota')} value={draft.perUserQuota} onChange={(v) => set('perUserQuota', v)} error={errorOf('perUserQuota')} />
                  <TextField label={f('maxSubscriptions')} value={draft.maxSubscriptions} onChange={(v) => set('maxSubscriptions', v)} error={errorOf('maxSubscriptions')} />
                  <TextField label={f('startAt')} type="datetime-local" value={draft.startAt} onChange={(v) => set('startAt', v)} error={errorOf('startAt')} />
                  <TextField label={f('endAt')} type="datetime-local" value={draft.endAt} onChange={(v) => set('endAt', v)} error={errorOf('endAt')} />
                </Grid>
                <Checkbox.Root checked={draft.flexible} onCheckedChange={(details) => set('flexible', details.checked === true)}>
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label fontSize="sm">{f('flexible')}</Checkbox.Label>
                </Checkbox.Root>
                <Text fontSize="xs" color="fg.muted">
                  {t('earn.admin.rateNote')}
                </Text>
                <Stack gap="2" as="fieldset">
                  <Text as="legend" fontSize="sm" fontWeight="semibold" mb="1">
                    {f('names')}
                  </Text>
                  <Grid gap="2" templateColumns={{ base: '1fr', sm: 'repeat(2, minmax(0, 1fr))' }}>
                    {LANGUAGES.map((language) => (
                      <TextField
                        key={language.code}
                        label={t('earn.admin.fields.nameIn', { language: language.name })}
                        value={draft.names[language.code] ?? ''}
                        onChange={(v) => set('names', { ...draft.names, [language.code]: v })}
                        error={language.code === 'en' ? errorOf('names') : undefined}
                      />
                    ))}
                  </Grid>
                </Stack>
                {refusal && !refusal.field && (
                  <Text role="alert" color="fg.error" fontSize="sm">
                    {refusal.message}
                  </Text>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('earn.admin.cancel')}
              </Button>
              <Button colorPalette="brand" loading={busy} onClick={() => void save()}>
                {t('earn.admin.save')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}
