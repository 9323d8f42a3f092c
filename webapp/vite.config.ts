/**
 * Vite: React, WebAssembly ESM integration for the wasm-core package, a dev proxy to the backend, the
 * chunks of the build (a screen per route, shared vendors apart) and its compressed copies (`.br`, `.gz`).
 *
 * @module
 */

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import wasm from 'vite-plugin-wasm';
import { precompress } from './build/precompress';

const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [wasm(), react(), precompress()],
  resolve: {
    alias: {
      // The wasm-pack bundler build (scripts/build-wasm.sh); src/lib/wasm.ts is its only importer.
      'wasm-core': fileURLToPath(new URL('../wasm-core/pkg/wasm_core.js', import.meta.url)),
      // The earn and loan module, imported on demand by the screens that use it.
      'wasm-core-earn-loan': fileURLToPath(new URL('../wasm-core/pkg-earn-loan/wasm_core_earn_loan.js', import.meta.url)),
    },
  },
  server: {
    proxy: {
      '/api': backend,
      '/platform': backend,
      '/ws': { target: backend, ws: true },
    },
    fs: { allow: ['..'] },
  },
  build: {
    // Top-level await is what the wasm ESM integration compiles to.
    target: 'es2022',
    chunkSizeWarningLimit: 600,
    // dist/.vite/manifest.json: which chunks each module needs (build/first-load.ts reads it).
    manifest: true,
    rolldownOptions: {
      output: {
        codeSplitting: {
          groups: [
            // The chart library: only the pages with a chart import it, so only they download it.
            { name: 'klinecharts', test: /node_modules[\\/]klinecharts[\\/]/, priority: 3 },
            // React, the router, react-query and i18next: every page, rarely changing between deploys.
            {
              name: 'react',
              test: /node_modules[\\/](react|react-dom|scheduler|react-router|@tanstack|i18next|react-i18next)[\\/]/,
              priority: 2,
              entriesAware: true,
              entriesAwareMergeThreshold: 40_000,
            },
            // Chakra's styling engine and theme (Emotion, tokens, recipes): every page draws with it.
            // Its components and their Ark / Zag state machines are left to the default splitting,
            // so each travels with the screens and widgets that use it.
            {
              name: 'chakra',
              test: /node_modules[\\/](@chakra-ui[\\/]react[\\/]dist[\\/]esm[\\/](styled-system|theme|preset)|@emotion|@pandacss|stylis)/,
              priority: 1,
            },
          ],
        },
      },
    },
  },
});
