/**
 * The announcements bell in the top bar. Its listener (`notice-bell.tsx`: the
 * `/ws/business/notice` socket, the toast and the unread badge) is fetched after the page's first
 * paint, not with it; until then the bell is a plain link to the announcements.
 *
 * @module
 */

import { IconButton } from '@chakra-ui/react';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { Link as RouterLink } from 'react-router';
import { BellIcon } from '../../components/icons';
import { deferredModule, useDeferredModule } from '../deferred';
import { SCREEN_AREAS } from '../screen-areas';

/** The announcements list. */
export const NOTICES_PATH = '/notice/index';

const bellModule = deferredModule(() => import('./notice-bell'), SCREEN_AREAS['app/shell/notice-bell']);

/** The bell without its badge (and the listener's stand-in). */
export function PlainBell({ label }: { label?: string }) {
  const { t } = useTranslation();
  return (
    <IconButton asChild aria-label={label ?? t('nav.notices')} variant="ghost" size="sm" flexShrink={0}>
      <RouterLink to={NOTICES_PATH}>
        <BellIcon />
      </RouterLink>
    </IconButton>
  );
}

/** The bell; its listener arrives once the browser is idle after the first paint. */
export function NoticeBellButton() {
  const module = useDeferredModule(bellModule);
  useEffect(() => {
    const load = () => void bellModule.load().catch((error: unknown) => console.error('The announcement listener could not be loaded', error));
    if (typeof window.requestIdleCallback === 'function') {
      const handle = window.requestIdleCallback(load, { timeout: 2_000 });
      return () => window.cancelIdleCallback(handle);
    }
    const timer = window.setTimeout(load, 200);
    return () => window.clearTimeout(timer);
  }, []);
  return module ? <module.NoticeBell /> : <PlainBell />;
}
