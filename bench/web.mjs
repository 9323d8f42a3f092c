/**
 * The webapp benchmark (`make bench-web`, started by scripts/bench-web.sh against a release server):
 * Lighthouse (pinned in package.json) in the e2e Chromium (`CHROME_PATH`), desktop and mobile
 * presets, on the pages of issue 23; a markdown table of performance, LCP, TBT, CLS, accessibility
 * and first-load JavaScript per page and preset.
 *
 * First-load JavaScript is the JavaScript the page requested before Lighthouse saw the network go
 * quiet (its `network-requests` audit), counted as a gzip-only browser gets it: the
 * `Content-Length` the server answers with `Accept-Encoding: gzip`. The brotli bytes the run
 * actually transferred are reported beside it.
 *
 * Usage: node web.mjs <base URL> <output folder>. Raw Lighthouse reports go to the output folder.
 * `BENCH_PAGES` and `BENCH_PRESETS` (comma-separated) run only some pages or presets.
 * A benchmark, not a test: goals not met do not fail the run; a failed Lighthouse run does.
 *
 * @module
 */

import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const here = fileURLToPath(new URL('.', import.meta.url));
const [base = 'http://127.0.0.1:18093', out = join(here, '..', 'target', 'bench-web')] = process.argv.slice(2);
const PAGES = process.env.BENCH_PAGES?.split(',') ?? ['/home/index', '/quotes/index', '/trade/index?type=bb', '/trade/index?type=usta'];
const PRESETS = process.env.BENCH_PRESETS?.split(',') ?? ['desktop', 'mobile'];
const CHROME_FLAGS = [
  '--headless=new',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
].join(' ');

mkdirSync(out, { recursive: true });
const lighthouse = join(here, 'node_modules', '.bin', 'lighthouse');
const version = JSON.parse(readFileSync(join(here, 'node_modules', 'lighthouse', 'package.json'), 'utf8')).version;

/** The gzip size the server answers for `url` (its `.gz` copy; the plain size when it has none). */
async function gzipBytes(url) {
  // fetch decompresses the body: the size on the wire is the Content-Length.
  const response = await fetch(url, { headers: { 'accept-encoding': 'gzip' } });
  await response.arrayBuffer();
  return Number(response.headers.get('content-length'));
}

/** One Lighthouse run of `page` with `preset`: the figures of the table. */
async function run(page, preset) {
  const name = `${page.replace(/[^a-z0-9]+/gi, '_').replace(/^_|_$/g, '')}-${preset}`;
  const report = join(out, `${name}.json`);
  const args = [
    base + page,
    '--quiet',
    '--output=json',
    `--output-path=${report}`,
    '--only-categories=performance,accessibility',
    `--chrome-flags=${CHROME_FLAGS}`,
  ];
  if (preset === 'desktop') args.push('--preset=desktop');
  execFileSync(lighthouse, args, { stdio: ['ignore', 'inherit', 'inherit'] });
  const lhr = JSON.parse(readFileSync(report, 'utf8'));
  if (lhr.runtimeError) throw new Error(`${page} ${preset}: ${lhr.runtimeError.message}`);
  const scripts = (lhr.audits['network-requests']?.details?.items ?? []).filter(
    (item) => item.resourceType === 'Script' && item.url.startsWith(base),
  );
  let gzip = 0;
  for (const script of scripts) gzip += await gzipBytes(script.url);
  const transferred = scripts.reduce((sum, item) => sum + (item.transferSize ?? 0), 0);
  return {
    page,
    preset,
    performance: Math.round(lhr.categories.performance.score * 100),
    lcp: lhr.audits['largest-contentful-paint'].numericValue,
    tbt: lhr.audits['total-blocking-time'].numericValue,
    cls: lhr.audits['cumulative-layout-shift'].numericValue,
    accessibility: Math.round(lhr.categories.accessibility.score * 100),
    scripts: scripts.length,
    gzip,
    transferred,
  };
}

const kb = (bytes) => `${(bytes / 1000).toFixed(1)} KB`;
const rows = [];
for (const page of PAGES) {
  for (const preset of PRESETS) {
    process.stderr.write(`[bench-web] lighthouse ${version} ${preset} ${page}\n`);
    rows.push(await run(page, preset));
  }
}

const table = [
  `Lighthouse ${version}, ${new Date().toISOString().slice(0, 16).replace('T', ' ')} UTC, ${base}`,
  '',
  '| page | preset | performance | LCP | TBT | CLS | accessibility | first-load JS, gzip (brotli sent) | scripts |',
  '|---|---|---|---|---|---|---|---|---|',
  ...rows.map(
    (r) =>
      `| ${r.page} | ${r.preset} | ${r.performance} | ${(r.lcp / 1000).toFixed(1)} s | ${Math.round(r.tbt)} ms | ${r.cls.toFixed(3)} | ${r.accessibility} | ${kb(r.gzip)} (${kb(r.transferred)}) | ${r.scripts} |`,
  ),
].join('\n');
writeFileSync(join(out, 'report.md'), `${table}\n`);
writeFileSync(join(out, 'report.json'), `${JSON.stringify(rows, null, 2)}\n`);
console.log(table);
