/**
 * Every route of spec section 2.
 * `screen` (an i18n key under `screens.`).
 *
 * @module
 */

/** How a route renders. */
export type RouteView =
  | 'home'
  | 'markets'
  | 'market'
  | 'trade'
  | 'trade-chart'
  | 'futures'
  | 'login'
  | 'register'
  | 'reset'
  | 'account'
  | 'admin'
  | 'assets'
  | 'wallet'
  | 'entrust'
  | 'rules'
  | 'earn'
  | 'about'
  | 'user-index'
  | 'articles'
  | 'notices'
  | 'loans';

export interface RouteEntry {
  path: string;
  /** i18n key (under `screens.`) of the screen's name. */
  screen: string;
  view: RouteView;
}

/** Routes inside the shell (top bar, side menu, footer). */
export const SHELL_ROUTES: readonly RouteEntry[] = [
  { path: '/home/index', screen: 'home', view: 'home' },
  { path: '/about/index', screen: 'about', view: 'about' },
  // ?key=all: the overview; ?key=helper: the help centre.
  { path: '/user/index', screen: 'userIndex', view: 'user-index' },
  // The announcements (read state in this browser); ?id= opens one.
  { path: '/notice/index', screen: 'notices', view: 'notices' },
  { path: '/rate/index', screen: 'rate', view: 'markets' },
  { path: '/quotes/index', screen: 'quotes', view: 'markets' },
  // Spot trading (?type=bb&symbol=); ?type=usta is futures, "coming soon" until they exist.
  { path: '/trade/index', screen: 'trade', view: 'trade' },
  // Crypto loans (issue 25): products and the apply form; my applications and loans. One chunk.
  { path: '/loan/index', screen: 'loan', view: 'loans' },
  { path: '/loan/order', screen: 'loanOrder', view: 'loans' },
  { path: '/defis/index', screen: 'defis', view: 'earn' },
  // Notices and rules: ?modelType= picks the topic (a `replace` cache-buster changes nothing).
  { path: '/rule/index', screen: 'rule', view: 'rules' },
  // Earn (issue 24): staking, DeFi mining, wealth products; one chunk, the path picks the screen.
  { path: '/pledge/index', screen: 'pledge', view: 'earn' },
  { path: '/pledge/add', screen: 'pledgeAdd', view: 'earn' },
  { path: '/pledge/order', screen: 'pledgeOrder', view: 'earn' },
  { path: '/market/main', screen: 'market', view: 'market' },
  // My assets (issue 6): ?key=overview|recharge|withdraw|swap|transfer|records|order.
  { path: '/assets/index', screen: 'assets', view: 'assets' },
  { path: '/finance/investment', screen: 'financeInvestment', view: 'earn' },
  { path: '/finance/detail', screen: 'financeDetail', view: 'earn' },
  // The exchange view is the trade screen; full-screen is the pair's chart filling the window.
  { path: '/exchange/index', screen: 'exchange', view: 'trade' },
  { path: '/exchange/full-screen/:type', screen: 'exchangeFullScreen', view: 'trade-chart' },
  { path: '/exchange/full-contract/:type', screen: 'exchangeFullContract', view: 'futures' },
  { path: '/article/main/index', screen: 'articles', view: 'articles' },
  { path: '/article/main/categories/:id', screen: 'articleCategory', view: 'articles' },
  { path: '/article/main/sections/:id', screen: 'articleSection', view: 'articles' },
  { path: '/article/main/content/:type/:id', screen: 'articleContent', view: 'articles' },
  // Account centre tabs (info, security, device-management, kyc, reward-center,
  // contractAgents/agentManagement, merchant) and security settings (setting/phone, …).
  { path: '/account/center/*', screen: 'accountCenter', view: 'account' },
  // The operator's review screen (issue 4); only operators get past its role check.
  { path: '/admin/*', screen: 'admin', view: 'admin' },
  // Wallet: assets, deposit, withdrawal, history-deposit, history-withdrawal, bills.
  { path: '/account/wallet/*', screen: 'accountWallet', view: 'wallet' },
  // Orders: spot, margin-all, margin-fixed, future/u, future/coin.
  { path: '/account/entrust/*', screen: 'accountEntrust', view: 'entrust' },
];

/** Full-page routes, without the shell. */
export const FULL_PAGE_ROUTES: readonly RouteEntry[] = [
  { path: '/user/login', screen: 'userLogin', view: 'login' },
  { path: '/user/register', screen: 'userRegister', view: 'register' },
  { path: '/user/reset', screen: 'userReset', view: 'reset' },
];
