/**
 * The operator console: the review queues — identity, deposits, withdrawals — the earn products,
 * the loan products with the lending pool and the loan applications, the referral agents and the
 * content store, as a row of links that keeps the choice in the URL (`?queue=`), and the chosen one under it.
 *
 * @module
 */

import { Box, Flex, chakra } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { ContentAdmin } from './content-admin';
import { EarnProducts } from './earn-products';
import { LoanProducts } from './loan-products';
import { LoanQueue } from './loan-queue';
import { FundsQueue } from './funds-queue';
import { ReferralAgents } from './referral-agents';
import { ReviewQueue } from './review-queue';

/** The queues, in display order; `identity` is the default (no `queue` parameter). */
export const QUEUES = ['identity', 'deposits', 'withdrawals', 'earn', 'loans', 'loanApplications', 'agents', 'content'] as const;
export type Queue = (typeof QUEUES)[number];

/** `queue` from the URL when it is one of the queues, else `identity`. */
export function parseQueue(value: string | null): Queue {
  return (QUEUES as readonly string[]).includes(value ?? '') ? (value as Queue) : 'identity';
}

const linkStyles = {
  display: 'inline-flex',
  alignItems: 'center',
  px: '3.5',
  py: '2',
  rounded: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  whiteSpace: 'nowrap',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'bg.muted', color: 'fg' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' },
  '&[aria-current=page]': { bg: 'brand.subtle', color: 'brand.fg', fontWeight: 'semibold' },
} as const;

export function AdminConsole() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const queue = parseQueue(search.get('queue'));
  return (
    <>
      <Box as="nav" aria-label={t('funds.admin.queuesLabel')} mb="6" overflowX="auto" borderBottomWidth="1px" pb="2">
        <Flex as="ul" listStyleType="none" gap="1" w="max-content">
          {QUEUES.map((id) => (
            <li key={id}>
              <chakra.a asChild {...linkStyles}>
                <RouterLink to={id === 'identity' ? '/admin' : `/admin?queue=${id}`} aria-current={id === queue ? 'page' : undefined}>
                  {id === 'earn' ? t('earn.admin.queue') : id === 'loans' || id === 'loanApplications' ? t(`loans.admin.queues.${id}`) : id === 'agents' ? t('referral.admin.queue') : id === 'content' ? t('content.admin.queue') : t(`funds.admin.queues.${id}`)}
                </RouterLink>
              </chakra.a>
            </li>
          ))}
        </Flex>
      </Box>
      {queue === 'identity' ? (
        <ReviewQueue />
      ) : queue === 'earn' ? (
        <EarnProducts />
      ) : queue === 'agents' ? (
        <ReferralAgents />
      ) : queue === 'content' ? (
        <ContentAdmin />
      ) : queue === 'loans' ? (
        <LoanProducts />
      ) : queue === 'loanApplications' ? (
        <LoanQueue />
      ) : (
        <FundsQueue key={queue} kind={queue} />
      )}
    </>
  );
}
