# Sourced by scripts/test-postgres.sh and scripts/cluster.sh: the local PostgreSQL, installed
# (bootstrap.sh --postgres) and its first cluster started when missing. After
# `start_local_postgres`, `pg_port` is the port of the online cluster; `run_as_postgres SQL-COMMAND`
# runs a shell command as the postgres user. Expects a `log` function.

run_as_postgres() { if [ "$(id -u)" -eq 0 ]; then su postgres -c "$1"; else sudo -u postgres sh -c "$1"; fi; }

start_local_postgres() {
  bash scripts/bootstrap.sh --postgres
  if ! pg_lsclusters -h 2>/dev/null | grep -q online; then
    local cluster
    cluster=$(pg_lsclusters -h | awk 'NR==1 {print $1" "$2}')
    [ -n "$cluster" ] || { log "no PostgreSQL cluster found"; exit 1; }
    log "starting PostgreSQL cluster $cluster"
    if [ "$(id -u)" -eq 0 ]; then pg_ctlcluster $cluster start; else sudo pg_ctlcluster $cluster start; fi
  fi
  pg_port=$(pg_lsclusters -h | awk '$4=="online" {print $3; exit}')
}
