/**
 * A thin bar across the top that runs whenever the route or its query string changes.
 *
 * @module
 */

import { Box } from '@chakra-ui/react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';

export function RouteProgressBar() {
  const { t } = useTranslation();
  const location = useLocation();
  const key = `${location.pathname}?${location.search}`;
  const [seenKey, setSeenKey] = useState(key);
  const [run, setRun] = useState(0);
  const [finished, setFinished] = useState(0);
  if (key !== seenKey) {
    // Derived during render (no effect): a new location starts a new run of the animation.
    setSeenKey(key);
    setRun(run + 1);
  }
  useEffect(() => {
    if (run === finished) return;
    // Normally the animation's end hides the bar; this also covers animations that never run.
    const timer = setTimeout(() => setFinished(run), 1_500);
    return () => clearTimeout(timer);
  }, [run, finished]);
  if (run === finished) return null;
  return (
    <Box
      key={run}
      role="progressbar"
      aria-label={t('nav.pageLoading')}
      position="fixed"
      top="0"
      left="0"
      height="2px"
      zIndex="toast"
      bg="brand.solid"
      boxShadow="0 0 8px var(--chakra-colors-brand-solid)"
      pointerEvents="none"
      animation="kestrel-progress 700ms ease-out forwards"
      onAnimationEnd={() => setFinished(run)}
      css={{
        '@keyframes kestrel-progress': {
          '0%': { width: '0%', opacity: 1 },
          '60%': { width: '80%', opacity: 1 },
          '85%': { width: '100%', opacity: 1 },
          '100%': { width: '100%', opacity: 0 },
        },
      }}
    />
  );
}
