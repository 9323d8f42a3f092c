#!/usr/bin/env bash
# Builds wasm-core's two modules for the browser and for node, then shrinks them with wasm-opt
# (binaryen's, from webapp/node_modules: `make wasm` installs it first; without it the build fails,
# unless WASM_NO_OPT=1). Each module is wasm-core with one cargo feature of exports:
#   main (exports-main, wasm_core.js): every export but earn and loan; every page loads it
#     wasm-core/pkg                 wasm-pack --target bundler (imported by the webapp's src/lib/wasm.ts)
#     wasm-core/pkg-node            wasm-pack --target nodejs  (wasm-core/tests/wasm-vectors.test.mjs, vitest)
#   earn-loan (exports-earn-loan, wasm_core_earn_loan.js): earnSchedule, LoanCalculator,
#   loanOverduePenalty; fetched by the earn and loan screens only (src/lib/wasm.ts's second loader)
#     wasm-core/pkg-earn-loan       --target bundler
#     wasm-core/pkg-earn-loan-node  --target nodejs
# Uses rustup's wasm32-unknown-unknown target when installed; otherwise the offline recipe of
# docs/toolchain (Debian rustc-web building std from source, linked by lld-19's wasm-ld).
# Artifacts go to $CARGO_TARGET_DIR/wasm (default target/wasm) so they never churn the native
# target. Safe to run again.
#
# Size and speed (docs/benchmarks.md): on the Debian path the module is linked by a small wrapper
# crate written to target/wasm/ship (its own cdylib, not a workspace member), so that wasm-core and
# every dependency but rust_decimal are compiled for size (opt-level "z", whose functions LLVM then
# keeps small), while the link-time optimisation runs at the wrapper's opt-level 3: the functions of
# the benchmarked hot paths, marked `optimize(speed)` in wasm-core (enabled by `--cfg optimize_hot`),
# are inlined and unrolled as before. rustup's stable toolchain has no `optimize` attribute: there
# wasm-core itself is built as before, at opt-level 3.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '[build-wasm] %s\n' "$*"; }
die() { printf '[build-wasm] error: %s\n' "$*" >&2; exit 1; }

# cargo-installed tools (wasm-pack, the wasm-bindgen CLI) live here on a fresh shell too.
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$root/target}/wasm"
# Whole-program optimisation for the shipped module only (the native release profile stays as it is);
# target/wasm keeps these artifacts apart. Override either by setting it in the environment.
export CARGO_PROFILE_RELEASE_LTO="${CARGO_PROFILE_RELEASE_LTO:-true}"
export CARGO_PROFILE_RELEASE_CODEGEN_UNITS="${CARGO_PROFILE_RELEASE_CODEGEN_UNITS:-1}"
# opt-level stays 3: "s" and "z" save about 10 and 17 KB gzipped but slow the order book and liquidation
# exports by 1.4-2.4x (docs/benchmarks.md); CARGO_PROFILE_RELEASE_OPT_LEVEL still overrides it.

command -v wasm-pack >/dev/null || die "wasm-pack not found: run scripts/bootstrap.sh"
command -v wasm-bindgen >/dev/null || die "wasm-bindgen CLI not found: run scripts/bootstrap.sh"
locked=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
installed=$(wasm-bindgen --version | awk '{print $2}')
[ "$locked" = "$installed" ] ||
  die "wasm-bindgen CLI $installed does not match wasm-bindgen $locked in Cargo.lock: run scripts/bootstrap.sh"

# wasm-opt: WASM_OPT, else binaryen's from the webapp (or wasm-core) node_modules.
wasm_opt=${WASM_OPT:-}
if [ -z "$wasm_opt" ]; then
  for candidate in webapp/node_modules/.bin/wasm-opt wasm-core/node_modules/.bin/wasm-opt; do
    if [ -x "$candidate" ]; then
      wasm_opt=$candidate
      break
    fi
  done
fi
if [ -z "$wasm_opt" ]; then
  # Checked before compiling (minutes), so a missing wasm-opt fails at once. An unoptimised module
  # is about 3x larger (docs/benchmarks.md): never ship one by accident.
  [ "${WASM_NO_OPT:-}" = 1 ] ||
    die "wasm-opt not found (npm package binaryen: run 'make webapp-deps' or 'cd webapp && npm ci'; or set WASM_OPT to its path). WASM_NO_OPT=1 skips it for a quick local build"
fi

