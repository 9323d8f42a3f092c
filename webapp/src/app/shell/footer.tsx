/**
 * The footer (contentinfo): link columns, the risk notice, the security fund statement and the
 * copyright. Hidden on some paths (see `isFooterVisible`).
 *
 * @module
 */

import { Box, Container, Grid, Heading, HStack, Separator, Stack, Text, chakra } from '@chakra-ui/react';
import { type ReactNode, useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { ShieldIcon } from '../../components/icons';
import { Logo } from '../../components/logo';
import { useSecurityFundPercent, useSiteName } from '../../hooks/use-settings';
import { ChatBadge } from './chat-badge';
import { openChat } from '../../lib/chat-store';

/** Rule and policy pages by `modelType`. */
export const RULE_PAGES = {
  secondsContract: 4,
  spot: 6,
  usdtFutures: 8,
  loan: 10,
  userAgreement: 11,
  privacy: 12,
  riskDisclosure: 13,
} as const;

/** The spot pairs linked from the footer. */
export const FOOTER_PAIRS = ['btc', 'eth', 'doge', 'xrp', 'ada', 'sol', 'ltc'] as const;

const rule = (type: number) => `/rule/index?modelType=${type}`;

const linkStyles = {
  fontSize: 'sm',
  color: 'fg.muted',
  textAlign: 'start',
  cursor: 'pointer',
  _hover: { color: 'fg', textDecoration: 'underline' },
} as const;
const FooterButton = chakra('button', { base: linkStyles });

function FooterLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <li>
      <chakra.a asChild {...linkStyles}>
        <RouterLink to={to}>{children}</RouterLink>
      </chakra.a>
    </li>
  );
}

function Column({ title, children }: { title: string; children: ReactNode }) {
  const id = useId();
  return (
    <Box as="section" aria-labelledby={id}>
      <Heading as="h2" id={id} fontSize="sm" fontWeight="semibold" mb="3">
        {title}
      </Heading>
      <Stack as="ul" gap="2" listStyleType="none">
        {children}
      </Stack>
    </Box>
  );
}

export function Footer() {
  const { t } = useTranslation();
  const siteName = useSiteName();
  const percent = useSecurityFundPercent();
  const year = new Date().getFullYear();

  return (
    <Box as="footer" borderTopWidth="1px" bg="bg.subtle" mt="16">
      <Container maxW="1440px" px={{ base: '4', md: '6' }} py="12">
        <Grid templateColumns={{ base: '1fr 1fr', md: 'repeat(3, 1fr)', lg: '1.4fr repeat(4, 1fr)' }} gap="8">
          <Stack gap="3" gridColumn={{ base: '1 / -1', lg: 'auto' }}>
            <Logo siteName={siteName} />
            <Text fontSize="sm" color="fg.muted" maxW="xs">
              {t('footer.tagline')}
            </Text>
          </Stack>
          <Column title={t('footer.about')}>
            <FooterLink to="/about/index">{t('menu.company')}</FooterLink>
            <FooterLink to="/rule/index">{t('menu.notice')}</FooterLink>
            <FooterLink to="/article/main/index">{t('footer.articles')}</FooterLink>
            <FooterLink to={rule(RULE_PAGES.userAgreement)}>{t('footer.userAgreement')}</FooterLink>
            <FooterLink to={rule(RULE_PAGES.privacy)}>{t('footer.privacy')}</FooterLink>
            <FooterLink to={rule(RULE_PAGES.riskDisclosure)}>{t('footer.riskDisclosure')}</FooterLink>
          </Column>
          <Column title={t('footer.products')}>
            <FooterLink to="/trade/index?type=bb">{t('nav.spot')}</FooterLink>
            <FooterLink to="/trade/index?type=usta">{t('nav.futures')}</FooterLink>
            <FooterLink to="/quotes/index">{t('nav.markets')}</FooterLink>
            <FooterLink to="/pledge/index">{t('screens.pledge')}</FooterLink>
            <FooterLink to="/defis/index">{t('screens.defis')}</FooterLink>
            <FooterLink to="/finance/investment">{t('screens.financeInvestment')}</FooterLink>
            <FooterLink to="/loan/index">{t('screens.loan')}</FooterLink>
          </Column>
          <Column title={t('footer.spotPairs')}>
            {FOOTER_PAIRS.map((coin) => (
              <FooterLink key={coin} to={`/trade/index?type=bb&symbol=${coin}usdt`}>
                {`${coin.toUpperCase()}/USDT`}
              </FooterLink>
            ))}
          </Column>
          <Column title={t('footer.support')}>
            <FooterLink to="/user/index?key=helper">{t('footer.helpCenter')}</FooterLink>
            <li>
              <FooterButton type="button" onClick={openChat}>
                {t('menu.onlineCustomer')}
                <ChatBadge />
              </FooterButton>
            </li>
            <FooterLink to={rule(RULE_PAGES.secondsContract)}>{t('footer.rulesSeconds')}</FooterLink>
            <FooterLink to={rule(RULE_PAGES.spot)}>{t('footer.rulesSpot')}</FooterLink>
            <FooterLink to={rule(RULE_PAGES.usdtFutures)}>{t('footer.rulesFutures')}</FooterLink>
            <FooterLink to={rule(RULE_PAGES.loan)}>{t('footer.rulesLoan')}</FooterLink>
          </Column>
        </Grid>

        <Separator my="8" />

        <Stack gap="4">
          <HStack gap="2" align="flex-start" color="fg">
            <ShieldIcon boxSize="4" color="brand.fg" mt="0.5" />
            <Text fontSize="sm" fontWeight="medium">
              {t('footer.securityFund', { percent })}
            </Text>
          </HStack>
          <Text fontSize="xs" color="fg.muted" lineHeight="tall">
            {t('footer.riskNotice')}
          </Text>
          <Text fontSize="xs" color="fg.subtle">
            {t('footer.copyright', { year, siteName })}
          </Text>
        </Stack>
      </Container>
    </Box>
  );
}
