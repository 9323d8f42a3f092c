/**
 * Form fields of the funds screens: labelled text and password inputs, an amount input with its
 * unit, balance line and Max button, and a native coin picker. Each shows its error under it.
 *
 * @module
 */

import { Alert, Box, Button, Field, Flex, IconButton, Input, InputGroup, type InputProps, NativeSelect, Text } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNumberText } from '../../../components/number-field';
import { cleanAmount } from '../lib/amount';
import { coinName, formatCoin } from '../lib/format';
import { EyeIcon, EyeOffIcon } from './icons';

interface FieldProps {
  label: string;
  error?: string;
  helper?: ReactNode;
  required?: boolean;
}

/** A labelled text input. */
export function TextField({ label, error, helper, required, ...input }: FieldProps & InputProps) {
  return (
    <Field.Root invalid={Boolean(error)} required={required}>
      <Field.Label fontWeight="medium">
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <Input size="lg" {...input} />
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** A labelled password input with a show/hide toggle. */
export function PasswordField({ label, error, helper, required, ...input }: FieldProps & Omit<InputProps, 'type'>) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  return (
    <Field.Root invalid={Boolean(error)} required={required}>
      <Field.Label fontWeight="medium">
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <InputGroup
        endElement={
          <IconButton
            size="xs"
            variant="ghost"
            me="-2"
            aria-label={visible ? t('funds.form.hidePassword') : t('funds.form.showPassword')}
            aria-pressed={visible}
            onClick={() => setVisible((v) => !v)}
          >
            {visible ? <EyeOffIcon /> : <EyeIcon />}
          </IconButton>
        }
      >
        <Input size="lg" type={visible ? 'text' : 'password'} autoComplete="off" {...input} />
      </InputGroup>
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/**
 * An amount of `coin`: only digits and one point can be typed (wasm-core's keystroke rule), the coin
 * at the end, the available balance under it and a Max button that fills it in.
 */
export function AmountField({
  label,
  value,
  onChange,
  onBlur,
  coin,
  available,
  error,
  helper,
  disabled,
  required = true,
}: {
  label: string;
  value: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
  coin?: string;
  /** The balance the amount comes from; shows the balance line and the Max button. */
  available?: string;
  error?: string;
  helper?: ReactNode;
  disabled?: boolean;
  required?: boolean;
}) {
  const { t } = useTranslation();
  const [text, setText] = useNumberText(value, onChange);
  return (
    <Field.Root invalid={Boolean(error)} required={required} disabled={disabled}>
      <Flex w="full" justify="space-between" align="baseline" gap="3" wrap="wrap">
        <Field.Label fontWeight="medium">
          {label}
          <Field.RequiredIndicator />
        </Field.Label>
        {available !== undefined && coin && (
          <Text fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
            {t('funds.form.available', { amount: formatCoin(available), coin: coinName(coin) })}
          </Text>
        )}
      </Flex>
      <InputGroup
        endElement={
          <Flex align="center" gap="2" me="-1">
            {coin && (
              <Text fontSize="sm" fontWeight="semibold" color="fg.muted">
                {coinName(coin)}
              </Text>
            )}
            {available !== undefined && (
              <Button size="xs" variant="subtle" colorPalette="brand" onClick={() => onChange(available)} disabled={disabled}>
                {t('funds.form.max')}
              </Button>
            )}
          </Flex>
        }
        endElementProps={{ pointerEvents: 'auto' }}
      >
        <Input
          size="lg"
          inputMode="decimal"
          autoComplete="off"
          placeholder={t('funds.form.amountPlaceholder')}
          value={text}
          onChange={(event) => setText(cleanAmount(event.currentTarget.value))}
          onBlur={onBlur}
          fontVariantNumeric="tabular-nums"
          pe={available !== undefined ? '28' : '16'}
        />
      </InputGroup>
      {helper && !error && <Field.HelperText>{helper}</Field.HelperText>}
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** A native picker of `options` (value → label), with a label and an error. */
export function SelectField({
  label,
  value,
  options,
  onChange,
  error,
  placeholder,
  disabled,
  required,
}: {
  label: string;
  value: string;
  options: readonly { value: string; label: string }[];
  onChange: (value: string) => void;
  error?: string;
  placeholder?: string;
  disabled?: boolean;
  required?: boolean;
}) {
  return (
    <Field.Root invalid={Boolean(error)} required={required} disabled={disabled}>
      <Field.Label fontWeight="medium">
        {label}
        <Field.RequiredIndicator />
      </Field.Label>
      <NativeSelect.Root size="lg">
        <NativeSelect.Field value={value} onChange={(event) => onChange(event.currentTarget.value)}>
          {placeholder !== undefined && <option value="">{placeholder}</option>}
          {options.map((option) => (
            <option key={option.value} value={option.value}>
              {option.label}
            </option>
          ))}
        </NativeSelect.Field>
        <NativeSelect.Indicator />
      </NativeSelect.Root>
      <Field.ErrorText>{error}</Field.ErrorText>
    </Field.Root>
  );
}

/** The coins of `coins` as picker options (`usdt` → `USDT`). */
export function coinOptions(coins: readonly string[]): { value: string; label: string }[] {
  return coins.map((coin) => ({ value: coin, label: coinName(coin) }));
}

/** An error of the whole form (announced to screen readers). */
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <Alert.Root status="error" rounded="lg" role="alert">
      <Alert.Indicator />
      <Alert.Title fontWeight="normal">{message}</Alert.Title>
    </Alert.Root>
  );
}

/** A label/value row of a summary box (fee, amount received, rate). */
export function SummaryRow({ label, value, strong }: { label: string; value: ReactNode; strong?: boolean }) {
  return (
    <Flex justify="space-between" gap="3" fontSize="sm" wrap="wrap">
      <Text color="fg.muted">{label}</Text>
      <Box fontWeight={strong ? 'semibold' : 'medium'} fontVariantNumeric="tabular-nums" textAlign="end" minW="0" overflowWrap="anywhere">
        {value}
      </Box>
    </Flex>
  );
}
