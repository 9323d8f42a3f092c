/**
 * /quotes/index and /rate/index: every market in a sortable table, with tabs All, Favourites,
 * Flash Contracts, Spot and USDT-M Futures.
 *
 * @module
 */

import { Box, Container, Flex, Heading, HStack, Input, InputGroup, Table, Tabs, chakra } from '@chakra-ui/react';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FavouriteStar } from '../../components/favourite-star';
import { FeedStatusBadge } from '../../components/feed-status';
import { PairCell, PriceChangeCells, TradeCell } from '../../components/market-cells';
import { SearchIcon } from '../../components/icons';
import { filterRows, type MarketRow, useMarketRows } from '../../hooks/use-market-rows';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useFavourites } from '../../hooks/use-favourites';
import { compareDecimal } from '../../lib/decimal';
import { coreErrorText } from '../../lib/wasm';


/** The market tabs. */
export const MARKET_TABS = ['all', 'favourites', 'flash', 'spot', 'futures'] as const;
export type MarketTab = (typeof MARKET_TABS)[number];

type Kind = 'spot' | 'futures' | 'flash';
interface TableRow extends MarketRow {
  id: string;
  kind: Kind;
}

type SortKey = 'pair' | 'price' | 'change';
type SortState = { key: SortKey; direction: 'ascending' | 'descending' } | null;

/** Sorts rows by pair name, last price or 24h change (decimals compared exactly). */
export function sortRows<R extends MarketRow>(rows: R[], sort: SortState): R[] {
  if (!sort) return rows;
  const sign = sort.direction === 'ascending' ? 1 : -1;
  const compare = (a: R, b: R): number => {
    switch (sort.key) {
      case 'pair':
        return a.pair.localeCompare(b.pair);
      case 'price':
        return compareDecimal(a.view.price, b.view.price);
      case 'change':
        return compareDecimal(a.view.changePercent, b.view.changePercent);
    }
  };
  return [...rows].sort((a, b) => sign * compare(a, b) || a.pair.localeCompare(b.pair));
}

function SortHeader({
  label,
  column,
  sort,
  onSort,
  align = 'start',
}: {
  label: string;
  column: SortKey;
  sort: SortState;
  onSort: (key: SortKey) => void;
  align?: 'start' | 'end';
}) {
  const active = sort?.key === column;
  return (
    <Table.ColumnHeader aria-sort={active ? sort.direction : 'none'} textAlign={align} color="fg.muted" fontWeight="medium">
      <chakra.button
        type="button"
        display="inline-flex"
        alignItems="center"
        gap="1"
        font="inherit"
        color="inherit"
        cursor="pointer"
        _hover={{ color: 'fg' }}
        _focusVisible={{ outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '2px', rounded: 'sm' }}
        onClick={() => onSort(column)}
      >
        {label}
        <Box as="span" aria-hidden="true" fontSize="2xs" opacity={active ? 1 : 0.35}>
          {active && sort.direction === 'ascending' ? '▲' : '▼'}
        </Box>
      </chakra.button>
    </Table.ColumnHeader>
  );
}

function MarketsTable({ rows, sort, onSort, tab }: { rows: TableRow[]; sort: SortState; onSort: (key: SortKey) => void; tab: MarketTab }) {
  const { t } = useTranslation();
  return (
    <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel">
      <Table.Root size="md" interactive aria-label={t(`markets.tab.${tab}`)}>
        <Table.Header>
          <Table.Row bg="bg.subtle">
            <Table.ColumnHeader w="12" ps="4">
              <Box as="span" srOnly>
                {t('markets.colFavourite')}
              </Box>
            </Table.ColumnHeader>
            <SortHeader label={t('home.colPair')} column="pair" sort={sort} onSort={onSort} />
            <Table.ColumnHeader color="fg.muted" fontWeight="medium">
              {t('markets.colMarket')}
            </Table.ColumnHeader>
            <SortHeader label={t('home.colPrice')} column="price" sort={sort} onSort={onSort} align="end" />
            <SortHeader label={t('home.colChange')} column="change" sort={sort} onSort={onSort} align="end" />
            <Table.ColumnHeader color="fg.muted" fontWeight="medium" textAlign="end" pe="5">
              {t('home.colAction')}
            </Table.ColumnHeader>
          </Table.Row>
        </Table.Header>
        <Table.Body>
          {rows.map((row) => {
            return (
              <Table.Row key={row.id}>
                <Table.Cell ps="4">
                  <FavouriteStar id={row.id} pair={row.pair} />
                </Table.Cell>
                <PairCell row={row} />
                <Table.Cell color="fg.muted" fontSize="sm">
                  {t(`markets.kind.${row.kind}`)}
                </Table.Cell>
                <PriceChangeCells row={row} />
                <TradeCell row={row} type={row.kind === 'futures' ? 'usta' : row.kind === 'flash' ? 'seconds' : 'bb'} />
              </Table.Row>
            );
          })}
          {rows.length === 0 && (
            <Table.Row>
              <Table.Cell colSpan={6} textAlign="center" py="10" color="fg.muted">
                {tab === 'favourites' ? t('markets.noFavourites') : t('home.noCoins')}
              </Table.Cell>
            </Table.Row>
          )}
        </Table.Body>
      </Table.Root>
    </Table.ScrollArea>
  );
}

