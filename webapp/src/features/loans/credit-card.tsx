/**
 * The user's credit score (`GET /api/loan/credit`) with each factor's part explained in plain
 * words: the base, the identity level, the account's age, instalments paid on time, loans settled,
 * overdue days and a loan overdue now. The score gates products and lowers the amount one may borrow
 * below the full-limit score.
 *
 * @module
 */

import { Box, Flex, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useGetCreditScore } from '../../api/generated/loans/loans';
import { QueryState } from './parts';

/** The credit score card. */
export function CreditCard() {
  const { t } = useTranslation();
  const credit = useGetCreditScore();
  return (
    <Stack as="section" aria-labelledby="loan-credit-heading" gap="3" borderWidth="1px" rounded="xl" bg="bg.panel" p="4" minW="0">
      <Text as="h2" id="loan-credit-heading" fontWeight="semibold">
        {t('loans.credit.title')}
      </Text>
      {!credit.data ? (
        <QueryState failed={credit.isError} onRetry={() => void credit.refetch()} />
      ) : (
        <>
          <Flex align="baseline" gap="2" wrap="wrap">
            <Text as="output" fontSize="3xl" fontWeight="bold" fontVariantNumeric="tabular-nums" aria-label={t('loans.credit.score')}>
              {credit.data.score}
            </Text>
            <Text fontSize="sm" color="fg.muted">
              {t('loans.credit.fullLimit', { score: credit.data.fullLimitScore })}
            </Text>
          </Flex>
          <Box as="ul" listStyleType="none" fontSize="sm">
            {credit.data.factors.map((factor) => (
              <Flex as="li" key={factor.key} justify="space-between" gap="3" py="1" borderTopWidth="1px">
                <Text minW="0">{t(`loans.credit.factors.${factor.key}`, { value: factor.value, defaultValue: factor.key })}</Text>
                <Text fontWeight="semibold" fontVariantNumeric="tabular-nums" color={factor.points < 0 ? 'fg.error' : factor.points > 0 ? 'fg.success' : 'fg.muted'} whiteSpace="nowrap">
                  {factor.points > 0 ? `+${factor.points}` : factor.points}
                </Text>
              </Flex>
            ))}
          </Box>
          <Text fontSize="xs" color="fg.muted">
            {t('loans.credit.model')}
          </Text>
        </>
      )}
    </Stack>
  );
}
