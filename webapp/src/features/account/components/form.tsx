/**
 * Form building blocks of the account centre: labelled fields with their error under them, a
 * password field with a show/hide toggle, a form-level error and the submit row.
 *
 * @module
 */

import { Alert, Field, IconButton, Input, InputGroup, type InputProps } from '@chakra-ui/react';
import { type ReactNode, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from './icons';

/** Field → message; the key `form` holds an error that belongs to no single field. */
export type FormErrors = Record<string, string>;

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
            aria-label={visible ? t('account.form.hidePassword') : t('account.form.showPassword')}
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

/** Keeps only digits, at most `max` of them (authenticator and verification codes). */
export function digitsOnly(value: string, max = 6): string {
  return value.replace(/\D/g, '').slice(0, max);
}
