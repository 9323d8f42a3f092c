/**
 * The topics of /rule/index (spec section 2): the rules pages (spot, seconds contract, USDT-M futures,
 * loan), fees and the security fund, and the announcement topics. `?modelType=` picks one by number;
 * the footer's links fix 4 (seconds contract), 6 (spot), 8 (USDT-M futures), 10 (loan), 11 (user
 * agreement), 12 (privacy) and 13 (risk disclosure); the other numbers are this page's own. A missing
 * or unknown number shows the spot trading rules; any other query value (the `replace` cache-buster)
 * is ignored.
 *
 * @module
 */

/** The groups of the topic list, in display order. */
export const TOPIC_GROUPS = ['trading', 'notices', 'guides', 'legal'] as const;
export type TopicGroup = (typeof TOPIC_GROUPS)[number];

export type TopicId =
  | 'spot'
  | 'fees'
  | 'usdtFutures'
  | 'secondsContract'
  | 'loan'
  | 'newPairs'
  | 'delisting'
  | 'maintenance'
  | 'campaigns'
  | 'news'
  | 'beginnerGuide'
  | 'helpCentre'
  | 'about'
  | 'userAgreement'
  | 'privacy'
  | 'riskDisclosure'
  | 'compliance'
  | 'aml'
  | 'regulatoryRequests';

/** One topic: its `modelType`, its group; its name is `rules.topics.<id>`. */
export interface Topic {
  id: TopicId;
  modelType: number;
  group: TopicGroup;
}

/** Every topic, in display order within its group. */
export const TOPICS: readonly Topic[] = [
  { id: 'spot', modelType: 6, group: 'trading' },
  { id: 'fees', modelType: 7, group: 'trading' },
  { id: 'usdtFutures', modelType: 8, group: 'trading' },
  { id: 'secondsContract', modelType: 4, group: 'trading' },
  { id: 'loan', modelType: 10, group: 'trading' },
  { id: 'news', modelType: 14, group: 'notices' },
  { id: 'newPairs', modelType: 1, group: 'notices' },
  { id: 'delisting', modelType: 2, group: 'notices' },
  { id: 'maintenance', modelType: 3, group: 'notices' },
  { id: 'campaigns', modelType: 5, group: 'notices' },
  { id: 'beginnerGuide', modelType: 9, group: 'guides' },
  { id: 'helpCentre', modelType: 15, group: 'guides' },
  { id: 'about', modelType: 16, group: 'guides' },
  { id: 'userAgreement', modelType: 11, group: 'legal' },
  { id: 'privacy', modelType: 12, group: 'legal' },
  { id: 'riskDisclosure', modelType: 13, group: 'legal' },
  { id: 'compliance', modelType: 18, group: 'legal' },
  { id: 'aml', modelType: 19, group: 'legal' },
  { id: 'regulatoryRequests', modelType: 17, group: 'legal' },
];

/** The topic shown without (or with an unknown) `modelType`. */
export const DEFAULT_TOPIC: Topic = TOPICS[0]!;

/** The topic of a `modelType` query value. */
export function topicOf(modelType: string | null): Topic {
  const value = modelType?.trim();
  if (!value || !/^\d{1,4}$/.test(value)) return DEFAULT_TOPIC;
  const number = Number(value);
  return TOPICS.find((topic) => topic.modelType === number) ?? DEFAULT_TOPIC;
}

/** The topic of an id. */
export function topicById(id: TopicId): Topic {
  return TOPICS.find((topic) => topic.id === id) ?? DEFAULT_TOPIC;
}

/** The link of a topic. */
export function topicHref(topic: Topic): string {
  return `/rule/index?modelType=${topic.modelType}`;
}
