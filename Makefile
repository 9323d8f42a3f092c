# Kestrel Exchange — the README's two commands and the helpers behind them.
#   make run    install what is missing, build everything, start the exchange on http://127.0.0.1:8080
#   make test   install what is missing, run every test the project has
SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help
export PATH := $(PATH):$(HOME)/.cargo/bin

CARGO ?= cargo
NPM_CI := npm ci --no-audit --no-fund --loglevel=error

.PHONY: help run test bootstrap wasm webapp-deps e2e-deps api webapp backend-release backend-debug \
        openapi lint-rust test-rust test-wasm test-webapp test-e2e test-schema test-postgres test-cluster screenshots clean bench bench-market \
        bench-engine bench-orders bench-futures bench-logins bench-web bench-deps bench-stream bench-loans bench-earn \
        bench-chat bench-cluster

help: ## list the targets
	@grep -E '^[a-z-]+:.*## ' $(MAKEFILE_LIST) | awk -F':.*## ' '{printf "  make %-16s %s\n", $$1, $$2}'

run: bootstrap wasm webapp backend-release ## build everything and start the exchange (Ctrl-C stops it)
	./target/release/backend serve

test: bootstrap wasm lint-rust test-rust test-wasm test-webapp test-e2e test-schema test-postgres test-cluster ## run every test
	@echo "make test: every suite passed"

bootstrap: ## install the toolchain pieces this machine lacks (idempotent)
	bash scripts/bootstrap.sh

# webapp-deps first: its binaryen is the wasm-opt that shrinks the module (the build fails without
# it; WASM_NO_OPT=1 skips the step for a quick local build, never for what ships).
wasm: webapp-deps ## build wasm-core's two modules, main and earn-loan, for the browser (wasm-core/pkg, pkg-earn-loan) and node (*-node), optimised by wasm-opt
	bash scripts/build-wasm.sh

bench: wasm ## every benchmark: wasm-core (kline, order book, liquidation price, size), market channel and kline history under load, matching engine (docs/benchmarks.md)
	bash scripts/bench.sh
	bash scripts/bench-engine.sh

bench-market: ## the market channel (MARKET_LOAD_CLIENTS, default 10000) and kline history under load only
	bash scripts/bench.sh market

bench-engine: ## the spot matching engine against the lobster crate on the same workloads only
	bash scripts/bench-engine.sh

bench-orders: ## spot orders over HTTP on SQLite and PostgreSQL (ORDER_LOAD_CLIENTS, default 32) only
	bash scripts/bench.sh orders

bench-cluster: ## three instances in cluster mode against one (spot orders over HTTP on PostgreSQL, NATS started here), the forwarding hop, a failover (kill -9 of a pair's owner)
	bash scripts/bench.sh cluster

bench-web: webapp backend-release bench-deps ## Lighthouse (pinned, desktop and mobile) on home, markets and both trade pages against the release server
	bash scripts/bench-web.sh

bench-futures: ## futures liquidation checks per mark tick, trigger index against a full scan (POSITIONS, default 100000)
	$(CARGO) run -q --release -p backend --example liquidation_bench

bench-loans: ## the loan due sweep over 100,000 open loans (LOANS, DUE: default 1000): it touches only the loans due
	$(CARGO) run -q --release -p backend --example loan_sweep_bench

bench-chat: ## the support chat: 1,000 visitor conversations with their sockets open, every one answered over HTTP; delivery latency (CONVERSATIONS, OPERATORS, CONCURRENCY)
	$(CARGO) run -q --release -p backend --example chat_load
bench-earn: ## the earn daily accrual of POSITIONS (default 1,000,000) open positions, a second run of the same day, subscribing against a plain transfer (DATABASE_URL for PostgreSQL)
	$(CARGO) run -q --release -p backend --example earn_accrual_bench

