/**
 * The identity verification tab of the account centre (/account/center/kyc): the user's level,
 * then the two steps as a vertical stepper — basic verification (a form) and advanced (real-name)
 * verification (three document photos), which opens only once basic has passed. Each step shows
 * its state as a badge: not submitted, under review, passed, or failed with the operator's reason
 * and a resubmit action. The level and the photo tips sit beside the steps (on narrow screens the
 * level comes first and the tips last). While a submission is under review the status is refetched
 * every 30 s, so the decision shows up without a reload.
 *
 * @module
 */

import { Alert, Box, Button, DataList, Flex, Grid, Heading, HStack, List, Skeleton, Stack, Text } from '@chakra-ui/react';
import { type ReactNode, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { AdvancedForm } from './advanced-form';
import { BasicForm } from './basic-form';
import { countryName, useTimeFormatter } from './format';
import { CheckIcon, CrossIcon, HourglassIcon, InfoIcon, LockIcon, ShieldCheckIcon } from './kyc-icons';
import { type Submission, useIdentityStatus, useRefreshIdentity } from './kyc-api';
import { type StepId, type StepView, advancedStepView, basicStepView, currentStep, levelKey } from './kyc-status';
import { StatusBadge } from './status-badge';

export function KycTab() {
  const { t } = useTranslation();
  const status = useIdentityStatus();
  const refresh = useRefreshIdentity();
  const [editing, setEditing] = useState<StepId | null>(null);
  const headingId = useId();

  const data = status.data;
  const basic = basicStepView(data?.basic);
  const advanced = advancedStepView(data?.basic, data?.advanced);
  const active = data ? currentStep(basic, advanced) : null;
  const submitted = () => {
    setEditing(null);
    refresh();
  };

  return (
    <Stack as="section" aria-labelledby={headingId} gap={{ base: '6', md: '8' }} minW="0">
      <Stack gap="1.5" maxW="3xl">
        <Heading as="h2" id={headingId} fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em">
          {t('kyc.title')}
        </Heading>
        <Text color="fg.muted" fontSize="sm">
          {t('kyc.subtitle')}
        </Text>
      </Stack>

      {/* Wide screens: the steps, and beside them the level above the tips. Narrow screens: the level,
          the steps, then the tips. */}
      <Grid
        templateColumns={{ base: 'minmax(0, 1fr)', lg: 'minmax(0, 1fr) 20rem' }}
        templateRows={{ lg: 'auto 1fr' }}
        templateAreas={{ base: '"level" "steps" "tips"', lg: '"steps level" "steps tips"' }}
        columnGap="8"
        rowGap={{ base: '6', lg: '4' }}
        alignItems="start"
      >
        <Box gridArea="level" minW="0">
          <LevelCard level={data?.level} loading={!data} />
        </Box>
        <Box gridArea="steps" minW="0">
          {status.isError && !data ? (
            <Alert.Root status="error" rounded="xl" role="alert">
              <Alert.Indicator />
              <Alert.Content>
                <Alert.Title>{t('kyc.loadFailed')}</Alert.Title>
              </Alert.Content>
              <Button size="sm" variant="outline" onClick={() => void status.refetch()}>
                {t('kyc.retry')}
              </Button>
            </Alert.Root>
          ) : !data ? (
            <Stack gap="4" role="status" aria-label={t('common.loading')}>
              <Skeleton h="48" rounded="2xl" />
              <Skeleton h="32" rounded="2xl" />
            </Stack>
          ) : (
            <Box as="ol" aria-label={t('kyc.stepsLabel')} listStyleType="none">
              <StepItem number={1} view={basic} active={active === 'basic'} last={false} title={t('kyc.basic.title')} summary={t('kyc.basic.summary')}>
                <StepBody
                  view={basic}
                  submission={data.basic ?? null}
                  editing={editing === 'basic'}
                  onResubmit={() => setEditing('basic')}
                  form={<BasicForm previous={data.basic} onSubmitted={submitted} {...(basic.action === 'resubmit' ? { onCancel: () => setEditing(null) } : {})} />}
                />
              </StepItem>
              <StepItem number={2} view={advanced} active={active === 'advanced'} last title={t('kyc.advanced.title')} summary={t('kyc.advanced.summary')}>
                <StepBody
                  view={advanced}
                  submission={data.advanced ?? null}
                  editing={editing === 'advanced'}
                  onResubmit={() => setEditing('advanced')}
                  locked={<Locked basicUnderReview={basic.status === 'review'} />}
                  form={<AdvancedForm onSubmitted={submitted} {...(advanced.action === 'resubmit' ? { onCancel: () => setEditing(null) } : {})} />}
                />
              </StepItem>
            </Box>
          )}
        </Box>
        <Box gridArea="tips" minW="0">
          <Tips />
        </Box>
      </Grid>
    </Stack>
  );
}

/** The round marker on the stepper's rail. */
function StepMarker({ number, view, active }: { number: number; view: StepView; active: boolean }) {
  const common = { boxSize: { base: '8', md: '9' }, rounded: 'full', align: 'center', justify: 'center', flexShrink: 0, fontWeight: 'bold', fontSize: 'sm' } as const;
  if (view.status === 'passed')
    return (
      <Flex {...common} bg="green.solid" color="green.contrast">
        <CheckIcon boxSize="4" />
      </Flex>
    );
  if (view.status === 'failed')
    return (
      <Flex {...common} bg="red.subtle" color="red.fg" borderWidth="2px" borderColor="red.muted">
        <CrossIcon boxSize="4" />
      </Flex>
    );
  if (view.status === 'review')
    return (
      <Flex {...common} bg="orange.subtle" color="orange.fg" borderWidth="2px" borderColor="orange.muted">
        <HourglassIcon boxSize="4" />
      </Flex>
    );
  if (view.action === 'locked')
    return (
      <Flex {...common} bg="bg.muted" color="fg.subtle" borderWidth="2px" borderColor="border">
        <LockIcon boxSize="3.5" />
      </Flex>
    );
  return (
    <Flex {...common} bg={active ? 'brand.solid' : 'bg.muted'} color={active ? 'brand.contrast' : 'fg.muted'}>
      {number}
    </Flex>
  );
}

/** One step of the stepper: marker and rail on the left, the step's card on the right. */
function StepItem({
  number,
  view,
  active,
  last,
  title,
  summary,
  children,
}: {
  number: number;
  view: StepView;
  active: boolean;
  last: boolean;
  title: string;
  summary: string;
  children: ReactNode;
}) {
  const { t } = useTranslation();
  const titleId = useId();
  return (
    <Flex as="li" gap={{ base: '3', md: '5' }} aria-current={active ? 'step' : undefined}>
      <Flex direction="column" align="center" pt={{ base: '5', md: '6' }}>
        <StepMarker number={number} view={view} active={active} />
        {!last && <Box flex="1" w="2px" mt="2" mb="-3" rounded="full" bg={view.status === 'passed' ? 'green.solid' : 'border.emphasized'} />}
      </Flex>
      <Box
        as="section"
        aria-labelledby={titleId}
        flex="1"
        minW="0"
        mb={last ? '0' : { base: '4', md: '5' }}
        bg="bg.panel"
        borderWidth="1px"
        borderColor={active ? 'brand.emphasized' : 'border'}
        rounded="2xl"
        shadow={active ? 'sm' : undefined}
        p={{ base: '4', md: '6' }}
      >
        <Flex justify="space-between" align="flex-start" gap="3" wrap="wrap" mb="5">
          <Stack gap="1" minW="0" flex="1 1 16rem">
            <Text fontSize="xs" fontWeight="semibold" color="fg.muted" textTransform="uppercase" letterSpacing="wider">
              {t('kyc.stepNumber', { number })}
            </Text>
            <Heading as="h3" id={titleId} fontSize="lg" overflowWrap="anywhere">
              {title}
            </Heading>
            <Text fontSize="sm" color="fg.muted">
              {summary}
            </Text>
          </Stack>
          <StatusBadge status={view.status} />
        </Flex>
        {children}
      </Box>
    </Flex>
  );
}

/** What a step shows for its state: the form, the pending or final state, or the failure. */
function StepBody({
  view,
  submission,
  editing,
  onResubmit,
  form,
  locked,
}: {
  view: StepView;
  submission: Submission | null;
  editing: boolean;
  onResubmit: () => void;
  form: ReactNode;
  locked?: ReactNode;
}) {
  const { t } = useTranslation();
  const key = view.step === 'basic' ? 'kyc.basic' : 'kyc.advanced';
  switch (view.action) {
    case 'submit':
      return form;
    case 'locked':
      return locked ?? null;
    case 'wait':
      return (
        <Stack gap="5">
          <Alert.Root status="warning" rounded="xl" variant="subtle">
            <Alert.Indicator>
              <HourglassIcon />
            </Alert.Indicator>
            <Alert.Content>
              <Alert.Title>{t('kyc.status.review')}</Alert.Title>
              <Alert.Description>{t(`${key}.reviewBody`)}</Alert.Description>
            </Alert.Content>
          </Alert.Root>
          {submission && <SubmissionDetails submission={submission} />}
        </Stack>
      );
    case 'done':
      return (
        <Stack gap="5">
          <Alert.Root status="success" rounded="xl" variant="subtle">
            <Alert.Indicator />
            <Alert.Title>{t(`${key}.passedBody`)}</Alert.Title>
          </Alert.Root>
          {submission && <SubmissionDetails submission={submission} />}
        </Stack>
      );
    case 'resubmit':
      return (
        <Stack gap="5">
          <Alert.Root status="error" rounded="xl" variant="subtle">
            <Alert.Indicator />
            <Alert.Content gap="1.5">
              <Alert.Title>{t(`${key}.failedTitle`)}</Alert.Title>
              <Alert.Description>
                <Text fontWeight="medium" overflowWrap="anywhere">
                  {view.reason ? t('kyc.reason', { reason: view.reason }) : t('kyc.noReason')}
                </Text>
                {!editing && <Text mt="1">{t(`${key}.resubmitHint`)}</Text>}
              </Alert.Description>
              {!editing && (
                <Box mt="2">
                  <Button size="sm" colorPalette="brand" onClick={onResubmit}>
                    {t('kyc.resubmit')}
                  </Button>
                </Box>
              )}
            </Alert.Content>
          </Alert.Root>
          {editing ? form : submission && <SubmissionDetails submission={submission} />}
        </Stack>
      );
  }
}

/** The details of a submission as the server keeps them (ID number masked). */
function SubmissionDetails({ submission }: { submission: Submission }) {
  const { t, i18n } = useTranslation();
  const lang = i18n.resolvedLanguage ?? i18n.language;
  const formatTime = useTimeFormatter();
  const rows: [string, string][] = [
    [t('kyc.details.name'), submission.name],
    [t('kyc.details.idCard'), submission.idCard],
    [t('kyc.details.country'), countryName(submission.country, lang)],
    [t('kyc.details.cardType'), t(`kyc.cardType.${submission.cardType}`)],
    [t('kyc.details.submittedAt'), formatTime(submission.createdAt)],
  ];
  if (submission.reviewedAt) rows.push([t('kyc.details.reviewedAt'), formatTime(submission.reviewedAt)]);
  return (
    <DataList.Root orientation="horizontal" size="sm" gap="2.5" bg="bg.subtle" rounded="xl" p={{ base: '4', md: '5' }}>
      {rows.map(([label, value]) => (
        <DataList.Item key={label} flexWrap="wrap" gap="1">
          <DataList.ItemLabel minW={{ base: '8.5rem', md: '11rem' }}>{label}</DataList.ItemLabel>
          <DataList.ItemValue fontWeight="medium" overflowWrap="anywhere" fontVariantNumeric="tabular-nums">
            {value}
          </DataList.ItemValue>
        </DataList.Item>
      ))}
    </DataList.Root>
  );
}

/** Advanced verification before basic has passed. */
function Locked({ basicUnderReview }: { basicUnderReview: boolean }) {
  const { t } = useTranslation();
  return (
    <HStack align="flex-start" gap="3" bg="bg.subtle" rounded="xl" p={{ base: '4', md: '5' }} borderWidth="1px" borderStyle="dashed">
      <Flex boxSize="9" rounded="full" bg="bg.muted" color="fg.muted" align="center" justify="center" flexShrink={0}>
        <LockIcon boxSize="4" />
      </Flex>
      <Stack gap="1" minW="0">
        <Text fontWeight="semibold">{t('kyc.advanced.lockedTitle')}</Text>
        <Text fontSize="sm" color="fg.muted">
          {basicUnderReview ? t('kyc.advanced.lockedReview') : t('kyc.advanced.locked')}
        </Text>
      </Stack>
    </HStack>
  );
}

/** The user's identity level with a two-segment meter. */
function LevelCard({ level, loading }: { level: number | undefined; loading: boolean }) {
  const { t } = useTranslation();
  const value = Math.max(0, Math.min(2, level ?? 0));
  const palette = value >= 2 ? 'green' : value === 1 ? 'brand' : 'gray';
  return (
    <Box bg="bg.panel" borderWidth="1px" rounded="2xl" p="5">
      <HStack gap="3.5" align="center">
        <Flex boxSize="11" rounded="xl" align="center" justify="center" bg={`${palette}.subtle`} color={`${palette}.fg`} flexShrink={0}>
          <ShieldCheckIcon boxSize="6" />
        </Flex>
        <Stack gap="0.5" minW="0">
          <Text fontSize="xs" color="fg.muted" fontWeight="medium">
            {t('kyc.levelLabel')}
          </Text>
          {loading ? (
            <Skeleton h="6" w="32" />
          ) : (
            <Text fontSize="lg" fontWeight="bold" lineHeight="short" overflowWrap="anywhere">
              {t(levelKey(level))}
            </Text>
          )}
        </Stack>
      </HStack>
      <HStack gap="1.5" mt="4" aria-hidden="true">
        {[1, 2].map((segment) => (
          <Box key={segment} flex="1" h="1.5" rounded="full" bg={value >= segment ? `${palette}.solid` : 'bg.emphasized'} />
        ))}
      </HStack>
    </Box>
  );
}

/** What makes a document photo acceptable. */
function Tips() {
  const { t } = useTranslation();
  const tips = ['valid', 'legible', 'corners', 'selfie'] as const;
  const id = useId();
  return (
    <Box as="section" aria-labelledby={id} bg="bg.panel" borderWidth="1px" rounded="2xl" p="5">
      <Heading as="h3" id={id} fontSize="md" mb="3.5">
        {t('kyc.tips.title')}
      </Heading>
      <List.Root gap="3" variant="plain" fontSize="sm">
        {tips.map((tip) => (
          <List.Item key={tip} alignItems="flex-start">
            <List.Indicator asChild color="green.fg" mt="0.5">
              <CheckIcon boxSize="4" />
            </List.Indicator>
            <Text>{t(`kyc.tips.${tip}`)}</Text>
          </List.Item>
        ))}
      </List.Root>
      <HStack gap="2" mt="4" pt="4" borderTopWidth="1px" align="flex-start" color="fg.muted" fontSize="xs">
        <InfoIcon boxSize="4" flexShrink={0} />
        <Text>{t('kyc.tips.privacy')}</Text>
      </HStack>
    </Box>
  );
}
