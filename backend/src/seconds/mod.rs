//! Seconds (flash) contracts: short up/down calls on a pair's price with a fixed period, settled
//! at expiry from the pair's stored tick series by a published deterministic rule (`settle.rs`:
//! the pure rule, the tick lookups and the replay of every settlement). `service.rs` checks and
//! accepts an order (stake funding → seconds book, one entry with the row); `engine.rs` is the
//! single-writer settlement task, rebuilt from the open orders at start; `views.rs` the order
//! shape of the HTTP answers and the user channel; `api.rs` the HTTP calls. Operators switch the
//! product off with `[seconds] enabled = false`.

pub mod api;
pub mod engine;
pub mod service;
pub mod settle;
pub mod views;

pub use engine::SecondsEngine;
