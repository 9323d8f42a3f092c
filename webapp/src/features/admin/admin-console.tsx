/**
 * The operator console: the review queues — identity, deposits, withdrawals — the earn products,
 * the loan products with the lending pool and the loan applications, the referral agents, the
 * merchant applications, the read-only tier table, the content store, the support inbox and
 * account freezing, as a row of links that keeps the choice in the URL (`?queue=`), and the chosen
 * one under it.
 *
 * @module
 */

import { Box, Flex, chakra } from '@chakra-ui/react';
import type { ComponentType } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { AccountFreeze } from './account-freeze';
import { ContentAdmin } from './content-admin';
import { EarnProducts } from './earn-products';
import { LoanProducts } from './loan-products';
import { LoanQueue } from './loan-queue';
import { FundsQueue } from './funds-queue';
import { MerchantsQueue } from './merchants-queue';
import { ReferralAgents } from './referral-agents';
import { ReviewQueue } from './review-queue';
import { SupportInbox } from './support-inbox';
import { TiersView } from './tiers-view';

/** The queues, in display order; `identity` is the default (no `queue` parameter). */
export const QUEUES = ['identity', 'deposits', 'withdrawals', 'earn', 'loans', 'loanApplications', 'agents', 'merchants', 'tiers', 'content', 'support', 'accounts'] as const;
export type Queue = (typeof QUEUES)[number];

/** `queue` from the URL when it is one of the queues, else `identity`. */
export function parseQueue(value: string | null): Queue {
  return (QUEUES as readonly string[]).includes(value ?? '') ? (value as Queue) : 'identity';
}

/** Each queue's link text (an i18n key of the area that owns the queue). */
const QUEUE_LABELS: Record<Queue, string> = {
  identity: 'funds.admin.queues.identity',
  deposits: 'funds.admin.queues.deposits',
  withdrawals: 'funds.admin.queues.withdrawals',
  earn: 'earn.admin.queue',
  loans: 'loans.admin.queues.loans',
  loanApplications: 'loans.admin.queues.loanApplications',
  agents: 'referral.admin.queue',
  merchants: 'tiers.admin.queues.merchants',
  tiers: 'tiers.admin.queues.tiers',
  content: 'content.admin.queue',
  support: 'support.admin.tab',
  accounts: 'kyc.admin.freeze.queue',
};

/** The screen of each queue but the two funds queues (one screen, told which by `kind`). */
const QUEUE_SCREENS: Record<Exclude<Queue, 'deposits' | 'withdrawals'>, ComponentType> = {
  identity: ReviewQueue,
  earn: EarnProducts,
  loans: LoanProducts,
  loanApplications: LoanQueue,
  agents: ReferralAgents,
  merchants: MerchantsQueue,
  tiers: TiersView,
  content: ContentAdmin,
  support: SupportInbox,
  accounts: AccountFreeze,
};

/** The screen of `queue` (one of those with a screen of their own). */
function QueueScreen({ queue }: { queue: keyof typeof QUEUE_SCREENS }) {
  const Screen = QUEUE_SCREENS[queue];
  return <Screen />;
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
                  {t(QUEUE_LABELS[id])}
                </RouterLink>
              </chakra.a>
            </li>
          ))}
        </Flex>
      </Box>
      {queue === 'deposits' || queue === 'withdrawals' ? <FundsQueue key={queue} kind={queue} /> : <QueueScreen queue={queue} />}
    </>
  );
}
