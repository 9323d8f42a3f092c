#!/usr/bin/env bash
# `make bench`: the benchmarks of docs/benchmarks.md, in one run.
#   1. native (release, compiled for this CPU): kline aggregation of 1M and 5M trades beside the
#      memory-scan floor (wasm-core/benches/kline.rs);
#   2. node, ONE process: the wasm build against the fastest plain JavaScript on the same trades, then
#      the wasm order book formatting and liquidation price per call (wasm-core/bench-js/bench.mjs);
#   3. the wasm file's size, gzipped, and each dependency's share of its code
#      (wasm-core/bench-js/wasm-size.mjs on a copy optimised like the shipped one but keeping names);
#   4. the ratios against the issue's goals (wasm-core/bench-js/report.mjs);
#   5. the market channel under load (backend/examples/market_load.rs): the release server as its own
#      process on a fresh database, MARKET_LOAD_CLIENTS WebSocket clients (default 10000) on
#      ticker, depth and trade of 8 pairs, measured for MARKET_LOAD_SECS (default 60);
#   6. kline history over keep-alive HTTP (backend/examples/rest_load.rs): REST_LOAD_CLIENTS clients
#      (default 32) for REST_LOAD_SECS (default 30), then one client alone, on 30 days of candles.
#   7. spot orders over keep-alive HTTP (backend/examples/order_load.rs): ORDER_LOAD_CLIENTS funded
#      users (default 32) placing and cancelling orders for ORDER_LOAD_SECS (default 30), on SQLite,
#      then on PostgreSQL when one is available (ORDER_LOAD_DATABASE_URL, or the local cluster that
#      scripts/test-postgres.sh uses, started when down; never installed here); on each database
#      twice, side by side: referral rebates off, then on (`--rebates`: every user under a chain of
#      three referrers, the rebate batch paying during the window), and the ratio against the goal
#      (issue 26: with rebates on, within 5 % of the throughput with rebates off).
#   8. cluster mode (issue 28; not part of `all`): the same order load on PostgreSQL, once against one
#      plain instance, then against three instances in cluster mode over a NATS server started here
#      on a free port (clients spread over the three, so most orders are forwarded to their pair's
#      owner): the throughput ratio, the forwarding hop at p50 (forwarded against direct answers);
#      then three instances again with the first pair's owner killed (kill -9) halfway through the
#      window: the failover time.
# `scripts/bench.sh wasm` runs 1-4 only, `scripts/bench.sh market` 5-6 only (`make bench-market`),
# `scripts/bench.sh orders` 7 only (`make bench-orders`), `scripts/bench.sh cluster` 8 only
# (`make bench-cluster`).
# Timings on this 2-core machine are noisy: read the ratios of one run, not absolute times. Raw
# outputs stay in target/bench/. Benchmarks are not tests: a goal not met does not fail the run; a
# difference between the native, wasm and JavaScript candles does, and so does a failed request.
set -euo pipefail

parts=${1:-all}
case "$parts" in
  all | wasm | market | orders | cluster) ;;
  *) printf '[bench] usage: %s [all|wasm|market|orders|cluster]\n' "$0" >&2; exit 2 ;;
esac

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"

log() { printf '[bench] %s\n' "$*"; }
die() { printf '[bench] error: %s\n' "$*" >&2; exit 1; }

out="$root/target/bench"
mkdir -p "$out"

market() {
  # 5 and 6: the server under test is target/release/backend, started by each tool.
  log "backend: cargo build --release -p backend --bins --examples"
  cargo build -q --release -p backend --bins --examples
  local bin="${CARGO_TARGET_DIR:-$root/target}/release/examples"
  local clients=${MARKET_LOAD_CLIENTS:-10000} secs=${MARKET_LOAD_SECS:-60}
  log "market channel: $clients WebSocket clients, $secs s (backend/examples/market_load.rs)"
  "$bin/market_load" --clients "$clients" --secs "$secs" | tee "$out/market_load.txt"
  local rest_clients=${REST_LOAD_CLIENTS:-32} rest_secs=${REST_LOAD_SECS:-30}
  log "kline history: $rest_clients keep-alive clients, $rest_secs s (backend/examples/rest_load.rs)"
  "$bin/rest_load" --clients "$rest_clients" --secs "$rest_secs" | tee "$out/rest_load.txt"
  log "kline history: one client alone, 15 s"
  "$bin/rest_load" --clients 1 --secs 15 | tee "$out/rest_load_one.txt"
}

