//! USDT-M perpetual futures (`usta`): one-way positions per symbol, isolated and cross margin,
//! market and limit orders, reduce-only and close-position, take-profit/stop-loss and stop orders
//! triggered by the mark price, margin adjustment, liquidation and funding.
//!
//! - A pure core without IO: [`position`] (a position and what fills do to it, its liquidation price
//!   and figures from wasm-core), [`index`] (the price-trigger index a mark tick queries instead of
//!   scanning every position), [`settle`] (the journal entries), [`funding`] (rate and payments).
//! - Around it, [`engine`]: one single-writer tokio task per symbol that owns the symbol's state,
//!   persists every change in the transaction of its journal entries and rebuilds from the database
//!   at start; [`registry`] finds a symbol's engine; [`service`] the rules of the calls; [`api`] the
//!   HTTP; [`views`] the shapes HTTP and the user channel share.
//! - In cluster mode one instance runs every engine ([`ownership`]: one owner, because cross
//!   margin couples a user's symbols) and the others send it their commands ([`forward`]).

pub mod api;
pub mod engine;
pub mod forward;
pub mod funding;
pub mod index;
pub mod ownership;
pub mod position;
pub mod registry;
pub mod service;
pub mod settle;
pub mod views;

pub use registry::FuturesRegistry;
