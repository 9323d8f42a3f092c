/**
 * Around every route's screen: a loading placeholder while its code arrives, and — when the code
 * cannot be loaded (the network dropped, a deploy replaced the files, or 120 s passed: spec section 8)
 * — a translated message with a reload button instead of a blank page. Other errors are left to the
 * boundaries above.
 *
 * @module
 */

import { Box, Button, Heading, Spinner, Stack, Text } from '@chakra-ui/react';
import { Component, type ErrorInfo, type ReactNode, Suspense } from 'react';
import { useTranslation } from 'react-i18next';
import { isChunkLoadError } from './lazy-screen';

/** What a route shows while its screen's code is on its way: as tall as a page, so nothing jumps. */
export function RouteLoading() {
  const { t } = useTranslation();
  return (
    <Box minH="100vh" w="full" display="flex" alignItems="flex-start" justifyContent="center" pt="24">
      <Spinner size="lg" color="brand.solid" role="status" aria-label={t('nav.pageLoading')} />
    </Box>
  );
}

/** The failed-chunk message and its reload button. */
export function ChunkLoadFailed({ onReload }: { onReload: () => void }) {
  const { t } = useTranslation();
  return (
    <Box role="alert" w="full" minH="60vh" display="flex" alignItems="center" justifyContent="center" px="4">
      <Stack gap="4" align="center" textAlign="center" maxW="md">
        <Heading as="h1" size="xl">
          {t('chunkError.title')}
        </Heading>
        <Text color="fg.muted">{t('chunkError.body')}</Text>
        <Button colorPalette="brand" onClick={onReload}>
          {t('chunkError.reload')}
        </Button>
      </Stack>
    </Box>
  );
}

interface BoundaryProps {
  children: ReactNode;
  /** Reloads the page (tests pass a spy; the app reloads the window). */
  onReload?: () => void;
}

interface BoundaryState {
  error: unknown;
}

/** Catches a failed chunk load below it and shows {@link ChunkLoadFailed}. */
export class ChunkErrorBoundary extends Component<BoundaryProps, BoundaryState> {
  override state: BoundaryState = { error: null };

  static getDerivedStateFromError(error: unknown): BoundaryState {
    return { error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    if (isChunkLoadError(error)) console.error('A screen could not be loaded', error, info.componentStack);
  }

  override render() {
    const { error } = this.state;
    if (error === null) return this.props.children;
    // Not ours: the boundaries above (react-router's) handle it as before.
    if (!isChunkLoadError(error)) throw error;
    return <ChunkLoadFailed onReload={this.props.onReload ?? (() => window.location.reload())} />;
  }
}

/** A route's screen with its loading placeholder and failed-chunk message. */
export function RouteBoundary({ children, onReload }: BoundaryProps) {
  return (
    <ChunkErrorBoundary onReload={onReload}>
      <Suspense fallback={<RouteLoading />}>{children}</Suspense>
    </ChunkErrorBoundary>
  );
}
