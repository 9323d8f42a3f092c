//! Spot trading: one single-writer market task per pair (`market.rs`) around the `matching`
//! engine, found by symbol in the exchange (`exchange.rs`); orders hold their funds, fills settle
//! base, quote and fees through the ledger (`settle.rs`) in the transaction that records them;
//! a house market maker quotes a ladder around the simulated price; `api.rs` is the HTTP of spec
//! section 7's `currency/order/*` calls.

pub mod api;
pub mod exchange;
pub mod market;
pub mod rules;
pub mod service;
pub mod settle;
pub mod views;

pub use exchange::SpotExchange;
