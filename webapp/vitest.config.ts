/**
 * Vitest: same app config, but `wasm-core` resolves to the Node.js build of the package.
 *
 * @module
 */

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vitest/config';

export default defineConfig({
  plugins: [react()],
  resolve: {
    alias: {
      'wasm-core': fileURLToPath(new URL('../wasm-core/pkg-node/wasm_core.js', import.meta.url)),
    },
  },
  test: {
    environment: 'jsdom',
    setupFiles: ['./src/test/setup.ts'],
    include: ['src/**/*.test.{ts,tsx}'],
    server: { deps: { external: [/wasm-core[\\/]pkg-node/] } },
    css: false,
    // Generous limits: CI machines have 2 cores shared with cargo builds.
    testTimeout: 30_000,
  },
});
