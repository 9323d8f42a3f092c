// `make bench-stream`: the trade pages while they stream (issue 23, docs/benchmarks.md "Trade pages
// while streaming"). Not a test: it measures and prints, a goal not met does not fail the run.
//
// It starts the release server (`$CARGO_TARGET_DIR/release/backend`, else target/release/backend)
// on a fresh data folder with the simulator's default seed and tick, serving webapp/dist, then for
// each trade page (spot ?type=bb and futures ?type=usta, BTC/USDT, 1440 × 900, Playwright's
// Chromium as the e2e uses it):
//   1. opens the page and lets it settle (book, trades and chart drawn, then SETTLE_MS more);
//   2. for STREAM_SECS (default 60) observes `longtask` entries (PerformanceObserver, buffered,
//      only those starting inside the window), the main thread's busy time from the DevTools
//      protocol (`Performance.getMetrics`: TaskDuration, ScriptDuration, LayoutDuration,
//      RecalcStyleDuration before and after), and how often the order book, the recent trades and
//      the pair header change their DOM per animation frame (a MutationObserver callback is one
//      commit reaching the page; a rAF loop numbers the frames);
//   3. prints one markdown table row per page.
// Long tasks and TBT are wall time, as the goal counts them: on a machine whose cores are busy with
// other work a task also counts the time the renderer waited for a core. So the window is also
// traced (category disabled-by-default-devtools.timeline) and each main-thread task's thread CPU
// time reported beside it ("tasks > 50 ms CPU", "max task CPU"): what the page itself costs.
// With PROFILE=<dir>, each page's window is also recorded with the CPU profiler
// (`<dir>/<page>.cpuprofile`, open it in Chrome DevTools) and the functions with the most self time
// are printed.
//
// Environment: STREAM_SECS (60), SETTLE_MS (5000), BENCH_PORT (18191), BENCH_BASE_URL (use a
// running server instead of starting one), BENCH_SERVER (the release binary to start, default
// target/release/backend; `release-server.mjs`), BENCH_WEBAPP_DIR (webapp/dist; e.g. an unminified build
// for readable profiles), CHROMIUM_PATH (/usr/bin/chromium).

import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { startReleaseServer } from './release-server.mjs';

const STREAM_SECS = Number(process.env.STREAM_SECS ?? 60);
const SETTLE_MS = Number(process.env.SETTLE_MS ?? 5000);
const PORT = Number(process.env.BENCH_PORT ?? 18191);
const PROFILE = process.env.PROFILE ? resolve(process.env.PROFILE) : null;

const PAGES = [
  { name: 'spot', path: '/trade/index?type=bb&symbol=btcusdt' },
  { name: 'futures', path: '/trade/index?type=usta&symbol=btcusdt' },
];

const log = (message) => process.stderr.write(`[bench-stream] ${message}\n`);

/** Starts the release server on a fresh data folder; resolves once it answers. */
const startServer = () => startReleaseServer(PORT, 'bench-stream', log);

/** Runs in the page before its scripts: long tasks and DOM commits per frame per panel. */
function instrument() {
  const w = window;
  w.__bench = { longTasks: [], frame: 0, commits: {}, windowStart: null };
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) w.__bench.longTasks.push({ start: entry.startTime, duration: entry.duration });
  }).observe({ type: 'longtask', buffered: true });
  const tick = () => {
    w.__bench.frame += 1;
    requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
  // Which panel a mutation belongs to, by the heading of its section (English texts).
  const PANELS = { 'Order book': 'book', 'Recent trades': 'trades' };
  const panelOf = (node) => {
    const element = node.nodeType === 1 ? node : node.parentElement;
    if (!element) return null;
    const header = element.closest('header');
    if (header?.querySelector('h1')) return 'header';
    const section = element.closest('section');
    const heading = section?.querySelector('h2')?.textContent?.trim();
    return heading && PANELS[heading] ? PANELS[heading] : null;
  };
  new MutationObserver((records) => {
    if (w.__bench.windowStart === null) return;
    const touched = new Set();
    for (const record of records) {
      const panel = panelOf(record.target);
      if (panel) touched.add(panel);
    }
    for (const panel of touched) {
      const c = (w.__bench.commits[panel] ??= { commits: 0, frames: new Map() });
      c.commits += 1;
      c.frames.set(w.__bench.frame, (c.frames.get(w.__bench.frame) ?? 0) + 1);
    }
  }).observe(document, { subtree: true, childList: true, characterData: true, attributes: true });
}

