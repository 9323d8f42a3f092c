/**
 * The auth screens' form fields: a labelled text field, a password field with a show/hide toggle,
 * and the verification-code field with its send button. Each shows its hint, or its error in the
 * same place, through Chakra's Field (label, `aria-invalid`, error announced), and the input is
 * described by whichever of the two is shown.
 *
 * @module
 */

import { Button, Field, IconButton, Input, type InputProps, InputGroup, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, type Ref, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { EyeIcon, EyeOffIcon } from './icons';

interface BaseFieldProps {
  label: string;
  /** The error under the field; replaces the hint while shown. */
  error?: string;
  /** A hint under the field. */
  hint?: ReactNode;
  value: string;
  onChange: (value: string) => void;
  inputRef?: Ref<HTMLInputElement>;
}

type InputAttributes = Pick<
  InputProps,
  'name' | 'autoComplete' | 'inputMode' | 'placeholder' | 'maxLength' | 'readOnly' | 'autoFocus' | 'spellCheck' | 'autoCapitalize' | 'type'
>;

/** Ids of a field's parts, so the input can be described by its error as well as by its hint. */
function useFieldIds(): { control: string; errorText: string; helperText: string; label: string } {
  const id = useId();
  return { control: `${id}input`, errorText: `${id}error`, helperText: `${id}hint`, label: `${id}label` };
}

/**
 * `aria-describedby` of the input: the error while shown (Ark only links it as
 * `aria-errormessage`, which not every screen reader reads), else the hint.
 */
function describedBy(ids: ReturnType<typeof useFieldIds>, error?: string, hint?: ReactNode): string | undefined {
  const described = [error ? ids.errorText : undefined, hint ? ids.helperText : undefined].filter(Boolean);
  return described.length > 0 ? described.join(' ') : undefined;
}

/**
 * The error (when there is one) and the hint under a field. The hint stays while an error shows: a
 * rule such as the password's is what the user needs to read to fix the error.
 */
function FieldMessages({ error, hint }: { error?: string; hint?: ReactNode }) {
  return (
    <>
      <Field.ErrorText>{error}</Field.ErrorText>
      {hint && <Field.HelperText>{hint}</Field.HelperText>}
    </>
  );
}

/** A labelled single-line text field. */
export function TextField({ label, error, hint, value, onChange, inputRef, ...input }: BaseFieldProps & InputAttributes) {
  const ids = useFieldIds();
  return (
    <Field.Root ids={ids} invalid={Boolean(error)}>
      <Field.Label fontWeight="medium">{label}</Field.Label>
      <Input
        ref={inputRef}
        aria-describedby={describedBy(ids, error, hint)}
        size="lg"
        colorPalette="brand"
        value={value}
        onChange={(event) => onChange(event.currentTarget.value)}
        {...(input.readOnly ? { variant: 'subtle', color: 'fg.muted', cursor: 'default' } : {})}
        {...input}
      />
      <FieldMessages error={error} hint={hint} />
    </Field.Root>
  );
}

/** A password field whose eye button shows or hides the characters. */
export function PasswordField({
  label,
  error,
  hint,
  value,
  onChange,
  inputRef,
  name,
  autoComplete,
  autoFocus,
}: BaseFieldProps & { name: string; autoComplete: 'current-password' | 'new-password'; autoFocus?: boolean }) {
  const { t } = useTranslation();
  const [visible, setVisible] = useState(false);
  const ids = useFieldIds();
  return (
    <Field.Root ids={ids} invalid={Boolean(error)}>
      <Field.Label fontWeight="medium">{label}</Field.Label>
      <InputGroup
        endElement={
          <IconButton
            type="button"
            variant="ghost"
            size="sm"
            me="-1.5"
            color="fg.muted"
            aria-label={visible ? t('auth.field.hidePassword') : t('auth.field.showPassword')}
            aria-pressed={visible}
            onClick={() => setVisible((shown) => !shown)}
          >
            {visible ? <EyeOffIcon /> : <EyeIcon />}
          </IconButton>
        }
      >
        <Input
          ref={inputRef}
          aria-describedby={describedBy(ids, error, hint)}
          size="lg"
          colorPalette="brand"
          name={name}
          type={visible ? 'text' : 'password'}
          autoComplete={autoComplete}
          autoFocus={autoFocus}
          autoCapitalize="none"
          spellCheck={false}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value)}
        />
      </InputGroup>
      <FieldMessages error={error} hint={hint} />
    </Field.Root>
  );
}

/**
 * The verification-code field with its "Send code" button; while the resend countdown runs the
 * button reads "Resend in 42 s" (fixed width, so nothing moves as the seconds change).
 */
export function CodeField({
  label,
  error,
  hint,
  value,
  onChange,
  inputRef,
  sending,
  secondsLeft,
  sentOnce,
  onSend,
}: BaseFieldProps & { sending: boolean; secondsLeft: number; sentOnce: boolean; onSend: () => void }) {
  const { t } = useTranslation();
  const buttonText =
    secondsLeft > 0 ? t('auth.code.resendIn', { seconds: secondsLeft }) : sentOnce ? t('auth.code.resend') : t('auth.code.send');
  const ids = useFieldIds();
  return (
    <Field.Root ids={ids} invalid={Boolean(error)}>
      <Field.Label fontWeight="medium">{label}</Field.Label>
      <Stack direction="row" gap="2" w="full">
        <Input
          ref={inputRef}
          aria-describedby={describedBy(ids, error, hint)}
          size="lg"
          colorPalette="brand"
          flex="1"
          minW="0"
          name="code"
          inputMode="numeric"
          autoComplete="one-time-code"
          maxLength={6}
          placeholder={t('auth.field.codePlaceholder')}
          value={value}
          onChange={(event) => onChange(event.currentTarget.value.replace(/\D/g, ''))}
        />
        <Button
          type="button"
          size="lg"
          variant="outline"
          flexShrink={0}
          minW="36"
          px="4"
          fontVariantNumeric="tabular-nums"
          loading={sending}
          disabled={secondsLeft > 0}
          onClick={onSend}
        >
          {buttonText}
        </Button>
      </Stack>
      <FieldMessages error={error} hint={hint} />
    </Field.Root>
  );
}

/** The error of the whole form (a call that failed without naming a field), announced when shown. */
export function FormError({ message }: { message?: string }) {
  if (!message) return null;
  return (
    <Text role="alert" fontSize="sm" color="fg.error" bg={{ base: 'red.50', _dark: 'rgba(246, 70, 93, 0.1)' }} borderWidth="1px" borderColor={{ base: 'red.200', _dark: 'rgba(246, 70, 93, 0.3)' }} rounded="md" px="3" py="2.5">
      {message}
    </Text>
  );
}
