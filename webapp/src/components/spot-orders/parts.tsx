/**
 * The pieces the spot tables share: one page of a list in a table with its loading, failure and
 * empty states and the page buttons under it, the leading cells of a row, the ordered price and
 * amount, the side and status labels.
 *
 * @module
 */

import { Badge, Box, Button, HStack, IconButton, Table, Text } from '@chakra-ui/react';
import type { TFunction } from 'i18next';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpotOrder } from '../../api/generated/model';
import { type DataColumn, DataTable } from '../data-table';
import { ChevronDownIcon } from '../icons';
import { CardList, CardListState } from '../item-cards';
import type { SpotFormat } from './format';

/** What a paged table needs of its list query. */
export interface PageQuery {
  data?: { total: number; records: readonly unknown[] };
  isPending: boolean;
  isError: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

/**
 * One page of `query`'s list: the `children` rows, or the loading, failed (with Retry) or `empty`
 * row, in a table labelled `label`, and the page buttons under it.
 */
export function PagedTable({
  label,
  columns,
  query,
  loggedIn,
  empty,
  page,
  pageSize,
  onPage,
  children,
}: {
  label: string;
  columns: DataColumn[];
  query: PageQuery;
  loggedIn: boolean;
  empty: string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  children: ReactNode;
}) {
  return (
    <>
      <DataTable label={label} columns={columns} busy={query.isFetching}>
        {children}
        <StateRows
          colSpan={columns.length}
          isLoading={query.isPending && loggedIn}
          isError={query.isError && !query.data}
          isEmpty={(query.data?.records.length ?? 0) === 0}
          empty={empty}
          onRetry={() => void query.refetch()}
        />
      </DataTable>
      <Pager total={query.data?.total ?? 0} pageSize={pageSize} page={page} onPage={onPage} />
    </>
  );
}

/**
 * The phone form of {@link PagedTable}: one page of `query`'s list as cards (`children`), or the
 * loading, failed (with Retry) or `empty` line, in a list labelled `label`, and the page buttons.
 */
export function PagedCards({
  label,
  query,
  loggedIn,
  empty,
  page,
  pageSize,
  onPage,
  children,
}: {
  label: string;
  query: PageQuery;
  loggedIn: boolean;
  empty: string;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const isEmpty = (query.data?.records.length ?? 0) === 0;
  return (
    <>
      <CardList label={label} busy={query.isFetching}>
        {children}
        {query.isPending && loggedIn ? (
          <CardListState role="status">{t('trade.orders.loading')}</CardListState>
        ) : query.isError && !query.data ? (
          <CardListState role="alert">
            <HStack justify="center" gap="3">
              <Text as="span">{t('trade.orders.failed')}</Text>
              <Button size="sm" variant="outline" onClick={() => void query.refetch()}>
                {t('trade.orders.retry')}
              </Button>
            </HStack>
          </CardListState>
        ) : isEmpty ? (
          <CardListState>{empty}</CardListState>
        ) : null}
      </CardList>
      <Pager total={query.data?.total ?? 0} pageSize={pageSize} page={page} onPage={onPage} />
    </>
  );
}

/** The cells every spot row starts with: the time, the pair, the order type (when given) and the side. */
export function LeadCells({ format, time, symbol, type, side }: { format: SpotFormat; time: number; symbol: string; type?: string; side: string }) {
  const { t } = useTranslation();
  return (
    <>
      <Table.Cell ps="4" fontVariantNumeric="tabular-nums" color="fg.muted" fontSize="xs">
        {format.time(time)}
      </Table.Cell>
      <Table.Cell fontWeight="medium">{format.pair(symbol)}</Table.Cell>
      {type !== undefined && <Table.Cell>{t(`trade.orders.type.${type}`, { defaultValue: type })}</Table.Cell>}
      <Table.Cell>
        <SideText side={side} />
      </Table.Cell>
    </>
  );
}

/** The price an order asked: its limit price, or "Market" for a market order. */
export function orderedPrice(order: SpotOrder, format: SpotFormat, t: TFunction): string {
  return order.commissPrice ? format.price(order.symbol, order.commissPrice) : t('trade.orders.marketPrice');
}

/** The ordered quantity as shown: the base quantity, or the quote amount of a market buy by amount. */
export function orderedAmount(order: SpotOrder, format: SpotFormat): string {
  if (order.commissNum) return `${format.quantity(order.symbol, order.commissNum)} ${format.base(order.symbol)}`;
  if (order.quoteAmount) return `${format.amount(order.quoteAmount)} ${format.quote(order.symbol)}`;
  return '--';
}


/** One full-width message row (loading, empty, failed). */
function MessageRow({ colSpan, children, role }: { colSpan: number; children: ReactNode; role?: 'status' | 'alert' }) {
  return (
    <Table.Row>
      <Table.Cell colSpan={colSpan} textAlign="center" py="8" color="fg.muted" fontSize="sm" role={role}>
        {children}
      </Table.Cell>
    </Table.Row>
  );
}

/** The rows of a table's state: loading, failed (with Retry) or empty; `null` when there are rows. */
function StateRows({
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
function Pager({ total, pageSize, page, onPage }: { total: number; pageSize: number; page: number; onPage: (page: number) => void }) {
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
