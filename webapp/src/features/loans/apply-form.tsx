/**
 * The apply form of one product (`POST /api/loan/apply`): the amount (its limits and what the
 * credit score allows), the cycle, the repayment way, the schedule preview from wasm-core's
 * `LoanCalculator` before anything is sent (each instalment's date and amount, the total interest;
 * a card per instalment on a phone), the overdue rule in plain words, the three identity images
 * (uploaded here, or the advanced identity's), the loan rules checkbox and the submit button,
 * which names what is still missing while it stays disabled. A refusal shows the server's message
 * in the user's language.
 *
 * @module
 */

import { Box, Button, Checkbox, Field, Flex, Link, NativeSelect, Stack, Table, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import type { TFunction } from 'i18next';
import { useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate } from 'react-router';
import { useUploadFile } from '../../api/generated/kyc/kyc';
import { getGetLoanProductsQueryKey, getGetMyLoanApplicationsQueryKey, useApplyForLoan } from '../../api/generated/loans/loans';
import type { LoanOffer } from '../../api/generated/model';
import { CardList, ItemCard } from '../../components/item-cards';
import { NumberField } from '../../components/number-field';
import { useIsPhone } from '../../hooks/use-is-phone';
import { useNow } from '../../hooks/use-now';
import { SILENT, failure } from '../../lib/api-calls';
import { invalidateOperations } from '../../lib/query-keys';
import { toaster } from '../../lib/toaster';
import { formatQuantity } from '../../lib/wasm';
import { applySchedule, penaltyRule } from './lib/preview';
import { type AmountProblem, type ApplyDraft, amountProblem, missingSteps } from './lib/rules';
import { Row, coinAmount, utcDay } from './parts';

const DOCUMENTS = ['front', 'back', 'hold'] as const;

function problemText(t: TFunction, problem: AmountProblem, coin: string): string {
  if (problem.kind === 'format') return t('loans.apply.problem.format');
  return t(`loans.apply.problem.${problem.kind}`, { amount: formatQuantity(problem.amount), coin });
}

/** One identity image: a file picker that uploads at once and says when it is in. */
function DocumentField({ side, fileId, onUploaded }: { side: (typeof DOCUMENTS)[number]; fileId?: number; onUploaded: (id: number | undefined) => void }) {
  const { t } = useTranslation();
  const upload = useUploadFile({ request: SILENT });
  const [error, setError] = useState<string | null>(null);
  const [name, setName] = useState<string | null>(null);
  const input = useRef<HTMLInputElement>(null);
  return (
    <Field.Root invalid={Boolean(error)} position="relative">
      <Field.Label fontSize="sm">{t(`loans.apply.documents.${side}`)}</Field.Label>
      <input
        ref={input}
        type="file"
        accept="image/jpeg,image/png,image/webp"
        aria-label={t(`loans.apply.documents.${side}`)}
        style={{ position: 'absolute', width: 1, height: 1, opacity: 0, overflow: 'hidden' }}
        tabIndex={-1}
        onChange={(event) => {
          const file = event.currentTarget.files?.[0];
          onUploaded(undefined);
          setError(null);
          setName(file?.name ?? null);
          if (!file) return;
          upload.mutate(
            { data: { file } },
            {
              onSuccess: (uploaded) => onUploaded(uploaded.fileId),
              onError: (caught) => setError(failure(caught, t('errors.unknown')).message),
            },
          );
        }}
      />
      <Flex align="center" gap="2" minW="0">
        <Button size="sm" variant="outline" onClick={() => input.current?.click()}>
          {t('loans.apply.documents.choose')}
        </Button>
        <Text fontSize="sm" color="fg.muted" truncate minW="0">
          {name ?? t('loans.apply.documents.none')}
        </Text>
      </Flex>
      {upload.isPending ? (
        <Field.HelperText>{t('loans.apply.documents.uploading')}</Field.HelperText>
      ) : fileId ? (
        <Field.HelperText color="fg.success">{t('loans.apply.documents.uploaded')}</Field.HelperText>
      ) : null}
      {error && <Field.ErrorText>{error}</Field.ErrorText>}
    </Field.Root>
  );
}

/** The apply form of `offer`. */
export function ApplyForm({ offer }: { offer: LoanOffer }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const apply = useApplyForLoan({ request: SILENT });
  const phone = useIsPhone();
  const now = useNow();
  const product = offer.product;
  const coin = product.coin.toUpperCase();
  const [draft, setDraft] = useState<ApplyDraft>({
    amount: '',
    cycleDays: product.cycles[0] ?? null,
    repayWay: product.repayWays[0] ?? null,
    documents: 'upload',
    files: {},
    acceptRules: false,
  });
  const [serverError, setServerError] = useState<string | null>(null);
  const change = (part: Partial<ApplyDraft>) => {
    setDraft((old) => ({ ...old, ...part }));
    setServerError(null);
  };
  const problem = draft.amount ? amountProblem(offer, draft.amount) : null;
  const missing = missingSteps(offer, draft);
  // The minute is enough: the preview's dates are days.
  const start = Math.floor(now / 60_000) * 60_000;
  const schedule = draft.amount && !problem ? applySchedule(product, draft.amount, draft.cycleDays, draft.repayWay, start) : null;
  const rule = penaltyRule(product, schedule?.instalments[0]?.amount ?? product.minAmount);

  const submit = async () => {
    if (missing.length > 0 || draft.cycleDays == null || draft.repayWay == null) return;
    try {
      await apply.mutateAsync({
        data: {
          productId: product.id,
          amount: draft.amount.trim(),
          cycleDays: draft.cycleDays,
          repayWay: draft.repayWay,
          documents: draft.documents,
          ...(draft.documents === 'upload' ? { frontFileId: draft.files.front, backFileId: draft.files.back, holdFileId: draft.files.hold } : {}),
          acceptRules: draft.acceptRules,
        },
      });
      toaster.create({ type: 'success', title: t('loans.apply.done') });
      void invalidateOperations(queryClient, [getGetLoanProductsQueryKey(), getGetMyLoanApplicationsQueryKey()]);
      void navigate('/loan/order?state=pending');
    } catch (caught) {
      const info = failure(caught, t('errors.unknown'));
      setServerError(info.message);
      toaster.create({ type: 'error', title: info.message });
    }
  };

  return (
    <Stack as="section" aria-labelledby="loan-apply-heading" gap="4" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Text as="h2" id="loan-apply-heading" fontWeight="semibold">
        {t('loans.apply.title', { name: product.name })}
      </Text>
      <NumberField
        label={t('loans.apply.amount')}
        value={draft.amount}
        unit={coin}
        decimals={product.scale}
        error={problem ? problemText(t, problem, coin) : undefined}
        placeholder={`${formatQuantity(product.minAmount)} – ${formatQuantity(offer.yourMaxAmount)}`}
        helper={t('loans.apply.limits', { min: coinAmount(product.minAmount, coin), max: coinAmount(product.maxAmount, coin), yours: coinAmount(offer.yourMaxAmount, coin) })}
        onChange={(amount) => change({ amount })}
      />
      <Flex gap="3" direction={{ base: 'column', sm: 'row' }}>
        <Field.Root flex="1">
          <Field.Label fontSize="xs" fontWeight="medium" color="fg.muted">
            {t('loans.apply.cycle')}
          </Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field value={draft.cycleDays ?? ''} onChange={(event) => change({ cycleDays: Number(event.currentTarget.value) })}>
              {product.cycles.map((days) => (
                <option key={days} value={days}>
                  {t('loans.days', { days: days })}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
        <Field.Root flex="1">
          <Field.Label fontSize="xs" fontWeight="medium" color="fg.muted">
            {t('loans.apply.way')}
          </Field.Label>
          <NativeSelect.Root size="sm">
            <NativeSelect.Field value={draft.repayWay ?? ''} onChange={(event) => change({ repayWay: event.currentTarget.value })}>
              {product.repayWays.map((way) => (
                <option key={way} value={way}>
                  {t(`loans.ways.${way}`, { defaultValue: way })}
                </option>
              ))}
            </NativeSelect.Field>
            <NativeSelect.Indicator />
          </NativeSelect.Root>
        </Field.Root>
      </Flex>

      <Box rounded="md" bg="bg.subtle" px="3" py="2" role="group" aria-label={t('loans.preview.title')}>
        <Text fontSize="xs" fontWeight="semibold" mb="1">
          {t('loans.preview.title')}
        </Text>
        {schedule ? (
          <Stack gap="2">
            {phone ? (
              <CardList label={t('loans.preview.title')}>
                {schedule.instalments.map((row) => (
                  <ItemCard
                    key={row.index}
                    label={`#${row.index} ${utcDay(row.dueTime)}`}
                    title={<Text fontWeight="semibold">#{row.index}</Text>}
                    fields={[
                      { label: t('loans.preview.due'), value: utcDay(row.dueTime) },
                      { label: t('loans.preview.amount'), value: coinAmount(row.amount, coin) },
                      { label: t('loans.preview.principal'), value: coinAmount(row.principal, coin) },
                      { label: t('loans.preview.interest'), value: coinAmount(row.interest, coin) },
                    ]}
                  />
                ))}
              </CardList>
            ) : (
              <Box overflowX="auto">
                <Table.Root size="sm" variant="line">
                  <Table.Header>
                    <Table.Row>
                      <Table.ColumnHeader>{t('loans.preview.due')}</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">{t('loans.preview.principal')}</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">{t('loans.preview.interest')}</Table.ColumnHeader>
                      <Table.ColumnHeader textAlign="end">{t('loans.preview.amount')}</Table.ColumnHeader>
                    </Table.Row>
                  </Table.Header>
                  <Table.Body>
                    {schedule.instalments.map((row) => (
                      <Table.Row key={row.index}>
                        <Table.Cell whiteSpace="nowrap">{utcDay(row.dueTime)}</Table.Cell>
                        <Table.Cell textAlign="end">{formatQuantity(row.principal)}</Table.Cell>
                        <Table.Cell textAlign="end">{formatQuantity(row.interest)}</Table.Cell>
                        <Table.Cell textAlign="end" fontWeight="semibold">
                          {formatQuantity(row.amount)}
                        </Table.Cell>
                      </Table.Row>
                    ))}
                  </Table.Body>
                </Table.Root>
              </Box>
            )}
            <Box as="dl">
              <Row label={t('loans.preview.totalInterest')} value={coinAmount(schedule.totalInterest, coin)} strong />
              <Row label={t('loans.preview.totalRepay')} value={coinAmount(schedule.totalRepay, coin)} />
            </Box>
          </Stack>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            {t('loans.preview.empty')}
          </Text>
        )}
        <Text fontSize="xs" mt="2">
          {t('loans.preview.penalty', { days: rule.graceDays, rate: `${rule.ratePercent}%`, perDay: coinAmount(rule.perDay, coin) })}
        </Text>
        <Text fontSize="2xs" color="fg.subtle" mt="1">
          {t('loans.preview.note')}
        </Text>
      </Box>

      <Stack gap="2">
        <Text fontSize="sm" fontWeight="medium">
          {t('loans.apply.documents.title')}
        </Text>
        <NativeSelect.Root size="sm">
          <NativeSelect.Field
            aria-label={t('loans.apply.documents.title')}
            value={draft.documents}
            onChange={(event) => change({ documents: event.currentTarget.value === 'kyc' ? 'kyc' : 'upload' })}
          >
            {(['upload', 'kyc'] as const).map((value) => (
              <option key={value} value={value}>
                {t(`loans.apply.documents.${value}`)}
              </option>
            ))}
          </NativeSelect.Field>
          <NativeSelect.Indicator />
        </NativeSelect.Root>
        {draft.documents === 'upload' &&
          DOCUMENTS.map((side) => (
            <DocumentField key={side} side={side} fileId={draft.files[side]} onUploaded={(id) => setDraft((old) => ({ ...old, files: { ...old.files, [side]: id } }))} />
          ))}
      </Stack>

      <Checkbox.Root checked={draft.acceptRules} onCheckedChange={(details) => change({ acceptRules: details.checked === true })}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label fontSize="sm">
          {t('loans.apply.accept')}{' '}
          <Link asChild colorPalette="brand" variant="underline">
            <RouterLink to="/rule/index?modelType=10">{t('loans.apply.rulesLink')}</RouterLink>
          </Link>
        </Checkbox.Label>
      </Checkbox.Root>
      {missing.length > 0 && (
        <Text fontSize="sm" color="fg.muted" role="status">
          {t('loans.apply.missingTitle')} {missing.map((step) => t(`loans.apply.missing.${step}`)).join(' · ')}
        </Text>
      )}
      {serverError && (
        <Text fontSize="sm" color="fg.error" role="alert">
          {serverError}
        </Text>
      )}
      <Button colorPalette="brand" loading={apply.isPending} disabled={missing.length > 0} onClick={() => void submit()}>
        {t('loans.apply.submit')}
      </Button>
    </Stack>
  );
}
