/**
 * The reward-center and agent-management tabs. The reward centre (`GET /api/referral/summary`):
 * the invitation code, link and its QR code with copy buttons, the late bind of an inviter's code
 * while the window is open (the server's reason when it refuses), everything earned and today's
 * reward per coin, the reader's rates, the three generations' members and the statement down to
 * each fill. Agent management (`POST /api/agentActivityInfo/getAgentInfo`, `getAgentList`): for an
 * agent its rates, team, volumes and commissions; for anyone else what an agent is and how to
 * become one, with the same team and commissions as a member.
 *
 * @module
 */

import { Alert, Box, Button, Circle, Flex, Grid, Spinner, Stack, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getReferralSummaryQueryKey, useGetAgentInfo, useReferralBind, useReferralSummary } from '../../../api/generated/referral/referral';
import type { CoinAmount } from '../../../api/generated/model';
import { useNow } from '../../../hooks/use-now';
import { SILENT, failure } from '../../../lib/api-calls';
import { toaster } from '../../../lib/toaster';
import { QrCode } from '../../../components/qr-code';
import { TabHeader } from '../account-layout';
import { TextField } from '../components/form';
import { GiftIcon, LinkIcon, UsersIcon } from '../components/icons';
import { SectionCard } from '../components/section-card';
import { InviteDetails, inviteLink } from './invite';
import { GENERATIONS, coinAmountsText, daysLeft, ratePercent } from '../../../lib/referral-format';
import { Members } from './members';
import { Statement } from '../../../components/referral/statement';

