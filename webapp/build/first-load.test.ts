// @vitest-environment node
/**
 * The first-load budget of issue 23: /home/index downloads at most 250 KB of gzipped JavaScript
 * before its first render. A size, not a time: the test builds the webapp (production config) into
 * a temporary folder and measures it with `first-load.ts`, so it fails as soon as a change pulls
 * more code into the page's first download.
 *
 * @module
 */

import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AREAS } from '../src/i18n/areas.ts';
import { HOME_BUDGET_BYTES, type Manifest, firstLoadFiles, htmlScripts, measureFirstLoad, moduleKey, staticClosure } from './first-load';

describe('first-load helpers', () => {
  const manifest: Manifest = {
    'index.html': { file: 'assets/index.js', isEntry: true, imports: ['_react.js', '_shared.js'], dynamicImports: ['src/features/home/home-page.tsx'] },
    '_react.js': { file: 'assets/react.js' },
    '_shared.js': { file: 'assets/shared.js', imports: ['_react.js'] },
    '_style.css': { file: 'assets/style.css' },
    'src/features/home/home-page.tsx': { file: 'assets/home.js', isDynamicEntry: true, imports: ['_shared.js', '_table.js', '_style.css'], dynamicImports: ['_chart.js'] },
    '_table.js': { file: 'assets/table.js' },
    '_chart.js': { file: 'assets/chart.js' },
    'src/features/trade/trade-page.tsx': { file: 'assets/trade.js', isDynamicEntry: true, imports: ['_shared.js'] },
    'src/i18n/trade/en.json': { file: 'assets/trade-en.js', isDynamicEntry: true },
    'src/i18n/market/en.json': { file: 'assets/market-en.js', isDynamicEntry: true },
  };
  const html =
    '<script type="module" crossorigin src="/assets/index.js"></script>\n' +
    '<link rel="modulepreload" crossorigin href="/assets/react.js">\n<link rel="modulepreload" crossorigin href="/assets/shared.js">\n' +
    '<link rel="stylesheet" href="/assets/style.css"><script src="/platform/dev/config.js"></script>';

  it("reads index.html's module scripts and module preloads only", () => {
    expect(htmlScripts(html)).toEqual(['assets/index.js', 'assets/react.js', 'assets/shared.js']);
  });

  it('follows static imports, not dynamic ones, and counts JavaScript only', () => {
    expect(staticClosure(manifest, ['src/features/home/home-page.tsx'])).toEqual(['assets/home.js', 'assets/shared.js', 'assets/react.js', 'assets/table.js']);
  });

  it("adds the screen's chunk, its imports and the English texts of its areas to index.html's scripts", () => {
    expect(firstLoadFiles(manifest, html, 'features/home/home-page')).toEqual([
      'assets/index.js',
      'assets/react.js',
      'assets/shared.js',
      'assets/home.js',
      'assets/table.js',
    ]);
    expect(firstLoadFiles(manifest, html, 'features/trade/trade-page')).toEqual([
      'assets/index.js',
      'assets/react.js',
      'assets/shared.js',
      'assets/trade.js',
      'assets/market-en.js',
      'assets/trade-en.js',
    ]);
  });
});

describe('first-load JavaScript of the production build', () => {
  const root = fileURLToPath(new URL('..', import.meta.url));
  let dist = '';

  beforeAll(async () => {
    dist = mkdtempSync(join(tmpdir(), 'kestrel-first-load-'));
    // Vitest sets NODE_ENV=test, which would build React's development bundles: build as `npm run build` does.
    const nodeEnv = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      await build({ root, mode: 'production', configFile: join(root, 'vite.config.ts'), logLevel: 'error', build: { outDir: dist, emptyOutDir: true } });
    } finally {
      process.env.NODE_ENV = nodeEnv;
    }
  }, 600_000);

  afterAll(() => {
    if (dist) rmSync(dist, { recursive: true, force: true });
  });

  it(`keeps /home/index within ${HOME_BUDGET_BYTES / 1000} KB gzipped (issue 23)`, () => {
    const { files, gzip } = measureFirstLoad(dist, 'features/home/home-page');
    const list = files.map((f) => `${(f.gzip / 1000).toFixed(1)} KB ${f.file}`).join('\n');
    expect(files.length).toBeGreaterThan(3);
    expect(gzip, `first-load JavaScript of /home/index, gzipped:\n${list}`).toBeLessThanOrEqual(HOME_BUDGET_BYTES);
  });

  it('leaves the menus, the language list, the toaster, the side menu and the area texts out of it', () => {
    const manifest = JSON.parse(readFileSync(join(dist, '.vite', 'manifest.json'), 'utf8')) as Manifest;
    const loaded = new Set(measureFirstLoad(dist, 'features/home/home-page').files.map((f) => f.file));
    const lazy = ['app/shell/account-menu', 'app/shell/features-menu', 'app/shell/language-switcher', 'app/shell/side-menu', 'components/toaster'];
    const areas = AREAS.map((area) => `i18n/${area}/en`);
    for (const module of [...lazy, ...areas]) {
      expect(loaded.has(manifest[moduleKey(manifest, `src/${module}`)]!.file), module).toBe(false);
    }
  });
});
