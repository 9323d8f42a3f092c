/**
 * Providers around the router: i18n, react-query, Chakra UI and the colour mode.
 *
 * @module
 */

import { ChakraProvider } from '@chakra-ui/react';
import { type QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { ThemeProvider } from 'next-themes';
import type { ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { THEME_STORAGE_KEY } from '../hooks/use-color-mode';
import { i18n } from '../i18n';
import { LazyToaster } from './lazy-toaster';
import { system } from './theme';

export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  return (
    <I18nextProvider i18n={i18n}>
      <QueryClientProvider client={queryClient}>
        <ChakraProvider value={system}>
          <ThemeProvider
            attribute="class"
            defaultTheme="light"
            themes={['light', 'dark']}
            enableSystem={false}
            storageKey={THEME_STORAGE_KEY}
            disableTransitionOnChange
            // Client-only app: next-themes' anti-flash script would never run; mark it inert.
            scriptProps={{ type: 'application/json' }}
          >
            {children}
            <LazyToaster />
          </ThemeProvider>
        </ChakraProvider>
      </QueryClientProvider>
    </I18nextProvider>
  );
}
