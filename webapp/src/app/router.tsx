/**
 * The route table of spec section 2 as a react-router data router.
 *
 * @module
 */

import { useEffect } from 'react';
import { Navigate, type RouteObject, createBrowserRouter, matchPath, useParams, useSearchParams } from 'react-router';
import { getPlatformConfig } from '../lib/platform-config';
import { RootLayout } from './root-layout';
import { HOME_PATH, mobileTradeRedirect } from './route-helpers';
import { FULL_PAGE_ROUTES, type RouteEntry, SHELL_ROUTES } from './route-table';
import { AppShell } from './shell/app-shell';
import { FullPageLayout } from './shell/full-page-layout';
import { lazyScreen } from './lazy-screen';
import { RouteBoundary } from './route-boundary';
import { SCREEN_AREAS } from './screen-areas';

// Every screen is its own chunk, fetched with the i18n areas it needs when its route first renders
// (or preloaded: `preloadScreen`).
const AboutPage = lazyScreen(() => import('../features/content/about-page'), (m) => m.AboutPage, SCREEN_AREAS['features/content/about-page']);
const ArticlesPage = lazyScreen(() => import('../features/content/articles-page'), (m) => m.ArticlesPage, SCREEN_AREAS['features/content/articles-page']);
const NoticesPage = lazyScreen(() => import('../features/content/notices-page'), (m) => m.NoticesPage, SCREEN_AREAS['features/content/notices-page']);
const UserIndexPage = lazyScreen(() => import('../features/content/user-index-page'), (m) => m.UserIndexPage, SCREEN_AREAS['features/content/user-index-page']);
const AccountCenterPage = lazyScreen(() => import('../features/account/account-center-page'), (m) => m.AccountCenterPage, SCREEN_AREAS['features/account/account-center-page']);
const AdminPage = lazyScreen(() => import('../features/admin/admin-page'), (m) => m.AdminPage, SCREEN_AREAS['features/admin/admin-page']);
const LoginPage = lazyScreen(() => import('../features/auth/login-page'), (m) => m.LoginPage, SCREEN_AREAS['features/auth/login-page']);
const RegisterPage = lazyScreen(() => import('../features/auth/register-page'), (m) => m.RegisterPage, SCREEN_AREAS['features/auth/register-page']);
const ResetPage = lazyScreen(() => import('../features/auth/reset-page'), (m) => m.ResetPage, SCREEN_AREAS['features/auth/reset-page']);
const EarnPage = lazyScreen(() => import('../features/earn/earn-page'), (m) => m.EarnPage, SCREEN_AREAS['features/earn/earn-page']);
const EntrustPage = lazyScreen(() => import('../features/entrust/entrust-page'), (m) => m.EntrustPage, SCREEN_AREAS['features/entrust/entrust-page']);
const AssetsPage = lazyScreen(() => import('../features/funds/assets-page'), (m) => m.AssetsPage, SCREEN_AREAS['features/funds/assets-page']);
const WalletPage = lazyScreen(() => import('../features/funds/wallet-page'), (m) => m.WalletPage, SCREEN_AREAS['features/funds/wallet-page']);
const HomePage = lazyScreen(() => import('../features/home/home-page'), (m) => m.HomePage, SCREEN_AREAS['features/home/home-page']);
const LoansPage = lazyScreen(() => import('../features/loans/loans-page'), (m) => m.LoansPage, SCREEN_AREAS['features/loans/loans-page']);
const MarketPage = lazyScreen(() => import('../features/market/market-page'), (m) => m.MarketPage, SCREEN_AREAS['features/market/market-page']);
const MarketsPage = lazyScreen(() => import('../features/markets/markets-page'), (m) => m.MarketsPage, SCREEN_AREAS['features/markets/markets-page']);
const RulesPage = lazyScreen(() => import('../features/rules/rules-page'), (m) => m.RulesPage, SCREEN_AREAS['features/rules/rules-page']);
const FuturesPage = lazyScreen(() => import('../features/futures/futures-page'), (m) => m.FuturesPage, SCREEN_AREAS['features/futures/futures-page']);
const SecondsPage = lazyScreen(() => import('../features/seconds/seconds-page'), (m) => m.SecondsPage, SCREEN_AREAS['features/seconds/seconds-page']);
const FullScreenChartPage = lazyScreen(() => import('../features/trade/full-screen-chart'), (m) => m.FullScreenChartPage, SCREEN_AREAS['features/trade/full-screen-chart']);
const TradePage = lazyScreen(() => import('../features/trade/trade-page'), (m) => m.TradePage, SCREEN_AREAS['features/trade/trade-page']);

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
    case 'earn':
      return <EarnPage path={entry.path} />;
    case 'about':
      return <AboutPage />;
    case 'user-index':
      return <UserIndexPage />;
    case 'articles':
      return <ArticlesPage />;
    case 'notices':
      return <NoticesPage />;
    case 'loans':
      return <LoansPage path={entry.path} />;
  }
}

/** The lazily loaded screen(s) `entry` renders at `search`. */
function screensOf(entry: RouteEntry, search: URLSearchParams): { preload: () => Promise<unknown> }[] {
  const type = (search.get('type') ?? '').toLowerCase();
  switch (entry.view) {
    case 'home':
      return [HomePage];
    case 'markets':
      return [MarketsPage];
    case 'trade':
      if (type === 'seconds' && entry.path === '/trade/index') return [SecondsPage];
      return [type === 'usta' ? FuturesPage : TradePage];
    case 'futures':
      return [FuturesPage];
    case 'trade-chart':
      return [FullScreenChartPage];
    case 'market':
      return [MarketPage];
    case 'login':
      return [LoginPage];
    case 'register':
      return [RegisterPage];
    case 'reset':
      return [ResetPage];
    case 'account':
      return [AccountCenterPage];
    case 'admin':
      return [AdminPage];
    case 'assets':
      return [AssetsPage];
    case 'wallet':
      return [WalletPage];
    case 'entrust':
      return [EntrustPage];
    case 'rules':
      return [RulesPage];
    case 'earn':
      return [EarnPage];
    case 'about':
      return [AboutPage];
    case 'user-index':
      return [UserIndexPage];
    case 'articles':
      return [ArticlesPage];
    case 'notices':
      return [NoticesPage];
    case 'loans':
      return [LoansPage];
  }
}

/**
 * Starts fetching the code of the screen at `pathname` and `search` (the entry calls it before the
 * startup requests, so both travel together instead of one after the other).
 */
export function preloadScreen(pathname: string, search: string): void {
  const path = pathname === '/' ? HOME_PATH : pathname;
  const entry = [...SHELL_ROUTES, ...FULL_PAGE_ROUTES].find((route) => matchPath(route.path, path));
  if (!entry) return;
  for (const screen of screensOf(entry, new URLSearchParams(search))) void screen.preload();
}

/** The route objects (exported for tests, which mount them in a memory router). */
export const routes: RouteObject[] = [
  {
    element: <RootLayout />,
    children: [
      {
        element: <AppShell />,
        children: SHELL_ROUTES.map((entry) => ({ path: entry.path, element: <RouteBoundary>{element(entry)}</RouteBoundary> })),
      },
      {
        element: <FullPageLayout />,
        children: FULL_PAGE_ROUTES.map((entry) => ({
          path: entry.path,
          element: <RouteBoundary>{element(entry)}</RouteBoundary>,
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
