/**
 * Page buttons under the referral tables, labelled in the user's language from the referral area
 * (the screens showing them — account centre, assets, bills — need not load the account area).
 *
 * @module
 */

import { ButtonGroup, IconButton, Pagination } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';

function Chevron({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" width="16" height="16" fill="none" stroke="currentColor" strokeWidth="2" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}

export function Pager({ count, pageSize, page, onPageChange }: { count: number; pageSize: number; page: number; onPageChange: (page: number) => void }) {
  const { t } = useTranslation();
  if (count <= pageSize) return null;
  return (
    <Pagination.Root
      count={count}
      pageSize={pageSize}
      page={page}
      onPageChange={(details) => onPageChange(details.page)}
      translations={{
        rootLabel: t('referral.pager.label'),
        prevTriggerLabel: t('referral.pager.previous'),
        nextTriggerLabel: t('referral.pager.next'),
        itemLabel: ({ page: value, totalPages }) => t('referral.pager.page', { page: value, total: totalPages }),
      }}
    >
      <ButtonGroup variant="ghost" size="sm" gap="1" flexWrap="wrap">
        <Pagination.PrevTrigger asChild>
          <IconButton>
            <Chevron d="M15 6l-6 6 6 6" />
          </IconButton>
        </Pagination.PrevTrigger>
        <Pagination.Items render={(item) => <IconButton variant={{ base: 'ghost', _selected: 'outline' }}>{item.value}</IconButton>} />
        <Pagination.NextTrigger asChild>
          <IconButton>
            <Chevron d="M9 6l6 6-6 6" />
          </IconButton>
        </Pagination.NextTrigger>
      </ButtonGroup>
    </Pagination.Root>
  );
}
