/**
 * The deposit (recharge) screen: coin and network pickers over the configured channels
 * (getRechargeCurrency), the channel's address with its QR code and a copy button, then the amount
 * and the payment screenshot, checked by wasm-core's deposit form rules (each error in the user's
 * language) and submitted with one `Idempotency-Key` per intended deposit (submitRecharge). The
 * deposit then waits for an operator's review.
 *
 * @module
 */

import { Button, Code, Flex, Grid, HStack, Link, Skeleton, Stack, Text, chakra } from '@chakra-ui/react';
import { type FormEvent, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useGetRechargeCurrency, useSubmitRecharge } from '../../../api/generated/deposits/deposits';
import type { FundingChannel } from '../../../api/generated/model';
import { compareDecimal } from '../../../lib/decimal';
import { toaster } from '../../../lib/toaster';
import { coreErrorText, fieldErrors, validateDepositForm, validateNumberInput } from '../../../lib/wasm';
import { ChoiceCards } from '../components/choice-cards';
import { CopyButton } from '../components/copy-button';
import { AmountField, FormError, SelectField, coinOptions } from '../components/fields';
import { ScreenHeader } from '../components/frame';
import { NotesPanel } from '../components/notes-panel';
import { LoadFailed } from '../components/load-failed';
import { QrCode } from '../../../components/qr-code';
import { ScreenshotUpload, type ScreenshotState, screenshotReference } from '../components/screenshot-upload';
import { SILENT, failure, useApiHead } from '../../../lib/api-calls';
import { coinName, formatCoin } from '../lib/format';
import { idempotencyHeader, useIdempotencyKey } from '../../../lib/idempotency';
import { useFundsHref } from '../lib/links';
import { useRefreshFunds } from '../lib/queries';

type Errors = Record<string, string | undefined>;

/** The channel of `coin` (any case). */
function channelOf(channels: readonly FundingChannel[], coin: string): FundingChannel | undefined {
  return channels.find((c) => c.coin.toLowerCase() === coin.toLowerCase());
}

