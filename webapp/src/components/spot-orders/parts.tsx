//! The pieces the spot tables share: the table frame with its loading, failure and empty states, the
//! page buttons, the side and status labels.

import { Badge, Box, Button, HStack, IconButton, Table, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { ChevronDownIcon } from '../icons';

/** A table with a caption for screen readers, scrolling sideways on narrow screens. */
export function SpotTable({
  label,
  columns,
  children,
  busy,
}: {
  label: string;
  columns: Array<{ key: string; label: string; end?: boolean }>;
  children: ReactNode;
  busy?: boolean;
}) {
  return (
    <Table.ScrollArea>
      <Table.Root size="sm" aria-label={label} aria-busy={busy || undefined} css={{ '& td, & th': { whiteSpace: 'nowrap' } }}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            {columns.map((column, index) => (
              <Table.ColumnHeader
                key={column.key}
                fontSize="xs"
                color="fg.muted"
                fontWeight="medium"
                textAlign={column.end ? 'end' : 'start'}
                ps={index === 0 ? '4' : undefined}
                pe={index === columns.length - 1 ? '4' : undefined}
              >
                {column.label}
              </Table.ColumnHeader>
            ))}
          </Table.Row>
        </Table.Header>
        <Table.Body>{children}</Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

/** One full-width message row (loading, empty, failed). */
export function MessageRow({ colSpan, children, role }: { colSpan: number; children: ReactNode; role?: 'status' | 'alert' }) {
  return (
    <Table.Row>
      <Table.Cell colSpan={colSpan} textAlign="center" py="8" color="fg.muted" fontSize="sm" role={role}>
        {children}
      </Table.Cell>
    </Table.Row>
  );
}

/** The rows of a table's state: loading, failed (with Retry) or empty; `null` when there are rows. */
export function StateRows({
  colSpan,
  isLoading,
  isError,
  isEmpty,
  empty,
  onRetry,
}: {
  colSpan: number;
  isLoading: boolean;
  isError: boolean;
  isEmpty: boolean;
  empty: string;
  onRetry: () => void;
}) {
  const { t } = useTranslation();
  if (isLoading) {
    return (
      <MessageRow colSpan={colSpan} role="status">
        {t('trade.orders.loading')}
      </MessageRow>
    );
  }
  if (isError) {
    return (
      <MessageRow colSpan={colSpan} role="alert">
        <HStack justify="center" gap="3">
          <Text as="span">{t('trade.orders.failed')}</Text>
          <Button size="xs" variant="outline" onClick={onRetry}>
            {t('trade.orders.retry')}
          </Button>
        </HStack>
      </MessageRow>
    );
  }
  if (isEmpty) return <MessageRow colSpan={colSpan}>{empty}</MessageRow>;
  return null;
}

/** Buy in the up colour, sell in the down colour (the word itself says which). */
export function SideText({ side }: { side: string }) {
  const { t } = useTranslation();
  return (
    <Text as="span" fontWeight="semibold" color={side === 'buy' ? 'up' : 'down'}>
      {t(`trade.orders.side.${side === 'buy' ? 'buy' : 'sell'}`)}
    </Text>
  );
}

const STATUS_PALETTE: Record<string, string> = {
  waitTrigger: 'purple',
  waitDeal: 'blue',
  partDeal: 'orange',
  dealTotol: 'green',
  cancelled: 'gray',
};

/** The state of an order, with why it was cancelled when the server says. */
export function StatusBadge({ status, cancelReason }: { status: string; cancelReason?: string | null }) {
  const { t } = useTranslation();
  const label = t(`trade.orders.status.${status}`, { defaultValue: status });
  const reason = status === 'cancelled' && cancelReason ? t(`trade.orders.cancelReason.${cancelReason}`, { defaultValue: cancelReason }) : null;
  return (
    <HStack gap="1.5">
      <Badge colorPalette={STATUS_PALETTE[status] ?? 'gray'} variant="surface" rounded="full" px="2">
        {label}
      </Badge>
      {reason && (
        <Text as="span" fontSize="xs" color="fg.muted">
          {reason}
        </Text>
      )}
    </HStack>
  );
}

/** Previous / next page buttons with "Page x of y" (nothing when one page holds all). */
export function Pager({ total, pageSize, page, onPage }: { total: number; pageSize: number; page: number; onPage: (page: number) => void }) {
  const { t } = useTranslation();
  const pages = Math.max(1, Math.ceil(total / pageSize));
  if (pages <= 1) return null;
  return (
    <HStack as="nav" aria-label={t('trade.orders.pager.label')} justify="flex-end" gap="2" px="4" py="2" borderTopWidth="1px">
      <IconButton size="xs" variant="ghost" aria-label={t('trade.orders.pager.previous')} disabled={page <= 1} onClick={() => onPage(page - 1)}>
        <ChevronDownIcon transform="rotate(90deg)" />
      </IconButton>
      <Box fontSize="xs" color="fg.muted" fontVariantNumeric="tabular-nums">
        {t('trade.orders.pager.page', { page, pages })}
      </Box>
      <IconButton size="xs" variant="ghost" aria-label={t('trade.orders.pager.next')} disabled={page >= pages} onClick={() => onPage(page + 1)}>
        <ChevronDownIcon transform="rotate(-90deg)" />
      </IconButton>
    </HStack>
  );
}