# 7: PostgreSQL for the order load, as scripts/test-postgres.sh finds it (without installing it):
# ORDER_LOAD_DATABASE_URL, else the local cluster, started when down, with the test role and its
# administrative database; the tool creates a database of its own beside it and drops it after.
orders_postgres_url() {
  if [ -n "${ORDER_LOAD_DATABASE_URL:-}" ]; then
    printf '%s' "$ORDER_LOAD_DATABASE_URL"
    return 0
  fi
  command -v pg_lsclusters >/dev/null 2>&1 || return 1
  run_as_postgres() { if [ "$(id -u)" -eq 0 ]; then su postgres -c "$1"; else sudo -n -u postgres sh -c "$1"; fi; }
  if ! pg_lsclusters -h 2>/dev/null | grep -q online; then
    local cluster
    cluster=$(pg_lsclusters -h | awk 'NR==1 {print $1" "$2}')
    [ -n "$cluster" ] || return 1
    log "starting PostgreSQL cluster $cluster" >&2
    if [ "$(id -u)" -eq 0 ]; then pg_ctlcluster $cluster start; else sudo -n pg_ctlcluster $cluster start; fi >&2 || return 1
  fi
  local port
  port=$(pg_lsclusters -h | awk '$4=="online" {print $3; exit}')
  [ -n "$port" ] || return 1
  run_as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname='kestrel_test'\" | grep -q 1 ||
    psql -p $port -qc \"CREATE ROLE kestrel_test LOGIN CREATEDB PASSWORD 'kestrel_test'\"" >&2 || return 1
  run_as_postgres "psql -p $port -qc \"GRANT pg_signal_backend TO kestrel_test\"" >&2 || return 1
  run_as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname='kestrel_test_admin'\" | grep -q 1 ||
    psql -p $port -qc \"CREATE DATABASE kestrel_test_admin OWNER kestrel_test\"" >&2 || return 1
  printf 'postgres://kestrel_test:kestrel_test@127.0.0.1:%s/kestrel_test_admin' "$port"
}

orders() {
  # 7: the server under test is target/release/backend, started by the tool on a fresh database.
  log "backend: cargo build --release -p backend --bins --examples"
  cargo build -q --release -p backend --bins --examples
  local bin="${CARGO_TARGET_DIR:-$root/target}/release/examples"
  local clients=${ORDER_LOAD_CLIENTS:-32} secs=${ORDER_LOAD_SECS:-30} failed=0 url
  log "spot orders on SQLite, rebates off: $clients keep-alive clients, $secs s (backend/examples/order_load.rs)"
  env -u ORDER_LOAD_DATABASE_URL "$bin/order_load" --clients "$clients" --secs "$secs" |
    tee "$out/order_load_sqlite.txt" || failed=1
  log "spot orders on SQLite, rebates on: the same load, every user under three referrers, the batch paying"
  env -u ORDER_LOAD_DATABASE_URL "$bin/order_load" --clients "$clients" --secs "$secs" --rebates |
    tee "$out/order_load_sqlite_rebates.txt" || failed=1
  rebates_ratio SQLite "$out/order_load_sqlite.txt" "$out/order_load_sqlite_rebates.txt"
  if url=$(orders_postgres_url); then
    log "spot orders on PostgreSQL, rebates off: $clients keep-alive clients, $secs s"
    "$bin/order_load" --clients "$clients" --secs "$secs" --database-url "$url" |
      tee "$out/order_load_postgres.txt" || failed=1
    log "spot orders on PostgreSQL, rebates on"
    "$bin/order_load" --clients "$clients" --secs "$secs" --database-url "$url" --rebates |
      tee "$out/order_load_postgres_rebates.txt" || failed=1
    rebates_ratio PostgreSQL "$out/order_load_postgres.txt" "$out/order_load_postgres_rebates.txt"
  else
    log "spot orders on PostgreSQL: skipped (no PostgreSQL server; set ORDER_LOAD_DATABASE_URL)"
  fi
  [ "$failed" = 0 ] || die "spot orders: a run had failed requests or an inconsistency (see above)"
}

