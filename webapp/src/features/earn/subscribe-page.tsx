/**
 * /pledge/add?id= (staking and DeFi) and /finance/detail?id= (a wealth product's detail): the
 * product (`POST /api/earn/product/detail`) and its subscribe form — the amount with its limits and
 * the funding balance (MAX fills in the most that can be bought), the schedule preview from
 * wasm-core's `earnSchedule` (the function the server posts with: value date D+1, first payout D+2,
 * daily reward, total at maturity, delivery), the early-redemption rule in plain words, the rules
 * checkbox, and the confirmation (`POST /api/earn/subscribe` with an `Idempotency-Key`). A
 * subscription lands on the order list; a refusal shows the server's message in the user's language.
 *
 * @module
 */

import { Box, Button, Checkbox, Flex, Grid, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { TFunction } from 'i18next';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useNavigate, useSearchParams } from 'react-router';
import { getListEarnPositionsQueryKey, useGetEarnProduct, useSubscribeEarn } from '../../api/generated/earn/earn';
import { getGetUserCoinQueryKey, useGetUserCoin } from '../../api/generated/funds/funds';
import type { ProductView } from '../../api/generated/model';
import { NumberField } from '../../components/number-field';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useNow } from '../../hooks/use-now';
import { SILENT, failure } from '../../lib/api-calls';
import { idempotencyHeader, useIdempotencyKey } from '../../lib/idempotency';
import { invalidateOperations } from '../../lib/query-keys';
import { useIsLoggedIn } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { formatQuantity } from '../../lib/wasm';
import { type AmountProblem, amountProblem, maxAmount, subscribeBlock } from './lib/availability';
import { ratePercents } from './lib/rates';
import { schedulePreview, utcDay } from './lib/schedule';
import { EarnFrame, LoginPrompt, QueryState, Row, StatusBadge } from './parts';
import { blockText, coinAmount } from './product-card';
import { useHolder } from './use-holder';

/** The words of an amount problem. */
function problemText(t: TFunction, problem: AmountProblem, coin: string): string {
  if (problem.kind === 'format') return t('earn.form.problem.format');
  return t(`earn.form.problem.${problem.kind}`, { amount: formatQuantity(problem.amount), coin });
}

