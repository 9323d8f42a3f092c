/**
 * The live side of the announcements bell: listens on `/ws/business/notice`, shows a toast for each
 * announcement published (in the reader's language, else English) and refetches the announcement
 * lists; the badge counts the latest announcements this browser has not read.
 *
 * @module
 */

import { Box, Float } from '@chakra-ui/react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { useContentAnnouncements } from '../../api/generated/content/content';
import { PlainBell } from './notice-bell-button';
import { currentLanguage } from '../../i18n';
import { toaster } from '../../lib/toaster';
import { useLangQuery } from '../../components/content/content-parts';
import { unreadCount, useReadAnnouncements } from '../../lib/announcement-reads';
import { noticeChannel, titleIn } from '../../lib/notice-channel';

/** The latest announcements the badge counts. */
export const BADGE_WINDOW = 20;

/** Whether a query key is one of the announcement lists. */
function isAnnouncementQuery(key: readonly unknown[]): boolean {
  const [first, second] = key;
  return (
    (typeof first === 'string' && first.startsWith('/api/content/announcements')) ||
    (typeof first === 'string' && first.endsWith('/cgform-api/getData/announcement')) ||
    (first === '/api/content/page' && typeof second === 'object')
  );
}

export function NoticeBell() {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const params = { page: 1, pageSize: BADGE_WINDOW };
  const latest = useContentAnnouncements(params, { query: useLangQuery(['/api/content/announcements', params]) });
  const { read } = useReadAnnouncements();
  const count = unreadCount((latest.data?.records ?? []).map((record) => record.id), read);

  useEffect(
    () =>
      noticeChannel().listen((push) => {
        void queryClient.invalidateQueries({ predicate: (query) => isAnnouncementQuery(query.queryKey) });
        if (push.event !== 'created') return;
        toaster.create({
          id: `announcement-${push.id}`,
          type: 'info',
          title: t('content.notices.toast'),
          description: titleIn(push, currentLanguage()),
          duration: 8_000,
        });
      }),
    [queryClient, t],
  );

  const label = count > 0 ? t('content.notices.bellUnread', { count }) : t('nav.notices');
  return (
    <Box position="relative" flexShrink={0}>
      <PlainBell label={label} />
      {count > 0 && (
        <Float placement="top-end" offset="2" pointerEvents="none">
          <Box aria-hidden="true" minW="4" h="4" px="1" rounded="full" bg="red.solid" color="white" fontSize="2xs" fontWeight="bold" lineHeight="4" textAlign="center">
            {count > 9 ? '9+' : count}
          </Box>
        </Float>
      )}
    </Box>
  );
}
