/**
 * The merchant tool (merchants only): the merchant profile as approved (`GET /api/merchant/mine`),
 * the merchant's own rate on its customers' trading fees, the invitation code, link and QR code that
 * make new users its customers, and the customers with their 30-day volumes and what each one's
 * fees paid the merchant (`customers.tsx`).
 *
 * @module
 */

import { Badge, Box, Flex, Grid, Link, Stack, Text } from '@chakra-ui/react';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { MerchantRecord } from '../../../api/generated/model';
import { QrCode } from '../../../components/qr-code';
import { useSecurityFundPercent, useSupportEmail } from '../../../hooks/use-settings';
import { fractionPercent } from '../../../lib/tiers';
import { LinkIcon, StoreIcon, UsersIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { StatusBadge } from '../components/status-badge';
import { useDateTimeFormatter } from '../lib/format';
import { InviteDetails, inviteLink } from '../referral/invite';
import { Customers } from './customers';
import { MERCHANT_FIELDS } from './form';

/** One label and value of a `dl` grid: the label above the value on phones, beside it from `md`. */
export function Pair({ label, value }: { label: string; value: ReactNode }) {
  return (
    <>
      <Text as="dt" color="fg.muted" mt={{ base: '2', md: '0' }}>
        {label}
      </Text>
      <Text as="dd" whiteSpace="pre-wrap" overflowWrap="anywhere">
        {value}
      </Text>
    </>
  );
}

function Profile({ record, userId }: { record?: MerchantRecord; userId: number }) {
  const { t } = useTranslation();
  const formatTime = useDateTimeFormatter();
  const supportEmail = useSupportEmail();
  return (
    <SectionCard title={t('tiers.merchant.profile')} icon={<StoreIcon boxSize="5" />} actions={<StatusBadge on label={t('tiers.merchant.active')} />}>
      <Stack gap="4">
        <Grid as="dl" templateColumns={{ base: 'minmax(0, 1fr)', md: '12rem minmax(0, 1fr)' }} columnGap="4" rowGap={{ base: '1', md: '3' }} fontSize="sm">
          <Pair label={t('tiers.merchant.merchantId')} value={<Text as="span" fontFamily="mono">{userId}</Text>} />
          {record?.decidedAt != null && <Pair label={t('tiers.merchant.since')} value={formatTime(record.decidedAt)} />}
          {record && MERCHANT_FIELDS.map((field) => <Pair key={field} label={t(`tiers.merchant.fields.${field}`)} value={record[field]} />)}
        </Grid>
        <Text fontSize="sm" color="fg.muted">
          {t('tiers.merchant.profileChanges')}{' '}
          {supportEmail && (
            <Link href={`mailto:${supportEmail}`} color="brand.fg" fontWeight="medium">
              {supportEmail}
            </Link>
          )}
        </Text>
      </Stack>
    </SectionCard>
  );
}

function Rate({ rate }: { rate?: string }) {
  const { t } = useTranslation();
  const fund = useSecurityFundPercent();
  return (
    <SectionCard title={t('tiers.merchant.rate')}>
      <Stack gap="2">
        <Flex align="baseline" gap="3" wrap="wrap">
          <Text fontSize="3xl" fontWeight="bold" letterSpacing="-0.02em" color="brand.fg" fontVariantNumeric="tabular-nums">
            {rate ? fractionPercent(rate) : '—'}
          </Text>
          <Badge variant="subtle" rounded="full">
            {t('tiers.merchant.rateGeneration')}
          </Badge>
        </Flex>
        <Text fontSize="sm">{t('tiers.merchant.rateValue')}</Text>
        <Text fontSize="sm" color="fg.muted">
          {t('tiers.merchant.rateHint', { fund: `${fund}%` })}
        </Text>
      </Stack>
    </SectionCard>
  );
}

function Invite({ inviteCode }: { inviteCode: string }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('tiers.merchant.inviteTitle')} description={t('tiers.merchant.inviteDescription')} icon={<LinkIcon boxSize="5" />}>
      <Flex gap="5" direction={{ base: 'column', sm: 'row' }} align={{ base: 'stretch', sm: 'center' }}>
        <Box flex="1" minW="0">
          <InviteDetails inviteCode={inviteCode} />
        </Box>
        <Stack align="center" gap="1" flexShrink={0}>
          <QrCode value={inviteLink(inviteCode)} label={t('tiers.merchant.qrLabel')} size="32" />
        </Stack>
      </Flex>
    </SectionCard>
  );
}

export function MerchantTool({ record, inviteCode, userId }: { record?: MerchantRecord; inviteCode: string; userId: number }) {
  const { t } = useTranslation();
  return (
    <>
      <Profile record={record} userId={userId} />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', xl: 'minmax(0, 2fr) minmax(0, 3fr)' }} gap="5" alignItems="start">
        <Rate rate={record?.rebateRate} />
        <Invite inviteCode={inviteCode} />
      </Grid>
      <SectionCard title={t('tiers.merchant.customers')} description={t('tiers.merchant.customersDescription')} icon={<UsersIcon boxSize="5" />}>
        <Customers />
      </SectionCard>
    </>
  );
}
