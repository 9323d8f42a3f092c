/**
 * The info tab: the user's profile (avatar, user id, contacts, tier, credit score, identity level,
 * registration date), the invitation code and link, and the bank card.
 *
 * @module
 */

import { Avatar, Badge, Button, DataList, Flex, Grid, HStack, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import type { UserInfo } from '../../../api/generated/model';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { TabHeader } from '../account-layout';
import { CopyButton } from '../components/copy-button';
import { ChevronRightIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { StatusBadge } from '../components/status-badge';
import { useDateTimeFormatter } from '../lib/format';
import { settingPath, tabPath } from '../lib/tabs';
import { InviteDetails } from '../referral/invite';
import { BankCardSection } from './bank-card';

/** The i18n key of an identity level (0 none, 1 basic, 2 advanced). */
export function identityLevelKey(level: number): string {
  return level >= 2 ? 'account.identity.advanced' : level === 1 ? 'account.identity.basic' : 'account.identity.none';
}

function ProfileCard({ user }: { user: UserInfo }) {
  const { t } = useTranslation();
  const formatDate = useDateTimeFormatter();
  const { email, phone, userId, userType, creditScore, createdAt } = user.user;
  const contact = email ?? phone ?? '';
  const vip = userType === 'vip';
  const userIdText = String(userId);

  return (
    <SectionCard title={t('account.info.profile')}>
      <Stack gap="6">
        <Flex gap="4" align="center" minW="0">
          <Avatar.Root size="2xl" colorPalette="brand" flexShrink={0}>
            <Avatar.Fallback name={contact || userIdText} />
            {user.avatar && <Avatar.Image src={user.avatar} alt={t('account.info.avatarAlt')} />}
          </Avatar.Root>
          <Stack gap="1.5" minW="0">
            <Text fontSize="lg" fontWeight="semibold" truncate title={contact}>
              {contact || t('account.info.uid', { id: userIdText })}
            </Text>
            <HStack gap="2" flexWrap="wrap">
              <Badge colorPalette={vip ? 'orange' : 'gray'} variant={vip ? 'solid' : 'surface'} size="md" rounded="full" px="2.5">
                {vip ? t('account.info.vipUser') : t('account.info.normalUser')}
              </Badge>
              <StatusBadge on={user.kycLevel > 0} label={t(identityLevelKey(user.kycLevel))} />
            </HStack>
          </Stack>
        </Flex>

        <DataList.Root orientation="horizontal" gap="3" size="md" css={{ '--data-list-label-width': 'minmax(8rem, 34%)' }}>
          <DataList.Item>
            <DataList.ItemLabel>{t('account.info.userId')}</DataList.ItemLabel>
            <DataList.ItemValue alignItems="center" gap="1">
              <Text as="span" fontFamily="mono">
                {userIdText}
              </Text>
              <CopyButton value={userIdText} label={t('account.info.copyUserId')} />
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('account.fields.email')}</DataList.ItemLabel>
            <DataList.ItemValue minW="0">
              {email ? (
                <Text as="span" truncate>
                  {email}
                </Text>
              ) : (
                <Button asChild size="xs" variant="outline">
                  <RouterLink to={settingPath('email')}>{t('account.actions.bind')}</RouterLink>
                </Button>
              )}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('account.fields.phone')}</DataList.ItemLabel>
            <DataList.ItemValue>
              {phone ? (
                phone
              ) : (
                <Button asChild size="xs" variant="outline">
                  <RouterLink to={settingPath('phone')}>{t('account.actions.bind')}</RouterLink>
                </Button>
              )}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('account.info.creditScore')}</DataList.ItemLabel>
            <DataList.ItemValue fontVariantNumeric="tabular-nums">{creditScore}</DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('account.info.identityLevel')}</DataList.ItemLabel>
            <DataList.ItemValue alignItems="center" gap="2" flexWrap="wrap">
              {t(identityLevelKey(user.kycLevel))}
              {user.kycLevel < 2 && (
                <Button asChild size="xs" variant="outline">
                  <RouterLink to={tabPath('kyc')}>{t('account.info.verify')}</RouterLink>
                </Button>
              )}
            </DataList.ItemValue>
          </DataList.Item>
          <DataList.Item>
            <DataList.ItemLabel>{t('account.info.registered')}</DataList.ItemLabel>
            <DataList.ItemValue fontVariantNumeric="tabular-nums">{formatDate(createdAt)}</DataList.ItemValue>
          </DataList.Item>
        </DataList.Root>
      </Stack>
    </SectionCard>
  );
}

export function InfoTab() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  if (!user) return null;
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.info')} description={t('account.info.description')} />
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', xl: 'minmax(0, 1.15fr) minmax(0, 1fr)' }} gap="5" alignItems="start">
        <ProfileCard user={user} />
        <SectionCard title={t('account.invite.title')} description={t('account.invite.description')}>
          <Stack gap="4">
            <InviteDetails inviteCode={user.user.inviteCode} />
            <Button asChild size="sm" variant="outline" alignSelf="flex-start">
              <RouterLink to={tabPath('reward-center')}>
                {t('account.invite.learnMore')}
                <ChevronRightIcon boxSize="4" />
              </RouterLink>
            </Button>
          </Stack>
        </SectionCard>
      </Grid>
      <BankCardSection />
    </Stack>
  );
}
