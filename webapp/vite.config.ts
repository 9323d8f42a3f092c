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
            // Chakra UI and what it is built on (Ark, Zag, Emotion): shared by the shell and every screen.
            { name: 'chakra', test: /node_modules[\\/](@chakra-ui|@ark-ui|@zag-js|@emotion|@floating-ui|@internationalized|@pandacss|next-themes|stylis)[\\/]/, priority: 1, entriesAware: true, entriesAwareMergeThreshold: 40_000 },
          ],
        },
      },
    },
  },
});
