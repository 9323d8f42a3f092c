/**
 * A labelled decimal input of the order form: only what wasm-core's keystroke rule lets through can
 * be typed (digits, one point, at most the field's decimals), the unit at the end, the error under it.
 *
 * @module
 */

import { Field, Input, InputGroup, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { sanitizeNumberInput } from '../lib/wasm';

/** What a keystroke leaves of `value` with at most `decimals` decimals. */
export function cleanNumber(value: string, decimals: number): string {
  try {
    return sanitizeNumberInput(value, decimals);
  } catch {
    return value;
  }
}

export function NumberField({
  label,
  value,
  unit,
  decimals,
  error,
  helper,
  disabled,
  placeholder,
  onChange,
  onBlur,
}: {
  label: string;
  value: string;
  unit: string;
  decimals: number;
  error?: string;
  helper?: ReactNode;
  disabled?: boolean;
  placeholder?: string;
  onChange: (value: string) => void;
  onBlur?: () => void;
}) {
  return (
    <Field.Root invalid={Boolean(error)} disabled={disabled}>
      <Field.Label fontSize="xs" fontWeight="medium" color="fg.muted">
        {label}
      </Field.Label>
      <InputGroup
        endElement={
          <Text as="span" fontSize="xs" fontWeight="semibold" color="fg.muted">
            {unit}
          </Text>
        }
      >
        <Input
          size="sm"
          inputMode="decimal"
          autoComplete="off"
          value={value}
          placeholder={placeholder}
          fontVariantNumeric="tabular-nums"
          pe="14"
          onChange={(event) => onChange(cleanNumber(event.currentTarget.value, decimals))}
          onBlur={onBlur}
        />
      </InputGroup>
      {helper && !error && <Field.HelperText fontSize="xs">{helper}</Field.HelperText>}
      <Field.ErrorText fontSize="xs">{error}</Field.ErrorText>
    </Field.Root>
  );
}
