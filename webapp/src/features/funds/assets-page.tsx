/**
 * /assets/index?key=… (spec section 2): the user's assets. `key` picks the screen — overview,
 * finance (finance assets: the earn account and rewards), contract (the futures wallet and the positions' margin), recharge, withdraw, swap, transfer, records, order (the order centre of spot orders and fills), investment (my investments: earn orders in progress), promotion (the referral rebates and their statement)
 * — from a side list that keeps `?key=` in the URL. Visitors go to the login screen and
 * come back after it; an unknown key shows the overview.
 *
 * @module
 */

import { useTranslation } from 'react-i18next';
import { Navigate, useLocation, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { loginPath, useIsLoggedIn } from '../../lib/session';
import { FundsFrame, type NavItem } from './components/frame';
import { ContractIcon, DepositIcon, EarnIcon, GiftIcon, InvestIcon, OrdersIcon, RecordsIcon, SwapIcon, TransferIcon, WalletIcon, WithdrawIcon } from './components/icons';
import { ContractAssets } from './contract/contract-assets';
import { DepositForm } from './deposit/deposit-form';
import { FinanceAssets, MyInvestments } from './earn/earn-assets';
import { FundsLinksProvider } from './lib/links';
import { ASSET_KEYS, type AssetKey, assetsHref, parseAssetKey } from './lib/screens';
import { OrderCentre } from './order/order-centre';
import { Overview } from './overview/overview';
import { PromotionAssets } from './promotion/promotion-assets';
import { RecordsScreen } from './records/records-screen';
import { SwapForm } from './swap/swap-form';
import { TransferScreen } from './transfer/transfer-forms';
import { WithdrawForm } from './withdraw/withdraw-form';

const ICONS: Record<AssetKey, NavItem['icon']> = {
  overview: WalletIcon,
  finance: EarnIcon,
  investment: InvestIcon,
  contract: ContractIcon,
  recharge: DepositIcon,
  withdraw: WithdrawIcon,
  swap: SwapIcon,
  transfer: TransferIcon,
  records: RecordsIcon,
  order: OrdersIcon,
  promotion: GiftIcon,
};

function Screen({ screen }: { screen: AssetKey }) {
  switch (screen) {
    case 'contract':
      return <ContractAssets />;
    case 'finance':
      return <FinanceAssets />;
    case 'investment':
      return <MyInvestments />;
    case 'recharge':
      return <DepositForm />;
    case 'withdraw':
      return <WithdrawForm />;
    case 'swap':
      return <SwapForm />;
    case 'transfer':
      return <TransferScreen />;
    case 'records':
      return <RecordsScreen />;
    case 'order':
      return <OrderCentre />;
    case 'promotion':
      return <PromotionAssets />;
    default:
      return <Overview />;
  }
}

export function AssetsPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  const [search] = useSearchParams();
  const key = parseAssetKey(search.get('key'));
  useDocumentTitle(key ? `${t(`funds.screens.${key}`)} · ${t('funds.title')}` : t('funds.title'));

  if (!loggedIn) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  if (!key) return <Navigate to={assetsHref({ screen: 'overview' })} replace />;

  const items: NavItem[] = ASSET_KEYS.map((id) => ({
    id,
    label: t(`funds.screens.${id}`),
    to: id === 'records' ? assetsHref({ screen: 'records', tab: 'deposits' }) : assetsHref({ screen: id }),
    icon: ICONS[id],
    active: id === key,
  }));
  return (
    <FundsLinksProvider value={assetsHref}>
      <FundsFrame title={t('funds.title')} items={items}>
        {/* Remounted per screen (and coin), so each starts from its own URL. */}
        <Screen key={`${key}:${search.get('coin') ?? ''}`} screen={key} />
      </FundsFrame>
    </FundsLinksProvider>
  );
}
