#!/usr/bin/env bash
# `make bench-engine` (and the end of `make bench`): the spot matching engine (matching::Book) and the
# lobster crate side by side on the same pre-generated workloads, 1,000,000 mixed operations each
# (matching/benches/engine.rs; method and figures in docs/benchmarks.md, "Spot matching engine").
# Builds only the matching crate, in release (`cargo bench`). Raw output in target/bench/engine.txt.
# Benchmarks are not tests: a goal not met does not fail the run; the two engines disagreeing on the
# fills or the final book does.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"

log() { printf '[bench-engine] %s\n' "$*"; }

out="$root/target/bench"
mkdir -p "$out"

log "cargo bench -p matching --bench engine (release)"
cargo bench -q -p matching --bench engine | tee "$out/engine.txt" | sed -E '/^(RESULT|RATIO) /d'

# The summary, from the RESULT and RATIO lines: ops/s of each engine (median of the repetitions),
# their ratio, and the two goals (≥ 1,000,000 operations/s on one core; faster than lobster).
log "summary (median of the repetitions; goal: ≥ 1 M ops/s and faster than lobster)"
awk '
function text(line, key,    pattern) {
  pattern = "\"" key "\":\"[^\"]*\""
  if (match(line, pattern)) return substr(line, RSTART + length(key) + 4, RLENGTH - length(key) - 5)
  return ""
}
function number(line, key,    pattern) {
  pattern = "\"" key "\":[0-9.]+"
  if (match(line, pattern)) return substr(line, RSTART + length(key) + 3, RLENGTH - length(key) - 3) + 0
  return 0
}
/^RESULT / {
  workload = text($0, "workload"); engine = text($0, "engine")
  if (!(workload in seen)) { seen[workload] = 1; order[++count] = workload }
  if (engine ~ /^matching/) ours[workload] = number($0, "ops_per_s"); else theirs[workload] = number($0, "ops_per_s")
}
/^RATIO / { ratio[text($0, "workload")] = number($0, "matching_over_lobster") }
END {
  for (i = 1; i <= count; i++) {
    w = order[i]
    printf "  %-6s matching::Book %6.2f M ops/s   lobster %5.2f M ops/s   %5.2fx   >= 1 M ops/s: %s   faster than lobster: %s\n",
      w, ours[w] / 1e6, theirs[w] / 1e6, ratio[w], (ours[w] >= 1e6 ? "met" : "NOT MET"), (ratio[w] > 1 ? "met" : "NOT MET")
  }
}' "$out/engine.txt"
