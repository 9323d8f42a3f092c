#!/usr/bin/env bash
# `make test-schema`: schemathesis over openapi/openapi.json against the debug backend.
#
# 1. Installs schemathesis (pinned) from PyPI into target/schemathesis-venv (once; again only when
#    the pin changes).
# 2. Builds the debug backend and starts it in development mode on a free port with a fresh data
#    folder (a throwaway SQLite database) under a temporary directory.
# 3. Registers an account through the dev outbox (sendEmailCode → code → register), makes it an
#    operator (`backend admin create-operator`) and logs it in for a `satoken` session.
# 4. Runs every phase (examples, coverage, fuzzing, stateful) twice, without and with the session,
#    each bounded by SCHEMA_TEST_MAX_TIME seconds (default 90) and SCHEMA_TEST_MAX_EXAMPLES per
#    operation (default 30), checking `not_a_server_error` and `response_schema_conformance`.
# 5. Runs `backend audit` on that database: the money-moving calls must leave the ledger balanced.
# Fails when any of these fails; the reports (JUnit, NDJSON) stay in target/schema-test/.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
log() { printf '[test-schema] %s\n' "$*"; }

SCHEMATHESIS_VERSION=4.32.5
venv="$root/target/schemathesis-venv"
max_time="${SCHEMA_TEST_MAX_TIME:-90}"
max_examples="${SCHEMA_TEST_MAX_EXAMPLES:-30}"
reports="$root/target/schema-test"
started=$(date +%s)

if [ "$("$venv/bin/schemathesis" --version 2>/dev/null | awk '{print $NF}')" != "$SCHEMATHESIS_VERSION" ]; then
  log "installing schemathesis $SCHEMATHESIS_VERSION into $venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "schemathesis==$SCHEMATHESIS_VERSION"
fi

# SCHEMA_TEST_BACKEND runs another binary (say, an older build to compare) instead of building.
backend="${SCHEMA_TEST_BACKEND:-}"
if [ -z "$backend" ]; then
  # Built as `make backend-debug` builds it (the HTTP tests' features: one compilation for both).
  log "building the debug backend"
  cargo test -q -p backend --no-run --test api
  backend="${CARGO_TARGET_DIR:-$root/target}/debug/backend"
fi

work="$(mktemp -d)"
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
base="http://127.0.0.1:$port"
server_pid=""
cleanup() {
  if [ -n "$server_pid" ]; then kill "$server_pid" 2>/dev/null || true; wait "$server_pid" 2>/dev/null || true; fi
  rm -rf "$work"
}
trap cleanup EXIT

# The same development settings as the e2e server: one IP asks for many codes here.
export EXCHANGE_MODE=development EXCHANGE_HOST=127.0.0.1 EXCHANGE_PORT="$port" \
  EXCHANGE_DATA_DIR="$work/data" EXCHANGE_LOG="${EXCHANGE_LOG:-warn}" \
  EXCHANGE_CODE_RESEND_SECS=1 EXCHANGE_CODES_PER_IP_HOUR=100000
log "starting the backend on $base (data in $work/data)"
"$backend" serve >"$work/server.log" 2>&1 &
server_pid=$!
for _ in $(seq 1 600); do
  curl -fsS -o /dev/null "$base/api/seconds/config" 2>/dev/null && break
  kill -0 "$server_pid" 2>/dev/null || { cat "$work/server.log"; log "the backend did not start"; exit 1; }
  sleep 0.1
done

# An account and its session: sendEmailCode → the code from the dev outbox → register → login.
account="schema-$(date +%s)-$$@kestrel.test"
password='Kestrel2026x'
post() { curl -fsS -H 'content-type: application/json' -d "$2" "$base$1"; }
post /api/user/sendEmailCode "{\"account\":\"$account\",\"type\":\"register\"}" >/dev/null
code=""
for _ in $(seq 1 100); do
  code=$(curl -fsS "$base/api/dev/outbox?to=$account" | python3 -c \
    'import json,re,sys; m=[re.search(r"\b(\d{6})\b", x["body"]) for x in json.load(sys.stdin)["data"]]; print(next((x.group(1) for x in m if x), ""))')
  [ -n "$code" ] && break
  sleep 0.1
done
[ -n "$code" ] || { log "no registration code in the dev outbox"; exit 1; }
post /api/user/register \
  "{\"account\":\"$account\",\"password\":\"$password\",\"confirmPassword\":\"$password\",\"code\":\"$code\"}" >/dev/null
# The account is also an operator, so the review calls (`/api/admin/…`) run past their role check.
EXCHANGE_OPERATOR_PASSWORD="$password" "$backend" admin create-operator --email "$account" >/dev/null
token=$(post /api/user/login "{\"account\":\"$account\",\"password\":\"$password\"}" |
  python3 -c 'import json,sys; print(json.load(sys.stdin)["data"]["satoken"])')
[ -n "$token" ] || { log "no session token"; exit 1; }

rm -rf "$reports" && mkdir -p "$reports"
export PYTHONPATH="$root/scripts${PYTHONPATH:+:$PYTHONPATH}" SCHEMATHESIS_HOOKS=schemathesis_hooks
status=0
run() {
  local name="$1"; shift
  log "schemathesis, $name (at most ${max_time}s, $max_examples examples per operation)"
  "$venv/bin/schemathesis" --config-file scripts/schemathesis.toml run openapi/openapi.json \
    --url "$base" \
    --phases examples,coverage,fuzzing,stateful \
    --checks not_a_server_error,response_schema_conformance \
    --max-examples "$max_examples" --max-time "$max_time" \
    --workers 2 --seed 22 --no-color \
    --report junit,ndjson --report-dir "$reports/$name" \
    "$@" || status=1
}
run anonymous
# The session must last the run: `logout` and `deleteDevice` (its own device is number 1 on a fresh
# database) would end it; both are still called in the anonymous run.
run member -H "satoken: $token" --exclude-operation-id logout --exclude-operation-id deleteDevice

log "backend audit on the run's database"
kill "$server_pid" && wait "$server_pid" 2>/dev/null || true
server_pid=""
"$backend" audit || { log "the ledger audit failed"; status=1; }

log "finished in $(( $(date +%s) - started ))s"
exit "$status"
