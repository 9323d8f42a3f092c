//! The Kestrel Exchange backend: the HTTP API of the product specification (poem + poem-openapi),
//! the live channels, the built-in market simulator, over sea-orm (SQLite by default, PostgreSQL by
//! `DATABASE_URL`). Numbers are computed with the same `wasm-core` functions the webapp runs.
//!
//! Layout: `app` is the composition root (it builds and starts the server and hands each handler
//! the dependencies it uses); `config` reads the configuration; `db` opens the database; `entity`
//! holds the tables; `http` the envelope, middleware and the one mapping of a [`refusal::Refusal`]
//! to an HTTP status; `refusal` why a call was refused, with no HTTP in it; `number` the strict
//! reading of numbers users type; `paging` the bounds of every list; `clock` the time; `cluster` the
//! NATS connection and leases of cluster mode; `lease` the
//! leases that keep a periodic job on one instance; `i18n` the languages and messages; `notify` the
//! security and money e-mails. Each domain folder (`user`, `security`, `kyc`, `admin`, `funds`,
//! `market`, `spot`, `futures`, `seconds`, `common`, `content`, `earn`, `loans`) has its handlers
//! (`api.rs`, `*_api.rs`: HTTP only) beside its rules, engines and stores (no HTTP); docs/architecture.md has
//! the module map and the rules `tests/api/layering.rs` holds.

pub mod admin;
pub mod app;
pub mod clock;
pub mod cluster;
pub mod common;
pub mod config;
pub mod content;
pub mod db;
pub mod earn;
pub mod entity;
pub mod funds;
pub mod futures;
pub mod http;
pub mod i18n;
pub mod kyc;
pub mod lease;
pub mod loans;
pub mod market;
pub mod merchants;
pub mod notify;
pub mod number;
pub mod paging;
pub mod referral;
pub mod refusal;
pub mod seconds;
pub mod security;
pub mod spot;
pub mod support;
pub mod tiers;
pub mod user;
pub mod wallet;
