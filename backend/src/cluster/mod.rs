//! Cluster mode: several instances over one PostgreSQL database and one NATS server with
//! JetStream (on when `[cluster] nats_url` / `EXCHANGE_NATS_URL` is set). `bus.rs` is the
//! connection (client, JetStream context, this instance's name); `lease.rs` the [`NatsLease`]
//! (a JetStream key-value entry per job) that gives every singleton — the market simulator, the
//! seconds settlement, each periodic job, each spot pair and the futures engines — exactly one
//! owner at a time; `presence.rs` the [`Presence`] of each live instance (a key with a TTL), whose
//! count spreads the spot pairs over the instances; `liveness.rs` what an instance knows of the
//! others — who holds each market's lease, which instances are alive — so that a command forwarded
//! to an owner that died stops waiting as soon as its death is known.
//!
//! Markets: `fence.rs` keeps a stale owner of a market from writing (a `market_owner` token that
//! every batch checks in its transaction), `wire.rs` is what instances send each other for a
//! market's commands and `forward.rs` the request to a market's owner, its answering and the retry
//! rule they share; the spot pairs' owners, their spreading and forwarding are
//! `crate::spot::ownership` and `crate::spot::forward`, the futures engines' (one owner for every
//! symbol, because cross margin couples a user's symbols) `crate::futures::ownership` and
//! `crate::futures::forward`. `fanout.rs` is the [`Fanout`] of the live channels (market — books
//! as diffs, whole now and then and on request —, user, notice) and of the session revocation
//! signal: local in one process, through NATS subjects `kestrel.live.…` in a cluster;
//! `counters.rs` the [`NatsCounts`] the rate limits are shared in (failures, codes sent, support
//! chat messages).

pub mod bus;
pub mod fence;
pub mod forward;
pub mod lease;
pub mod liveness;
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
