/**
 * Entry: the current route's screen starts loading, then platform config script → i18n → startup
 * data (settings, coin list) → mount.
 *
 * @module
 */

import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { RouterProvider } from 'react-router/dom';
import { seedStartupData } from './app/bootstrap';
import { AppProviders } from './app/providers';
import { createQueryClient } from './app/query-client';
import { createAppRouter, preloadScreen } from './app/router';
import { initI18n } from './i18n';
import { loadPlatformConfig } from './lib/platform-config';

async function start(): Promise<void> {
  preloadScreen(window.location.pathname, window.location.search);
  await loadPlatformConfig();
  await initI18n();
  const queryClient = createQueryClient();
  await seedStartupData(queryClient);
  const root = document.getElementById('root');
  if (!root) throw new Error('#root is missing from index.html');
  createRoot(root).render(
    <StrictMode>
      <AppProviders queryClient={queryClient}>
        <RouterProvider router={createAppRouter()} />
      </AppProviders>
    </StrictMode>,
  );
}

void start();
