/**
 * The route table of spec section 2 as a react-router data router.
 *
 * @module
 */

import { useEffect } from 'react';
import { Navigate, type RouteObject, createBrowserRouter, useParams, useSearchParams } from 'react-router';
import { AccountCenterPage } from '../features/account/account-center-page';
import { AdminPage } from '../features/admin/admin-page';
import { LoginPage } from '../features/auth/login-page';
import { RegisterPage } from '../features/auth/register-page';
import { ResetPage } from '../features/auth/reset-page';
import { EntrustPage } from '../features/entrust/entrust-page';
import { AssetsPage } from '../features/funds/assets-page';
import { WalletPage } from '../features/funds/wallet-page';
import { HomePage } from '../features/home/home-page';
import { MarketPage } from '../features/market/market-page';
import { MarketsPage } from '../features/markets/markets-page';
import { RulesPage } from '../features/rules/rules-page';
import { FuturesPage } from '../features/futures/futures-page';
import { SecondsPage } from '../features/seconds/seconds-page';
import { FullScreenChartPage } from '../features/trade/full-screen-chart';
import { TradePage } from '../features/trade/trade-page';
import { getPlatformConfig } from '../lib/platform-config';
import { ComingSoonPage, FullPageComingSoon } from './coming-soon';
import { RootLayout } from './root-layout';
import { HOME_PATH, mobileTradeRedirect } from './route-helpers';
import { FULL_PAGE_ROUTES, type RouteEntry, SHELL_ROUTES } from './route-table';
import { AppShell } from './shell/app-shell';
import { FullPageLayout } from './shell/full-page-layout';

/**
 * /trade/index: phones go to the configured mobile site (when there is one); desktops trade here —
 * `type=seconds` is the flash contract screen, `usta` the USDT-M futures screen, `bb` (default) the
 * spot trade screen.
 */
function TradeRoute({ path }: { path: string }) {
  const [search] = useSearchParams();
  const target = mobileTradeRedirect(path, navigator.userAgent, getPlatformConfig().mobileSiteUrl);
  useEffect(() => {
    if (target) window.location.replace(target);
  }, [target]);
  if (target) return null;
  const type = (search.get('type') ?? '').toLowerCase();
  if (type === 'seconds' && path === '/trade/index') return <SecondsPage />;
  if (type === 'usta') return <FuturesPage />;
  return <TradePage />;
}

/** /exchange/full-contract/{type}: the futures screen; `{type}` is `usta` (pair in `?symbol=`) or the pair itself. */
function FullContractRoute() {
  const { type = '' } = useParams();
  const lower = type.toLowerCase();
  return <FuturesPage symbol={lower === 'usta' ? undefined : lower} />;
}

function element(entry: RouteEntry) {
  switch (entry.view) {
    case 'home':
      return <HomePage />;
    case 'markets':
      return <MarketsPage screen={entry.screen} />;
    case 'trade':
      return <TradeRoute path={entry.path} />;
    case 'futures':
      return <FullContractRoute />;
    case 'trade-chart':
      return <FullScreenChartPage />;
    case 'market':
      return <MarketPage />;
    case 'login':
      return <LoginPage />;
    case 'register':
      return <RegisterPage />;
    case 'reset':
      return <ResetPage />;
    case 'account':
      return <AccountCenterPage />;
    case 'admin':
      return <AdminPage />;
    case 'assets':
      return <AssetsPage />;
    case 'wallet':
      return <WalletPage />;
    case 'entrust':
      return <EntrustPage />;
    case 'rules':
      return <RulesPage />;
    default:
      return <ComingSoonPage screen={entry.screen} />;
  }
}

/** The route objects (exported for tests, which mount them in a memory router). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <AppShell />,
        children: SHELL_ROUTES.map((entry) => ({ path: entry.path, element: element(entry) })),
      },
      {
        element: <FullPageLayout />,
        children: FULL_PAGE_ROUTES.map((entry) => ({
          path: entry.path,
          element: entry.view === 'coming-soon' ? <FullPageComingSoon screen={entry.screen} /> : element(entry),
        })),
      },
      { path: '/', element: <Navigate to={HOME_PATH} replace /> },
      { path: '*', element: <Navigate to={HOME_PATH} replace /> },
    ],
  },
];

/** The browser router of the app. */
export function createAppRouter() {
  return createBrowserRouter(routes);
}
