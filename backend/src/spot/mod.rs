//! Spot trading: one single-writer engine task per pair ([`engine`]) around the `matching`
//! order book, found by symbol in the [`registry`]; orders hold their funds, fills settle
//! base, quote and fees through the ledger (`settle.rs`) in the transaction that records them;
//! a house market maker quotes a ladder around the simulated price; `api.rs` is the HTTP of spec
//! section 7's `currency/order/*` calls. In cluster mode each pair has one owner instance
//! (`ownership.rs`) and the others forward its orders and cancellations to it (`forward.rs`).

pub mod api;
pub mod engine;
pub mod forward;
pub mod ownership;
pub mod registry;
pub mod rules;
pub mod service;
pub mod settle;
pub mod views;

pub use registry::SpotRegistry;