bench-logins: backend-release ## 300 concurrent logins against a fresh release server: time and peak memory
	python3 scripts/bench-logins.py --binary target/release/backend

bench-stream: webapp backend-release e2e-deps ## the trade pages streaming for 60 s in Chromium: long tasks, main-thread time, DOM commits per frame (STREAM_SECS, PROFILE=dir)
	cd e2e && node bench/stream.mjs

# npm ci only when package-lock.json changed since the last install.
webapp-deps: webapp/node_modules/.installed
webapp/node_modules/.installed: webapp/package-lock.json
	cd webapp && $(NPM_CI)
	touch $@

bench-deps: bench/node_modules/.installed
bench/node_modules/.installed: bench/package-lock.json
	cd bench && $(NPM_CI)
	touch $@

e2e-deps: e2e/node_modules/.installed
e2e/node_modules/.installed: e2e/package-lock.json
	cd e2e && $(NPM_CI)
	touch $@

api: webapp-deps ## generate the typed API client (orval) from openapi/openapi.json
	cd webapp && npm run generate

webapp: wasm api ## build the webapp into webapp/dist (type-checked by test-webapp, not here)
	cd webapp && npm run build

backend-release:
	$(CARGO) build --release -p backend

# The debug server of the e2e and schema tests, built the way the HTTP tests build it: `cargo test`
# turns on the client features their dev-dependencies (reqwest) ask of hyper, which `cargo build`
# would leave off, and so compile poem and the whole backend a second time. This way one
# compilation serves the tests and target/debug/backend alike.
backend-debug:
	$(CARGO) test -p backend --no-run --test api

openapi: ## rewrite openapi/openapi.json from the code
	$(CARGO) run -q -p backend -- export-openapi

lint-rust: ## rustfmt check, clippy and rustdoc (broken or private links) with warnings denied
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	RUSTDOCFLAGS="-D warnings" $(CARGO) doc --workspace --no-deps

test-rust: ## Rust unit, vector and HTTP tests (SQLite), including the openapi freshness check (the cluster tests: test-cluster; the benchmark tools are checked by clippy, not linked here)
	$(CARGO) test --workspace --lib --bins --tests -- --skip cluster::

test-wasm: wasm ## wasm-core's JSON vectors against the wasm build
	node --test wasm-core/tests/

test-webapp: wasm api ## webapp typecheck, lint and vitest
	cd webapp && npm run typecheck && npm run lint && npm test

test-e2e: webapp backend-debug e2e-deps ## Playwright e2e in Chromium against a server it starts itself
	cd e2e && npx playwright test

test-schema: ## schemathesis over openapi/openapi.json (all phases, without and with a session, ~3 min): 0 server errors, 0 schema violations, a clean ledger audit
	bash scripts/schema-test.sh

# Four test threads on two cores: the tests spend much of their time waiting for the PostgreSQL
# server (441 s with two threads, 309 s with four).
test-postgres: ## the HTTP tests again on PostgreSQL (installed and started when missing; the cluster tests: test-cluster)
	bash scripts/test-postgres.sh -- --skip cluster:: --test-threads=4

test-cluster: ## cluster mode: three instances on PostgreSQL and NATS (both installed when missing), one simulator, failover, leases, spot pair owners (kill -9)
	bash scripts/test-cluster.sh

.PHONY: cluster
cluster: bootstrap wasm webapp backend-release ## three instances on loopback (8081-8083) over NATS and the local PostgreSQL (Ctrl-C stops them)
	bash scripts/cluster.sh

screenshots: webapp backend-debug e2e-deps ## screenshots of the screens (light, dark, German) into docs/screenshots
	cd e2e && SCREENSHOTS=1 npx playwright test screenshots

clean: ## remove build outputs (not the database in ./data)
	rm -rf target webapp/dist webapp/src/api/generated wasm-core/pkg wasm-core/pkg-node wasm-core/pkg-earn-loan wasm-core/pkg-earn-loan-node
