/**
 * The withdrawal screen: coin and network (the channel's fee and minimum), the destination address
 * checked live by wasm-core's withdrawal form rules for that network, the amount with the available
 * funding balance and Max, the fee and the amount received computed live by wasm-core
 * (`withdrawalQuote`), and the fund password. "Withdraw" opens a summary to confirm with the second
 * factor (`withdraw-confirm.tsx`); only then is the request sealed in the browser: the
 * session's key (getWithdrawalKey), a fresh nonce from `crypto.getRandomValues`, AES-256-GCM by the
 * browser's WebCrypto (`lib/seal.ts`, byte for byte wasm-core's `cipher::seal_text`) with the
 * associated data `assets/withdrawal`; only `{payload}` is sent (submitWithdrawal), with one
 * `Idempotency-Key` per intended withdrawal.
 *
 * @module
 */

import { Alert, Button, Grid, Link, Skeleton, Stack, Text, chakra } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetRechargeCurrency } from '../../../api/generated/deposits/deposits';
import { getGetWithdrawalKeyQueryOptions, useSubmitWithdrawal } from '../../../api/generated/withdrawals/withdrawals';
import type { FundingChannel } from '../../../api/generated/model';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { compareDecimal } from '../../../lib/decimal';
import { toaster } from '../../../lib/toaster';
import { sealText } from '../../../lib/seal';
import { type WithdrawalQuote, coreErrorText, fieldErrors, isCoreError, validateWithdrawalForm, withdrawalQuote } from '../../../lib/wasm';
import { SECOND_FACTOR_REASONS, type SecondFactor } from '../../../components/second-factor-field';
import { ChoiceCards } from '../components/choice-cards';
import { AmountField, FormError, PasswordField, SelectField, SummaryRow, TextField, coinOptions } from '../components/fields';
import { ScreenHeader } from '../components/frame';
import { NotesPanel } from '../components/notes-panel';
import { LoadFailed } from '../components/load-failed';
import { SILENT, failure, useApiHead } from '../../../lib/api-calls';
import { AMOUNT_DECIMALS } from '../lib/amount';
import { coinName, formatCoin } from '../lib/format';
import { idempotencyHeader, useIdempotencyKey } from '../../../lib/idempotency';
import { useFundsHref } from '../lib/links';
import { useBalances, useRefreshFunds } from '../lib/queries';
import { type ConfirmErrors, type WithdrawalSummary, WithdrawConfirmDialog } from './withdraw-confirm';

/** The associated data the server opens the sealed body with. */
export const WITHDRAWAL_AAD = 'assets/withdrawal';
/** Where the fund password is set. */
const FUND_PASSWORD_PATH = '/account/center/security/setting/trade-pwd';
/** The session's key is asked for again after this long. */
const KEY_STALE_MS = 60_000;

type Field = 'network' | 'address' | 'amount' | 'fundPassword';
type Errors = Partial<Record<Field | 'coin' | 'form', string>>;

/** Base64 of `bytes`. */
function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

/** A fresh 12-byte AES-GCM nonce, base64. */
export function randomNonce(): string {
  return toBase64(crypto.getRandomValues(new Uint8Array(12)));
}

function channelOf(channels: readonly FundingChannel[], coin: string): FundingChannel | undefined {
  return channels.find((c) => c.coin.toLowerCase() === coin.toLowerCase());
}

