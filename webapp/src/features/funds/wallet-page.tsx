/**
 * /account/wallet/* (spec section 2): the same funds screens in the account layout — assets,
 * deposit, withdrawal, history-deposit, history-withdrawal and bills — each a path of its own.
 * Visitors go to the login screen and come back after it.
 *
 * @module
 */

import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { loginPath, useIsLoggedIn } from '../../lib/session';
import { FundsFrame, type NavItem } from './components/frame';
import { BillIcon, DepositIcon, RecordsIcon, WalletIcon, WithdrawIcon } from './components/icons';
import { DepositForm } from './deposit/deposit-form';
import { FundsLinksProvider } from './lib/links';
import { WALLET_PAGES, WALLET_PATH, type WalletPage, walletHref } from './lib/screens';
import { Overview } from './overview/overview';
import { RecordPage } from './records/records-screen';
import { WithdrawForm } from './withdraw/withdraw-form';

const ICONS: Record<WalletPage, NavItem['icon']> = {
  assets: WalletIcon,
  deposit: DepositIcon,
  withdrawal: WithdrawIcon,
  'history-deposit': RecordsIcon,
  'history-withdrawal': RecordsIcon,
  bills: BillIcon,
};

/** The page of a path under /account/wallet, if any. */
function pageOf(pathname: string): WalletPage | undefined {
  const rest = pathname.slice(WALLET_PATH.length + 1).split('/')[0];
  return WALLET_PAGES.find((page) => page === rest);
}

export function WalletPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const [search] = useSearchParams();
  const page = pageOf(location.pathname);
  useDocumentTitle(page ? `${t(`funds.wallet.${page}`)} · ${t('funds.wallet.title')}` : t('funds.wallet.title'));

  if (!loggedIn) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;

  const items: NavItem[] = WALLET_PAGES.map((id) => ({
    id,
    label: t(`funds.wallet.${id}`),
    to: `${WALLET_PATH}/${id}`,
    icon: ICONS[id],
    active: id === page,
  }));
  const coin = search.get('coin') ?? '';
  return (
    <FundsLinksProvider value={walletHref}>
      <FundsFrame title={t('funds.wallet.title')} items={items}>
        <Routes>
          <Route path="assets" element={<Overview />} />
          <Route path="deposit" element={<DepositForm key={coin} />} />
          <Route path="withdrawal" element={<WithdrawForm key={coin} />} />
          <Route path="history-deposit" element={<RecordPage tab="deposits" />} />
          <Route path="history-withdrawal" element={<RecordPage tab="withdrawals" />} />
          <Route path="bills" element={<RecordPage tab="bills" />} />
          <Route path="*" element={<Navigate to={`${WALLET_PATH}/assets`} replace />} />
        </Routes>
      </FundsFrame>
    </FundsLinksProvider>
  );
}
