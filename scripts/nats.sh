#!/usr/bin/env bash
# Runs a JetStream-enabled nats-server in the foreground on loopback, for cluster mode on a developer's
# machine and for the cluster tests (which start the same binary themselves):
#   scripts/nats.sh [PORT] [STORE_DIR]     (default 4222 and target/nats-store)
# Installs nats-server first when missing (scripts/bootstrap.sh --nats). Ctrl-C stops it; the
# instances then connect with EXCHANGE_NATS_URL=nats://127.0.0.1:PORT.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
port="${1:-4222}"
store="${2:-$root/target/nats-store}"
bin="$root/target/tools/nats/bin/nats-server"
[ -x "$bin" ] || bash "$root/scripts/bootstrap.sh" --nats
mkdir -p "$store"
exec "$bin" --jetstream --addr 127.0.0.1 --port "$port" --store_dir "$store"
