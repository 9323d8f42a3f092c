/**
 * Wraps every route: invitation links, the progress bar, scroll-to-top on entry, the reload after a
 * long hidden period, and the support-chat widget.
 *
 * @module
 */

import { useEffect, useRef } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router';
import { inviteRedirect, shouldReloadAfterHidden } from './route-helpers';
import { RouteProgressBar } from './shell/progress-bar';
import { SupportChat } from './shell/support-chat';

function useScrollToTopOnEntry(pathname: string) {
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [pathname]);
}

function useReloadAfterLongHide() {
  const hiddenAt = useRef<number | null>(null);
  useEffect(() => {
    const onVisibility = () => {
      if (document.visibilityState === 'hidden') {
        hiddenAt.current = Date.now();
      } else if (shouldReloadAfterHidden(hiddenAt.current, Date.now())) {
        window.location.reload();
      } else {
        hiddenAt.current = null;
      }
    };
    document.addEventListener('visibilitychange', onVisibility);
    return () => document.removeEventListener('visibilitychange', onVisibility);
  }, []);
}

export function RootLayout() {
  const location = useLocation();
  useScrollToTopOnEntry(location.pathname);
  useReloadAfterLongHide();
  const invite = inviteRedirect(location.pathname);
  if (invite) return <Navigate to={invite} replace />;
  return (
    <>
      <RouteProgressBar />
      <Outlet />
      <SupportChat />
    </>
  );
}