export function WithdrawForm() {
  const { t } = useTranslation();
  const head = useApiHead();
  const [search] = useSearchParams();
  const href = useFundsHref();
  const queryClient = useQueryClient();
  const refresh = useRefreshFunds();
  const keys = useIdempotencyKey();
  const { user } = useCurrentUser();
  const { balance } = useBalances();
  const list = useGetRechargeCurrency(head);
  const submit = useSubmitWithdrawal({ request: SILENT });
  const channels = useMemo(() => list.data?.coins ?? [], [list.data]);

  const [chosenCoin, setCoin] = useState(search.get('coin')?.toLowerCase() ?? '');
  const [chosenNetwork, setNetwork] = useState('');
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [fundPassword, setFundPassword] = useState('');
  const [touched, setTouched] = useState<Partial<Record<Field, boolean>>>({});
  const [serverErrors, setServerErrors] = useState<Errors>({});
  const [sending, setSending] = useState(false);
  const [pending, setPending] = useState<WithdrawalSummary | undefined>();
  const [confirmErrors, setConfirmErrors] = useState<ConfirmErrors>({});

  const channel = channelOf(channels, chosenCoin) ?? channels[0];
  const coin = channel?.coin ?? '';
  const network = channel?.networks.find((n) => n.network === chosenNetwork) ?? channel?.networks[0];
  const available = balance(coin)?.funding ?? '0';

  // Every rule of the form, live: wasm-core's withdrawal rules, then the channel's minimum and fee.
  const { errors, quote } = useMemo(() => {
    const found: Errors = fieldErrors(t, validateWithdrawalForm({ network: network?.network, address: address.trim(), amount, fundPassword, available, maxDecimals: network?.precision ?? AMOUNT_DECIMALS }));
    let figures: WithdrawalQuote | undefined;
    if (!found.amount && network) {
      if (compareDecimal(amount, network.minWithdraw) < 0) {
        found.amount = t('errors.belowMinimum', { min: `${formatCoin(network.minWithdraw)} ${coinName(coin)}` });
      } else {
        try {
          figures = withdrawalQuote(amount, network.withdrawFee);
        } catch (error) {
          found.amount = isCoreError(error) ? coreErrorText(t, error) : t('errors.unknown');
        }
      }
    }
    return { errors: found, quote: figures };
  }, [t, network, address, amount, fundPassword, available, coin]);

  // An address is checked as it is typed; the other fields once left or after a submit.
  const shown = (field: Field): string | undefined =>
    serverErrors[field] ?? (touched[field] || (field === 'address' && address.trim() !== '') ? errors[field] : undefined);
  const touch = (field: Field) => setTouched((current) => ({ ...current, [field]: true }));
  const edit = (field: Field) => setServerErrors((current) => ({ ...current, [field]: undefined, form: undefined }));

  // The form's checks first; then the summary, whose confirmation sends.
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    setTouched({ network: true, address: true, amount: true, fundPassword: true });
    setServerErrors({});
    if (Object.values(errors).some(Boolean) || !network || !quote) return;
    setConfirmErrors({});
    setPending({ coin, network: network.network, address: address.trim(), amount, fee: quote.fee, received: quote.received });
  };

  const send = async (factor: SecondFactor, code: string) => {
    if (!pending) return;
    const request = { coin: pending.coin, network: pending.network, address: pending.address, amount: pending.amount };
    setSending(true);
    try {
      const key = await queryClient.fetchQuery({ ...getGetWithdrawalKeyQueryOptions(head, { request: SILENT }), staleTime: KEY_STALE_MS });
      const payload = await sealText(key.key, randomNonce(), key.aad || WITHDRAWAL_AAD, JSON.stringify({ ...request, fundPassword, [factor]: code }));
      // The password and code are not part of the intended operation: a retry with them corrected
      // keeps the key.
      await submit.mutateAsync({ head, data: { payload }, headers: idempotencyHeader(keys.keyFor(request)) });
      keys.settle();
      setPending(undefined);
      toaster.create({
        type: 'success',
        title: t('funds.withdraw.submitted'),
        description: t('funds.withdraw.submittedHint', { amount: formatCoin(pending.received), coin: coinName(pending.coin) }),
      });
      setAmount('');
      setFundPassword('');
      setTouched({});
      refresh();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      // A wrong or missing code, a limit or a lost answer stay in the dialog; the form's own
      // fields go back to the form.
      if (info.reason && SECOND_FACTOR_REASONS.includes(info.reason)) {
        setConfirmErrors({ code: info.message });
        return;
      }
      if (!info.field && !['wrong_fund_password', 'insufficient_balance'].includes(info.reason ?? '')) {
        setConfirmErrors({ form: info.message });
        return;
      }
      setPending(undefined);
      const field =
        info.field && ['coin', 'network', 'address', 'amount', 'fundPassword'].includes(info.field)
          ? (info.field as Field)
          : info.reason === 'wrong_fund_password'
            ? 'fundPassword'
            : info.reason === 'insufficient_balance'
              ? 'amount'
              : 'form';
      setServerErrors({ [field]: info.message });
      if (field === 'amount') refresh();
    } finally {
      setSending(false);
    }
  };

  return (
    <Stack gap="5">
      <ScreenHeader
        title={t('funds.screens.withdraw')}
        description={t('funds.withdraw.description')}
        actions={
          <Link asChild fontSize="sm" color="brand.fg">
            <RouterLink to={href({ screen: 'records', tab: 'withdrawals' })}>{t('funds.withdraw.history')}</RouterLink>
          </Link>
        }
      />
      {list.isError && !list.data ? (
        <LoadFailed onRetry={() => void list.refetch()} />
      ) : (
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', xl: 'minmax(0, 2fr) minmax(0, 1fr)' }} gap="5" alignItems="start">
          <chakra.form onSubmit={onSubmit} noValidate aria-label={t('funds.screens.withdraw')} borderWidth="1px" rounded="xl" bg="bg.panel" p={{ base: '4', md: '6' }}>
            {list.isLoading ? (
              <Stack gap="4" role="status" aria-label={t('funds.loading')}>
                <Skeleton h="12" />
                <Skeleton h="16" />
                <Skeleton h="12" />
              </Stack>
            ) : channels.length === 0 ? (
              <Text color="fg.muted">{t('funds.withdraw.noChannels')}</Text>
            ) : (
              <Stack gap="5">
                {user?.security.fundPasswordSet === false && (
                  <Alert.Root status="warning" rounded="lg">
                    <Alert.Indicator />
                    <Alert.Content>
                      <Alert.Title>{t('funds.fundPassword.missingTitle')}</Alert.Title>
                      <Alert.Description>
                        <Link asChild color="brand.fg" fontWeight="medium">
                          <RouterLink to={FUND_PASSWORD_PATH}>{t('funds.fundPassword.set')}</RouterLink>
                        </Link>
                      </Alert.Description>
                    </Alert.Content>
                  </Alert.Root>
                )}
                <SelectField
                  label={t('funds.form.coin')}
                  value={coin}
                  options={coinOptions(channels.map((c) => c.coin))}
                  onChange={(value) => {
                    setCoin(value);
                    setNetwork('');
                  }}
                  error={serverErrors.coin}
                />
                <Stack gap="1.5">
                  <Text fontWeight="medium" fontSize="sm">
                    {t('funds.form.network')}
                  </Text>
                  <ChoiceCards
                    label={t('funds.form.network')}
                    value={network?.network ?? ''}
                    onChange={(value) => {
                      setNetwork(value);
                      edit('network');
                    }}
                    choices={(channel?.networks ?? []).map((n) => ({
                      value: n.network,
                      title: n.network,
                      detail: t('funds.withdraw.networkFee', { amount: formatCoin(n.withdrawFee), coin: coinName(coin) }),
                    }))}
                  />
                  {shown('network') && (
                    <Text color="fg.error" fontSize="sm">
                      {shown('network')}
                    </Text>
                  )}
                </Stack>
                <TextField
                  label={t('funds.withdraw.address')}
                  placeholder={t('funds.withdraw.addressPlaceholder', { network: network?.network ?? '' })}
                  value={address}
                  onChange={(e) => {
                    setAddress(e.currentTarget.value);
                    edit('address');
                  }}
                  onBlur={() => touch('address')}
                  error={shown('address')}
                  autoComplete="off"
                  spellCheck={false}
                  fontFamily="mono"
                  fontSize="sm"
                  required
                />
                <AmountField
                  label={t('funds.form.amount')}
                  value={amount}
                  onChange={(value) => {
                    setAmount(value);
                    edit('amount');
                  }}
                  onBlur={() => touch('amount')}
                  coin={coin}
                  available={available}
                  error={shown('amount')}
                  helper={network ? t('funds.withdraw.minimum', { amount: formatCoin(network.minWithdraw), coin: coinName(coin) }) : undefined}
                />
                <Stack as="section" aria-label={t('funds.withdraw.summary')} gap="2" borderWidth="1px" rounded="lg" bg="bg.subtle" px="4" py="3">
                  <SummaryRow label={t('funds.withdraw.fee')} value={network ? `${formatCoin(network.withdrawFee)} ${coinName(coin)}` : '--'} />
                  <SummaryRow label={t('funds.withdraw.received')} value={quote ? `${formatCoin(quote.received)} ${coinName(coin)}` : '--'} strong />
                </Stack>
                <PasswordField
                  label={t('funds.form.fundPassword')}
                  value={fundPassword}
                  onChange={(e) => {
                    setFundPassword(e.currentTarget.value);
                    edit('fundPassword');
                  }}
                  onBlur={() => touch('fundPassword')}
                  error={shown('fundPassword')}
                  required
                />
                <FormError message={serverErrors.form} />
                <Button type="submit" colorPalette="brand" size="lg">
                  {t('funds.withdraw.submit')}
                </Button>
              </Stack>
            )}
          </chakra.form>
          <NotesPanel
            title={t('funds.withdraw.notesTitle')}
            notes={(['network', 'review', 'security'] as const).map((note) => t(`funds.withdraw.notes.${note}`, { network: network?.network ?? '--' }))}
          />
        </Grid>
      )}
      <WithdrawConfirmDialog
        summary={pending}
        busy={sending}
        errors={confirmErrors}
        onErrors={setConfirmErrors}
        onConfirm={(factor, code) => void send(factor, code)}
        onClose={() => setPending(undefined)}
      />
    </Stack>
  );
}
