/**
 * Page buttons under a table, labelled in the user's language (nothing when one page holds all).
 *
 * @module
 */

import { ButtonGroup, IconButton, Pagination } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { ChevronLeftIcon, ChevronRightIcon } from './icons';

export function Pager({ count, pageSize, page, onPageChange }: { count: number; pageSize: number; page: number; onPageChange: (page: number) => void }) {
  const { t } = useTranslation();
  if (count <= pageSize) return null;
  return (
    <Pagination.Root
      count={count}
      pageSize={pageSize}
      page={page}
      onPageChange={(details) => onPageChange(details.page)}
      siblingCount={1}
      translations={{
        rootLabel: t('funds.pager.label'),
        prevTriggerLabel: t('funds.pager.previous'),
        nextTriggerLabel: t('funds.pager.next'),
        itemLabel: ({ page: value, totalPages }) => t('funds.pager.page', { page: value, total: totalPages }),
      }}
    >
      <ButtonGroup variant="ghost" size="sm" gap="1" flexWrap="wrap">
        <Pagination.PrevTrigger asChild>
          <IconButton>
            <ChevronLeftIcon />
          </IconButton>
        </Pagination.PrevTrigger>
        <Pagination.Items render={(item) => <IconButton variant={{ base: 'ghost', _selected: 'outline' }}>{item.value}</IconButton>} />
        <Pagination.NextTrigger asChild>
          <IconButton>
            <ChevronRightIcon />
          </IconButton>
        </Pagination.NextTrigger>
      </ButtonGroup>
    </Pagination.Root>
  );
}
