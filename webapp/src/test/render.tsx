/**
 * Test helper: the app's providers and routes in a memory router, with a seeded query cache (and a
 * signed-in member), and reading a rendered table.
 *
 * @module
 */

import { QueryClient } from '@tanstack/react-query';
import { fireEvent, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router';
import { getGetAllSettingQueryKey, getGetCoinListQueryKey } from '../api/generated/common/common';
import type { AllSetting, CoinList, CoinListEntry, UserInfo } from '../api/generated/model';
import { getGetInfoQueryKey } from '../api/generated/user/user';
import { AppProviders } from '../app/providers';
import { routes } from '../app/router';
import { notifySessionChanged } from '../lib/session';

/** A coin list entry with sensible defaults. */
export function coin(symbol: string, amount: string, open: string, extra: Partial<CoinListEntry> = {}): CoinListEntry {
  const base = symbol.replace(/usdt$/, '');
  return {
    id: 1,
    coin: base,
    baseCoin: 'usdt',
    symbol,
    showSymbol: `${base.toUpperCase()}/USDT`,
    customizeFlag: 1,
    market: 'crypto',
    amount,
    open,
    logo: `/coin-logos/${base}.svg`,
    pricePrecision: 2,
    quantityPrecision: 4,
    tickSize: '0.01',
    stepSize: '0.0001',
    minNotional: '5',
    makerFeeRate: '0.001',
    takerFeeRate: '0.001',
    hot: false,
    sort: 0,
    ...extra,
  };
}

export const SETTINGS: AllSetting = {
  platform: {
    siteName: 'Kestrel Exchange',
    apiHead: 'coin',
    mobileSiteUrl: '',
    securityFundPercent: '10',
    supportEmail: 'support@kestrel.exchange',
    defaultLanguage: 'en',
    defaultTheme: 'light',
    defaultTimeZone: 'America/New_York',
  },
  system: { t_app_language: [{ code: 'en', name: 'English' }], timeZone: [] },
};

/** Renders `ui` inside the app's providers (i18n, `queryClient`, Chakra UI, colour mode, toaster). */
export function renderWithProviders(ui: ReactNode, queryClient: QueryClient) {
  return render(<AppProviders queryClient={queryClient}>{ui}</AppProviders>);
}

/** Renders the app at `path` with `coins` (spot) in the query cache. */
export function renderApp(path: string, coins: CoinList = { currencyList: [], contractList: [] }) {
  const queryClient = new QueryClient({ defaultOptions: { queries: { retry: false, staleTime: Infinity } } });
  queryClient.setQueryData(getGetAllSettingQueryKey(), SETTINGS);
  queryClient.setQueryData(getGetCoinListQueryKey(), coins);
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, router, queryClient };
}

/** Logs in (a session cookie) and renders the app at `path` with `user` in the cache (and `coins`). */
export function renderSignedIn(path: string, user: UserInfo, coins?: CoinList) {
  document.cookie = 'coin-access-token=tok; path=/';
  notifySessionChanged();
  const view = renderApp(path, coins);
  view.queryClient.setQueryData(getGetInfoQueryKey(), user);
  return view;
}

/** Ends the session `renderSignedIn` opened. */
export function logoutCookie(): void {
  document.cookie = 'coin-access-token=; Max-Age=0; path=/';
  notifySessionChanged();
}

/** The text of the cells of a table's body rows (the header row left out). */
export function bodyCells(table: HTMLElement): string[][] {
  return within(table)
    .getAllByRole('row')
    .slice(1)
    .map((row) => within(row).getAllByRole('cell').map((cell) => cell.textContent ?? ''));
}

/**
 * Picks the option named `name` of the (Ark/Chakra) select `combobox` the way a mouse does: open it,
 * point at the option (which highlights it), click.
 */
export async function pickOption(combobox: HTMLElement, name: string): Promise<void> {
  fireEvent.click(combobox);
  const option = await screen.findByRole('option', { name });
  fireEvent.pointerDown(option, { pointerType: 'mouse' });
  fireEvent.pointerMove(option, { pointerType: 'mouse' });
  fireEvent.pointerUp(option, { pointerType: 'mouse' });
  fireEvent.click(option);
}