const METRICS = ['TaskDuration', 'ScriptDuration', 'LayoutDuration', 'RecalcStyleDuration'];

async function metrics(cdp) {
  const { metrics: list } = await cdp.send('Performance.getMetrics');
  const out = {};
  for (const { name, value } of list) if (METRICS.includes(name)) out[name] = value;
  return out;
}

/**
 * The thread CPU time (ms) of each task the renderer's main thread ran during a trace, with what the
 * longest ones spent it on (`busiest`: the three with the most CPU, and their kinds of work).
 */
function taskCpu(events) {
  const main = events.find((e) => e.name === 'thread_name' && e.args?.name === 'CrRendererMain');
  if (!main) return { cpu: [], busiest: [] };
  const onMain = events.filter((e) => e.pid === main.pid && e.tid === main.tid && e.ph === 'X');
  const tasks = onMain.filter((e) => e.name === 'RunTask');
  const KINDS = ['TimerFire', 'FireAnimationFrame', 'EventDispatch', 'FunctionCall', 'UpdateLayoutTree', 'Layout', 'Paint', 'MinorGC', 'MajorGC', 'ParseHTML', 'EvaluateScript'];
  const busiest = [...tasks]
    .sort((a, b) => (b.tdur ?? 0) - (a.tdur ?? 0))
    .slice(0, 3)
    .map((task) => {
      const by = {};
      for (const e of onMain) {
        if (e !== task && KINDS.includes(e.name) && e.ts >= task.ts && e.ts + e.dur <= task.ts + task.dur) by[e.name] = (by[e.name] ?? 0) + e.dur / 1000;
      }
      const kinds = Object.entries(by)
        .sort((a, b) => b[1] - a[1])
        .map(([name, ms]) => `${name} ${Math.round(ms)}`)
        .join(', ');
      return `${Math.round((task.tdur ?? 0) / 1000)} ms CPU / ${Math.round(task.dur / 1000)} ms wall: ${kinds} (wall ms)`;
    });
  return { cpu: tasks.map((e) => (e.tdur ?? 0) / 1000), busiest };
}

/** The functions with the most self time in a CPU profile. */
function topSelf(profile, count) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const self = new Map();
  const dt = profile.timeDeltas;
  for (let i = 0; i < profile.samples.length; i++) {
    const node = byId.get(profile.samples[i]);
    const f = node.callFrame;
    const key = `${f.functionName || '(anonymous)'} ${f.url.split('/').pop()}:${f.lineNumber + 1}:${f.columnNumber + 1}`;
    self.set(key, (self.get(key) ?? 0) + (dt[i] ?? 0) / 1000);
  }
  return [...self].sort((a, b) => b[1] - a[1]).slice(0, count);
}