# The orders per second of a run's RESULT line.
orders_per_sec() { sed -n 's/^RESULT .*"ordersPerSec":\([0-9]*\).*/\1/p' "$1" | tail -n 1; }

# Rebates on against off (issue 26's goal: within 5 %); a goal, not a test: never fails the run.
rebates_ratio() {
  local off on
  off=$(orders_per_sec "$2")
  on=$(orders_per_sec "$3")
  if [ -z "$off" ] || [ -z "$on" ] || [ "$off" = 0 ]; then
    log "rebates on/off on $1: no figures (a run failed)"
    return 0
  fi
  awk -v db="$1" -v off="$off" -v on="$on" 'BEGIN {
    change = 100 * (on - off) / off
    printf "[bench] rebates on/off on %s: %d/s on, %d/s off: %+.1f%% (goal: within 5%%: %s)\n",
      db, on, off, change, (change >= -5 ? "met" : "NOT MET")
  }' | tee -a "$out/order_load_rebates.txt"
}

# 8: three instances in cluster mode against one, then a failover (PostgreSQL needed; NATS installed
# when missing and started here).
cluster() {
  local url
  url=$(orders_postgres_url) || die "cluster: no PostgreSQL server (set ORDER_LOAD_DATABASE_URL)"
  bash scripts/bootstrap.sh --nats
  log "backend: cargo build --release -p backend --bins --examples"
  cargo build -q --release -p backend --bins --examples
  local bin="${CARGO_TARGET_DIR:-$root/target}/release/examples"
  # Not local: the EXIT trap reads them after this function has returned.
  local clients=${ORDER_LOAD_CLIENTS:-32} secs=${ORDER_LOAD_SECS:-30} failed=0 port
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  store=$(mktemp -d)
  "$root/target/tools/nats/bin/nats-server" --jetstream --addr 127.0.0.1 --port "$port" --store_dir "$store" \
    >"$out/nats.log" 2>&1 &
  nats_pid=$!
  trap 'kill "$nats_pid" 2>/dev/null; rm -rf "$store"' EXIT
  log "NATS with JetStream on 127.0.0.1:$port (pid $nats_pid)"
  log "one instance (no cluster mode) on PostgreSQL: $clients clients, $secs s"
  "$bin/order_load" --clients "$clients" --secs "$secs" --database-url "$url" |
    tee "$out/cluster_one.txt" || failed=1
  log "three instances in cluster mode, clients spread over them"
  "$bin/order_load" --clients "$clients" --secs "$secs" --database-url "$url" \
    --nats-url "nats://127.0.0.1:$port" --instances 3 --keep-logs "$out/cluster_three_logs" |
    tee "$out/cluster_three.txt" || failed=1
  log "three instances, the first pair's owner killed (kill -9) halfway through"
  "$bin/order_load" --clients "$clients" --secs "$secs" --database-url "$url" \
    --nats-url "nats://127.0.0.1:$port" --instances 3 --kill-owner-at-secs $((secs / 2)) \
    --keep-logs "$out/cluster_failover_logs" |
    tee "$out/cluster_failover.txt" || failed=1
  local one three
  one=$(orders_per_sec "$out/cluster_one.txt")
  three=$(orders_per_sec "$out/cluster_three.txt")
  if [ -n "$one" ] && [ -n "$three" ] && [ "$one" != 0 ]; then
    awk -v one="$one" -v three="$three" 'BEGIN {
      printf "[bench] three instances against one: %d/s against %d/s: %+.1f%% (goal: not below one instance: %s)\n",
        three, one, 100 * (three - one) / one, (three >= one ? "met" : "NOT MET")
    }' | tee "$out/cluster_report.txt"
  fi
  grep -h "forwarding hop\|failover:" "$out/cluster_three.txt" "$out/cluster_failover.txt" | tee -a "$out/cluster_report.txt" || true
  [ "$failed" = 0 ] || die "cluster: a run had failed requests or an inconsistency (see above)"
}

