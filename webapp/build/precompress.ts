/**
 * A Vite plugin that writes a `.br` (brotli, quality 11) and a `.gz` (gzip, level 9) copy beside
 * every compressible file of the build (JavaScript, CSS, HTML, WebAssembly, SVG, JSON, text), when
 * the copy is smaller. The backend serves a copy instead of the file when the browser accepts its
 * encoding (`backend/src/http/static_files.rs`).
 *
 * Compressing here, once per build and at the highest levels, costs the server nothing: it neither
 * compresses per request nor holds compressed copies in memory, and starts as fast as before.
 *
 * @module
 */

import { readFile, readdir, writeFile } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip } from 'node:zlib';
import type { Plugin } from 'vite';

const brotli = promisify(brotliCompress);
const gz = promisify(gzip);

/** The files worth compressing (images other than SVG are compressed already). */
const COMPRESSIBLE = /\.(js|mjs|css|html|wasm|svg|json|txt|map)$/;
/** Below this size the copies save too little to be worth a file. */
const MIN_BYTES = 1024;

async function files(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => (entry.isDirectory() ? files(join(dir, entry.name)) : Promise.resolve([join(dir, entry.name)]))),
  );
  return nested.flat();
}

/** Writes the compressed copies of `dir`'s files; answers how many copies it wrote. */
export async function precompressDir(dir: string): Promise<number> {
  let written = 0;
  const targets = (await files(dir)).filter((path) => COMPRESSIBLE.test(path));
  await Promise.all(
    targets.map(async (path) => {
      const body = await readFile(path);
      if (body.length < MIN_BYTES) return;
      const [br, gzipped] = await Promise.all([
        brotli(body, {
          params: {
            [constants.BROTLI_PARAM_QUALITY]: constants.BROTLI_MAX_QUALITY,
            [constants.BROTLI_PARAM_SIZE_HINT]: body.length,
          },
        }),
        gz(body, { level: 9 }),
      ]);
      for (const [suffix, copy] of [
        ['.br', br],
        ['.gz', gzipped],
      ] as const) {
        if (copy.length < body.length) {
          await writeFile(path + suffix, copy);
          written += 1;
        }
      }
    }),
  );
  return written;
}

/** The plugin: compresses the output folder once the bundle is written (`vite build` only). */
export function precompress(): Plugin {
  let outDir = 'dist';
  return {
    name: 'kestrel-precompress',
    apply: 'build',
    configResolved(config) {
      // `resolve`: an absolute outDir (a build into a temporary folder) stays as it is.
      outDir = resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const count = await precompressDir(outDir);
      this.info(`wrote ${count} compressed copies (.br, .gz) in ${outDir}`);
    },
  };
}
