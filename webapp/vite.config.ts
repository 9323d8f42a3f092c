/**
 * Vite: React, WebAssembly ESM integration for the wasm-core package, and a dev proxy to the backend.
 *
 * @module
 */

import { fileURLToPath } from 'node:url';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import wasm from 'vite-plugin-wasm';

const backend = 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [wasm(), react()],
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
    chunkSizeWarningLimit: 1200,
  },
});
