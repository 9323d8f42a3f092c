/**
 * /rule/index (spec section 2): notices and rules. `?modelType=` picks the topic from a side list
 * grouped into trading rules, announcements, guides and legal pages (a list above the topic on
 * narrow screens). The trading products' pages show their live settings; every other topic is the
 * content store's text (`store-topic.tsx`); without it, or with a number no topic has, the spot trading rules show. Other
 * query values — the `replace` cache-buster of the original links — change nothing. Open to visitors.
 *
 * @module
 */

import { Box, Container, Grid, Heading, Stack, Text, chakra } from '@chakra-ui/react';
import { useId } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink, useSearchParams } from 'react-router';
import { useDocumentTitle } from '../../hooks/use-document-title';
import { FeesTopic } from './fees-topic';
import { FuturesRules } from './futures-rules';
import { TOPICS, TOPIC_GROUPS, type Topic, type TopicGroup, topicHref, topicOf } from './lib/topics';
import { SecondsRules } from './seconds-rules';
import { SpotRules } from './spot-rules';
import { StoreTopic } from './store-topic';

const navItemStyles = {
  display: 'block',
  px: '3',
  py: '2',
  rounded: 'lg',
  fontSize: 'sm',
  fontWeight: 'medium',
  color: 'fg.muted',
  lineHeight: '1.3',
  transition: 'background 0.15s, color 0.15s',
  _hover: { bg: 'bg.muted', color: 'fg' },
  _focusVisible: { outline: '2px solid', outlineColor: 'brand.focusRing', outlineOffset: '1px' },
  '&[aria-current=page]': { bg: 'brand.subtle', color: 'brand.fg', fontWeight: 'semibold' },
} as const;

function TopicGroupList({ group, active }: { group: TopicGroup; active: Topic }) {
  const { t } = useTranslation();
  const labelId = useId();
  return (
    <Box minW={{ base: '44', lg: 'auto' }}>
      <Text id={labelId} px="3" pb="1" fontSize="xs" fontWeight="semibold" color="fg.subtle" textTransform="uppercase" letterSpacing="0.04em">
        {t(`rules.groups.${group}`)}
      </Text>
      <Stack as="ul" aria-labelledby={labelId} listStyleType="none" gap="0.5">
        {TOPICS.filter((topic) => topic.group === group).map((topic) => (
          <li key={topic.id}>
            <chakra.a asChild {...navItemStyles}>
              <RouterLink to={topicHref(topic)} aria-current={topic === active ? 'page' : undefined}>
                {t(`rules.topics.${topic.id}`)}
              </RouterLink>
            </chakra.a>
          </li>
        ))}
      </Stack>
    </Box>
  );
}

function TopicBody({ topic }: { topic: Topic }) {
  switch (topic.id) {
    case 'spot':
      return <SpotRules />;
    case 'fees':
      return <FeesTopic />;
    case 'secondsContract':
      return <SecondsRules />;
    case 'usdtFutures':
      return <FuturesRules />;
    default:
      return <StoreTopic topic={topic} />;
  }
}

export function RulesPage() {
  const { t } = useTranslation();
  const [search] = useSearchParams();
  const topic = topicOf(search.get('modelType'));
  const title = t(`rules.topics.${topic.id}`);
  useDocumentTitle(`${title} · ${t('screens.rule')}`);
  const headingId = 'rule-topic-title';

  return (
    <Container maxW="1280px" px={{ base: '4', md: '6' }} py={{ base: '6', md: '10' }}>
      <Heading as="h1" fontSize={{ base: '2xl', md: '3xl' }} letterSpacing="-0.02em" mb={{ base: '4', md: '6' }}>
        {t('screens.rule')}
      </Heading>
      <Grid templateColumns={{ base: 'minmax(0, 1fr)', lg: '260px minmax(0, 1fr)' }} gap={{ base: '5', lg: '8' }} alignItems="start">
        <Box
          as="nav"
          aria-label={t('rules.nav')}
          position={{ lg: 'sticky' }}
          top={{ lg: '6' }}
          borderWidth={{ base: '0', lg: '1px' }}
          borderBottomWidth="1px"
          rounded={{ lg: 'xl' }}
          bg={{ lg: 'bg.panel' }}
          p={{ lg: '2' }}
          pb={{ base: '3', lg: '2' }}
          mx={{ base: '-4', md: '0' }}
          px={{ base: '4', md: '0', lg: '2' }}
          overflowX={{ base: 'auto', lg: 'visible' }}
          css={{ scrollbarWidth: 'thin' }}
        >
          <Stack direction={{ base: 'row', lg: 'column' }} gap={{ base: '4', lg: '4' }} w={{ base: 'max-content', lg: 'auto' }} py={{ lg: '1' }}>
            {TOPIC_GROUPS.map((group) => (
              <TopicGroupList key={group} group={group} active={topic} />
            ))}
          </Stack>
        </Box>
        <Box as="article" aria-labelledby={headingId} minW="0" borderWidth="1px" rounded="2xl" bg="bg.panel" px={{ base: '5', md: '8' }} py={{ base: '6', md: '8' }}>
          <Stack gap="1" mb="6">
            <Text fontSize="xs" fontWeight="semibold" color="brand.fg" textTransform="uppercase" letterSpacing="0.04em">
              {t(`rules.groups.${topic.group}`)}
            </Text>
            <Heading as="h2" id={headingId} fontSize={{ base: 'xl', md: '2xl' }} letterSpacing="-0.02em">
              {title}
            </Heading>
          </Stack>
          {/* Remounted per topic, so each starts fresh. */}
          <TopicBody key={topic.id} topic={topic} />
        </Box>
      </Grid>
    </Container>
  );
}
