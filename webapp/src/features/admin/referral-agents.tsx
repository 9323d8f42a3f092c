/**
 * The operator's referral agents (`/admin?queue=agents`): make a user an agent with generation
 * rates of its own, or change them (`POST /api/admin/referral/agent`; the form takes percents), end
 * an agency after a confirmation (`POST /api/admin/referral/agent/remove`), and the list, most
 * recently changed first (`GET /api/admin/referral/agents`).
 *
 * @module
 */

import { Box, Button, Field, Flex, Grid, HStack, Heading, Input, Spinner, Stack, Table, Text } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { getAdminListAgentsQueryKey, useAdminListAgents, useAdminRemoveAgent, useAdminSetAgent } from '../../api/generated/admin-referral/admin-referral';
import { useDateTimeFormatter } from '../../hooks/use-time-zone';
import { SILENT, failure } from '../../lib/api-calls';
import { fractionToPercent } from '../../lib/decimal-math';
import { toaster } from '../../lib/toaster';
import { GENERATIONS, ratePercent, ratesFromPercents } from '../../lib/referral-format';

interface Draft {
  userId: string;
  percents: [string, string, string];
}

const EMPTY: Draft = { userId: '', percents: ['', '', ''] };

export function ReferralAgents() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const formatTime = useDateTimeFormatter();
  const list = useAdminListAgents({ pageSize: 100 });
  const save = useAdminSetAgent({ request: SILENT });
  const remove = useAdminRemoveAgent({ request: SILENT });
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [error, setError] = useState<string | undefined>();
  const [confirming, setConfirming] = useState<number | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: getAdminListAgentsQueryKey() });

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setError(undefined);
    const rates = ratesFromPercents(draft.percents);
    const userId = Number(draft.userId);
    if (!rates || !Number.isSafeInteger(userId) || userId <= 0) {
      setError(t('referral.admin.ratesInvalid'));
      return;
    }
    try {
      await save.mutateAsync({ data: { userId, rates } });
      toaster.create({ type: 'success', title: t('referral.admin.saved') });
      setDraft(EMPTY);
      await refresh();
    } catch (caught) {
      setError(failure(caught, t('referral.admin.ratesInvalid')).message);
    }
  };

  const end = async (userId: number) => {
    try {
      await remove.mutateAsync({ data: { userId } });
      toaster.create({ type: 'success', title: t('referral.admin.removed') });
      setConfirming(null);
      await refresh();
    } catch (caught) {
      toaster.create({ type: 'error', title: failure(caught, t('referral.loadFailed')).message });
    }
  };

  const agents = list.data?.records ?? [];
  return (
    <Stack gap="5">
      <Stack gap="1">
        <Heading as="h2" size="lg">
          {t('referral.admin.title')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('referral.admin.description')}
        </Text>
      </Stack>
      <Box as="form" onSubmit={submit} borderWidth="1px" rounded="xl" p="4" bg="bg.panel" aria-label={t('referral.admin.add')}>
        <Grid templateColumns={{ base: 'minmax(0, 1fr)', sm: 'repeat(2, minmax(0, 1fr))', lg: 'repeat(4, minmax(0, 1fr))' }} gap="3">
          <Field.Root>
            <Field.Label>{t('referral.admin.userId')}</Field.Label>
            <Input inputMode="numeric" value={draft.userId} onChange={(e) => setDraft({ ...draft, userId: e.target.value.replace(/\D/g, '') })} />
          </Field.Root>
          {GENERATIONS.map((g) => (
            <Field.Root key={g}>
              <Field.Label>{t('referral.admin.rateN', { n: g })}</Field.Label>
              <Input
                inputMode="decimal"
                value={draft.percents[g - 1]}
                onChange={(e) => {
                  const percents = [...draft.percents] as Draft['percents'];
                  percents[g - 1] = e.target.value.replace(/[^\d.]/g, '');
                  setDraft({ ...draft, percents });
                }}
              />
            </Field.Root>
          ))}
        </Grid>
        <Text fontSize="xs" color={error ? 'fg.error' : 'fg.muted'} mt="2" role={error ? 'alert' : undefined}>
          {error ?? t('referral.admin.ratesHint')}
        </Text>
        <HStack mt="3" gap="2">
          <Button type="submit" size="sm" loading={save.isPending}>
            {t('referral.admin.save')}
          </Button>
          <Button type="button" size="sm" variant="ghost" onClick={() => setDraft(EMPTY)}>
            {t('referral.admin.cancel')}
          </Button>
        </HStack>
      </Box>
      {list.isPending ? (
        <Flex justify="center" py="6">
          <Spinner />
        </Flex>
      ) : agents.length === 0 ? (
        <Text color="fg.muted">{t('referral.admin.empty')}</Text>
      ) : (
        <Table.ScrollArea borderWidth="1px" rounded="xl" bg="bg.panel">
          <Table.Root size="sm" aria-label={t('referral.admin.title')}>
            <Table.Header>
              <Table.Row>
                <Table.ColumnHeader>{t('referral.admin.userId')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('referral.admin.rates')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('referral.admin.setBy')}</Table.ColumnHeader>
                <Table.ColumnHeader>{t('referral.admin.updated')}</Table.ColumnHeader>
                <Table.ColumnHeader textAlign="end">{t('referral.admin.actions')}</Table.ColumnHeader>
              </Table.Row>
            </Table.Header>
            <Table.Body>
              {agents.map((agent) => (
                <Table.Row key={agent.userId}>
                  <Table.Cell>#{agent.userId}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{agent.rates.map(ratePercent).join(' / ')}</Table.Cell>
                  <Table.Cell>#{agent.setBy}</Table.Cell>
                  <Table.Cell whiteSpace="nowrap">{formatTime(agent.updatedAt)}</Table.Cell>
                  <Table.Cell textAlign="end">
                    {confirming === agent.userId ? (
                      <Stack gap="1" align="flex-end">
                        <Text fontSize="xs" maxW="xs" textAlign="end">
                          {t('referral.admin.confirmRemove')}
                        </Text>
                        <HStack gap="1">
                          <Button size="xs" colorPalette="red" loading={remove.isPending} onClick={() => void end(agent.userId)}>
                            {t('referral.admin.remove')}
                          </Button>
                          <Button size="xs" variant="ghost" onClick={() => setConfirming(null)}>
                            {t('referral.admin.cancel')}
                          </Button>
                        </HStack>
                      </Stack>
                    ) : (
                      <HStack gap="1" justify="flex-end">
                        <Button
                          size="xs"
                          variant="outline"
                          onClick={() => setDraft({ userId: String(agent.userId), percents: [0, 1, 2].map((i) => fractionToPercent(agent.rates[i] ?? '0')) as Draft['percents'] })}
                        >
                          {t('referral.admin.edit')}
                        </Button>
                        <Button size="xs" variant="ghost" colorPalette="red" onClick={() => setConfirming(agent.userId)}>
                          {t('referral.admin.remove')}
                        </Button>
                      </HStack>
                    )}
                  </Table.Cell>
                </Table.Row>
              ))}
            </Table.Body>
          </Table.Root>
        </Table.ScrollArea>
      )}
    </Stack>
  );
}
