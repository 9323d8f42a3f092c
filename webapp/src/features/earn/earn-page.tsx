/**
 * The earn screens, one chunk, by path: /pledge/index (staking), /defis/index (DeFi liquidity
 * mining), /pledge/add?id= (subscribe), /pledge/order (my orders), /finance/investment (wealth
 * products in four tabs: Yield Enhancement, Member Zone, Standard Products, My Investments) and
 * /finance/detail?id=. While open, the user channel refetches the earn reads when a payout lands or
 * an order changes (`earnPayout`, `earnOrder`) and a payout is announced.
 *
 * @module
 */

import { Box, Stack, Tabs, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useSearchParams } from 'react-router';
import { ProductListType } from '../../api/generated/model';
import { useCurrentUser } from '../../hooks/use-current-user';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { useIsLoggedIn } from '../../lib/session';
import { toaster } from '../../lib/toaster';
import { useUserPush } from '../../lib/user-push';
import { formatQuantity } from '../../lib/wasm';
import { EarnOrders } from './orders';
import { EarnFrame, LoginPrompt } from './parts';
import { ProductGrid, ProductsPage } from './products-page';
import { SubscribePage } from './subscribe-page';

/** The tabs of /finance/investment, in order (`?tab=`). */
export const FINANCE_TABS = ['yield', 'member', 'standard', 'mine'] as const;
export type FinanceTab = (typeof FINANCE_TABS)[number];

/** `tab` from the URL when it is one, else Yield Enhancement. */
export function parseFinanceTab(value: string | null): FinanceTab {
  return (FINANCE_TABS as readonly string[]).includes(value ?? '') ? (value as FinanceTab) : 'yield';
}

function OrdersPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  useDocumentTitle(t('earn.titles.orders'));
  return (
    <EarnFrame section="orders" title={t('earn.titles.orders')}>
      {loggedIn ? <EarnOrders /> : <LoginPrompt />}
    </EarnFrame>
  );
}

function MemberNote() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  if (!user) return null;
  const vip = user.user.userType === 'vip';
  return (
    <Box role="note" borderWidth="1px" borderColor={vip ? 'green.muted' : 'orange.muted'} bg={vip ? 'green.subtle' : 'orange.subtle'} rounded="lg" px="4" py="3" mb="4">
      <Text fontSize="sm">{vip ? t('earn.finance.memberVip') : t('earn.finance.memberNote')}</Text>
    </Box>
  );
}

function FinancePage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const [search, setSearch] = useSearchParams();
  const tab = parseFinanceTab(search.get('tab'));
  useDocumentTitle(`${t(`earn.finance.tabs.${tab}`)} · ${t('earn.titles.finance')}`);
  return (
    <EarnFrame section="finance" title={t('earn.titles.finance')} intro={t('earn.intro.finance')}>
      <Tabs.Root
        value={tab}
        onValueChange={(details) => {
          const next = new URLSearchParams();
          if (details.value !== 'yield') next.set('tab', details.value);
          setSearch(next, { replace: true });
        }}
        variant="line"
      >
        <Tabs.List maxW="full" overflowX="auto" mb="4">
          {FINANCE_TABS.map((id) => (
            <Tabs.Trigger key={id} value={id} whiteSpace="nowrap">
              {t(`earn.finance.tabs.${id}`)}
            </Tabs.Trigger>
          ))}
        </Tabs.List>
        <Tabs.Content value={tab} p="0">
          {tab === 'mine' ? (
            loggedIn ? (
              <EarnOrders />
            ) : (
              <LoginPrompt />
            )
          ) : (
            <Stack gap="0">
              {tab === 'member' && <MemberNote />}
              <ProductGrid key={tab} type={ProductListType.finance} tab={tab} hrefOf={(id) => `/finance/detail?id=${id}`} />
            </Stack>
          )}
        </Tabs.Content>
      </Tabs.Root>
    </EarnFrame>
  );
}

/** Keeps the user channel open: its `earnPayout` and `earnOrder` messages refetch the earn reads. */
function LiveEarn() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  useUserPush(user?.user.userId ?? null, (message) => {
    if (message.type === 'earnPayout') {
      toaster.create({ type: 'info', title: t('earn.live.payout', { amount: formatQuantity(message.data.reward), coin: message.data.coin.toUpperCase() }) });
    }
  });
  return null;
}

/** The earn screen of `path`. */
export function EarnPage({ path }: { path: string }) {
  let screen;
  switch (path) {
    case '/defis/index':
      screen = <ProductsPage kind="defi" />;
      break;
    case '/pledge/add':
      screen = <SubscribePage />;
      break;
    case '/pledge/order':
      screen = <OrdersPage />;
      break;
    case '/finance/investment':
      screen = <FinancePage />;
      break;
    case '/finance/detail':
      screen = <SubscribePage finance />;
      break;
    default:
      screen = <ProductsPage kind="pledge" />;
  }
  return (
    <>
      <LiveEarn />
      {screen}
    </>
  );
}
