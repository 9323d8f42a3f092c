/**
 * The merchant application (`POST /api/merchant/apply`, state from `GET /api/merchant/mine`): what
 * a merchant gets, then the form — business name, contact, what the business does, the countries
 * it serves — checked as the server checks it (`form.ts`) with each error under its field; the
 * pending state with what was sent; a rejection with the operator's reason and the form again,
 * filled with the last application (the server reopens a rejected application).
 *
 * @module
 */

import { Alert, Button, Field, Grid, Stack, Text, Textarea, chakra } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getMyMerchantQueryKey, useMerchantApply } from '../../../api/generated/merchant/merchant';
import type { MerchantRecord } from '../../../api/generated/model';
import { SILENT } from '../../../lib/api-calls';
import { toaster } from '../../../lib/toaster';
import { FormError, TextField } from '../components/form';
import { StoreIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { serverFieldErrors } from '../lib/api';
import { useDateTimeFormatter } from '../lib/format';
import { Pair } from './merchant-tool';
import { EMPTY_DRAFT, MERCHANT_FIELDS, MERCHANT_LIMITS, type MerchantDraft, type MerchantField, checkMerchantDraft } from './form';

/** What becoming a merchant brings, in three lines. */
function Benefits() {
  const { t } = useTranslation();
  return (
    <Grid as="ul" listStyleType="none" templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' }} gap="3">
      {(['rate', 'customers', 'link'] as const).map((key) => (
        <Stack as="li" key={key} gap="1" p="4" rounded="lg" borderWidth="1px" bg="bg.subtle">
          <Text fontWeight="semibold" fontSize="sm">
            {t(`tiers.merchant.benefits.${key}`)}
          </Text>
          <Text fontSize="sm" color="fg.muted">
            {t(`tiers.merchant.benefits.${key}Hint`)}
          </Text>
        </Stack>
      ))}
    </Grid>
  );
}

/** What the user sent, as a list. */
function Sent({ record }: { record: MerchantRecord }) {
  const { t } = useTranslation();
  return (
    <Grid as="dl" templateColumns={{ base: 'minmax(0, 1fr)', md: '12rem minmax(0, 1fr)' }} columnGap="4" rowGap={{ base: '1', md: '3' }} fontSize="sm">
      {MERCHANT_FIELDS.map((field) => (
        <Pair key={field} label={t(`tiers.merchant.fields.${field}`)} value={record[field]} />
      ))}
    </Grid>
  );
}

function ApplicationForm({ initial }: { initial: MerchantDraft }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const apply = useMerchantApply({ request: SILENT });
  const [draft, setDraft] = useState<MerchantDraft>(initial);
  const [errors, setErrors] = useState<Record<string, string>>({});

  const set = (field: MerchantField) => (value: string) => {
    setDraft((current) => ({ ...current, [field]: value }));
    setErrors((current) => {
      const next = { ...current };
      delete next[field];
      delete next.form;
      return next;
    });
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const checked = checkMerchantDraft(draft);
    if (!checked.ok) {
      setErrors(
        Object.fromEntries(
          Object.entries(checked.errors).map(([field, error]) => [
            field,
            error === 'required' ? t('tiers.merchant.errors.required') : t('tiers.merchant.errors.tooLong', { max: MERCHANT_LIMITS[field as MerchantField] }),
          ]),
        ),
      );
      return;
    }
    setErrors({});
    try {
      await apply.mutateAsync({ data: checked.form });
      toaster.create({ type: 'success', title: t('tiers.merchant.sent') });
      await queryClient.invalidateQueries({ queryKey: getMyMerchantQueryKey() });
    } catch (caught) {
      setErrors(serverFieldErrors(caught, MERCHANT_FIELDS, {}, t('tiers.merchant.errors.failed')));
    }
  };

  const hint = (field: MerchantField) => t('tiers.merchant.counter', { count: [...draft[field]].length, max: MERCHANT_LIMITS[field] });
  return (
    <chakra.form onSubmit={submit} noValidate aria-label={t('tiers.merchant.formTitle')}>
      <Stack gap="4" maxW="2xl">
        <FormError message={errors.form} />
        <TextField
          label={t('tiers.merchant.fields.businessName')}
          value={draft.businessName}
          onChange={(e) => set('businessName')(e.target.value)}
          error={errors.businessName}
          helper={hint('businessName')}
          required
          autoComplete="organization"
        />
        <TextField
          label={t('tiers.merchant.fields.contact')}
          value={draft.contact}
          onChange={(e) => set('contact')(e.target.value)}
          error={errors.contact}
          helper={t('tiers.merchant.fields.contactHint')}
          required
        />
        <Field.Root invalid={Boolean(errors.business)} required>
          <Field.Label fontWeight="medium">
            {t('tiers.merchant.fields.business')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Textarea size="lg" rows={4} value={draft.business} onChange={(e) => set('business')(e.target.value)} />
          {!errors.business && <Field.HelperText>{`${t('tiers.merchant.fields.businessHint')} ${hint('business')}`}</Field.HelperText>}
          <Field.ErrorText>{errors.business}</Field.ErrorText>
        </Field.Root>
        <TextField
          label={t('tiers.merchant.fields.countries')}
          value={draft.countries}
          onChange={(e) => set('countries')(e.target.value)}
          error={errors.countries}
          helper={t('tiers.merchant.fields.countriesHint')}
          required
          autoComplete="off"
        />
        <Button type="submit" colorPalette="brand" alignSelf="flex-start" loading={apply.isPending}>
          {t('tiers.merchant.submit')}
        </Button>
      </Stack>
    </chakra.form>
  );
}

export function MerchantApplication({ application }: { application?: MerchantRecord }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  if (application?.status === 'pending') {
    return (
      <>
        <Alert.Root status="info" rounded="lg">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('tiers.merchant.pendingTitle')}</Alert.Title>
            <Alert.Description>{t('tiers.merchant.pendingBody', { time: formatTime(application.createdAt) })}</Alert.Description>
          </Alert.Content>
        </Alert.Root>
        <SectionCard title={t('tiers.merchant.sentTitle')} icon={<StoreIcon boxSize="5" />}>
          <Sent record={application} />
        </SectionCard>
      </>
    );
  }
  const rejected = application?.status === 'rejected';
  return (
    <>
      {rejected && (
        <Alert.Root status="warning" rounded="lg">
          <Alert.Indicator />
          <Alert.Content>
            <Alert.Title>{t('tiers.merchant.rejectedTitle')}</Alert.Title>
            <Alert.Description>
              <Stack gap="1">
                <Text>{t('tiers.merchant.rejectedReason', { reason: application.reason ?? '—' })}</Text>
                <Text>{t('tiers.merchant.rejectedAgain')}</Text>
              </Stack>
            </Alert.Description>
          </Alert.Content>
        </Alert.Root>
      )}
      {!rejected && <Benefits />}
      <SectionCard title={t('tiers.merchant.formTitle')} description={t('tiers.merchant.formDescription')} icon={<StoreIcon boxSize="5" />}>
        <ApplicationForm
          initial={
            application
              ? { businessName: application.businessName, contact: application.contact, business: application.business, countries: application.countries }
              : EMPTY_DRAFT
          }
        />
      </SectionCard>
    </>
  );
}
