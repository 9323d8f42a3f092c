/**
 * The bottom panel of the trade screen: the user's open orders (with cancel), order history and
 * trade history, for the current pair or, with "All pairs", every pair. The tables refetch when the
 * user channel reports an order change or a fill. Visitors are asked to log in.
 *
 * The tables scroll sideways inside the panel when it is narrower than they are; their last column
 * (Cancel on open orders) stays pinned to the panel's right edge, so it is always in reach.
 *
 * @module
 */

import { Box, Button, Checkbox, Flex, HStack, Stack, Tabs, Text, type SystemStyleObject } from '@chakra-ui/react';
import { memo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useLocation } from 'react-router';
import { OpenOrdersTable, OrderHistoryTable, TradeHistoryTable } from '../../components/spot-orders';
import { loginPath, useIsLoggedIn } from '../../lib/session';

type OrdersTab = 'open' | 'history' | 'trades';

/**
 * The last column of a table row sticks to the right edge of its scroll area (a one-cell message
 * row is left alone); it takes its row's background so the columns scrolled under it are hidden.
 */
const STICKY_LAST_COLUMN: SystemStyleObject = {
  '& td:last-of-type:not(:first-of-type), & th:last-of-type:not(:first-of-type)': {
    position: 'sticky',
    insetInlineEnd: '0',
    zIndex: '1',
    bg: 'inherit',
  },
};

export const OrdersPanel = memo(function OrdersPanel({ symbol }: { symbol: string }) {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const [tab, setTab] = useState<OrdersTab>('open');
  const [allPairs, setAllPairs] = useState(false);
  const filter = allPairs ? undefined : symbol;

  return (
    <Box as="section" aria-labelledby="trade-orders-heading" borderWidth="1px" rounded="xl" bg="bg.panel" overflow="hidden" minW="0">
      <Text as="h2" id="trade-orders-heading" srOnly>
        {t('trade.orders.title')}
      </Text>
      {loggedIn ? (
        <Tabs.Root
          value={tab}
          onValueChange={(details) => setTab(details.value as OrdersTab)}
          size="sm"
          variant="line"
          lazyMount
          unmountOnExit
          css={STICKY_LAST_COLUMN}
        >
          <Flex align="center" justify="space-between" gap="3" px="3" wrap="wrap" borderBottomWidth="1px">
            <Tabs.List aria-label={t('trade.orders.title')} borderBottomWidth="0" overflowX="auto" maxW="full">
              <Tabs.Trigger value="open" whiteSpace="nowrap" flexShrink={0}>
                {t('trade.orders.tabs.open')}
              </Tabs.Trigger>
              <Tabs.Trigger value="history" whiteSpace="nowrap" flexShrink={0}>
                {t('trade.orders.tabs.history')}
              </Tabs.Trigger>
              <Tabs.Trigger value="trades" whiteSpace="nowrap" flexShrink={0}>
                {t('trade.orders.tabs.trades')}
              </Tabs.Trigger>
            </Tabs.List>
            <Checkbox.Root size="sm" checked={allPairs} onCheckedChange={(details) => setAllPairs(details.checked === true)} py="2">
              <Checkbox.HiddenInput />
              <Checkbox.Control />
              <Checkbox.Label fontSize="xs">{t('trade.orders.allPairs')}</Checkbox.Label>
            </Checkbox.Root>
          </Flex>
          <Tabs.Content value="open" p="0">
            <OpenOrdersTable key={filter ?? '*'} symbol={filter} />
          </Tabs.Content>
          <Tabs.Content value="history" p="0">
            <OrderHistoryTable key={filter ?? '*'} symbol={filter} />
          </Tabs.Content>
          <Tabs.Content value="trades" p="0">
            <TradeHistoryTable key={filter ?? '*'} symbol={filter} />
          </Tabs.Content>
        </Tabs.Root>
      ) : (
        <Stack align="center" gap="3" py="8" px="4" textAlign="center">
          <Text fontSize="sm" color="fg.muted">
            {t('trade.orders.loginPrompt')}
          </Text>
          <HStack gap="2">
            <Button asChild size="sm" colorPalette="brand">
              <RouterLink to={loginPath(`${location.pathname}${location.search}`)}>{t('trade.form.login')}</RouterLink>
            </Button>
            <Button asChild size="sm" variant="outline" colorPalette="brand">
              <RouterLink to="/user/register">{t('trade.form.signup')}</RouterLink>
            </Button>
          </HStack>
        </Stack>
      )}
    </Box>
  );
});