build_env=()
pack_flags=()
ship=false
if command -v rustup >/dev/null && rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  log "toolchain: rustup $(rustc --version) with the wasm32-unknown-unknown target"
else
  wasm_ld=/usr/lib/llvm-19/bin/wasm-ld
  [ -x /usr/bin/rustc ] && [ -x /usr/bin/cargo ] && [ -d /usr/lib/rustlib/src/rust/library ] && [ -x "$wasm_ld" ] ||
    die "no wasm32 target in rustup and no Debian rustc-web/rust-web-src/lld-19: run scripts/bootstrap.sh"
  log "toolchain: Debian $(/usr/bin/rustc --version) building std from source, linker $wasm_ld"
  build_env=(
    PATH="/usr/bin:$PATH"
    RUSTC=/usr/bin/rustc
    RUSTC_BOOTSTRAP=1
    CARGO_UNSTABLE_BUILD_STD=std,panic_abort
    CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_LINKER="$wasm_ld"
    # std is built from source here, so these nightly flags (allowed by RUSTC_BOOTSTRAP) reach it too:
    # a panic traps at once without formatting a message, and no panic location or Debug output is
    # kept. A panic is a bug (errors are data), and wasm32 aborts on one either way: the trap is the
    # same, only the unreadable message is gone. The AES of the withdrawal cipher uses its compact
    # software implementation (no export uses it since the webapp seals with WebCrypto; kept so
    # that a future export would not bring the large one back).
    # WASM_RUSTFLAGS replaces them.
    # optimize_hot: the `optimize(speed)` attributes of wasm-core's hot paths (see the top).
    RUSTFLAGS="${WASM_RUSTFLAGS--Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=none --cfg aes_backend_soft=\"compact\" --cfg optimize_hot}"
  )
  # wasm-pack's sysroot check cannot see a std built from source.
  pack_flags=(--mode force)
  ship=true
fi

# The modules: name, cargo feature, output folder (bundler; the nodejs one adds -node), out-name.
# The main one last: with rustup, target/wasm/…/wasm_core.wasm is then its rustc output
# (scripts/bench.sh's dependency shares read it).
modules=(
  "earn-loan exports-earn-loan pkg-earn-loan wasm_core_earn_loan"
  "main exports-main pkg wasm_core"
)

# The wrapper crate of module $1 with wasm-core's feature $2 (see the top), one folder per module so
# both stay built. Its lock file is the workspace's, so every version is the one the native build
# uses (cargo drops the entries the wrapper does not need).
write_ship() {
  local module=$1 feature=$2 dir="$CARGO_TARGET_DIR/ship-$1"
  mkdir -p "$dir/src"
  cat >"$dir/Cargo.toml" <<EOF
# Written by scripts/build-wasm.sh: links wasm-core ($feature) into the shipped wasm module "$module".
[package]
name = "wasm-core-ship-$module"
description = "The exchange's compute core: formatting, margin, validation and kline aggregation, identical natively and in WebAssembly."
version = "0.1.0"
edition = "2024"
license = "UNLICENSED"
publish = false

[lib]
crate-type = ["cdylib"]

[dependencies]
wasm-core = { path = "$root/wasm-core", default-features = false, features = ["$feature"] }

[workspace]

[profile.release]
opt-level = 3
lto = true
codegen-units = 1

# Everything but the wrapper is compiled for size; rust_decimal stays fast (every decimal operation).
[profile.release.package."*"]
opt-level = "z"

[profile.release.package.rust_decimal]
opt-level = 3
EOF
  cat >"$dir/src/lib.rs" <<'EOF'
//! A shipped wasm module: wasm-core's exports of one feature, linked at opt-level 3 (scripts/build-wasm.sh).
pub use wasm_core;
EOF
  cp Cargo.lock "$dir/Cargo.lock"
}

outputs=()
for spec in "${modules[@]}"; do
  read -r module feature pkg name <<<"$spec"
  if [ "$ship" = true ]; then
    write_ship "$module" "$feature"
    crate="$CARGO_TARGET_DIR/ship-$module"
    cargo_args=()
  else
    crate=wasm-core
    cargo_args=(-- --no-default-features --features "$feature")
  fi
  package=wasm-core
  [ "$module" = main ] || package="wasm-core-$module"
  for target in bundler nodejs; do
    out=$pkg
    [ "$target" = nodejs ] && out="$pkg-node"
    log "$module: wasm-pack build --release --target $target --out-dir $out $crate ($feature)"
    env "${build_env[@]}" wasm-pack build --release --no-opt "${pack_flags[@]}" \
      --target "$target" --out-dir "$root/wasm-core/$out" --out-name "$name" "$crate" "${cargo_args[@]}"
    # The package is named after the module (wasm-pack takes the crate's name).
    sed -i "s/\"name\": \"wasm-core[a-z-]*\"/\"name\": \"$package\"/" "wasm-core/$out/package.json"
    outputs+=("wasm-core/$out/${name}_bg.wasm")
  done
done

if [ -z "$wasm_opt" ]; then
  log "WASM_NO_OPT=1: packages left unoptimised (not for shipping)"
else
  # The bundler and nodejs packages of a module hold the same wasm: optimised once, then copied.
  declare -A optimised=()
  for wasm in "${outputs[@]}"; do
    before=$(wc -c <"$wasm")
    sum=$(sha256sum "$wasm" | cut -d' ' -f1)
    if [ -n "${optimised[$sum]:-}" ]; then
      cp "${optimised[$sum]}" "$wasm"
      log "wasm-opt -Oz $wasm: the same module as ${optimised[$sum]}, copied ($(wc -c <"$wasm") bytes)"
      continue
    fi
    # Rust 1.9x emits these post-MVP features by default; wasm-opt must be told it may keep them.
    "$wasm_opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue "$wasm" -o "$wasm.opt"
    mv "$wasm.opt" "$wasm"
    optimised[$sum]=$wasm
    log "wasm-opt -Oz $wasm: $before -> $(wc -c <"$wasm") bytes"
  done
fi

log "done: wasm-core/pkg, pkg-earn-loan (bundler) and pkg-node, pkg-earn-loan-node (nodejs)"