if [ "$parts" = cluster ]; then
  cluster
  exit 0
fi
if [ "$parts" = market ]; then
  market
  exit 0
fi
if [ "$parts" = orders ]; then
  orders
  exit 0
fi

[ -f wasm-core/pkg-node/wasm_core.js ] || bash scripts/build-wasm.sh

# 1. Native. wasm is compiled for this CPU by node's engine, so native is too (own target dir, so
# the normal builds are not rebuilt).
log "native: cargo bench -p wasm-core --bench kline (target-cpu=native)"
RUSTFLAGS="${BENCH_RUSTFLAGS--C target-cpu=native}" CARGO_TARGET_DIR="$root/target/bench-native" \
  cargo bench -q -p wasm-core --bench kline | tee "$out/native.txt" | sed -E '/^(RESULT|CHECK) /d'

# 2. Node: wasm and JavaScript side by side.
log "node: wasm-core/bench-js/bench.mjs (node $(node --version))"
node wasm-core/bench-js/bench.mjs | tee "$out/node.txt" | sed -E '/^(RESULT|CHECK) /d'

# 3. Size: the shipped file, and a named copy for the shares.
wasm_opt=${WASM_OPT:-}
for candidate in webapp/node_modules/.bin/wasm-opt wasm-core/node_modules/.bin/wasm-opt; do
  [ -z "$wasm_opt" ] && [ -x "$candidate" ] && wasm_opt=$candidate
done
shipped=wasm-core/pkg/wasm_core_bg.wasm
raw_bytes=$(wc -c <"$shipped")
gzip_bytes=$(gzip -9 -c "$shipped" | wc -c)
log "size: $shipped $raw_bytes bytes, gzip -9 $gzip_bytes bytes"
{
  echo "GZIP {\"rawBytes\":$raw_bytes,\"gzipBytes\":$gzip_bytes}"
  # The main module as rustc linked it: by its wrapper crate of scripts/build-wasm.sh, or by wasm-core.
  wasm_target="${CARGO_TARGET_DIR:-target}/wasm/wasm32-unknown-unknown/release"
  rustc_wasm=$wasm_target/wasm_core_ship_main.wasm
  [ -f "$rustc_wasm" ] || rustc_wasm=$wasm_target/wasm_core.wasm
  if [ -n "$wasm_opt" ] && [ -f "$rustc_wasm" ] && command -v wasm-bindgen >/dev/null; then
    named="$out/named"
    rm -rf "$named"
    wasm-bindgen --target nodejs --out-name wasm_core --out-dir "$named" "$rustc_wasm"
    # The shipped optimisation (scripts/build-wasm.sh) plus -g, which keeps the function names.
    "$wasm_opt" -Oz -g --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue \
      "$named/wasm_core_bg.wasm" -o "$named/named.wasm"
    node wasm-core/bench-js/wasm-size.mjs "$named/named.wasm"
  else
    echo "no wasm-opt, rustc wasm output or wasm-bindgen CLI: dependency shares not measured"
  fi
} | tee "$out/size.txt" | sed -E '/^(SIZE|GZIP) /d'

# 4. Goals.
log "ratios of this run against the goals"
node wasm-core/bench-js/report.mjs "$out/native.txt" "$out/node.txt" "$out/size.txt" | tee "$out/report.txt" ||
  die "native, wasm and JavaScript candles differ"

if [ "$parts" = all ]; then
  market
  orders
fi
exit 0
