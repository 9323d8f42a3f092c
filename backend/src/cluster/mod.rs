//! Cluster mode: several instances over one PostgreSQL database and one NATS server with
//! JetStream (on when `[cluster] nats_url` / `EXCHANGE_NATS_URL` is set). `bus.rs` is the
//! connection (client, JetStream context, this instance's name); `lease.rs` the [`NatsLease`]
//! (a JetStream key-value entry per job) that gives every singleton — the market simulator, the
//! seconds settlement, futures funding rounds and each periodic job — exactly one owner at a time;
//! `presence.rs` the [`Presence`] of each live instance (a key with a TTL), whose count spreads
//! the spot pairs over the instances.
//!
//! Markets: `fence.rs` keeps a stale owner of a market from writing (a `market_owner` token that
//! every batch checks in its transaction), `wire.rs` is what instances send each other for a
//! market's commands; the spot pairs' owners, their spreading and forwarding are
//! `crate::spot::ownership` and `crate::spot::forward`. `fanout.rs` is the [`Fanout`] of the live
//! channels (market — books as diffs, whole now and then and on request —, user, notice) and of
//! the session revocation signal: local in one process, through NATS subjects `kestrel.live.…` in
//! a cluster; `counters.rs` the [`NatsCounts`] the rate limits are shared in (failures, codes
//! sent, support chat messages).
//!
//! What is not distributed yet (docs/operations.md, "Cluster mode"): the futures symbols'
//! ownership with command forwarding and the cross-margin registry.

pub mod bus;
pub mod fence;
pub mod lease;
pub mod wire;

pub use bus::{Bus, BusError};
pub use fence::Fence;
pub use lease::NatsLease;

pub mod fanout;
pub use fanout::Fanout;

pub mod counters;
pub use counters::NatsCounts;

pub mod presence;
pub use presence::Presence;
