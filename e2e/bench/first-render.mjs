// The trade pages' first render (issue 23, docs/benchmarks.md "Trade pages: the first render"). Not a
// test: it measures and prints.
//
// It starts the release server (`BENCH_SERVER`, else `$CARGO_TARGET_DIR/release/backend`, else
// target/release/backend) on a fresh data folder serving webapp/dist (`BENCH_WEBAPP_DIR`), then loads
// each trade page (spot ?type=bb and futures ?type=usta, BTC/USDT) RUNS times (default 5), each in a
// fresh browser context (cold cache, as Lighthouse loads it) at Lighthouse's desktop size
// (1350 × 940), tracing from the navigation until the page has settled (book levels, trades and the
// chart's canvas drawn, then 1 s). Per load it reads from the trace:
//   - the renderer main thread's tasks: their thread CPU time summed (what the page costs, whatever
//     the machine's load), and those over 50 ms of CPU, with the longest;
//   - the largest contentful paint (the last candidate) after the navigation;
// and prints the medians and sums per page, then each page's longest tasks with what they ran.
// With PROFILE=<dir> the loads are also recorded with the CPU profiler (`<dir>/<page>-<n>.cpuprofile`)
// and the functions with the most self time over all loads of a page are printed (an unminified
// build, `npx vite build --minify false --outDir …` with BENCH_WEBAPP_DIR, gives readable names).
//
// Environment: RUNS (5), BENCH_PORT (18192), BENCH_BASE_URL (use a running server), BENCH_WEBAPP_DIR,
// BENCH_SERVER, CHROMIUM_PATH (/usr/bin/chromium), PAGES (comma-separated names: spot,futures).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { startReleaseServer } from './release-server.mjs';

const RUNS = Number(process.env.RUNS ?? 5);
const PORT = Number(process.env.BENCH_PORT ?? 18192);
const PROFILE = process.env.PROFILE ? resolve(process.env.PROFILE) : null;

const ALL_PAGES = [
  { name: 'spot', path: '/trade/index?type=bb' },
  { name: 'futures', path: '/trade/index?type=usta' },
];
const PAGES = process.env.PAGES ? ALL_PAGES.filter((p) => process.env.PAGES.split(',').includes(p.name)) : ALL_PAGES;

const log = (message) => process.stderr.write(`[first-render] ${message}\n`);

/** Starts the release server on a fresh data folder; resolves once it answers. */
const startServer = () => startReleaseServer(PORT, 'bench-first-render', log);

const KINDS = ['TimerFire', 'FireAnimationFrame', 'EventDispatch', 'FunctionCall', 'v8.evaluateModule', 'EvaluateScript', 'v8.compile', 'UpdateLayoutTree', 'Layout', 'Paint', 'MinorGC', 'MajorGC', 'ParseHTML'];

