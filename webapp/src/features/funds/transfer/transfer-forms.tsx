/**
 * Transfers: between the user's own buckets (funding, trading, earn: the pickers, a flip button and
 * Max) through transferFunds, and to another user (recipient, amount, fund password) through
 * submitTransfer. Both send an `Idempotency-Key` per intended transfer, so a retry after a lost
 * answer moves the money at most once.
 *
 * @module
 */

import { Alert, Box, Button, Flex, IconButton, Link, Stack, Tabs, chakra } from '@chakra-ui/react';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useSubmitTransfer, useTransferFunds } from '../../../api/generated/funds/funds';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { toaster } from '../../../lib/toaster';
import { AmountField, FormError, PasswordField, SelectField, TextField, coinOptions } from '../components/fields';
import { ScreenHeader } from '../components/frame';
import { SwapIcon } from '../components/icons';
import { LoadFailed } from '../components/load-failed';
import { amountError } from '../lib/amount';
import { SILENT, failure } from '../../../lib/api-calls';
import { coinName, formatCoin } from '../lib/format';
import { idempotencyHeader, useIdempotencyKey } from '../../../lib/idempotency';
import { useFundsHref } from '../lib/links';
import { BUCKETS, type Bucket, bucketBalance, useBalances, useRefreshFunds } from '../lib/queries';

/** Where the fund password is set. */
const FUND_PASSWORD_PATH = '/account/center/security/setting/trade-pwd';

type Errors = Record<string, string | undefined>;

export function TransferScreen() {
  const { t } = useTranslation();
  const href = useFundsHref();
  const [mode, setMode] = useState<'buckets' | 'user'>('buckets');
  const { isError, refetch } = useBalances();
  return (
    <Stack gap="5">
      <ScreenHeader
        title={t('funds.screens.transfer')}
        description={t('funds.transfer.description')}
        actions={
          <Link asChild fontSize="sm" color="brand.fg">
            <RouterLink to={href({ screen: 'records', tab: 'transfers' })}>{t('funds.transfer.history')}</RouterLink>
          </Link>
        }
      />
      {isError && <LoadFailed onRetry={refetch} />}
      <Tabs.Root value={mode} onValueChange={(details) => setMode(details.value as 'buckets' | 'user')} variant="enclosed" size="sm" lazyMount unmountOnExit>
        <Tabs.List aria-label={t('funds.transfer.modeLabel')} maxW="full" overflowX="auto">
          <Tabs.Trigger value="buckets" whiteSpace="nowrap">
            {t('funds.transfer.buckets')}
          </Tabs.Trigger>
          <Tabs.Trigger value="user" whiteSpace="nowrap">
            {t('funds.transfer.toUser')}
          </Tabs.Trigger>
        </Tabs.List>
        <Box borderWidth="1px" rounded="xl" bg="bg.panel" p={{ base: '4', md: '6' }} mt="4" maxW="2xl">
          <Tabs.Content value="buckets" p="0">
            <BucketTransferForm />
          </Tabs.Content>
          <Tabs.Content value="user" p="0">
            <UserTransferForm />
          </Tabs.Content>
        </Box>
      </Tabs.Root>
    </Stack>
  );
}

/** The coins of the platform, in the balances' order. */
function useCoinNames(): string[] {
  const { coins } = useBalances();
  return useMemo(() => coins.map((c) => c.coin), [coins]);
}

/** The coin preset by `?coin=`, else USDT. */
function usePresetCoin(): string {
  const [search] = useSearchParams();
  return search.get('coin')?.toLowerCase() || 'usdt';
}

