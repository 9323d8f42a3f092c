/**
 * The basic verification form: full name*, ID number*, country* (searchable) and document type*.
 * wasm-core's `validateIdentityForm` checks it before the call ('Please complete all required (*)
 * fields' when required ones are empty); errors the server ties to a field appear under it, others
 * above the submit button.
 *
 * @module
 */

import { Alert, Box, Button, Field, Flex, Input, RadioCard, SimpleGrid, Stack, Text } from '@chakra-ui/react';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fieldErrors, validateIdentityForm } from '../../../lib/wasm';
import { toaster } from '../../../lib/toaster';
import { apiFailure } from './api-failure';
import { CountrySelect } from './country-select';
import { IdBackArt, IdFrontArt } from './kyc-icons';
import { type Submission, useCountries, useSubmitBasic } from './kyc-api';

type CardType = 'idCard' | 'passport';

interface FormValues {
  name: string;
  idCard: string;
  country: string;
  cardType: CardType | '';
}

/** The fields the form has; a server error naming another field is shown above the button. */
const FIELDS = ['name', 'idCard', 'country', 'cardType'] as const;

export function BasicForm({ previous, onSubmitted, onCancel }: { previous?: Submission | null; onSubmitted: () => void; onCancel?: () => void }) {
  const { t } = useTranslation();
  const { countries, isLoading: countriesLoading } = useCountries();
  const submit = useSubmitBasic();
  // A resubmission starts from the rejected details (the ID number comes back masked: typed again).
  const [values, setValues] = useState<FormValues>(() => ({
    name: previous?.name ?? '',
    idCard: '',
    country: previous?.country ?? '',
    cardType: previous?.cardType === 'idCard' || previous?.cardType === 'passport' ? previous.cardType : '',
  }));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string | null>(null);

  const set = <K extends keyof FormValues>(key: K, value: FormValues[K]) => {
    setValues((v) => ({ ...v, [key]: value }));
    setErrors(({ [key]: _gone, ...rest }) => rest);
    setFormError(null);
  };

  const onSubmit = async (event: FormEvent) => {
    event.preventDefault();
    if (submit.isPending) return;
    const form = { name: values.name.trim(), idCard: values.idCard.trim(), country: values.country, cardType: values.cardType };
    const problems = validateIdentityForm(form);
    if (problems.length > 0) {
      setErrors(fieldErrors(t, problems));
      setFormError(problems.some((p) => p.code === 'field_required') ? t('errors.requiredFields') : null);
      return;
    }
    setErrors({});
    setFormError(null);
    try {
      await submit.mutateAsync({ data: { ...form, cardType: form.cardType as CardType } });
      toaster.create({ type: 'success', title: t('kyc.basic.submitted') });
      onSubmitted();
    } catch (error) {
      const failure = apiFailure(error, t('errors.unknown'));
      if (failure.field && (FIELDS as readonly string[]).includes(failure.field)) {
        setErrors({ [failure.field]: failure.message });
      } else {
        setFormError(failure.message);
      }
      // Someone (another tab) already submitted: show the state the server has.
      if (failure.reason === 'kyc_under_review' || failure.reason === 'kyc_already_passed') onSubmitted();
    }
  };

  return (
    <form onSubmit={onSubmit} noValidate aria-label={t('kyc.basic.formTitle')}>
      <Stack gap="5">
        <Text fontSize="sm" color="fg.muted">
          {t('kyc.basic.requiredHint')}
        </Text>
        <SimpleGrid columns={{ base: 1, md: 2 }} gap="5">
          <Field.Root required invalid={Boolean(errors.name)}>
            <Field.Label>
              {t('kyc.basic.name')}
              <Field.RequiredIndicator />
            </Field.Label>
            <Input
              value={values.name}
              onChange={(e) => set('name', e.currentTarget.value)}
              placeholder={t('kyc.basic.namePlaceholder')}
              autoComplete="name"
              maxLength={100}
            />
            <Field.ErrorText>{errors.name}</Field.ErrorText>
          </Field.Root>
          <Field.Root required invalid={Boolean(errors.country)}>
            <CountrySelect countries={countries} loading={countriesLoading} value={values.country} onChange={(code) => set('country', code)} />
            <Field.ErrorText>{errors.country}</Field.ErrorText>
          </Field.Root>
        </SimpleGrid>

        <Field.Root required invalid={Boolean(errors.cardType)}>
          <RadioCard.Root
            value={values.cardType || null}
            onValueChange={(details) => set('cardType', (details.value ?? '') as CardType | '')}
            colorPalette="brand"
            size="sm"
            w="full"
          >
            <RadioCard.Label>
              {t('kyc.basic.cardType')}
              <Text as="span" color="fg.error" ms="1" aria-hidden="true">
                *
              </Text>
            </RadioCard.Label>
            <SimpleGrid columns={2} gap="3" mt="1.5">
              {(['idCard', 'passport'] as const).map((type) => (
                <RadioCard.Item key={type} value={type}>
                  <RadioCard.ItemHiddenInput />
                  <RadioCard.ItemControl alignItems="center">
                    <Box color="fg.muted" flexShrink={0}>
                      {type === 'idCard' ? <IdFrontArt boxSize="8" /> : <IdBackArt boxSize="8" />}
                    </Box>
                    <RadioCard.ItemText>{t(`kyc.cardType.${type}`)}</RadioCard.ItemText>
                    <RadioCard.ItemIndicator />
                  </RadioCard.ItemControl>
                </RadioCard.Item>
              ))}
            </SimpleGrid>
          </RadioCard.Root>
          <Field.ErrorText>{errors.cardType}</Field.ErrorText>
        </Field.Root>

        <Field.Root required invalid={Boolean(errors.idCard)}>
          <Field.Label>
            {t('kyc.basic.idCard')}
            <Field.RequiredIndicator />
          </Field.Label>
          <Input
            value={values.idCard}
            onChange={(e) => set('idCard', e.currentTarget.value)}
            placeholder={t('kyc.basic.idCardPlaceholder')}
            autoComplete="off"
            spellCheck={false}
            maxLength={32}
            fontFamily="mono"
            letterSpacing="0.02em"
          />
          <Field.ErrorText>{errors.idCard}</Field.ErrorText>
        </Field.Root>

        {formError && (
          <Alert.Root status="error" rounded="lg" role="alert">
            <Alert.Indicator />
            <Alert.Title fontWeight="normal">{formError}</Alert.Title>
          </Alert.Root>
        )}

        <Flex gap="3" justify="flex-end" wrap="wrap">
          {onCancel && (
            <Button variant="ghost" onClick={onCancel} disabled={submit.isPending}>
              {t('kyc.cancel')}
            </Button>
          )}
          <Button type="submit" colorPalette="brand" loading={submit.isPending} minW="36">
            {t('kyc.basic.submit')}
          </Button>
        </Flex>
      </Stack>
    </form>
  );
}