async function measure(browser, base, { name, path }) {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 }, locale: 'en-US', timezoneId: 'UTC' });
  await context.addInitScript(instrument);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Performance.enable', { timeDomain: 'threadTicks' });
  await page.goto(base + path, { waitUntil: 'load' });
  // Settled: the book has levels, trades have arrived and the chart has its canvas.
  await page.locator('section', { has: page.getByRole('heading', { name: 'Order book' }) }).getByRole('row').nth(4).waitFor({ timeout: 60_000 });
  await page.locator('section', { has: page.getByRole('heading', { name: 'Recent trades' }) }).getByRole('row').nth(2).waitFor({ timeout: 60_000 });
  await page.locator('canvas').first().waitFor({ timeout: 60_000 });
  await page.waitForTimeout(SETTLE_MS);

  if (PROFILE) {
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 200 });
    await cdp.send('Profiler.start');
  }
  // A trace of the window: the thread CPU time of every main-thread task, beside its wall time.
  const traceEvents = [];
  cdp.on('Tracing.dataCollected', (event) => traceEvents.push(...event.value));
  const traced = new Promise((done) => cdp.once('Tracing.tracingComplete', done));
  await cdp.send('Tracing.start', { categories: 'disabled-by-default-devtools.timeline', transferMode: 'ReportEvents' });
  const before = await metrics(cdp);
  const startFrame = await page.evaluate(() => {
    window.__bench.windowStart = performance.now();
    return window.__bench.frame;
  });
  const wallStart = Date.now();
  await page.waitForTimeout(STREAM_SECS * 1000);
  const endFrame = await page.evaluate(() => window.__bench.frame);
  const after = await metrics(cdp);
  await cdp.send('Tracing.end');
  await traced;
  const { cpu, busiest } = taskCpu(traceEvents);
  const wall = (Date.now() - wallStart) / 1000;
  const seen = await page.evaluate(() => {
    const b = window.__bench;
    const tasks = b.longTasks.filter((t) => t.start >= b.windowStart);
    const commits = {};
    for (const [panel, c] of Object.entries(b.commits)) {
      commits[panel] = { commits: c.commits, frames: c.frames.size, maxPerFrame: Math.max(0, ...c.frames.values()) };
    }
    return { tasks, commits, frame: b.frame };
  });
  let top = [];
  if (PROFILE) {
    const { profile } = await cdp.send('Profiler.stop');
    mkdirSync(PROFILE, { recursive: true });
    writeFileSync(join(PROFILE, `${name}.cpuprofile`), JSON.stringify(profile));
    top = topSelf(profile, 25);
  }
  await context.close();
  const durations = seen.tasks.map((t) => t.duration);
  const delta = (key) => (after[key] ?? 0) - (before[key] ?? 0);
  return {
    name,
    path,
    wall,
    frames: endFrame - startFrame,
    longTasks: durations.length,
    over50: durations.filter((d) => d > 50).length,
    max: durations.length ? Math.max(...durations) : 0,
    tbt: durations.reduce((sum, d) => sum + Math.max(0, d - 50), 0),
    task: delta('TaskDuration'),
    script: delta('ScriptDuration'),
    layout: delta('LayoutDuration') + delta('RecalcStyleDuration'),
    commits: seen.commits,
    cpuOver50: cpu.filter((t) => t > 50).length,
    cpuMax: cpu.length ? Math.max(...cpu) : 0,
    busiest,
    top,
  };
}

const ms = (seconds) => `${Math.round(seconds * 1000).toLocaleString('en-US')} ms`;

async function main() {
  const server = process.env.BENCH_BASE_URL ? { base: process.env.BENCH_BASE_URL, stop: () => {} } : await startServer();
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
  const version = browser.version();
  const results = [];
  try {
    for (const page of PAGES) {
      log(`${page.path}: settling, then ${STREAM_SECS} s of streaming`);
      results.push(await measure(browser, server.base, page));
    }
  } finally {
    await browser.close();
    server.stop();
  }
  const commits = (r, panel) => {
    const c = r.commits[panel];
    return c ? `${c.commits} / ${c.maxPerFrame}` : '0 / 0';
  };
  console.log(`\nTrade pages while streaming: ${STREAM_SECS} s window after settling, Chromium ${version}\n`);
  console.log('| page | long tasks | > 50 ms | max | TBT | tasks > 50 ms CPU | max task CPU | main-thread busy | script | style + layout | frames | book commits / max per frame | trades commits / max per frame | header commits / max per frame |');
  console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
  for (const r of results) {
    console.log(
      `| ${r.path} | ${r.longTasks} | ${r.over50} | ${Math.round(r.max)} ms | ${Math.round(r.tbt).toLocaleString('en-US')} ms | ${r.cpuOver50} | ${Math.round(r.cpuMax)} ms | ${ms(r.task)} (${Math.round((r.task / r.wall) * 100)} %) | ${ms(r.script)} | ${ms(r.layout)} | ${r.frames} | ${commits(r, 'book')} | ${commits(r, 'trades')} | ${commits(r, 'header')} |`,
    );
  }
  console.log('\nThe three tasks with the most CPU time per page:');
  for (const r of results) for (const line of r.busiest) console.log(`  ${r.name}: ${line}`);
  for (const r of results) {
    if (r.top.length === 0) continue;
    console.log(`\n${r.name}: self time (ms) over the window, top ${r.top.length}`);
    for (const [fn, t] of r.top) console.log(`  ${t.toFixed(0).padStart(7)}  ${fn}`);
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
