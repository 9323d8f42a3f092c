#!/usr/bin/env bash
# A cluster on one machine (docs/operations.md, "Cluster mode"): a nats-server with JetStream
# (scripts/nats.sh, port 4222), the local PostgreSQL (installed and started when missing, as
# scripts/test-postgres.sh does) with a database `kestrel_cluster` of its own, and three
# `backend serve` instances `a`, `b`, `c` on http://127.0.0.1:8081, :8082 and :8083. Ctrl-C stops
# them all. `make cluster` builds the release binary and the webapp first; BACKEND=path picks
# another binary. The database is kept between runs (CLUSTER_FRESH=1 drops and recreates it).
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
log() { printf '[cluster] %s\n' "$*"; }
backend="${BACKEND:-$root/target/release/backend}"
[ -x "$backend" ] || { log "no $backend: run make cluster (or make backend-release)"; exit 1; }
nats_port="${NATS_PORT:-4222}"
database="kestrel_cluster"

# shellcheck source=scripts/local-postgres.sh
source scripts/local-postgres.sh
start_local_postgres
run_as_postgres "psql -p $pg_port -tAc \"SELECT 1 FROM pg_roles WHERE rolname='kestrel'\" | grep -q 1 ||
  psql -p $pg_port -qc \"CREATE ROLE kestrel LOGIN PASSWORD 'kestrel'\""
if [ "${CLUSTER_FRESH:-0}" = 1 ]; then
  run_as_postgres "psql -p $pg_port -qc \"DROP DATABASE IF EXISTS $database WITH (FORCE)\""
fi
run_as_postgres "psql -p $pg_port -tAc \"SELECT 1 FROM pg_database WHERE datname='$database'\" | grep -q 1 ||
  psql -p $pg_port -qc \"CREATE DATABASE $database OWNER kestrel\""
database_url="postgres://kestrel:kestrel@127.0.0.1:$pg_port/$database"

pids=()
stop() {
  trap - INT TERM EXIT
  log "stopping"
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
}
trap stop INT TERM EXIT

mkdir -p target/cluster
bash scripts/nats.sh "$nats_port" "$root/target/cluster/nats" &
pids+=($!)
for _ in $(seq 100); do (exec 3<>"/dev/tcp/127.0.0.1/$nats_port") 2>/dev/null && break; sleep 0.1; done

# The first instance applies the migrations before the others start.
port=8081
for name in a b c; do
  mkdir -p "target/cluster/$name"
  DATABASE_URL="$database_url" EXCHANGE_NATS_URL="nats://127.0.0.1:$nats_port" \
    EXCHANGE_INSTANCE="$name" EXCHANGE_PORT="$port" EXCHANGE_DATA_DIR="$root/target/cluster/$name" \
    "$backend" serve &
  pids+=($!)
  if [ "$name" = a ]; then
    for _ in $(seq 600); do curl -fsS -o /dev/null -X POST "http://127.0.0.1:$port/api/common/getAllSetting" 2>/dev/null && break; sleep 0.1; done
  fi
  log "instance $name on http://127.0.0.1:$port"
  port=$((port + 1))
done
log "NATS nats://127.0.0.1:$nats_port, database $database_url; Ctrl-C stops everything"
wait -n "${pids[@]}" || true
