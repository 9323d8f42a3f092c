#!/usr/bin/env bash
# `make bench-web`: the webapp benchmark of docs/benchmarks.md. Starts the release server on a fresh
# database (port BENCH_WEB_PORT, default 18093) serving webapp/dist, runs Lighthouse (pinned in
# bench/package.json) in Chromium (CHROME_PATH, default the e2e one, /usr/bin/chromium) with the
# desktop and the mobile preset on /home/index, /quotes/index, /trade/index?type=bb and
# ?type=usta (bench/web.mjs), prints the markdown table and stops the server.
# Raw reports and the table go to target/bench-web/ (BENCH_WEB_OUT). BENCH_SERVER and BENCH_WEBAPP_DIR
# replace the server binary and the webapp build; BENCH_PAGES and BENCH_PRESETS (bench/web.mjs)
# restrict the pages and presets. A benchmark, not a test: a goal not met does
# not fail the run. Run it on a quiet machine, once; say in docs/benchmarks.md when it was not.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '[bench-web] %s\n' "$*"; }
die() { printf '[bench-web] error: %s\n' "$*" >&2; exit 1; }

port=${BENCH_WEB_PORT:-18093}
base="http://127.0.0.1:$port"
out="${BENCH_WEB_OUT:-$root/target/bench-web}"
bin="${BENCH_SERVER:-${CARGO_TARGET_DIR:-$root/target}/release/backend}"
webapp="${BENCH_WEBAPP_DIR:-$root/webapp/dist}"
export CHROME_PATH=${CHROME_PATH:-/usr/bin/chromium}

[ -x "$bin" ] || die "no release server at $bin: run 'make backend-release'"
[ -f "$webapp/index.html" ] || die "no webapp build in $webapp: run 'make webapp'"
[ -x "$CHROME_PATH" ] || die "no Chromium at $CHROME_PATH (set CHROME_PATH)"
[ -x bench/node_modules/.bin/lighthouse ] || die "Lighthouse is not installed: run 'cd bench && npm ci'"

rm -rf "$out"
mkdir -p "$out/data"
log "release server on $base (fresh database in $out/data)"
EXCHANGE_PORT=$port EXCHANGE_HOST=127.0.0.1 EXCHANGE_DATA_DIR="$out/data" EXCHANGE_WEBAPP_DIR="$webapp" \
  EXCHANGE_LOG=warn "$bin" serve >"$out/server.log" 2>&1 &
server=$!
trap 'kill "$server" 2>/dev/null || true; wait "$server" 2>/dev/null || true' EXIT

for _ in $(seq 1 120); do
  curl -fsS -o /dev/null "$base/platform/dev/config.js" 2>/dev/null && break
  kill -0 "$server" 2>/dev/null || die "the server stopped (see $out/server.log)"
  sleep 0.5
done
curl -fsS -o /dev/null "$base/platform/dev/config.js" || die "the server did not answer within 60 s"

log "load average before the run: $(cut -d' ' -f1-3 /proc/loadavg) on $(nproc) cores"
node bench/web.mjs "$base" "$out"
log "load average after the run: $(cut -d' ' -f1-3 /proc/loadavg)"
log "table and raw Lighthouse reports: $out"