function HowItWorks({ rates }: { rates?: readonly string[] }) {
  const { t } = useTranslation();
  return (
    <SectionCard title={t('account.referral.howTitle')} description={t('account.referral.howDescription')}>
      <Grid as="ol" listStyleType="none" templateColumns={{ base: 'minmax(0, 1fr)', md: 'repeat(3, minmax(0, 1fr))' }} gap="4">
        {GENERATIONS.map((generation) => (
          <Stack as="li" key={generation} gap="2" p="4" rounded="lg" bg="bg.subtle" borderWidth="1px">
            <Flex align="center" justify="space-between" gap="2">
              <Circle size="8" bg="brand.solid" color="brand.contrast" fontWeight="bold" fontSize="sm" aria-hidden="true">
                {generation}
              </Circle>
              {rates?.[generation - 1] && (
                <Text fontWeight="semibold" color="brand.fg">
                  {ratePercent(rates[generation - 1]!)}
                </Text>
              )}
            </Flex>
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

function Figure({ label, value, hint }: { label: string; value: string; hint?: string }) {
  return (
    <Stack gap="1" p="4" rounded="lg" borderWidth="1px" bg="bg.subtle" minW="0">
      <Text fontSize="sm" color="fg.muted">
        {label}
      </Text>
      <Text fontSize="lg" fontWeight="semibold" fontVariantNumeric="tabular-nums" wordBreak="break-word">
        {value}
      </Text>
      {hint && (
        <Text fontSize="xs" color="fg.muted">
          {hint}
        </Text>
      )}
    </Stack>
  );
}

/** Totals, today's reward and the size of each generation. */
function Figures({ total, today, members, totalLabel, todayLabel }: { total: CoinAmount[]; today: CoinAmount[]; members: number[]; totalLabel: string; todayLabel: string }) {
  const { t } = useTranslation();
  return (
    <Grid templateColumns={{ base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(3, minmax(0, 1fr))' }} gap="3">
      <Figure label={totalLabel} value={coinAmountsText(total)} />
      <Figure label={todayLabel} value={coinAmountsText(today)} hint={t('referral.todayHint')} />
      <Figure
        label={t('referral.membersTotal')}
        value={String(members.reduce((a, b) => a + b, 0))}
        hint={GENERATIONS.map((g) => `${t('referral.generationN', { n: g })}: ${members[g - 1] ?? 0}`).join(' · ')}
      />
    </Grid>
  );
}

/** The late bind of an inviter's code, while the window is open. */
function BindInviter({ until }: { until: number }) {
  const { t } = useTranslation();
  const now = useNow();
  const queryClient = useQueryClient();
  const bind = useReferralBind({ request: SILENT });
  const [code, setCode] = useState('');
  const [error, setError] = useState<string | undefined>();
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    try {
      await bind.mutateAsync({ data: { inviteCode: code.trim() } });
      toaster.create({ type: 'success', title: t('referral.bind.done') });
      await queryClient.invalidateQueries({ queryKey: getReferralSummaryQueryKey() });
    } catch (caught) {
      setError(failure(caught, t('referral.bind.failed')).message);
    }
  };
  return (
    <SectionCard title={t('referral.bind.title')} description={t('referral.bind.description', { days: daysLeft(until, now) })} icon={<LinkIcon />}>
      <Box as="form" onSubmit={submit} maxW="lg">
        <Stack gap="3">
          <TextField label={t('referral.bind.code')} value={code} maxLength={32} onChange={(e) => setCode(e.target.value)} error={error} autoComplete="off" />
          <Button type="submit" alignSelf="flex-start" loading={bind.isPending} disabled={!code.trim()}>
            {t('referral.bind.submit')}
          </Button>
        </Stack>
      </Box>
    </SectionCard>
  );
}

export function RewardCenterTab() {
  const { t } = useTranslation();
  const summary = useReferralSummary();
  const data = summary.data;
  const link = data ? inviteLink(data.inviteCode) : '';
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.rewards')} description={t('account.referral.rewardsDescription')} />
      {!data ? (
        <Flex justify="center" py="10">
          {summary.isError ? <Alert.Root status="error" title={t('referral.loadFailed')} /> : <Spinner />}
        </Flex>
      ) : (
        <>
          <SectionCard title={t('account.invite.title')} description={t('account.invite.description')} icon={<GiftIcon />}>
            <Flex gap="5" direction={{ base: 'column', sm: 'row' }} align={{ base: 'stretch', sm: 'center' }}>
              <Box flex="1" minW="0">
                <InviteDetails inviteCode={data.inviteCode} />
              </Box>
              <Stack align="center" gap="1" flexShrink={0}>
                <QrCode value={link} label={t('referral.qrLabel')} size="36" />
                <Text fontSize="xs" color="fg.muted">
                  {t('referral.qrHint')}
                </Text>
              </Stack>
            </Flex>
          </SectionCard>
          {data.bindUntil != null && <BindInviter until={data.bindUntil} />}
          <SectionCard title={t('account.referral.myRewards')} description={data.isAgent ? t('referral.agent.yourRates') : undefined}>
            <Figures total={data.totalReward} today={data.todayEarnReward} members={data.members} totalLabel={t('referral.totalReward')} todayLabel={t('referral.todayReward')} />
          </SectionCard>
          <SectionCard title={t('referral.members.title')} description={t('referral.members.description')} icon={<UsersIcon />}>
            <Members />
          </SectionCard>
          <SectionCard title={t('referral.statement.title')} description={t('referral.statement.description')}>
            <Statement />
          </SectionCard>
          <HowItWorks rates={data.rates} />
        </>
      )}
    </Stack>
  );
}

export function AgentManagementTab() {
  const { t } = useTranslation();
  const info = useGetAgentInfo();
  const data = info.data;
  return (
    <Stack gap="5">
      <TabHeader title={t('account.tabs.agents')} description={t('account.referral.agentsDescription')} />
      {!data ? (
        <Flex justify="center" py="10">
          {info.isError ? <Alert.Root status="error" title={t('referral.loadFailed')} /> : <Spinner />}
        </Flex>
      ) : (
        <>
          {data.isAgent ? (
            <Alert.Root status="success" rounded="lg">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{t('referral.agent.isAgent')}</Alert.Title>
                <Alert.Description>
                  {t('referral.agent.rates', { g1: ratePercent(data.rates[0] ?? '0'), g2: ratePercent(data.rates[1] ?? '0'), g3: ratePercent(data.rates[2] ?? '0') })}
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          ) : (
            <Alert.Root status="info" rounded="lg">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{t('referral.agent.notAgent')}</Alert.Title>
                <Alert.Description>
                  {t('referral.agent.notAgentHint', { g1: ratePercent(data.rates[0] ?? '0'), g2: ratePercent(data.rates[1] ?? '0'), g3: ratePercent(data.rates[2] ?? '0') })}
                </Alert.Description>
              </Alert.Content>
            </Alert.Root>
          )}
          <SectionCard title={t('referral.agent.commissions')}>
            <Figures total={data.commissions} today={data.todayCommissions} members={data.members} totalLabel={t('referral.agent.commissionTotal')} todayLabel={t('referral.agent.commissionToday')} />
          </SectionCard>
          <SectionCard title={t('account.referral.myTeam')} description={t('referral.agent.teamDescription')} icon={<UsersIcon />}>
            <Members agent />
          </SectionCard>
          <HowItWorks rates={data.rates} />
        </>
      )}
    </Stack>
  );
}
