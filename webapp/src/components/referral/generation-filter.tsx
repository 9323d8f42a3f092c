/**
 * All referral generations or one, as a row of toggle buttons (the reward centre's members and
 * statement, agent management's team).
 *
 * @module
 */

import { Button, HStack } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { GENERATIONS } from '../../lib/referral-format';

/** All generations or one, as a row of toggle buttons. */
export function GenerationFilter({ value, onChange }: { value: number | undefined; onChange: (value: number | undefined) => void }) {
  const { t } = useTranslation();
  const options: (number | undefined)[] = [undefined, ...GENERATIONS];
  return (
    <HStack gap="1" wrap="wrap" role="group" aria-label={t('referral.filterLabel')}>
      {options.map((option) => (
        <Button key={option ?? 0} size="xs" variant={value === option ? 'solid' : 'outline'} aria-pressed={value === option} onClick={() => onChange(option)}>
          {option ? t('referral.generationN', { n: option }) : t('referral.allGenerations')}
        </Button>
      ))}
    </HStack>
  );
}
