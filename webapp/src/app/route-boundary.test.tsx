import { QueryClient } from '@tanstack/react-query';
import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { setLanguage } from '../i18n';
import { renderWithProviders } from '../test/render';
import { CHUNK_TIMEOUT_MS, ChunkLoadError, isChunkLoadError, lazyScreen, withChunkTimeout } from './lazy-screen';
import { RouteBoundary } from './route-boundary';

afterEach(async () => {
  vi.useRealTimers();
  vi.restoreAllMocks();
  await setLanguage('en', { persist: false });
});

const client = () => new QueryClient();

function Hello() {
  return <h1>Hello screen</h1>;
}

describe('withChunkTimeout', () => {
  it('gives up on a chunk after 120 s (spec section 8), not before', async () => {
    vi.useFakeTimers();
    let outcome: unknown = 'pending';
    withChunkTimeout(() => new Promise<never>(() => {})).then(
      () => (outcome = 'loaded'),
      (error: unknown) => (outcome = error),
    );
    await vi.advanceTimersByTimeAsync(CHUNK_TIMEOUT_MS - 1);
    expect(outcome).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(outcome).toBeInstanceOf(ChunkLoadError);
  });

  it('turns a refused import into a ChunkLoadError and passes a loaded module through', async () => {
    await expect(withChunkTimeout(() => Promise.reject(new TypeError('Failed to fetch')))).rejects.toBeInstanceOf(ChunkLoadError);
    await expect(withChunkTimeout(() => Promise.resolve(7))).resolves.toBe(7);
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/x.js'))).toBe(true);
    expect(isChunkLoadError(new Error('boom'))).toBe(false);
  });
});

describe('RouteBoundary', () => {
  it('shows a loading placeholder while the screen arrives, then the screen', async () => {
    let arrive: (module: { Hello: typeof Hello }) => void = () => {};
    const Screen = lazyScreen(
      () => new Promise<{ Hello: typeof Hello }>((resolve) => (arrive = resolve)),
      (m) => m.Hello,
    );
    renderWithProviders(
      <RouteBoundary>
        <Screen />
      </RouteBoundary>,
      client(),
    );
    expect(screen.getByLabelText('Page loading')).toBeTruthy();
    await act(async () => arrive({ Hello }));
    expect(await screen.findByRole('heading', { name: 'Hello screen' })).toBeTruthy();
    expect(screen.queryByLabelText('Page loading')).toBeNull();
  });

  it('replaces a screen whose code failed to load with a translated message and a reload button', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    await act(() => setLanguage('de'));
    const reload = vi.fn();
    const Screen = lazyScreen(
      () => Promise.reject(new TypeError('Failed to fetch dynamically imported module: /assets/trade-page-x.js')),
      (m: { Hello: typeof Hello }) => m.Hello,
    );
    renderWithProviders(
      <RouteBoundary onReload={reload}>
        <Screen />
      </RouteBoundary>,
      client(),
    );
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('Diese Seite konnte nicht geladen werden');
    fireEvent.click(screen.getByRole('button', { name: 'Seite neu laden' }));
    expect(reload).toHaveBeenCalledTimes(1);
  });

  it('leaves other errors to the boundaries above', () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    function Broken(): never {
      throw new Error('a bug, not a chunk');
    }
    expect(() =>
      renderWithProviders(
        <RouteBoundary>
          <Broken />
        </RouteBoundary>,
        client(),
      ),
    ).toThrow('a bug, not a chunk');
  });
});
