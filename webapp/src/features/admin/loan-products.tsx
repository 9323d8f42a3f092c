/**
 * The operator's loan products and lending pool (`/admin?queue=loans`): every product with its
 * coin, limits, cycles, daily rate, ways and state; create and edit in a form, close and reopen
 * (`POST /api/admin/loans/products[/{id}]`); the lending pool's balance per coin
 * (`GET /api/admin/loans/pool`) and funding it from the house (`POST /api/admin/loans/pool/fund`).
 *
 * @module
 */

import { Badge, Box, Button, Checkbox, Dialog, Field, Flex, Input, NativeSelect, Portal, Stack, Table, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import {
  getAdminGetLoanPoolQueryKey,
  getAdminListLoanProductsQueryKey,
  useAdminCreateLoanProduct,
  useAdminFundLoanPool,
  useAdminGetLoanPool,
  useAdminListLoanProducts,
  useAdminUpdateLoanProduct,
} from '../../api/generated/admin-loans/admin-loans';
import type { AdminLoanProduct } from '../../api/generated/model';
import { SILENT, failure } from '../../lib/api-calls';
import { invalidateOperations } from '../../lib/query-keys';
import { toaster } from '../../lib/toaster';
import { formatQuantity } from '../../lib/wasm';
import { type LoanDraft, emptyLoanDraft, fractionToPercentText, loanDraftOf, loanFormOf } from './loan-form';

const WAYS = ['maturity', 'interest_daily', 'equal_instalments'] as const;

function TextField({ label, value, onChange, name }: { label: string; value: string; onChange: (value: string) => void; name: string }) {
  return (
    <Field.Root>
      <Field.Label fontSize="xs">{label}</Field.Label>
      <Input size="sm" name={name} value={value} onChange={(event) => onChange(event.currentTarget.value)} />
    </Field.Root>
  );
}

function ProductDialog({ product, onClose }: { product: AdminLoanProduct | null; onClose: () => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const create = useAdminCreateLoanProduct({ request: SILENT });
  const update = useAdminUpdateLoanProduct({ request: SILENT });
  const [draft, setDraft] = useState<LoanDraft>(product ? loanDraftOf(product) : emptyLoanDraft());
  const [error, setError] = useState<string | null>(null);
  const set = (part: Partial<LoanDraft>) => setDraft((old) => ({ ...old, ...part }));
  const text = (key: keyof LoanDraft & string) => <TextField name={key} label={t(`loans.admin.fields.${key}`)} value={String(draft[key])} onChange={(value) => set({ [key]: value })} />;

  const save = async () => {
    const form = loanFormOf(draft, product?.settings.names ?? {});
    try {
      if (product) await update.mutateAsync({ id: product.id, data: form });
      else await create.mutateAsync({ data: form });
      toaster.create({ type: 'success', title: t('loans.admin.saved') });
      void invalidateOperations(queryClient, [getAdminListLoanProductsQueryKey()]);
      onClose();
    } catch (caught) {
      setError(failure(caught, t('errors.unknown')).message);
    }
  };

  return (
    <Dialog.Root open onOpenChange={(details) => !details.open && onClose()} placement="center" size={{ base: 'full', sm: 'lg' }} scrollBehavior="inside">
      <Portal>
        <Dialog.Backdrop />
        <Dialog.Positioner>
          <Dialog.Content>
            <Dialog.Header>
              <Dialog.Title>{product ? t('loans.admin.edit') : t('loans.admin.create')}</Dialog.Title>
            </Dialog.Header>
            <Dialog.Body>
              <Stack gap="3">
                {text('name')}
                <Flex gap="3">
                  {text('coin')}
                  {text('scale')}
                </Flex>
                <Flex gap="3">
                  {text('minAmount')}
                  {text('maxAmount')}
                </Flex>
                {text('cycles')}
                <Flex gap="3">
                  {text('dayRatePercent')}
                  {text('penaltyRatePercent')}
                </Flex>
                <Flex gap="3">
                  {text('graceDays')}
                  {text('minCreditScore')}
                </Flex>
                <Field.Root>
                  <Field.Label fontSize="xs">{t('loans.admin.fields.kycLevel')}</Field.Label>
                  <NativeSelect.Root size="sm">
                    <NativeSelect.Field name="kycLevel" value={draft.kycLevel} onChange={(event) => set({ kycLevel: event.currentTarget.value })}>
                      {['0', '1', '2'].map((level) => (
                        <option key={level} value={level}>
                          {t(`loans.kyc.${level}`)}
                        </option>
                      ))}
                    </NativeSelect.Field>
                    <NativeSelect.Indicator />
                  </NativeSelect.Root>
                </Field.Root>
                {text('institution')}
                <Stack gap="1" role="group" aria-label={t('loans.product.ways')}>
                  <Text fontSize="xs">{t('loans.product.ways')}</Text>
                  {WAYS.map((way) => (
                    <Checkbox.Root
                      key={way}
                      size="sm"
                      checked={draft.repayWays.includes(way)}
                      onCheckedChange={(details) => set({ repayWays: details.checked === true ? [...draft.repayWays, way] : draft.repayWays.filter((w) => w !== way) })}
                    >
                      <Checkbox.HiddenInput />
                      <Checkbox.Control />
                      <Checkbox.Label>{t(`loans.ways.${way}`)}</Checkbox.Label>
                    </Checkbox.Root>
                  ))}
                </Stack>
                <Checkbox.Root size="sm" checked={draft.enabled} onCheckedChange={(details) => set({ enabled: details.checked === true })}>
                  <Checkbox.HiddenInput />
                  <Checkbox.Control />
                  <Checkbox.Label>{t('loans.admin.fields.enabled')}</Checkbox.Label>
                </Checkbox.Root>
                {error && (
                  <Text role="alert" color="fg.error" fontSize="sm">
                    {error}
                  </Text>
                )}
              </Stack>
            </Dialog.Body>
            <Dialog.Footer>
              <Button variant="outline" onClick={onClose}>
                {t('loans.repay.cancel')}
              </Button>
              <Button colorPalette="brand" loading={create.isPending || update.isPending} onClick={() => void save()}>
                {t('loans.admin.save')}
              </Button>
            </Dialog.Footer>
          </Dialog.Content>
        </Dialog.Positioner>
      </Portal>
    </Dialog.Root>
  );
}

function LendingPool() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const pool = useAdminGetLoanPool();
  const fund = useAdminFundLoanPool({ request: SILENT });
  const [coin, setCoin] = useState('usdt');
  const [amount, setAmount] = useState('');
  const submit = async () => {
    try {
      await fund.mutateAsync({ data: { coin: coin.trim().toLowerCase(), amount: amount.trim() } });
      toaster.create({ type: 'success', title: t('loans.admin.funded') });
      setAmount('');
      void invalidateOperations(queryClient, [getAdminGetLoanPoolQueryKey()]);
    } catch (caught) {
      toaster.create({ type: 'error', title: failure(caught, t('errors.unknown')).message });
    }
  };
  return (
    <Stack as="section" aria-labelledby="loan-pool-heading" gap="3" borderWidth="1px" rounded="xl" bg="bg.panel" p="4">
      <Text as="h2" id="loan-pool-heading" fontWeight="semibold">
        {t('loans.admin.pool')}
      </Text>
      <Box as="dl">
        {(pool.data ?? []).map((row) => (
          <Flex key={row.coin} justify="space-between" gap="3">
            <Text as="dt" color="fg.muted" fontSize="sm">
              {row.coin.toUpperCase()}
            </Text>
            <Text as="dd" fontSize="sm" fontWeight="semibold" data-testid={`pool-${row.coin}`}>
              {formatQuantity(row.balance)}
            </Text>
          </Flex>
        ))}
      </Box>
      <Flex gap="2" wrap="wrap" align="end">
        <Box w="24">
          <TextField name="poolCoin" label={t('loans.admin.fields.coin')} value={coin} onChange={setCoin} />
        </Box>
        <Box flex="1" minW="32">
          <TextField name="poolAmount" label={t('loans.admin.fundAmount')} value={amount} onChange={setAmount} />
        </Box>
        <Button size="sm" colorPalette="brand" loading={fund.isPending} disabled={!amount.trim()} onClick={() => void submit()}>
          {t('loans.admin.fund')}
        </Button>
      </Flex>
    </Stack>
  );
}

/** The loan products and the lending pool. */
export function LoanProducts() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const list = useAdminListLoanProducts();
  const update = useAdminUpdateLoanProduct({ request: SILENT });
  const [editing, setEditing] = useState<AdminLoanProduct | 'new' | null>(null);
  const toggle = async (product: AdminLoanProduct) => {
    try {
      await update.mutateAsync({ id: product.id, data: { ...product.settings, enabled: !product.settings.enabled } });
      void invalidateOperations(queryClient, [getAdminListLoanProductsQueryKey()]);
    } catch (caught) {
      toaster.create({ type: 'error', title: failure(caught, t('errors.unknown')).message });
    }
  };
  return (
    <Stack gap="4">
      <LendingPool />
      <Flex justify="space-between" align="center" gap="2">
        <Text as="h2" fontWeight="semibold">
          {t('loans.admin.products')}
        </Text>
        <Button size="sm" colorPalette="brand" onClick={() => setEditing('new')}>
          {t('loans.admin.create')}
        </Button>
      </Flex>
      <Box overflowX="auto" borderWidth="1px" rounded="xl">
        <Table.Root size="sm">
          <Table.Header>
            <Table.Row>
              <Table.ColumnHeader>{t('loans.admin.fields.name')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('loans.product.amount')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('loans.product.cycles')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('loans.product.dayRate')}</Table.ColumnHeader>
              <Table.ColumnHeader>{t('loans.detail.state')}</Table.ColumnHeader>
              <Table.ColumnHeader />
            </Table.Row>
          </Table.Header>
          <Table.Body>
            {(list.data ?? []).map((product) => (
              <Table.Row key={product.id}>
                <Table.Cell>{product.settings.names.en}</Table.Cell>
                <Table.Cell whiteSpace="nowrap">
                  {formatQuantity(product.settings.minAmount)} – {formatQuantity(product.settings.maxAmount)} {product.settings.coin.toUpperCase()}
                </Table.Cell>
                <Table.Cell>{product.settings.cycles.join(', ')}</Table.Cell>
                <Table.Cell>{fractionToPercentText(product.settings.dayRate)}%</Table.Cell>
                <Table.Cell>
                  <Badge colorPalette={product.settings.enabled ? 'green' : 'gray'}>{t(product.settings.enabled ? 'loans.admin.open' : 'loans.admin.closed')}</Badge>
                </Table.Cell>
                <Table.Cell>
                  <Flex gap="1" justify="end">
                    <Button size="xs" variant="outline" onClick={() => setEditing(product)}>
                      {t('loans.admin.edit')}
                    </Button>
                    <Button size="xs" variant="ghost" onClick={() => void toggle(product)}>
                      {t(product.settings.enabled ? 'loans.admin.close' : 'loans.admin.reopen')}
                    </Button>
                  </Flex>
                </Table.Cell>
              </Table.Row>
            ))}
          </Table.Body>
        </Table.Root>
      </Box>
      {editing && <ProductDialog product={editing === 'new' ? null : editing} onClose={() => setEditing(null)} />}
    </Stack>
  );
}
