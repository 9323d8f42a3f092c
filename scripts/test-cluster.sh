#!/usr/bin/env bash
# Runs the cluster tests (backend/tests/api/cluster.rs): several instances (in-process, and `backend serve`
# processes for the spot pairs' owners) on one
# PostgreSQL database and a nats-server with JetStream that each test starts on a free port.
# Installs nats-server when missing (bootstrap.sh --nats) and PostgreSQL as test-postgres.sh does.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
bash scripts/bootstrap.sh --nats
export TEST_NATS_SERVER="$root/target/tools/nats/bin/nats-server"
# The plain runs skip this module (--skip cluster::); here it runs alone.
bash scripts/test-postgres.sh cluster::
