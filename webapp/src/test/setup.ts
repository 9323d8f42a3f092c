/**
 * Vitest setup: i18n in English (every area), DOM APIs jsdom lacks, and cleanup between tests.
 *
 * @module
 */

import { cleanup, configure } from '@testing-library/react';
import { afterEach } from 'vitest';
import { initI18n, loadAreas } from '../i18n';
import { AREAS } from '../i18n/areas';
import { notifySessionChanged } from '../lib/session';

class ResizeObserverStub {
  observe() {}
  unobserve() {}
  disconnect() {}
}

if (!window.matchMedia) {
  window.matchMedia = (query: string) =>
    ({
      matches: false,
      media: query,
      onchange: null,
      addListener: () => {},
      removeListener: () => {},
      addEventListener: () => {},
      removeEventListener: () => {},
      dispatchEvent: () => false,
    }) as MediaQueryList;
}
globalThis.ResizeObserver ??= ResizeObserverStub as unknown as typeof ResizeObserver;
window.scrollTo = (() => {}) as typeof window.scrollTo;
Element.prototype.scrollIntoView ??= function scrollIntoView() {};
Element.prototype.scrollTo ??= function scrollTo() {};

configure({ asyncUtilTimeout: 10_000 });

await initI18n('en');
// Components are rendered without their screen's loader: every area's texts, in every language used.
await loadAreas(AREAS);

afterEach(() => {
  cleanup();
  // Tests write the session cookie themselves: forget what the last one read.
  notifySessionChanged();
});
