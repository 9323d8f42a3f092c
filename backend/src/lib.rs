//! The Kestrel Exchange backend: the HTTP API of the product specification (poem + poem-openapi),
//! the live channels, the built-in market simulator, over sea-orm (SQLite by default, PostgreSQL by
//! `DATABASE_URL`). Numbers are computed with the same `wasm-core` functions the webapp runs.
//!
//! Layout: `app` builds and starts the server; `config` reads the configuration; `db` opens the
//! database; `http` holds the envelope and middleware every call shares; `i18n` the languages and
//! messages; each domain folder (`common`, `market`, `user`) has its `api` (HTTP only) and its rules.

pub mod admin;
pub mod app;
pub mod clock;
pub mod common;
pub mod config;
pub mod db;
pub mod entity;
pub mod funds;
pub mod futures;
pub mod http;
pub mod i18n;
pub mod kyc;
pub mod market;
pub mod refusal;
pub mod seconds;
pub mod security;
pub mod spot;
pub mod user;
