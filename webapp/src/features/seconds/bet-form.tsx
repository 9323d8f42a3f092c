/**
 * The flash contract form: the period picker (each period with its payout rate), the whole-number
 * USDT stake with the period's limits, Up and Down buttons that place the bet, the available
 * funding balance, and an instant preview from wasm-core's `secondsPreview` — the function the
 * server settles with: profit and payout if the call is right, the loss if it is wrong, the stake
 * returned on a tie. The stake is checked on every keystroke by `validateSecondsQuantity`, the
 * rule the server runs. Bets go out with an `Idempotency-Key`. Visitors get log-in buttons.
 *
 * @module
 */

import { Box, Button, Field, Flex, Grid, HStack, Input, InputGroup, Stack, Text, chakra } from '@chakra-ui/react';
import { type FormEvent, useId, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { useGetUserCoin } from '../../api/generated/funds/funds';
import type { CoinListEntry, Direction, SecondsOffer, SecondsPeriodView } from '../../api/generated/model';
import { useSubmitSecondsOrder } from '../../api/generated/seconds-contracts/seconds-contracts';
import { SILENT, failure } from '../../lib/api-calls';
import { idempotencyHeader, useIdempotencyKey } from '../../lib/idempotency';
import { loginPath, useIsLoggedIn } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { coreErrorText, formatAmount, formatBalance, formatQuantity, orDash, secondsPreview, validateSecondsQuantity } from '../../lib/wasm';
import { rateToPercent } from './lib/percent';

/** Balances are refetched this often while the form shows them (the user channel refetches sooner). */
const BALANCE_REFRESH_MS = 30_000;

function PreviewRow({ label, value, tone }: { label: string; value: string; tone?: 'up' | 'down' }) {
  return (
    <Flex justify="space-between" gap="3" py="0.5">
      <Text as="dt" color="fg.muted">
        {label}
      </Text>
      <Text as="dd" fontWeight="medium" fontVariantNumeric="tabular-nums" color={tone} whiteSpace="nowrap">
        {value}
      </Text>
    </Flex>
  );
}

/**
 * The form. With `direction` (the phone sheet, opened by Up or Down) only that direction's button
 * shows; `onPlaced` hears of every bet the server accepted (the sheet closes then).
 */
export function BetForm({
  coin,
  pair,
  offer,
  direction: onlyDirection,
  onPlaced,
}: {
  coin: CoinListEntry;
  pair: string;
  offer: SecondsOffer;
  direction?: Direction;
  onPlaced?: () => void;
}) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const keys = useIdempotencyKey();
  const submit = useSubmitSecondsOrder({ request: SILENT });
  const balances = useGetUserCoin({ query: { enabled: loggedIn, refetchInterval: BALANCE_REFRESH_MS } });
  const stakeId = useId();
  const availableId = useId();
  const periodLabelId = useId();
  const [periodSeconds, setPeriodSeconds] = useState<number>(offer.periods[0]?.seconds ?? 0);
  const [stake, setStake] = useState('');
  const [touched, setTouched] = useState(false);
  const [serverError, setServerError] = useState<string | null>(null);
  const [busy, setBusy] = useState<Direction | null>(null);
  const period: SecondsPeriodView | undefined = offer.periods.find((p) => p.seconds === periodSeconds) ?? offer.periods[0];
  const coinName = offer.stakeCoin.toUpperCase();

  const available = loggedIn && balances.data ? (balances.data.coins.find((c) => c.coin.toLowerCase() === offer.stakeCoin)?.funding ?? '0') : null;

  const violation = useMemo(() => {
    if (!period) return null;
    try {
      return validateSecondsQuantity(stake.trim(), period.minStake, period.maxStake);
    } catch (error) {
      console.error('validateSecondsQuantity failed', error);
      return null;
    }
  }, [stake, period]);
  const stakeError = serverError ?? (touched && violation ? coreErrorText(t, violation) : undefined);

  const preview = useMemo(() => {
    if (!period || violation) return null;
    try {
      return secondsPreview({ quantity: stake.trim(), payoutRate: period.payoutRate, availableBalance: available });
    } catch {
      return null;
    }
  }, [stake, period, violation, available]);

  const place = async (direction: Direction) => {
    setTouched(true);
    if (!period || violation) return;
    const body = { symbol: coin.symbol, direction, periodSeconds: period.seconds, quantity: stake.trim() };
    setBusy(direction);
    try {
      await submit.mutateAsync({ data: body, headers: idempotencyHeader(keys.keyFor(body)) });
      keys.settle();
      toaster.create({
        type: 'success',
        title: t('seconds.form.placed', { direction: t(`seconds.direction.${direction}`), stake: body.quantity, coin: coinName, pair, seconds: period.seconds }),
      });
      setStake('');
      setTouched(false);
      setServerError(null);
      onPlaced?.();
    } catch (error) {
      const info = failure(error, t('errors.unknown'));
      if (!info.unanswered) keys.settle();
      toaster.create({ type: 'error', title: info.message });
      if (info.field === 'quantity') setServerError(info.message);
    } finally {
      setBusy(null);
      void balances.refetch();
    }
  };

  const percent = (rate: string) => rateToPercent(rate) ?? rate;
  const amount = (value: string | undefined) => (value ? `${orDash(formatAmount, value)} ${coinName}` : '--');

  return (
    <Box as="section" aria-labelledby="seconds-form-heading" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Text as="h2" id="seconds-form-heading" fontSize="md" fontWeight="semibold" mb="3">
        {t('seconds.form.title')}
      </Text>
      <chakra.form noValidate aria-label={t('seconds.form.title')} onSubmit={(event: FormEvent) => event.preventDefault()} display="flex" flexDirection="column" gap="4">
        <Stack gap="2">
          <Text id={periodLabelId} fontSize="xs" fontWeight="medium" color="fg.muted">
            {t('seconds.form.period')}
          </Text>
          <Grid role="radiogroup" aria-labelledby={periodLabelId} templateColumns="repeat(auto-fill, minmax(88px, 1fr))" gap="2">
            {offer.periods.map((p) => {
              const selected = p.seconds === period?.seconds;
              return (
                <Button
                  key={p.seconds}
                  role="radio"
                  aria-checked={selected}
                  aria-label={t('seconds.form.periodOption', { seconds: p.seconds, percent: percent(p.payoutRate) })}
                  variant={selected ? 'solid' : 'outline'}
                  colorPalette={selected ? 'brand' : 'gray'}
                  size="sm"
                  h="auto"
                  py="2"
                  flexDirection="column"
                  gap="0"
                  onClick={() => {
                    setPeriodSeconds(p.seconds);
                    setServerError(null);
                  }}
                >
                  <Text as="span" fontWeight="semibold">
                    {t('seconds.form.periodSeconds', { seconds: p.seconds })}
                  </Text>
                  <Text as="span" fontSize="2xs" opacity={0.85}>
                    {t('seconds.form.payout', { percent: percent(p.payoutRate) })}
                  </Text>
                </Button>
              );
            })}
          </Grid>
        </Stack>

        <Flex justify="space-between" fontSize="xs" gap="2" wrap="wrap">
          <chakra.label htmlFor={availableId} color="fg.muted">
            {t('seconds.form.available')}
          </chakra.label>
          <chakra.output id={availableId} fontWeight="medium" fontVariantNumeric="tabular-nums">
            {available === null ? '--' : `${formatBalance(available)} ${coinName}`}
          </chakra.output>
        </Flex>

        <Field.Root invalid={Boolean(stakeError)}>
          <Field.Label htmlFor={stakeId} fontSize="xs" fontWeight="medium" color="fg.muted">
            {t('seconds.form.stake')}
          </Field.Label>
          <InputGroup
            endElement={
              <Text as="span" fontSize="xs" fontWeight="semibold" color="fg.muted">
                {coinName}
              </Text>
            }
          >
            <Input
              id={stakeId}
              inputMode="numeric"
              autoComplete="off"
              size="sm"
              value={stake}
              placeholder={period ? t('seconds.form.stakePlaceholder', { min: period.minStake, max: period.maxStake }) : undefined}
              onChange={(event) => {
                setStake(event.currentTarget.value);
                setTouched(true);
                setServerError(null);
              }}
            />
          </InputGroup>
          {stakeError ? (
            <Field.ErrorText>{stakeError}</Field.ErrorText>
          ) : (
            period && (
              <Field.HelperText fontSize="xs">
                {t('seconds.form.stakeHint', { min: formatQuantity(period.minStake, 0), max: formatQuantity(period.maxStake, 0), coin: coinName })}
              </Field.HelperText>
            )
          )}
        </Field.Root>

        <Box as="dl" rounded="md" bg="bg.subtle" px="3" py="2" fontSize="xs" role="group" aria-label={t('seconds.preview.title')}>
          <PreviewRow label={t('seconds.preview.profitIfRight')} value={preview ? `+${amount(preview.profitIfRight)}` : '--'} tone="up" />
          <PreviewRow label={t('seconds.preview.payoutIfRight')} value={amount(preview?.payoutIfRight)} />
          <PreviewRow label={t('seconds.preview.lossIfWrong')} value={preview ? `−${amount(preview.lossIfWrong)}` : '--'} tone="down" />
          <PreviewRow label={t('seconds.preview.returnIfTie')} value={amount(preview?.returnIfTie)} />
          {preview?.insufficientBalance && (
            <Text color="fg.error" mt="1">
              {t('seconds.preview.insufficient')}
            </Text>
          )}
        </Box>

        {loggedIn ? (
          <HStack gap="3">
            {onlyDirection !== 'down' && (
              <Button
                type="button"
                flex="1"
                bg="up"
                color="onUp"
                _hover={{ opacity: 0.9 }}
                loading={busy === 'up'}
                disabled={busy !== null}
                aria-label={t('seconds.form.upLabel', { pair, seconds: period?.seconds ?? 0 })}
                onClick={() => void place('up')}
              >
                ▲ {t('seconds.direction.up')}
              </Button>
            )}
            {onlyDirection !== 'up' && (
              <Button
                type="button"
                flex="1"
                bg="down"
                color="onDown"
                _hover={{ opacity: 0.9 }}
                loading={busy === 'down'}
                disabled={busy !== null}
                aria-label={t('seconds.form.downLabel', { pair, seconds: period?.seconds ?? 0 })}
                onClick={() => void place('down')}
              >
                ▼ {t('seconds.direction.down')}
              </Button>
            )}
          </HStack>
        ) : (
          <Stack gap="2">
            <Text fontSize="sm" color="fg.muted">
              {t('seconds.form.loginPrompt')}
            </Text>
            <HStack gap="3">
              <Button asChild flex="1" colorPalette="brand">
                <RouterLink to={loginPath(`${location.pathname}${location.search}`)}>{t('seconds.form.login')}</RouterLink>
              </Button>
              <Button asChild flex="1" variant="outline">
                <RouterLink to="/user/register">{t('seconds.form.register')}</RouterLink>
              </Button>
            </HStack>
          </Stack>
        )}
        <Text fontSize="2xs" color="fg.subtle">
          {t('seconds.form.ruleNote')}
        </Text>
      </chakra.form>
    </Box>
  );
}