/** The main-thread tasks of the page's renderer (CPU and wall ms, what they ran) and the LCP. */
function readTrace(events) {
  const mains = events.filter((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  // The page's renderer: the main thread with the most task time.
  let best = null;
  let bestTime = -1;
  for (const main of mains) {
    const time = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.name === 'RunTask').reduce((s, e) => s + (e.dur ?? 0), 0);
    if (time > bestTime) {
      best = main;
      bestTime = time;
    }
  }
  if (!best) return { tasks: [], lcp: null };
  const onMain = events.filter((e) => e.pid === best.pid && e.tid === best.tid && e.ph === 'X');
  const nav = events.find((e) => e.name === 'navigationStart' && e.pid === best.pid && e.args?.data?.isLoadingMainFrame && e.args?.data?.documentLoaderURL?.startsWith('http'));
  const start = nav?.ts ?? Math.min(...onMain.map((e) => e.ts));
  const tasks = onMain
    .filter((e) => e.name === 'RunTask' && e.ts >= start)
    .map((task) => {
      const by = {};
      for (const e of onMain) {
        if (e !== task && KINDS.includes(e.name) && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur) by[e.name] = (by[e.name] ?? 0) + e.dur / 1000;
      }
      return { at: (task.ts - start) / 1000, cpu: (task.tdur ?? task.dur) / 1000, wall: task.dur / 1000, by };
    });
  const lcps = events.filter((e) => e.name === 'largestContentfulPaint::Candidate' && e.pid === best.pid && e.ts >= start);
  const lcp = lcps.length ? (lcps[lcps.length - 1].ts - start) / 1000 : null;
  return { tasks, lcp };
}

/** The functions with the most self time over `profiles`. */
function topSelf(profiles, count) {
  const self = new Map();
  for (const profile of profiles) {
    const byId = new Map(profile.nodes.map((n) => [n.id, n]));
    const dt = profile.timeDeltas;
    for (let i = 0; i < profile.samples.length; i++) {
      const f = byId.get(profile.samples[i]).callFrame;
      const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}`;
      self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
    }
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, count);
}

async function load(browser, base, page, run) {
  const context = await browser.newContext({ viewport: { width: 1350, height: 940 }, locale: 'en-US', timezoneId: 'UTC' });
  // The LCP candidates' elements, to say what the largest paint is.
  await context.addInitScript(() => {
    window.__lcp = [];
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) {
        const el = entry.element;
        const name = el ? `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} "${(el.textContent ?? '').trim().slice(0, 40)}" in ${el.closest('section')?.querySelector('h2')?.textContent ?? el.closest('header,section,main')?.tagName.toLowerCase() ?? '?'}` : '?';
        window.__lcp.push({ at: Math.round(entry.startTime), size: entry.size, name });
      }
    }).observe({ type: 'largest-contentful-paint', buffered: true });
  });
  const tab = await context.newPage();
  const cdp = await context.newCDPSession(tab);
  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  const events = [];
  cdp.on('Tracing.dataCollected', (event) => events.push(...event.value));
  const traced = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.start', {
    categories: 'devtools.timeline,disabled-by-default-devtools.timeline,loading,blink.user_timing,v8.execute',
    transferMode: 'ReportEvents',
  });
  const began = Date.now();
  await tab.goto(base + page.path, { waitUntil: 'load' });
  await tab.locator('section', { has: tab.getByRole('heading', { name: 'Order book' }) }).getByRole('row').nth(4).waitFor({ timeout: 60_000 });
  await tab.locator('section', { has: tab.getByRole('heading', { name: 'Recent trades' }) }).getByRole('row').nth(2).waitFor({ timeout: 60_000 });
  await tab.locator('canvas').first().waitFor({ timeout: 60_000 });
  const settled = Date.now() - began;
  await tab.waitForTimeout(1000);
  const lcpEntries = await tab.evaluate(() => window.__lcp);
  await cdp.send('Tracing.end');
  await traced;
  let profile = null;
  if (PROFILE) {
    ({ profile } = await cdp.send('Profiler.stop'));
    mkdirSync(PROFILE, { recursive: true });
    writeFileSync(join(PROFILE, `${page.name}-${run}.cpuprofile`), JSON.stringify(profile));
  }
  await context.close();
  return { ...readTrace(events), settled, profile, lcpElement: lcpEntries.at(-1) ?? null };
}

const median = (values) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length ? sorted[Math.floor(sorted.length / 2)] : 0;
};
const ms = (value) => `${Math.round(value).toLocaleString('en-US')} ms`;

async function main() {
  const server = process.env.BENCH_BASE_URL ? { base: process.env.BENCH_BASE_URL, stop: () => {} } : await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const version = browser.version();
  const results = [];
  try {
    // A warm-up load: the server's first answers (the simulator's history) are not the page's cost.
    await load(browser, server.base, PAGES[0], 0);
    for (const page of PAGES) {
      const loads = [];
      for (let run = 1; run <= RUNS; run++) {
        log(`${page.path}: load ${run} of ${RUNS}`);
        loads.push(await load(browser, server.base, page, run));
      }
      results.push({ page, loads });
    }
  } finally {
    await browser.close();
    server.stop();
  }
  console.log(`\nTrade pages' first render: ${RUNS} cold loads each, 1350 × 940, Chromium ${version}, load average ${(await import('node:os')).loadavg().map((l) => l.toFixed(2)).join(' ')}\n`);
  console.log('| page | main-thread CPU, median (sum of all loads) | tasks > 50 ms CPU, all loads | longest task CPU, median (max) | LCP, median | settled, median |');
  console.log('|---|---|---|---|---|---|');
  for (const { page, loads } of results) {
    const cpu = loads.map((l) => l.tasks.reduce((s, t) => s + t.cpu, 0));
    const longest = loads.map((l) => Math.max(0, ...l.tasks.map((t) => t.cpu)));
    const over = loads.reduce((n, l) => n + l.tasks.filter((t) => t.cpu > 50).length, 0);
    console.log(
      `| ${page.path} | ${ms(median(cpu))} (${ms(cpu.reduce((a, b) => a + b, 0))}) | ${over} | ${ms(median(longest))} (${ms(Math.max(...longest))}) | ${ms(median(loads.map((l) => l.lcp ?? 0)))} | ${ms(median(loads.map((l) => l.settled)))} |`,
    );
  }
  for (const { page, loads } of results) {
    console.log(`\n${page.name}: largest contentful paint per load: ${loads.map((l) => (l.lcpElement ? `${l.lcpElement.at} ms ${l.lcpElement.name} (${l.lcpElement.size})` : '?')).join('; ')}`);
    console.log(`\n${page.name}: tasks over 50 ms CPU (load: at ms after navigation, CPU / wall, what ran in wall ms)`);
    loads.forEach((l, i) => {
      for (const t of l.tasks.filter((t) => t.cpu > 50)) {
        const by = Object.entries(t.by)
          .sort((a, b) => b[1] - a[1])
          .slice(0, 5)
          .map(([k, v]) => `${k} ${Math.round(v)}`)
          .join(', ');
        console.log(`  ${i + 1}: at ${Math.round(t.at)}: ${Math.round(t.cpu)} / ${Math.round(t.wall)} ms: ${by}`);
      }
    });
    if (PROFILE) {
      console.log(`\n${page.name}: self time (ms) over all ${loads.length} loads, top 30`);
      for (const [fn, t] of topSelf(loads.map((l) => l.profile), 30)) console.log(`  ${t.toFixed(0).padStart(7)}  ${fn}`);
    }
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
