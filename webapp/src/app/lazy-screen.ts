/**
 * Screens loaded on demand: each route's code is its own chunk, fetched the first time the route
 * renders (or earlier, when `preload` is called). Spec section 8: a chunk that has not arrived after
 * 120 s is a failure ({@link ChunkLoadError}), like one the network or a new deploy refused; the
 * route's boundary (`route-boundary.tsx`) then offers a reload.
 *
 * A screen's loader also waits for the i18n areas the screen needs (`screen-areas.ts`), fetched
 * beside its code: the first render never shows raw keys, and an area that cannot be fetched fails
 * the load like a chunk (its message is in the base texts, always there).
 *
 * @module
 */

import { type ComponentType, type LazyExoticComponent, lazy } from 'react';
import { loadAreas } from '../i18n';
import type { Area } from '../i18n/areas';

/** How long a chunk may take before it counts as failed (spec section 8). */
export const CHUNK_TIMEOUT_MS = 120_000;

/** A screen's code could not be loaded (network, a deploy that replaced the files, or the timeout). */
export class ChunkLoadError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'ChunkLoadError';
  }
}

// What browsers and Vite say when a dynamic import or its preloads fail.
const CHUNK_FAILURE =
  /Failed to fetch dynamically imported module|error loading dynamically imported module|Importing a module script failed|Unable to preload CSS|Failed to load module script|ChunkLoadError/i;

/** Whether `error` is a failed chunk load (ours or the browser's own wording of one). */
export function isChunkLoadError(error: unknown): boolean {
  if (error instanceof ChunkLoadError) return true;
  if (error instanceof Error) return error.name === 'ChunkLoadError' || CHUNK_FAILURE.test(error.message);
  return false;
}

/**
 * `load()` rejected with a {@link ChunkLoadError} when it fails or has not settled after `timeoutMs`.
 */
export function withChunkTimeout<T>(load: () => Promise<T>, timeoutMs: number = CHUNK_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => {
      reject(new ChunkLoadError(`A chunk did not load within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    load().then(
      (value) => {
        clearTimeout(timer);
        resolve(value);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(isChunkLoadError(error) ? error : new ChunkLoadError(String(error), { cause: error }));
      },
    );
  });
}

/** A lazily loaded screen that can also be fetched ahead of its first render. */
export type LazyScreen<P> = LazyExoticComponent<ComponentType<P>> & {
  /** Starts fetching the screen's code (once; a failed fetch is tried again on the next call). */
  preload: () => Promise<unknown>;
};

/**
 * `load()` and the texts of `areas` (fetched side by side), under the chunk timeout: resolves to
 * the module once both have arrived.
 */
export function loadWithAreas<M>(load: () => Promise<M>, areas: readonly Area[], timeoutMs: number = CHUNK_TIMEOUT_MS): Promise<M> {
  return withChunkTimeout(() => Promise.all([load(), loadAreas(areas)]).then(([module]) => module), timeoutMs);
}

/**
 * A screen whose module `load` resolves to; `pick` takes the component from it; `areas` are the
 * i18n areas it needs (`SCREEN_AREAS[…]`). Module and texts are fetched once, shared by `preload`
 * and the first render; after a failure the next render (a retry of the boundary) fetches them again.
 */
export function lazyScreen<M, P>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>, areas: readonly Area[] = []): LazyScreen<P> {
  let pending: Promise<M> | null = null;
  const fetchModule = () => {
    pending ??= loadWithAreas(load, areas).catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
  const screen = lazy(() => fetchModule().then((module) => ({ default: pick(module) }))) as LazyScreen<P>;
  screen.preload = () => fetchModule().catch(() => undefined);
  return screen;
}
