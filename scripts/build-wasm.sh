#!/usr/bin/env bash
# Builds wasm-core for the browser and for node, then shrinks both with wasm-opt when it is installed:
#   wasm-core/pkg       wasm-pack --target bundler (imported by the webapp through src/lib/wasm.ts)
#   wasm-core/pkg-node  wasm-pack --target nodejs  (loaded by wasm-core/tests/wasm-vectors.test.mjs)
# Uses rustup's wasm32-unknown-unknown target when installed; otherwise the offline recipe of
# docs/toolchain (Debian rustc-web building std from source, linked by lld-19's wasm-ld).
# Artifacts go to target/wasm so they never churn the native target/. Safe to run again.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"

log() { printf '[build-wasm] %s\n' "$*"; }
die() { printf '[build-wasm] error: %s\n' "$*" >&2; exit 1; }

# cargo-installed tools (wasm-pack, the wasm-bindgen CLI) live here on a fresh shell too.
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"
export CARGO_TARGET_DIR="$root/target/wasm"
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

build_env=()
pack_flags=()
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
    # software implementation (one encryption per withdrawal needs no speed; saves ~6 KB).
    # WASM_RUSTFLAGS replaces them.
    RUSTFLAGS="${WASM_RUSTFLAGS--Zunstable-options -Cpanic=immediate-abort -Zlocation-detail=none -Zfmt-debug=none --cfg aes_backend_soft=\"compact\"}"
  )
  # wasm-pack's sysroot check cannot see a std built from source.
  pack_flags=(--mode force)
fi

for spec in bundler:pkg nodejs:pkg-node; do
  target=${spec%%:*}
  out=${spec#*:}
  log "wasm-pack build --release --target $target --out-dir $out wasm-core"
  env "${build_env[@]}" wasm-pack build --release --no-opt "${pack_flags[@]}" \
    --target "$target" --out-dir "$out" wasm-core
done

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
  log "wasm-opt not found (npm package binaryen in webapp/ or wasm-core/, or WASM_OPT): packages left unoptimised"
else
  for out in pkg pkg-node; do
    wasm="wasm-core/$out/wasm_core_bg.wasm"
    before=$(wc -c <"$wasm")
    # Rust 1.9x emits these post-MVP features by default; wasm-opt must be told it may keep them.
    "$wasm_opt" -Oz --enable-bulk-memory --enable-nontrapping-float-to-int --enable-sign-ext \
      --enable-mutable-globals --enable-reference-types --enable-multivalue "$wasm" -o "$wasm.opt"
    mv "$wasm.opt" "$wasm"
    log "wasm-opt -Oz $wasm: $before -> $(wc -c <"$wasm") bytes"
  done
fi

log "done: wasm-core/pkg (bundler) and wasm-core/pkg-node (nodejs)"
