/**
 * Playwright configuration: Debian's Chromium (no browser download) against the real backend binary,
 * started fresh for every run on port 18091 (`E2E_PORT` picks another, e.g. beside a second
 * worktree's run) with an empty data folder. Seconds contracts get a 5-second period first
 * (`EXCHANGE_SECONDS_PERIODS`), so a bet settles within an expect timeout; the referral batch runs every
 * 5 s with the same-address rule off (every account logs in from 127.0.0.1).
 *
 * Two projects:
 * - `chromium`: every spec except the screenshots (what `make test-e2e` / `npx playwright test` runs),
 * in Debian's `chromium-headless-shell` when it is installed (`make bootstrap` installs it): the
 * whole suite takes about a fifth less time than in the full browser's headless mode, whose GPU
 * process composites every frame in software;
 * - `screenshots`: only `screenshots.spec.ts`, in the full browser (what users run), which writes
 * PNGs into ../docs/screenshots. It is not a
 * default project, so a plain `npx playwright test` never runs it; it runs when SCREENSHOTS is set
 * (`make screenshots`), when the command line names it (`npx playwright test screenshots`), or with
 * `--project screenshots`.
 *
 * @module
 */

import { existsSync } from 'node:fs';
import { defineConfig, devices } from '@playwright/test';

const PORT = Number(process.env.E2E_PORT ?? 18091);
const BASE_URL = `http://127.0.0.1:${PORT}`;

/** The full browser: the screenshots, and the tests when the headless shell is missing. */
const BROWSER = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/** The tests' browser: `CHROMIUM_PATH` when set, else the headless shell when installed. */
const TEST_BROWSER =
  process.env.CHROMIUM_PATH ?? (existsSync('/usr/bin/chromium-headless-shell') ? '/usr/bin/chromium-headless-shell' : BROWSER);

/** Flags Chromium needs on these machines (root, closed network): see docs toolchain notes. */
const CHROMIUM_ARGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

// Workers load this file again; they only need the same project list, so reading the command line
// here (which differs in workers) changes nothing but the `default` flag used by the runner.
const screenshotsRequested =
  Boolean(process.env.SCREENSHOTS) || process.argv.slice(2).some((arg) => /(^|[/=])screenshots\b/.test(arg));

export default defineConfig({
  testDir: '.',
  testMatch: '**/*.spec.ts',
  outputDir: 'test-results',
  fullyParallel: true,
  forbidOnly: true,
  workers: 2,
  retries: 0,
  reporter: 'list',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  use: {
    baseURL: BASE_URL,
    browserName: 'chromium',
    launchOptions: { executablePath: TEST_BROWSER, args: CHROMIUM_ARGS },
    locale: 'en-US',
    timezoneId: 'America/New_York',
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
  projects: [
    {
      name: 'chromium',
      testIgnore: '**/screenshots.spec.ts',
      use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 } },
    },
    {
      name: 'screenshots',
      testMatch: '**/screenshots.spec.ts',
      default: screenshotsRequested,
      use: {
        ...devices['Desktop Chrome'],
        viewport: { width: 1440, height: 900 },
        launchOptions: { executablePath: BROWSER, args: CHROMIUM_ARGS },
      },
    },
  ],
  webServer: {
    // A fresh database every run: the data folder is removed before the backend starts.
    command: 'rm -rf .tmp/data && mkdir -p .tmp && ../target/debug/backend serve',
    cwd: '.',
    url: `${BASE_URL}/platform/dev/config.js`,
    reuseExistingServer: false,
    timeout: 60_000,
    stdout: 'ignore',
    stderr: 'pipe',
    env: {
      EXCHANGE_PORT: String(PORT),
      EXCHANGE_HOST: '127.0.0.1',
      EXCHANGE_DATA_DIR: '.tmp/data',
      EXCHANGE_WEBAPP_DIR: '../webapp/dist',
      EXCHANGE_MOBILE_SITE_URL: 'https://m.kestrel.test/',
      EXCHANGE_LOG: 'warn',
      // Every spec registers fresh accounts from one IP: relax the code limits (production keeps
      // one code a minute per address and 60 an hour per IP; the backend tests cover those).
      EXCHANGE_CODE_RESEND_SECS: '1',
      EXCHANGE_CODES_PER_IP_HOUR: '100000',
      // A 5 s period so the seconds spec sees a bet settle; the product's usual periods follow.
      // The earn spec crosses days: POST /api/admin/test/clock/advance (never on in `make run`).
      EXCHANGE_TEST_CLOCK: 'true',
      EXCHANGE_SECONDS_PERIODS: '5:0.85:10:50000,30:0.80:10:50000,60:0.85:10:50000,120:0.90:10:50000,300:0.95:10:50000',
      // Every account logs in from 127.0.0.1, the address of its inviter too: the referral spec
      // proves paid rebates with the same-address rule off (the backend's HTTP tests prove the
      // rule), and the hourly batch tries every 5 s instead of every minute, so it pays soon after
      // the spec moves the test clock past the hour.
      EXCHANGE_REFERRAL_WITHHOLD_SAME_ADDRESS: 'false',
      EXCHANGE_REFERRAL_BATCH_EVERY_SECS: '5',
    },
  },
});
