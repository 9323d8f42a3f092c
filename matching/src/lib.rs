//! matching: the spot matching engine. One [`Book`] per symbol, in memory and single-threaded (the
//! backend owns one per symbol in one task and persists what it reports). Pure: no IO, no async, no
//! clock, no randomness, and integers only — prices in ticks (`u64`), quantities in lots (`u64`),
//! quote funds in notional units (`u128`, ticks × lots); the backend converts decimals to these
//! units and back.
//!
//! - [`types`]: the orders the backend submits ([`OrderRequest`], [`StopRequest`]) and what the book
//!   reports ([`Event`], [`RestingOrder`]).
//! - [`Book`]: price-time priority at the maker's price, self-trade prevention by cancelling the
//!   maker, GTC/IOC/FOK, post-only, market orders by quantity or by funds, stop-limit orders and
//!   their cascades, and the read side (best prices, depth, cost to take, resting orders).
//!
//! ```
//! use matching::{Book, Event, OrderRequest, Side};
//!
//! let mut book = Book::new();
//! let mut events = Vec::new();
//! book.place(OrderRequest::limit(1, 7, Side::Sell, 100, 5), &mut events);
//! book.place(OrderRequest::market(2, 8, Side::Buy, 3), &mut events);
//! assert_eq!(events[1], Event::Fill {
//!     taker: 2, taker_owner: 8, maker: 1, maker_owner: 7, taker_side: Side::Buy,
//!     price: 100, quantity: 3, maker_remaining: 2,
//! });
//! assert_eq!(events[2], Event::Filled { id: 2 });
//! assert_eq!(book.depth(10), (vec![], vec![(100, 2)]));
//! ```

mod arena;
mod book;
mod ladder;
mod stops;
pub mod types;

pub use book::Book;
pub use types::{
    CancelReason, DepthLevels, Event, OrderId, OrderKind, OrderRequest, OwnerId, RejectReason,
    RestingOrder, Side, StopCondition, StopRequest, TimeInForce,
};