export function MarketsPage({ screen }: { screen: string }) {
  const { t } = useTranslation();
  const spot = useMarketRows('spot');
  const contract = useMarketRows('contract');
  const favourites = useFavourites();
  const [tab, setTab] = useState<MarketTab>('all');
  const [query, setQuery] = useState('');
  const [sort, setSort] = useState<SortState>(null);

  const byTab = useMemo(() => {
    const spotRows: TableRow[] = spot.rows.map((row) => ({ ...row, id: `spot:${row.coin.symbol}`, kind: 'spot' }));
    const futuresRows: TableRow[] = contract.rows.map((row) => ({ ...row, id: `contract:${row.coin.symbol}`, kind: 'futures' }));
    const flashRows: TableRow[] = spot.rows.map((row) => ({ ...row, id: `flash:${row.coin.symbol}`, kind: 'flash' }));
    const all = [...spotRows, ...futuresRows];
    return {
      all,
      favourites: [...all, ...flashRows].filter((row) => favourites.has(row.id)),
      flash: flashRows,
      spot: spotRows,
      futures: futuresRows,
    } satisfies Record<MarketTab, TableRow[]>;
  }, [spot.rows, contract.rows, favourites]);

  const onSort = (key: SortKey) =>
    setSort((current) =>
      current?.key === key
        ? current.direction === 'descending'
          ? { key, direction: 'ascending' }
          : null
        : { key, direction: 'descending' },
    );

  const error = spot.formatError ?? contract.formatError;
  useDocumentTitle(t(`screens.${screen}`));

  return (
    <Container maxW="1440px" px={{ base: '4', md: '6' }} py={{ base: '8', md: '12' }}>
      <Flex align={{ base: 'flex-start', md: 'center' }} justify="space-between" gap="4" mb="6" direction={{ base: 'column', md: 'row' }}>
        <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em">
          {t(`screens.${screen}`)}
        </Heading>
        <HStack gap="3">
          <FeedStatusBadge status={spot.status} />
          <InputGroup startElement={<SearchIcon boxSize="4" color="fg.muted" />} w={{ base: 'full', md: '64' }}>
            <Input
              type="search"
              size="sm"
              aria-label={t('home.searchLabel')}
              placeholder={t('home.searchPlaceholder')}
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
            />
          </InputGroup>
        </HStack>
      </Flex>
      <Tabs.Root value={tab} onValueChange={(e) => setTab(e.value as MarketTab)} variant="line" lazyMount unmountOnExit>
        <Tabs.List mb="4" overflowX="auto">
          {MARKET_TABS.map((value) => (
            <Tabs.Trigger key={value} value={value} whiteSpace="nowrap">
              {t(`markets.tab.${value}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        {MARKET_TABS.map((value) => (
          <Tabs.Content key={value} value={value} pt="0">
            {error ? (
              <Box role="alert" borderWidth="1px" rounded="xl" p="8" textAlign="center" color="fg.error">
                {coreErrorText(t, error)}
              </Box>
            ) : (
              <MarketsTable rows={sortRows(filterRows(byTab[value], query), sort)} sort={sort} onSort={onSort} tab={value} />
            )}
          </Tabs.Content>
        ))}
      </Tabs.Root>
    </Container>
  );
}
