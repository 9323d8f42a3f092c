import { QueryClient } from '@tanstack/react-query';
import { act, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type * as i18nModule from '../i18n';
import { setLanguage } from '../i18n';
import { renderWithProviders } from '../test/render';
import { lazyScreen } from './lazy-screen';
import { RouteBoundary } from './route-boundary';

// The screens' texts: loadAreas is replaced by one the tests settle (the real one for the rest).
const texts = vi.hoisted(() => ({ load: vi.fn<(areas: readonly string[]) => Promise<void>>() }));
vi.mock('../i18n', async (importOriginal) => {
  const actual = await importOriginal<typeof i18nModule>();
  return { ...actual, loadAreas: (areas: readonly string[]) => texts.load(areas) };
});

beforeEach(() => {
  texts.load.mockReset();
});

afterEach(async () => {
  vi.restoreAllMocks();
  await setLanguage('en', { persist: false });
});

function Trade() {
  return <h1>Trade screen</h1>;
}

function renderScreen(Screen: React.ComponentType) {
  return renderWithProviders(
    <RouteBoundary onReload={() => {}}>
      <Screen />
    </RouteBoundary>,
    new QueryClient(),
  );
}

/** Raw i18n keys (`chunkError.title`, `trade.orders.cols.pair`) in the page's text. */
const rawKeys = () => document.body.textContent?.match(/\b(chunkError|nav|trade|market)\.[a-z]\w*/gi) ?? [];

describe('a screen and its i18n areas', () => {
  it('renders only once the texts of its areas have arrived, fetched beside its code', async () => {
    let arrive: () => void = () => {};
    texts.load.mockImplementation(() => new Promise<void>((resolve) => (arrive = resolve)));
    const Screen = lazyScreen(() => Promise.resolve({ Trade }), (m) => m.Trade, ['trade', 'market']);
    renderScreen(Screen);
    expect(texts.load).toHaveBeenCalledWith(['trade', 'market']);
    // The code is there, the texts are not: still the placeholder.
    await act(async () => {});
    expect(screen.getByLabelText('Page loading')).toBeTruthy();
    expect(screen.queryByRole('heading', { name: 'Trade screen' })).toBeNull();
    await act(async () => arrive());
    expect(await screen.findByRole('heading', { name: 'Trade screen' })).toBeTruthy();
  });

  it('shows the translated error, not raw keys, when its texts cannot be fetched, and fetches them again when asked again', async () => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
    texts.load.mockRejectedValue(new TypeError('Failed to fetch dynamically imported module: /assets/en-x1.js'));
    const Screen = lazyScreen(() => Promise.resolve({ Trade }), (m) => m.Trade, ['trade']);
    renderScreen(Screen);
    expect((await screen.findByRole('alert')).textContent).toContain('This page could not be loaded');
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeTruthy();
    expect(rawKeys()).toEqual([]);
    expect(screen.queryByRole('heading', { name: 'Trade screen' })).toBeNull();

    await act(() => setLanguage('de'));
    expect(screen.getByRole('alert').textContent).toContain('Diese Seite konnte nicht geladen werden');
    expect(rawKeys()).toEqual([]);

    // The failure is not kept: the next load (a preload, the page reloaded by the button) asks again.
    texts.load.mockResolvedValue(undefined);
    await Screen.preload();
    expect(texts.load).toHaveBeenCalledTimes(2);
  });
});
