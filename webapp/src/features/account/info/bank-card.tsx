/**
 * The bank card of the info tab: a form (card number and bank name required; bank address or
 * phone, SWIFT code, branch, home address optional) validated by wasm-core, confirmed once more
 * because a bound card cannot be changed; once bound, the card is shown read-only with its number
 * masked.
 *
 * @module
 */

import { Alert, Box, Button, DataList, Dialog, Grid, Portal, Skeleton, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getGetBankCardQueryKey, useBindBankCard, useGetBankCard } from '../../../api/generated/kyc/kyc';
import type { BankCard, BankCardRequest } from '../../../api/generated/model';
import { toaster } from '../../../lib/toaster';
import { fieldErrors, validateBankCardForm } from '../../../lib/wasm';
import { type FormErrors, FormError, TextField } from '../components/form';
import { CardIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { SILENT, serverFieldErrors, useApiHead } from '../lib/api';
import { useDateTimeFormatter } from '../lib/format';
import { isReauthCancelled, useReauth } from '../reauth/reauth';

const FIELDS = ['cardNumber', 'bankName', 'bankAddress', 'bankPhone', 'swiftCode', 'branch', 'homeAddress'] as const;
type BankField = (typeof FIELDS)[number];
const REQUIRED: readonly BankField[] = ['cardNumber', 'bankName'];
const EMPTY: Record<BankField, string> = { cardNumber: '', bankName: '', bankAddress: '', bankPhone: '', swiftCode: '', branch: '', homeAddress: '' };

/** The request of a filled-in form: trimmed values, optional ones left out when empty. */
export function bankCardRequest(form: Record<BankField, string>): BankCardRequest {
  const optional = (value: string) => (value.trim() === '' ? undefined : value.trim());
  return {
    cardNumber: form.cardNumber.trim(),
    bankName: form.bankName.trim(),
    bankAddress: optional(form.bankAddress),
    bankPhone: optional(form.bankPhone),
    swiftCode: optional(form.swiftCode),
    branch: optional(form.branch),
    homeAddress: optional(form.homeAddress),
  };
}

function BoundCard({ card }: { card: BankCard }) {
  const { t } = useTranslation();
  const formatDate = useDateTimeFormatter();
  const rows: [string, string | null | undefined][] = [
    [t('account.bankCard.cardNumber'), card.cardNumber],
    [t('account.bankCard.bankName'), card.bankName],
    [t('account.bankCard.bankAddress'), card.bankAddress],
    [t('account.bankCard.bankPhone'), card.bankPhone],
    [t('account.bankCard.swiftCode'), card.swiftCode],
    [t('account.bankCard.branch'), card.branch],
    [t('account.bankCard.homeAddress'), card.homeAddress],
    [t('account.bankCard.boundAt'), formatDate(card.createdAt)],
  ];
  return (
    <Stack gap="4">
      <DataList.Root orientation="horizontal" gap="3" css={{ '--data-list-label-width': 'minmax(8rem, 30%)' }}>
        {rows
          .filter(([, value]) => value)
          .map(([label, value]) => (
            <DataList.Item key={label}>
              <DataList.ItemLabel>{label}</DataList.ItemLabel>
              <DataList.ItemValue fontVariantNumeric="tabular-nums" wordBreak="break-word">
                {value}
              </DataList.ItemValue>
            </DataList.Item>
          ))}
      </DataList.Root>
      <Alert.Root status="info" rounded="lg" size="sm">
        <Alert.Indicator />
        <Alert.Title fontWeight="normal">{t('account.bankCard.cannotChange')}</Alert.Title>
      </Alert.Root>
    </Stack>
  );
}

function BankCardForm() {
  const { t } = useTranslation();
  const head = useApiHead();
  const queryClient = useQueryClient();
  const withReauth = useReauth();
  const bind = useBindBankCard({ request: SILENT });
  const [form, setForm] = useState(EMPTY);
  const [errors, setErrors] = useState<FormErrors>({});
  const [confirming, setConfirming] = useState(false);

  const set = (field: BankField) => (event: React.ChangeEvent<HTMLInputElement>) => {
    const value = event.currentTarget.value;
    setForm((current) => ({ ...current, [field]: value }));
  };

  const check = () => {
    const found = validateBankCardForm(bankCardRequest(form));
    const byField = fieldErrors(t, found);
    if (found.some((error) => error.code === 'field_required')) byField.form = t('account.bankCard.requiredFields');
    setErrors(byField);
    if (found.length === 0) setConfirming(true);
  };

  const submit = async () => {
    try {
      const card = await withReauth(() => bind.mutateAsync({ head, data: bankCardRequest(form) }));
      setConfirming(false);
      queryClient.setQueryData(getGetBankCardQueryKey(head), card);
      toaster.create({ type: 'success', title: t('account.bankCard.bound') });
    } catch (error) {
      setConfirming(false);
      if (isReauthCancelled(error)) return;
      setErrors(serverFieldErrors(error, FIELDS, {}, t('account.errors.generic')));
    }
  };

  const field = (name: BankField, extra: { inputMode?: 'numeric' | 'tel'; autoComplete?: string } = {}) => (
    <TextField
      key={name}
      label={t(`account.bankCard.${name}`)}
      value={form[name]}
      onChange={set(name)}
      error={errors[name]}
      required={REQUIRED.includes(name)}
      {...extra}
    />
  );

  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        check();
      }}
    >
      <Stack gap="5">
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(2, minmax(0, 1fr))' }} gap="4">
          {field('cardNumber', { inputMode: 'numeric', autoComplete: 'cc-number' })}
          {field('bankName')}
          {field('bankAddress')}
          {field('bankPhone', { inputMode: 'tel' })}
          {field('swiftCode')}
          {field('branch')}
          <Box gridColumn={{ md: 'span 2' }}>{field('homeAddress', { autoComplete: 'street-address' })}</Box>
        </Grid>
        <FormError message={errors.form} />
        <Text fontSize="sm" color="fg.muted">
          {t('account.bankCard.onceNote')}
        </Text>
        <Button type="submit" colorPalette="brand" alignSelf="flex-start" size="md">
          {t('account.bankCard.submit')}
        </Button>
      </Stack>

      <Dialog.Root open={confirming} onOpenChange={(event) => setConfirming(event.open)} placement="center" size="sm" role="alertdialog">
        <Portal>
          <Dialog.Backdrop />
          <Dialog.Positioner>
            <Dialog.Content rounded="xl" mx="4">
              <Dialog.Header>
                <Dialog.Title>{t('account.bankCard.confirmTitle')}</Dialog.Title>
              </Dialog.Header>
              <Dialog.Body>
                <Stack gap="3">
                  <Text color="fg.muted" fontSize="sm">
                    {t('account.bankCard.confirmBody')}
                  </Text>
                  <DataList.Root orientation="horizontal" gap="2">
                    <DataList.Item>
                      <DataList.ItemLabel>{t('account.bankCard.cardNumber')}</DataList.ItemLabel>
                      <DataList.ItemValue fontFamily="mono">{form.cardNumber.trim()}</DataList.ItemValue>
                    </DataList.Item>
                    <DataList.Item>
                      <DataList.ItemLabel>{t('account.bankCard.bankName')}</DataList.ItemLabel>
                      <DataList.ItemValue>{form.bankName.trim()}</DataList.ItemValue>
                    </DataList.Item>
                  </DataList.Root>
                </Stack>
              </Dialog.Body>
              <Dialog.Footer>
                <Button variant="outline" onClick={() => setConfirming(false)}>
                  {t('account.actions.cancel')}
                </Button>
                <Button colorPalette="brand" loading={bind.isPending} onClick={() => void submit()}>
                  {t('account.bankCard.confirm')}
                </Button>
              </Dialog.Footer>
            </Dialog.Content>
          </Dialog.Positioner>
        </Portal>
      </Dialog.Root>
    </form>
  );
}

export function BankCardSection() {
  const { t } = useTranslation();
  const head = useApiHead();
  const card = useGetBankCard(head, { request: SILENT });
  return (
    <SectionCard title={t('account.bankCard.title')} description={t('account.bankCard.description')} icon={<CardIcon boxSize="5" />}>
      {card.isLoading ? (
        <Skeleton h="24" rounded="lg" />
      ) : card.isError ? (
        <FormError message={t('account.bankCard.loadFailed')} />
      ) : card.data ? (
        <BoundCard card={card.data} />
      ) : (
        <BankCardForm />
      )}
    </SectionCard>
  );
}