export function DepositForm() {
  const { t } = useTranslation();
  const head = useApiHead();
  const [search] = useSearchParams();
  const href = useFundsHref();
  const refresh = useRefreshFunds();
  const keys = useIdempotencyKey();
  const list = useGetRechargeCurrency(head);
  const submit = useSubmitRecharge({ request: SILENT });
  const channels = useMemo(() => list.data?.coins ?? [], [list.data]);

  const [chosenCoin, setCoin] = useState(search.get('coin')?.toLowerCase() ?? '');
  const [chosenNetwork, setNetwork] = useState('');
  const [amount, setAmount] = useState('');
  const [screenshot, setScreenshot] = useState<ScreenshotState>({ phase: 'empty' });
  const [errors, setErrors] = useState<Errors>({});

  // The coin from the URL when it has a channel, else the first channel; its first network.
  const channel = channelOf(channels, chosenCoin) ?? channels[0];
  const coin = channel?.coin ?? '';
  const network = channel?.networks.find((n) => n.network === chosenNetwork) ?? channel?.networks[0];

  const validate = (): Errors => {
    const found: Errors = fieldErrors(t, validateDepositForm({ coin, amount, screenshot: screenshotReference(screenshot) }));
    // The channel's own limits: its decimals and its minimum.
    const decimals = !found.amount && network ? validateNumberInput(amount, network.precision) : null;
    if (decimals) found.amount = coreErrorText(t, decimals);
    else if (!found.amount && network && compareDecimal(amount, network.minDeposit) < 0) {
      found.amount = t('errors.belowMinimum', { min: `${formatCoin(network.minDeposit)} ${coinName(coin)}` });
    }
    if (!network) found.network = t('errors.fieldRequired');
    return found;
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    const found = validate();
    setErrors(found);
    const reference = screenshotReference(screenshot);
    if (Object.values(found).some(Boolean) || !network || !reference) return;
    const data = { coin, network: network.network, amount, screenshot: reference };
    try {
      await submit.mutateAsync({ data, headers: idempotencyHeader(keys.keyFor(data)) });
      keys.settle();
      toaster.create({ type: 'success', title: t('funds.deposit.submitted'), description: t('funds.deposit.submittedHint') });
      setAmount('');
      setScreenshot({ phase: 'empty' });
      setErrors({});
      refresh();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      const field = info.field && ['coin', 'network', 'amount', 'screenshot'].includes(info.field) ? info.field : 'form';
      setErrors({ [field]: info.message });
    }
  };

  return (
    <Stack gap="5">
      <ScreenHeader
        title={t('funds.screens.recharge')}
        description={t('funds.deposit.description')}
        actions={
          <Link asChild fontSize="sm" color="brand.fg">
            <RouterLink to={href({ screen: 'records', tab: 'deposits' })}>{t('funds.deposit.history')}</RouterLink>
          </Link>
        }
      />
      {list.isError && !list.data ? (
        <LoadFailed onRetry={() => void list.refetch()} />
      ) : (
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', xl: 'minmax(0, 2fr) minmax(0, 1fr)' }} gap="5" alignItems="start">
          <chakra.form onSubmit={(e: FormEvent) => void onSubmit(e)} noValidate aria-label={t('funds.screens.recharge')} borderWidth="1px" rounded="xl" bg="bg.panel" p={{ base: '4', md: '6' }}>
            {list.isLoading ? (
              <Stack gap="4" role="status" aria-label={t('funds.loading')}>
                <Skeleton h="12" />
                <Skeleton h="16" />
                <Skeleton h="40" />
              </Stack>
            ) : channels.length === 0 ? (
              <Text color="fg.muted">{t('funds.deposit.noChannels')}</Text>
            ) : (
              <Stack gap="5">
                <SelectField
                  label={t('funds.form.coin')}
                  value={coin}
                  options={coinOptions(channels.map((c) => c.coin))}
                  onChange={(value) => {
                    setCoin(value);
                    setNetwork('');
                  }}
                  error={errors.coin}
                />
                <Stack gap="1.5">
                  <Text fontWeight="medium" fontSize="sm">
                    {t('funds.form.network')}
                  </Text>
                  <ChoiceCards
                    label={t('funds.form.network')}
                    value={network?.network ?? ''}
                    onChange={setNetwork}
                    choices={(channel?.networks ?? []).map((n) => ({
                      value: n.network,
                      title: n.network,
                      detail: t('funds.deposit.minimum', { amount: formatCoin(n.minDeposit), coin: coinName(coin) }),
                    }))}
                  />
                  {errors.network && (
                    <Text color="fg.error" fontSize="sm">
                      {errors.network}
                    </Text>
                  )}
                </Stack>
                {network && <AddressCard address={network.address} coin={coin} network={network.network} minDeposit={network.minDeposit} />}
                <AmountField
                  label={t('funds.deposit.amount')}
                  value={amount}
                  onChange={(value) => {
                    setAmount(value);
                    setErrors((e) => ({ ...e, amount: undefined }));
                  }}
                  coin={coin}
                  error={errors.amount}
                />
                <ScreenshotUpload
                  label={t('funds.deposit.screenshot')}
                  state={screenshot}
                  onChange={(next) => {
                    setScreenshot(next);
                    setErrors((e) => ({ ...e, screenshot: undefined }));
                  }}
                  error={errors.screenshot}
                />
                <FormError message={errors.form} />
                <Button type="submit" colorPalette="brand" size="lg" loading={submit.isPending} disabled={screenshot.phase === 'uploading'}>
                  {t('funds.deposit.submit')}
                </Button>
              </Stack>
            )}
          </chakra.form>
          <DepositNotes coin={coin} network={network?.network} />
        </Grid>
      )}
    </Stack>
  );
}

function AddressCard({ address, coin, network, minDeposit }: { address: string; coin: string; network: string; minDeposit: string }) {
  const { t } = useTranslation();
  return (
    <Flex as="section" aria-label={t('funds.deposit.address')} gap="4" align="center" direction={{ base: 'column', sm: 'row' }} borderWidth="1px" rounded="xl" bg="bg.subtle" p="4">
      <QrCode value={address} label={t('funds.deposit.qrLabel', { coin: coinName(coin), network })} size="36" />
      <Stack gap="2" minW="0" flex="1" w="full">
        <Text fontSize="sm" color="fg.muted">
          {t('funds.deposit.addressLabel', { coin: coinName(coin), network })}
        </Text>
        <HStack gap="2" align="flex-start">
          <Code flex="1" minW="0" fontSize="sm" px="2.5" py="2" rounded="md" overflowWrap="anywhere" wordBreak="break-all" whiteSpace="normal" data-testid="deposit-address">
            {address}
          </Code>
          <CopyButton value={address} label={t('funds.deposit.copyAddress')} compact={false} />
        </HStack>
        <Text fontSize="xs" color="fg.muted">
          {t('funds.deposit.minimum', { amount: formatCoin(minDeposit), coin: coinName(coin) })}
        </Text>
      </Stack>
    </Flex>
  );
}

function DepositNotes({ coin, network }: { coin: string; network?: string }) {
  const { t } = useTranslation();
  return (
    <NotesPanel
      title={t('funds.deposit.notesTitle')}
      notes={(['network', 'review', 'screenshot'] as const).map((note) =>
        t(`funds.deposit.notes.${note}`, { coin: coin ? coinName(coin) : '--', network: network ?? '--' }),
      )}
    />
  );
}