function SubscribeForm({ product, ordersHref }: { product: ProductView; ordersHref: string }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const keys = useIdempotencyKey();
  const subscribe = useSubscribeEarn({ request: SILENT });
  const balances = useGetUserCoin();
  const { holderOf } = useHolder();
  const now = useNow();
  const [amount, setAmount] = useState('');
  const [touched, setTouched] = useState(false);
  const [agreed, setAgreed] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const coin = product.coin.toUpperCase();
  const holder = holderOf(product.id);
  const available = balances.data ? (balances.data.coins.find((c) => c.coin.toLowerCase() === product.coin.toLowerCase())?.funding ?? '0') : null;
  const block = subscribeBlock(product, holder);
  const problem = amountProblem(product, holder, amount, available);
  const error = serverError ?? (touched && problem ? problemText(t, problem, coin) : undefined);
  // The minute is enough: the preview's dates are days.
  const minute = Math.floor(now / 60_000) * 60_000;
  const preview = amount && !problem ? schedulePreview(product, amount, minute) : null;
  const reward = product.rewardCoin.toUpperCase();

  const confirm = async () => {
    setTouched(true);
    if (!amount || problem || !agreed || block) return;
    const body = { productId: product.id, amount: amount.trim() };
    try {
      const position = await subscribe.mutateAsync({ data: body, headers: idempotencyHeader(keys.keyFor(body)) });
      keys.settle();
      toaster.create({ type: 'success', title: t('earn.form.done', { amount: formatQuantity(position.amount), coin }) });
      void invalidateOperations(queryClient, [getListEarnPositionsQueryKey(), getGetUserCoinQueryKey()]);
      void navigate(ordersHref);
    } catch (caught) {
      const info = failure(caught, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      setServerError(info.message);
      toaster.create({ type: 'error', title: info.message });
    }
  };

  return (
    <Stack as="section" aria-labelledby="earn-subscribe-heading" gap="4" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Text as="h2" id="earn-subscribe-heading" fontWeight="semibold">
        {t('earn.titles.add')}
      </Text>
      <Flex justify="space-between" gap="2" wrap="wrap" fontSize="sm">
        <Text color="fg.muted">{t('earn.form.available')}</Text>
        <Flex gap="2" align="baseline">
          <Text as="output" fontWeight="medium" fontVariantNumeric="tabular-nums">
            {coinAmount(available, coin)}
          </Text>
          <Button
            size="2xs"
            variant="outline"
            disabled={Boolean(block)}
            onClick={() => {
              setAmount(maxAmount(product, holder, available));
              setTouched(true);
              setServerError(null);
            }}
          >
            {t('earn.form.max')}
          </Button>
          <Button asChild size="2xs" variant="ghost" colorPalette="brand">
            <RouterLink to={`/assets/index?key=recharge&coin=${product.coin.toLowerCase()}`}>{t('earn.form.deposit')}</RouterLink>
          </Button>
        </Flex>
      </Flex>
      <NumberField
        label={t('earn.form.amount')}
        value={amount}
        unit={coin}
        decimals={8}
        error={error}
        disabled={Boolean(block)}
        placeholder={`${formatQuantity(product.particAmount)} – ${formatQuantity(product.particLimitAmount)}`}
        helper={t('earn.form.limits', { min: formatQuantity(product.particAmount), max: formatQuantity(product.particLimitAmount), coin })}
        onChange={(value) => {
          setAmount(value);
          setTouched(true);
          setServerError(null);
        }}
      />

      <Box rounded="md" bg="bg.subtle" px="3" py="2" role="group" aria-label={t('earn.preview.title')}>
        <Text fontSize="xs" fontWeight="semibold" mb="1">
          {t('earn.preview.title')}
        </Text>
        {preview ? (
          <Box as="dl">
            <Row label={t('earn.preview.subscribeDate')} value={`${utcDay(preview.subscribedAt)} UTC`} />
            <Row label={t('earn.preview.valueDate')} value={`${utcDay(preview.valueDate)} UTC`} />
            <Row label={t('earn.preview.firstPayout')} value={`${coinAmount(preview.firstPayout, reward)} · ${utcDay(preview.firstPayoutDate)}`} />
            <Row label={t('earn.preview.daily')} value={coinAmount(preview.daily, reward)} />
            <Row
              label={product.flexible ? t('earn.preview.totalFlexible', { days: preview.days }) : t('earn.preview.total')}
              value={coinAmount(preview.total, reward)}
              strong
            />
            <Row label={t('earn.preview.endDate')} value={`${utcDay(preview.lastAccrualDate)} UTC`} />
            {preview.deliveryDate !== null && <Row label={t('earn.preview.delivery')} value={`${utcDay(preview.deliveryDate)} UTC`} />}
          </Box>
        ) : (
          <Text fontSize="sm" color="fg.muted">
            {t('earn.preview.empty')}
          </Text>
        )}
        <Text fontSize="2xs" color="fg.subtle" mt="1">
          {t('earn.preview.roundingNote')}
        </Text>
      </Box>

      <Text fontSize="sm">{t(`earn.rule.${product.flexible ? 'flexible' : product.earlyRedemption}`)}</Text>
      <Checkbox.Root checked={agreed} onCheckedChange={(details) => setAgreed(details.checked === true)} disabled={Boolean(block)}>
        <Checkbox.HiddenInput />
        <Checkbox.Control />
        <Checkbox.Label fontSize="sm">{t('earn.form.agree')}</Checkbox.Label>
      </Checkbox.Root>
      {block ? (
        <Text fontSize="sm" color="fg.error" role="status">
          {blockText(t, block, product)}
        </Text>
      ) : null}
      <Button colorPalette="brand" loading={subscribe.isPending} disabled={Boolean(block) || !agreed || !amount || Boolean(problem)} onClick={() => void confirm()}>
        {t('earn.form.confirm')}
      </Button>
    </Stack>
  );
}

function ProductFacts({ product }: { product: ProductView }) {
  const { t } = useTranslation();
  const rates = ratePercents(product);
  const coin = product.coin.toUpperCase();
  return (
    <Stack as="section" aria-labelledby="earn-product-heading" gap="3" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Flex justify="space-between" gap="2" align="start">
        <Text as="h2" id="earn-product-heading" fontWeight="semibold" overflowWrap="anywhere">
          {product.name}
        </Text>
        <StatusBadge status={product.status} />
      </Flex>
      <Box as="dl">
        <Row label={t('earn.product.dailyRate')} value={`${rates.daily}%`} strong />
        <Row label={t('earn.product.apr')} value={`${rates.annual}%`} />
        <Row label={t('earn.product.cycle')} value={product.flexible ? t('earn.product.flexible') : t('earn.product.days', { days: product.lockDays })} />
        <Row label={t('earn.product.limits')} value={t('earn.product.range', { min: formatQuantity(product.particAmount), max: formatQuantity(product.particLimitAmount), coin })} />
        <Row label={t('earn.product.remaining')} value={coinAmount(product.lastAmount, coin)} />
        <Row label={t('earn.product.progress')} value={`${product.projectProgress}%`} />
        <Row label={t('earn.product.dailyIncome', { coin })} value={coinAmount(product.averageDayIncome, product.rewardCoin)} />
      </Box>
      {product.rewardCoin.toLowerCase() !== product.coin.toLowerCase() && (
        <Text fontSize="sm" fontWeight="medium">
          {t('earn.product.stake', { coin })} · {t('earn.product.rewardsIn', { coin: product.rewardCoin.toUpperCase() })}
        </Text>
      )}
      <Text fontSize="xs" color="fg.muted">
        {t('earn.product.opens', { date: `${utcDay(product.startTime)} UTC` })} · {t('earn.product.closes', { date: `${utcDay(product.endTime)} UTC` })}
      </Text>
      <Text fontSize="2xs" color="fg.subtle">
        {t('earn.product.aprNote')}
      </Text>
    </Stack>
  );
}

/** The detail and subscribe screen; `finance` is /finance/detail (a wealth product). */
export function SubscribePage({ finance = false }: { finance?: boolean }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [search] = useSearchParams();
  const id = Number(search.get('id'));
  const valid = Number.isInteger(id) && id > 0;
  const product = useGetEarnProduct({ id }, { query: { enabled: valid, retry: false } });
  const title = finance ? t('earn.titles.detail') : t('earn.titles.add');
  useDocumentTitle(product.data ? `${product.data.name} · ${title}` : title);
  const section = finance || product.data?.kind === 'wealth' ? 'finance' : product.data?.kind === 'defi' ? 'defi' : 'pledge';
  const backHref = section === 'finance' ? '/finance/investment' : section === 'defi' ? '/defis/index' : '/pledge/index';
  const ordersHref = section === 'finance' ? '/finance/investment?tab=mine' : '/pledge/order';
  return (
    <EarnFrame section={section} title={title}>
      <Button asChild variant="ghost" size="sm" alignSelf="start">
        <RouterLink to={backHref}>← {t('earn.back')}</RouterLink>
      </Button>
      {!valid || (product.isError && !product.data) ? (
        !valid || product.failureCount > 0 ? (
          <Text role="alert" py="6">
            {t('earn.notFound')}
          </Text>
        ) : (
          <QueryState failed onRetry={() => void product.refetch()} />
        )
      ) : !product.data ? (
        <QueryState failed={false} onRetry={() => void product.refetch()} />
      ) : (
        <Grid gap="4" templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) minmax(0, 1fr)' }} alignItems="start">
          <ProductFacts product={product.data} />
          {loggedIn ? <SubscribeForm product={product.data} ordersHref={ordersHref} /> : <LoginPrompt />}
        </Grid>
      )}
    </EarnFrame>
  );
}
