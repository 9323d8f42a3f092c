/**
 * Screens loaded on demand: each route's code is its own chunk, fetched the first time the route
 * renders (or earlier, when `preload` is called). Spec section 8: a chunk that has not arrived after
 * 120 s is a failure ({@link ChunkLoadError}), like one the network or a new deploy refused; the
 * route's boundary (`route-boundary.tsx`) then offers a reload.
 *
 * @module
 */

import { type ComponentType, type LazyExoticComponent, lazy } from 'react';

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
 * A screen whose module `load` resolves to; `pick` takes the component from it. The module is
 * fetched once, shared by `preload` and the first render; after a failure the next render (a retry
 * of the boundary) fetches it again.
 */
export function lazyScreen<M, P>(load: () => Promise<M>, pick: (module: M) => ComponentType<P>): LazyScreen<P> {
  let pending: Promise<M> | null = null;
  const fetchModule = () => {
    pending ??= withChunkTimeout(load).catch((error: unknown) => {
      pending = null;
      throw error;
    });
    return pending;
  };
  const screen = lazy(() => fetchModule().then((module) => ({ default: pick(module) }))) as LazyScreen<P>;
  screen.preload = () => fetchModule().catch(() => undefined);
  return screen;
}
