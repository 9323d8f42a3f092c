// The release server the browser benchmarks (stream.mjs, first-render.mjs) measure: started on a
// fresh data folder, serving the built webapp.

import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');

/**
 * Starts the release server (`BENCH_SERVER`, or `target/release/backend` under `CARGO_TARGET_DIR`)
 * on `port` with a fresh data folder named after `name`, serving `BENCH_WEBAPP_DIR` (default
 * `webapp/dist`); resolves once it answers, with its base URL and a `stop` that ends it and
 * removes the folder.
 *
 * @param {number} port - The port to listen on (127.0.0.1).
 * @param {string} name - The benchmark's name, for the data folder.
 * @param {(message: string) => void} log - Where to say which server runs.
 * @returns {Promise<{ base: string, stop: () => void }>}
 */
export async function startReleaseServer(port, name, log) {
  const binary = process.env.BENCH_SERVER ?? join(process.env.CARGO_TARGET_DIR ?? join(root, 'target'), 'release', 'backend');
  const data = mkdtempSync(join(tmpdir(), `${name}-`));
  const child = spawn(binary, ['serve'], {
    cwd: root,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: {
      ...process.env,
      EXCHANGE_PORT: String(port),
      EXCHANGE_HOST: '127.0.0.1',
      EXCHANGE_DATA_DIR: data,
      EXCHANGE_WEBAPP_DIR: process.env.BENCH_WEBAPP_DIR ?? join(root, 'webapp', 'dist'),
      EXCHANGE_LOG: 'warn',
    },
  });
  const base = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`${binary} exited with ${child.exitCode}`);
    try {
      const response = await fetch(`${base}/platform/dev/config.js`);
      if (response.ok) break;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) throw new Error('the server did not answer within 120 s');
    await new Promise((r) => setTimeout(r, 250));
  }
  log(`server ${binary} on ${base} (data ${data})`);
  return {
    base,
    stop: () => {
      child.kill('SIGTERM');
      rmSync(data, { recursive: true, force: true });
    },
  };
}
