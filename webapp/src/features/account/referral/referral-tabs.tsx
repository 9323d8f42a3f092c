/**
 * The reward-center and agent-management tabs: the user's invitation code and link, how the
 * three-generation referral programme works, and honest empty states (no numbers are invented
 * while there is no referral data to show).
 *
 * @module
 */

import { Box, Circle, EmptyState, Grid, Stack, Text } from '@chakra-ui/react';
import { useTranslation } from 'react-i18next';
import { useCurrentUser } from '../../../hooks/use-current-user';
import { TabHeader } from '../account-layout';
import { GiftIcon, UsersIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { InviteDetails } from './invite';

/** The referral generations. */
const GENERATIONS = [1, 2, 3] as const;

function HowItWorks() {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('account.referral.howTitle')} description={t('account.referral.howDescription')}>
      <Grid as="ol" listStyleType="none" templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' }} gap="4">
        {GENERATIONS.map((generation) => (
          <Stack as="li" key={generation} gap="2" p="4" rounded="lg" bg="bg.subtle" borderWidth="1px">
            <Circle size="8" bg="brand.solid" color="brand.contrast" fontWeight="bold" fontSize="sm" aria-hidden="true">
              {generation}
            </Circle>
            <Text fontWeight="semibold">{t('account.referral.generation', { n: generation })}</Text>
            <Text fontSize="sm" color="fg.muted">
              {t(`account.referral.generationHint${generation}`)}
            </Text>
          </Stack>
        ))}
      </Grid>
      <Text fontSize="sm" color="fg.muted" mt="4">
        {t('account.referral.terms')}
      </Text>
    </SectionCard>
  );
}

function InviteCard() {
  const { t } = useTranslation();
  const { user } = useCurrentUser();
  if (!user) return null;
  return (
    <SectionCard title={t('account.invite.title')} description={t('account.invite.description')}>
      <Box maxW="xl">
        <InviteDetails inviteCode={user.user.inviteCode} />
      </Box>
    </SectionCard>
  );
}

function Empty({ icon, title, hint }: { icon: React.ReactNode; title: string; hint: string }) {
  return (
    <EmptyState.Root size="md">
      <EmptyState.Content>
        <EmptyState.Indicator color="fg.subtle">{icon}</EmptyState.Indicator>
        <Stack gap="1" textAlign="center">
          <EmptyState.Title>{title}</EmptyState.Title>
          <EmptyState.Description>{hint}</EmptyState.Description>
        </Stack>
      </EmptyState.Content>
    </EmptyState.Root>
  );
}

export function RewardCenterTab() {
  const { t } = useTranslation();
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.rewards')} description={t('account.referral.rewardsDescription')} />
      <InviteCard />
      <SectionCard title={t('account.referral.myRewards')}>
        <Empty icon={<GiftIcon />} title={t('account.referral.noRewards')} hint={t('account.referral.noRewardsHint')} />
      </SectionCard>
      <HowItWorks />
    </Stack>
  );
}

export function AgentManagementTab() {
  const { t } = useTranslation();
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.agents')} description={t('account.referral.agentsDescription')} />
      <InviteCard />
      <SectionCard title={t('account.referral.myTeam')}>
        <Empty icon={<UsersIcon />} title={t('account.referral.noInvitees')} hint={t('account.referral.noInviteesHint')} />
      </SectionCard>
      <HowItWorks />
    </Stack>
  );
}
