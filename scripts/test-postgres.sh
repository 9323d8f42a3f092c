#!/usr/bin/env bash
# Runs the backend's HTTP tests against PostgreSQL. Uses TEST_POSTGRES_URL when given; otherwise
# installs PostgreSQL if missing, starts the local cluster if it is down, and uses a role and an
# administrative database of its own. Every test creates and drops its own database.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
log() { printf '[test-postgres] %s\n' "$*"; }

if [ -z "${TEST_POSTGRES_URL:-}" ]; then
  # shellcheck source=scripts/local-postgres.sh
  source scripts/local-postgres.sh
  start_local_postgres
  port=$pg_port
  run_as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_roles WHERE rolname='kestrel_test'\" | grep -q 1 ||
    psql -p $port -qc \"CREATE ROLE kestrel_test LOGIN CREATEDB PASSWORD 'kestrel_test'\""
  # Lets DROP DATABASE … WITH (FORCE) end autovacuum workers still busy with a test database.
  run_as_postgres "psql -p $port -qc \"GRANT pg_signal_backend TO kestrel_test\""
  run_as_postgres "psql -p $port -tAc \"SELECT 1 FROM pg_database WHERE datname='kestrel_test_admin'\" | grep -q 1 ||
    psql -p $port -qc \"CREATE DATABASE kestrel_test_admin OWNER kestrel_test\""
  export TEST_POSTGRES_URL="postgres://kestrel_test:kestrel_test@127.0.0.1:$port/kestrel_test_admin"
fi

log "HTTP tests on PostgreSQL"
cargo test -p backend --test api "$@"
