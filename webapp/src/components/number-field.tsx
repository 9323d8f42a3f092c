/**
 * A labelled decimal input of the order form: only what wasm-core's keystroke rule lets through can
 * be typed (digits, one point, at most the field's decimals), the unit at the end, the error under it.
 * The form's value never ends in the point a number shows while it is typed (`12.` stands for `12`),
 * so what a form checks and sends is always a number the server accepts.
 *
 * @module
 */

import { Field, Input, InputGroup, Text } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { sanitizeNumberInput } from '../lib/wasm';

/** `text` without the trailing point of a number being typed: `12.` → `12`. */
export function settledNumber(text: string): string {
  return text.endsWith('.') ? text.slice(0, -1) : text;
}

/**
 * The text a number field shows for `value`: what the user typed while it stands for `value` (a
 * trailing point included), else `value` itself (set by the form: Max, a picked price, a reset).
 * The returned setter reports the settled number to `onChange`.
 */
export function useNumberText(value: string, onChange: (value: string) => void): [string, (typed: string) => void] {
  const [typed, setTyped] = useState(value);
  const text = settledNumber(typed) === value ? typed : value;
  const change = (next: string) => {
    setTyped(next);
    onChange(settledNumber(next));
  };
  return [text, change];
}

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
  const [text, setText] = useNumberText(value, onChange);
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
          value={text}
          placeholder={placeholder}
          fontVariantNumeric="tabular-nums"
          pe="14"
          onChange={(event) => setText(cleanNumber(event.currentTarget.value, decimals))}
          onBlur={onBlur}
        />
      </InputGroup>
      {helper && !error && <Field.HelperText fontSize="xs">{helper}</Field.HelperText>}
      <Field.ErrorText fontSize="xs">{error}</Field.ErrorText>
    </Field.Root>
  );
}
