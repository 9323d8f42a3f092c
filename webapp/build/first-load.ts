/**
 * First-load JavaScript of a page, read from a build (docs/benchmarks.md, "the same figure without a
 * server"): the scripts and module preloads of `index.html`, plus the chunk of the page's screen and
 * its static imports, plus the i18n areas its route waits for (`src/app/screen-areas.ts`), each
 * counted as a gzip-only browser gets it (gzip level 9, what the build's `.gz` copies hold).
 *
 * What loads on demand after the first render (the side menu, the account menu, the language list,
 * the toaster, other languages) is not counted: the page is drawn without it.
 *
 * Usage: `npm run first-load [-- <dist folder>]` after `npm run build` (the build writes
 * `.vite/manifest.json`, the map from source modules to chunks this reads).
 *
 * @module
 */

import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { SCREEN_AREAS, type ScreenKey } from '../src/app/screen-areas.ts';

/** One chunk of Vite's build manifest (`build.manifest`). */
export interface ManifestChunk {
  file: string;
  src?: string;
  isEntry?: boolean;
  isDynamicEntry?: boolean;
  imports?: string[];
  dynamicImports?: string[];
}

/** Vite's build manifest: source module (or chunk name) → chunk. */
export type Manifest = Record<string, ManifestChunk>;

/** The budget of issue 23: first-load JavaScript of /home/index, gzipped, in bytes (1 KB = 1,000 bytes). */
export const HOME_BUDGET_BYTES = 250_000;

/** The pages of the benchmark and the screen each renders (a key of `SCREEN_AREAS`). */
export const PAGES: Record<string, ScreenKey> = {
  '/home/index': 'features/home/home-page',
  '/quotes/index': 'features/markets/markets-page',
  '/trade/index?type=bb': 'features/trade/trade-page',
  '/trade/index?type=usta': 'features/futures/futures-page',
};

/** The `src` of the scripts and module preloads of an `index.html` (their order kept). */
export function htmlScripts(html: string): string[] {
  const found: string[] = [];
  for (const tag of html.match(/<(script|link)\b[^>]*>/gi) ?? []) {
    const isScript = /^<script/i.test(tag) && /\btype=["']?module/i.test(tag);
    const isPreload = /^<link/i.test(tag) && /\brel=["']?modulepreload/i.test(tag);
    const url = /\b(?:src|href)=["']?([^"'\s>]+)/i.exec(tag)?.[1];
    if ((isScript || isPreload) && url) found.push(url.replace(/^\//, ''));
  }
  return found;
}

/** The JavaScript files of `keys`' chunks and of every chunk they import statically (not dynamically). */
export function staticClosure(manifest: Manifest, keys: readonly string[]): string[] {
  const seen = new Set<string>();
  const files: string[] = [];
  const visit = (key: string) => {
    if (seen.has(key)) return;
    const chunk = manifest[key];
    if (!chunk) throw new Error(`${key} is not in the build manifest`);
    seen.add(key);
    if (chunk.file.endsWith('.js')) files.push(chunk.file);
    for (const imported of chunk.imports ?? []) visit(imported);
  };
  for (const key of keys) visit(key);
  return files;
}

/** The manifest key of a source module given without its extension (`src/features/home/home-page`). */
export function moduleKey(manifest: Manifest, module: string): string {
  const key = Object.keys(manifest).find((candidate) => candidate.replace(/\.(tsx?|jsx?|json)$/, '') === module);
  if (!key) throw new Error(`${module} is not in the build manifest (is it loaded on demand?)`);
  return key;
}

/** The files a page downloads before its first render, in English: see the module comment. */
export function firstLoadFiles(manifest: Manifest, html: string, screen: ScreenKey): string[] {
  const areas = SCREEN_AREAS[screen].map((area) => moduleKey(manifest, `src/i18n/${area}/en`));
  const files = new Set([...htmlScripts(html), ...staticClosure(manifest, [moduleKey(manifest, `src/${screen}`), ...areas])]);
  return [...files];
}

/** A file and its sizes. */
export interface SizedFile {
  file: string;
  bytes: number;
  gzip: number;
}

/** The first-load JavaScript of `screen` in the build at `dist`: every file with its sizes, and the totals. */
export function measureFirstLoad(dist: string, screen: ScreenKey): { files: SizedFile[]; bytes: number; gzip: number } {
  const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const files = firstLoadFiles(manifest, html, screen).map((file) => {
    const body = readFileSync(join(dist, file));
    return { file, bytes: body.length, gzip: gzipSync(body, { level: 9 }).length };
  });
  files.sort((a, b) => b.gzip - a.gzip);
  return {
    files,
    bytes: files.reduce((sum, f) => sum + f.bytes, 0),
    gzip: files.reduce((sum, f) => sum + f.gzip, 0),
  };
}

const kb = (bytes: number) => `${(bytes / 1000).toFixed(1)} KB`;

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const dist = resolve(process.argv[2] ?? join(fileURLToPath(new URL('.', import.meta.url)), '..', 'dist'));
  for (const [page, screen] of Object.entries(PAGES)) {
    const { files, bytes, gzip } = measureFirstLoad(dist, screen);
    const budget = page === '/home/index' ? ` (budget ${kb(HOME_BUDGET_BYTES)})` : '';
    console.log(`${page}: ${kb(gzip)} gzip, ${kb(bytes)} minified, ${files.length} scripts${budget}`);
    if (process.env.VERBOSE) for (const f of files) console.log(`  ${kb(f.gzip).padStart(9)}  ${f.file}`);
  }
}
