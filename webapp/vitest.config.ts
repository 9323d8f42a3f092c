/**
 * Vitest: same app config, but `wasm-core` and `wasm-core-earn-loan` resolve to the Node.js builds of the packages. Three
 * projects:
 * - `app`: the app's tests (`src/`, jsdom, i18n set up) that neither mock modules nor stub globals,
 *   run without isolation: a worker sets up jsdom and imports the app once for all its files rather
 *   than once per file (the whole run took 171 s with every file isolated, 118–128 s split this way);
 * - `app-isolated`: the app's tests that do (`vi.mock`, `vi.stubGlobal`, the fake backend, which
 *   stubs `fetch`), each file in a fresh module graph and jsdom, so that nothing of theirs leaks into
 *   another file. A file is put there by what it contains ({@link needsIsolation}), not by a list;
 * - `build`: the build's tests (`build/`, Node.js: the first-load budget builds the webapp and
 *   measures it).
 *
 * @module
 */

import { readdirSync, readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

const SRC = fileURLToPath(new URL('./src', import.meta.url));

/** What makes a test file leak into the next one in the same worker: module mocks, stubbed globals. */
const LEAKS = /vi\.(mock|doMock|stubGlobal)\(|vi\.spyOn\((window|globalThis|console|document)\b|fake-backend|test-api'|\.prototype\b|Object\.defineProperty\((window|globalThis|document|navigator)\b/;

/** Whether the test file at `path` must run in a module graph and jsdom of its own. */
function needsIsolation(path: string): boolean {
  return LEAKS.test(readFileSync(path, 'utf8'));
}

/** The app's test files that need isolation, relative to this folder (`src/…`). */
const ISOLATED = readdirSync(SRC, { recursive: true, encoding: 'utf8' })
  .filter((file) => /\.test\.tsx?$/.test(file) && needsIsolation(join(SRC, file)))
  .map((file) => join('src', file));

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      'wasm-core': fileURLToPath(new URL('../wasm-core/pkg-node/wasm_core.js', import.meta.url)),
      'wasm-core-earn-loan': fileURLToPath(new URL('../wasm-core/pkg-earn-loan-node/wasm_core_earn_loan.js', import.meta.url)),
    },
  },
  test: {
    server: { deps: { external: [/wasm-core[\\/]pkg(-earn-loan)?-node/] } },
    css: false,
    // Generous limits: CI machines have 2 cores shared with cargo builds.
    testTimeout: 30_000,
    // Vitest's default, one worker fewer than the cores, leaves one of 2 cores idle: its main
    // process mostly waits while the workers run the files.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    projects: [
      {
        extends: true,
        test: {
          name: 'app',
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          include: ['src/**/*.test.{ts,tsx}'],
          exclude: ISOLATED,
          isolate: false,
        },
      },
      {
        extends: true,
        test: {
          name: 'app-isolated',
          environment: 'jsdom',
          setupFiles: ['./src/test/setup.ts'],
          include: ISOLATED,
        },
      },
      {
        extends: true,
        test: {
          name: 'build',
          environment: 'node',
          include: ['build/**/*.test.ts'],
        },
      },
    ],
  },
});
