/**
 * The spot pairs of the trade screen (under the order form from 768 px): a search box, the Spot
 * and Favourites tabs, and each pair with its live price and 24h change. Choosing one changes
 * `?symbol=` (a link, so it also opens in a new tab); the current pair is marked. The list scrolls
 * under the search box and tabs: capped on phones, filling the panel from 768 px, where the trade
 * screen sizes the panel to its neighbours.
 *
 * @module
 */

import { Box, Flex, Input, InputGroup, Table, Tabs, Text, type SystemStyleObject } from '@chakra-ui/react';
import type { TFunction } from 'i18next';
import { memo, useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { SearchIcon } from '../../components/icons';
import { favouriteId, useFavourites } from '../../hooks/use-favourites';
import { filterRows, useMarketRows } from '../../hooks/use-market-rows';
import type { TickerRowView } from '../../lib/wasm';

type ListTab = 'spot' | 'favourites';

/**
 * The list's table. The rows are plain elements styled here once (a Chakra row and cells resolve
 * their styles on every render, for every pair): the current pair's row marked (`data-active`), the
 * price and change at the end in tabular figures, the change in its direction's colour.
 */
const PAIRS_TABLE: SystemStyleObject = {
  '& td, & th': { borderBottomWidth: 0 },
  '& tbody > tr[data-active]': { bg: 'bg.muted' },
  '& tbody > tr:hover': { bg: 'bg.subtle' },
  '& tbody td': { py: '1', px: '3', fontSize: 'xs' },
  '& tbody td + td': { textAlign: 'end', fontVariantNumeric: 'tabular-nums' },
  '& td[data-direction="up"]': { color: 'up' },
  '& td[data-direction="down"]': { color: 'down' },
  '& td[data-direction="flat"]': { color: 'fg.muted' },
  '& td > a': {
    fontWeight: 'semibold',
    _hover: { color: 'brand.fg' },
    _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', rounded: 'sm' },
  },
  '& tr[data-active] td > a': { fontWeight: 'bold' },
  '& [data-quote]': { color: 'fg.muted', fontWeight: 'normal' },
  '& td[data-note]': { textAlign: 'center', py: '6', color: 'fg.muted' },
};

/** The trade page of a spot pair. */
export function tradePath(symbol: string): string {
  return `/trade/index?type=bb&symbol=${encodeURIComponent(symbol)}`;
}

export const PairList = memo(function PairList({ current }: { current: string }) {
  const { t } = useTranslation();
  const { rows } = useMarketRows('spot');
  const favourites = useFavourites();
  const [tab, setTab] = useState<ListTab>('spot');
  const [query, setQuery] = useState('');
  const shown = useMemo(() => {
    const list = tab === 'favourites' ? rows.filter((row) => favourites.has(favouriteId('spot', row.coin.symbol))) : rows;
    return filterRows(list, query);
  }, [rows, favourites, tab, query]);

  return (
    <Box
      as="section"
      aria-labelledby="trade-pairs-heading"
      borderWidth="1px"
      rounded="xl"
      bg="bg.panel"
      overflow="hidden"
      minW="0"
      h="full"
      display="flex"
      flexDirection="column"
    >
      <Tabs.Root value={tab} onValueChange={(details) => setTab(details.value as ListTab)} size="sm" variant="line" display="flex" flexDirection="column" flex="1" minH="0">
        <Flex px="3" pt="2.5" pb="2" direction="column" gap="2" borderBottomWidth="1px" flexShrink={0}>
          <Text as="h2" id="trade-pairs-heading" fontSize="sm" fontWeight="semibold">
            {t('trade.pairs.title')}
          </Text>
          <InputGroup startElement={<SearchIcon boxSize="3.5" color="fg.muted" />}>
            <Input
              size="xs"
              type="search"
              aria-label={t('trade.pairs.search')}
              placeholder={t('trade.pairs.search')}
              value={query}
              onChange={(event) => setQuery(event.currentTarget.value)}
            />
          </InputGroup>
          <Tabs.List aria-label={t('trade.pairs.tabs')}>
            <Tabs.Trigger value="spot" fontSize="xs">
              {t('trade.pairs.spot')}
            </Tabs.Trigger>
            <Tabs.Trigger value="favourites" fontSize="xs">
              {t('trade.pairs.favourites')}
            </Tabs.Trigger>
          </Tabs.List>
        </Flex>
        {/* The list below is the tabs' panel. */}
        <Tabs.Content value={tab} p="0" flex="1" minH="0" display="flex" flexDirection="column">
          <Box flex="1" minH="0" maxH={{ base: '72', md: 'none' }} overflowY="auto">
            <Table.Root size="sm" aria-label={t(tab === 'favourites' ? 'trade.pairs.favourites' : 'trade.pairs.spot')} css={PAIRS_TABLE}>
              <Table.Header position="sticky" top="0" bg="bg.panel" zIndex="1">
                <Table.Row>
                  <Table.ColumnHeader fontSize="2xs" color="fg.muted" fontWeight="medium" py="1.5" px="3">
                    {t('trade.pairs.colPair')}
                  </Table.ColumnHeader>
                  <Table.ColumnHeader fontSize="2xs" color="fg.muted" fontWeight="medium" py="1.5" px="3" textAlign="end">
                    {t('trade.pairs.colPrice')}
                  </Table.ColumnHeader>
                  <Table.ColumnHeader fontSize="2xs" color="fg.muted" fontWeight="medium" py="1.5" px="3" textAlign="end">
                    {t('trade.pairs.colChange')}
                  </Table.ColumnHeader>
                </Table.Row>
              </Table.Header>
              <Table.Body>
                {shown.map((row) => (
                  <PairRow
                    key={row.coin.symbol}
                    symbol={row.coin.symbol}
                    pair={row.pair}
                    price={row.view.price}
                    changeText={row.view.changeText}
                    direction={row.view.direction}
                    active={row.coin.symbol === current}
                    t={t}
                  />
                ))}
                {shown.length === 0 && (
                  <tr>
                    <td colSpan={3} data-note="">
                      {tab === 'favourites' && !query ? t('trade.pairs.noFavourites') : t('trade.pairs.empty')}
                    </td>
                  </tr>
                )}
              </Table.Body>
            </Table.Root>
          </Box>
        </Tabs.Content>
      </Tabs.Root>
    </Box>
  );
});

/**
 * One pair (memoised on its figures: the tickers arrive every 250 ms, and only the pairs whose
 * price or change moved render again). Plain elements styled by the table ({@link PAIRS_TABLE}).
 */
const PairRow = memo(function PairRow({
  symbol,
  pair,
  price,
  changeText,
  direction,
  active,
  t,
}: {
  symbol: string;
  pair: string;
  price: string;
  changeText: string;
  direction: TickerRowView['direction'];
  active: boolean;
  t: TFunction;
}) {
  const slash = pair.indexOf('/');
  return (
    <tr data-active={active ? '' : undefined}>
      <td>
        <RouterLink to={tradePath(symbol)} aria-label={t('trade.pairs.open', { pair })} aria-current={active ? 'page' : undefined}>
          {slash < 0 ? (
            pair
          ) : (
            <>
              {pair.slice(0, slash)}
              <wbr />
              <span data-quote="">{pair.slice(slash)}</span>
            </>
          )}
        </RouterLink>
      </td>
      <td>{price}</td>
      <td data-direction={direction}>{changeText}</td>
    </tr>
  );
});
