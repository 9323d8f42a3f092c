/**
 * Vitest: same app config, but `wasm-core` and `wasm-core-earn-loan` resolve to the Node.js builds of the packages. Two
 * projects: the app's tests (`src/`, jsdom, i18n set up) and the build's (`build/`, Node.js: the
 * first-load budget builds the webapp and measures it).
 *
 * @module
 */

import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

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