function BucketTransferForm() {
  const { t } = useTranslation();
  const names = useCoinNames();
  const { balance } = useBalances();
  const refresh = useRefreshFunds();
  const keys = useIdempotencyKey();
  const transfer = useTransferFunds({ request: SILENT });
  const [coin, setCoin] = useState(usePresetCoin());
  const [from, setFrom] = useState<Bucket>('funding');
  const [to, setTo] = useState<Bucket>('trading');
  const [amount, setAmount] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const available = bucketBalance(balance(coin), from);
  const bucketOptions = BUCKETS.map((b) => ({ value: b, label: t(`funds.buckets.${b}`) }));

  const validate = (): Errors => ({
    to: from === to ? t('funds.transfer.sameBucket') : undefined,
    amount: amountError(t, amount, { available }),
  });

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const data = { coin, amount, from, to };
    try {
      const result = await transfer.mutateAsync({ data, headers: idempotencyHeader(keys.keyFor(data)) });
      keys.settle();
      toaster.create({
        type: 'success',
        title: t('funds.transfer.bucketDone', {
          amount: formatCoin(result.amount),
          coin: coinName(result.coin),
          from: t(`funds.buckets.${from}`),
          to: t(`funds.buckets.${to}`),
        }),
      });
      setAmount('');
      setErrors({});
      refresh();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      if (info.field && ['coin', 'amount', 'to', 'from'].includes(info.field)) setErrors({ [info.field]: info.message });
      else setErrors({ form: info.message });
    }
  };

  return (
    <chakra.form display="flex" flexDirection="column" gap="4" onSubmit={(e: FormEvent) => void onSubmit(e)} noValidate aria-label={t('funds.transfer.buckets')}>
      <Flex gap="3" align={{ base: 'stretch', sm: 'flex-end' }} direction={{ base: 'column', sm: 'row' }}>
        <Box flex="1" minW="0">
          <SelectField label={t('funds.transfer.from')} value={from} options={bucketOptions} onChange={(v) => setFrom(v as Bucket)} error={errors.from} />
        </Box>
        <IconButton
          aria-label={t('funds.transfer.flip')}
          variant="outline"
          rounded="full"
          size="sm"
          alignSelf="center"
          mb={{ sm: '1.5' }}
          onClick={() => {
            setFrom(to);
            setTo(from);
          }}
        >
          <SwapIcon transform={{ base: 'rotate(90deg)', sm: 'none' }} />
        </IconButton>
        <Box flex="1" minW="0">
          <SelectField label={t('funds.transfer.to')} value={to} options={bucketOptions} onChange={(v) => setTo(v as Bucket)} error={errors.to} />
        </Box>
      </Flex>
      <SelectField label={t('funds.form.coin')} value={coin} options={coinOptions(names)} onChange={setCoin} error={errors.coin} />
      <AmountField label={t('funds.form.amount')} value={amount} onChange={setAmount} coin={coin} available={available} error={errors.amount} />
      <FormError message={errors.form} />
      <Button type="submit" colorPalette="brand" size="lg" loading={transfer.isPending}>
        {t('funds.transfer.submit')}
      </Button>
    </chakra.form>
  );
}

function UserTransferForm() {
  const { t } = useTranslation();
  const names = useCoinNames();
  const { balance } = useBalances();
  const { user } = useCurrentUser();
  const refresh = useRefreshFunds();
  const keys = useIdempotencyKey();
  const transfer = useSubmitTransfer({ request: SILENT });
  const [coin, setCoin] = useState(usePresetCoin());
  const [toAccount, setToAccount] = useState('');
  const [amount, setAmount] = useState('');
  const [fundPassword, setFundPassword] = useState('');
  const [errors, setErrors] = useState<Errors>({});
  const available = bucketBalance(balance(coin), 'funding');
  const noFundPassword = user?.security.fundPasswordSet === false;

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {
      toAccount: toAccount.trim() ? undefined : t('errors.fieldRequired'),
      amount: amountError(t, amount, { available }),
      fundPassword: fundPassword ? undefined : t('errors.fieldRequired'),
    };
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    const fingerprint = { coin, amount, toAccount: toAccount.trim() };
    try {
      const result = await transfer.mutateAsync({
        data: { ...fingerprint, fundPassword },
        headers: idempotencyHeader(keys.keyFor(fingerprint)),
      });
      keys.settle();
      toaster.create({
        type: 'success',
        title: t('funds.transfer.userDone', { amount: formatCoin(result.amount), coin: coinName(result.coin), user: result.toUserId }),
      });
      setAmount('');
      setFundPassword('');
      setErrors({});
      refresh();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      const field =
        info.field && ['coin', 'amount', 'toAccount', 'fundPassword'].includes(info.field)
          ? info.field
          : info.reason === 'wrong_fund_password'
            ? 'fundPassword'
            : 'form';
      setErrors({ [field]: info.message });
    }
  };

  return (
    <chakra.form display="flex" flexDirection="column" gap="4" onSubmit={(e: FormEvent) => void onSubmit(e)} noValidate aria-label={t('funds.transfer.toUser')}>
      {noFundPassword && (
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
      <SelectField label={t('funds.form.coin')} value={coin} options={coinOptions(names)} onChange={setCoin} error={errors.coin} />
      <TextField
        label={t('funds.transfer.recipient')}
        helper={t('funds.transfer.recipientHint')}
        value={toAccount}
        onChange={(e) => setToAccount(e.currentTarget.value)}
        error={errors.toAccount}
        autoComplete="off"
        required
      />
      <AmountField label={t('funds.form.amount')} value={amount} onChange={setAmount} coin={coin} available={available} error={errors.amount} />
      <PasswordField label={t('funds.form.fundPassword')} value={fundPassword} onChange={(e) => setFundPassword(e.currentTarget.value)} error={errors.fundPassword} required />
      <FormError message={errors.form} />
      <Button type="submit" colorPalette="brand" size="lg" loading={transfer.isPending}>
        {t('funds.transfer.send')}
      </Button>
    </chakra.form>
  );
}
