/**
 * /account/center/* (spec section 2): the account centre. Visitors go to the login screen (and
 * come back after it). The tabs — info, security, device-management, kyc, tier (issue 26: the
 * account tier, VIP status and the merchant programme), reward-center,
 * contractAgents/agentManagement and, for merchants (`is_merchant === 2`), merchant — sit in a
 * side list on wide screens and a scrolling row on narrow ones. `merchant` is the merchant tool for
 * merchants and the application for everyone else (reached from the tier tab). The security
 * settings screens (`security/setting/<name>`) hide the tabs and show a link back to the security
 * tab.
 *
 * @module
 */

import { Container } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Navigate, Route, Routes, useLocation, useParams } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { loginPath, useIsLoggedIn } from '../../lib/session';
import { AccountLayout, SettingsLayout } from './account-layout';
import { DevicesTab } from './devices/devices-tab';
import { InfoTab } from './info/info-tab';
import { KycTab } from './kyc/kyc-tab';
import { SECURITY_SETTINGS, type SecuritySetting, settingPath, tabPath } from './lib/tabs';
import { MerchantTab } from './merchant/merchant-tab';
import { ReauthProvider } from './reauth/reauth';
import { AgentManagementTab, RewardCenterTab } from './referral/referral-tabs';
import { SecurityTab } from './security/security-tab';
import { AntiCodeSetting } from './settings/anti-code-setting';
import { ContactSetting } from './settings/contact-setting';
import { GoogleSetting } from './settings/google-setting';
import { LoginPasswordSetting } from './settings/login-password-setting';
import { TradePasswordSetting } from './settings/trade-password-setting';
import { TierTab } from './tier/tier-tab';

/** `/account/center/setting/<name>` (without `security/`) leads to the same screen. */
function SettingAlias() {
  const { name } = useParams();
  const known = SECURITY_SETTINGS.includes(name as SecuritySetting);
  return <Navigate to={known ? settingPath(name as SecuritySetting) : tabPath('security')} replace />;
}

function AccountCenterRoutes() {
  return (
    <Routes>
      <Route path="security/setting" element={<SettingsLayout />}>
        <Route path="login-pwd" element={<LoginPasswordSetting />} />
        <Route path="trade-pwd" element={<TradePasswordSetting />} />
        <Route path="email" element={<ContactSetting kind="email" />} />
        <Route path="phone" element={<ContactSetting kind="phone" />} />
        <Route path="google" element={<GoogleSetting />} />
        <Route path="anti-code" element={<AntiCodeSetting />} />
        <Route path="*" element={<Navigate to={tabPath('security')} replace />} />
      </Route>
      <Route path="setting/:name" element={<SettingAlias />} />
      <Route element={<AccountLayout />}>
        <Route index element={<Navigate to={tabPath('info')} replace />} />
        <Route path="info" element={<InfoTab />} />
        <Route path="security" element={<SecurityTab />} />
        <Route path="device-management" element={<DevicesTab />} />
        <Route path="kyc/*" element={<KycTab />} />
        <Route path="reward-center" element={<RewardCenterTab />} />
        <Route path="contractAgents/agentManagement" element={<AgentManagementTab />} />
        <Route path="tier" element={<TierTab />} />
        <Route path="merchant" element={<MerchantTab />} />
        <Route path="*" element={<Navigate to={tabPath('info')} replace />} />
      </Route>
    </Routes>
  );
}

export function AccountCenterPage() {
  const { t } = useTranslation();
  const loggedIn = useIsLoggedIn();
  const location = useLocation();
  useDocumentTitle(t('account.title'));
  if (!loggedIn) return <Navigate to={loginPath(`${location.pathname}${location.search}`)} replace />;
  return (
    <ReauthProvider>
      <Container maxW="1280px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
        <AccountCenterRoutes />
      </Container>
    </ReauthProvider>
  );
}
