//! Which instance runs the futures engines in cluster mode: one instance runs all of them, the
//! holder of the lease [`LEASE`] (a [`NatsLease`] of [`LEASE_MS`]). Every instance runs [`run`]:
//!
//! - on taking the lease it raises the fencing token of [`MARKET`] ([`fence::take`]), starts every
//!   symbol's engine — each rebuilds its positions, orders, stop orders, settings and the cross
//!   figures from the database, exactly as at a server's start — under that token, and subscribes
//!   to the command subject ([`forward::SUBJECT`]) in the queue group `owner`;
//! - it renews the lease every [`LEASE_MS`]/4; when a renewal fails it stops the engines at once
//!   (their funding, triggers and liquidations with them) and drops the subscription; should an
//!   engine still try a transaction, the token check in it ([`fence::still_holds_shared`]) rolls it
//!   back;
//! - a dead owner stops renewing: its lease expires on the NATS server's clock and the next look
//!   of another instance (every [`LEASE_MS`]/12: a takeover stops every symbol's trading, so the
//!   others look more often than the owner renews) takes the engines over, within [`LEASE_MS`], a
//!   look and the rebuild (the symbols' engines rebuilt together).
//!
//! One owner for every symbol, not one per symbol as spot pairs have: cross margin couples a user's
//! symbols (a cross position's liquidation price and the wallet's available balance count the
//! user's other cross positions), so the cross figures live with the one owner and no instance
//! keeps a truth of its own. The price: futures throughput is bounded by one instance; should it
//! not be enough, symbols could be sharded by account group later.

use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{oneshot, watch};

use super::forward::{self, Reply, WireCommand};
use super::registry::FuturesRegistry;
use crate::cluster::forward::serve;
use crate::cluster::{Bus, Fence, NatsLease, fence};
use crate::lease::Lease;
use crate::refusal::Refusal;

/// The lease of the futures engines.
pub const LEASE: &str = "futures_engines";
/// How long the lease lasts from each renewal: how long a dead owner's engines stay without an
/// owner, at most.
pub const LEASE_MS: i64 = crate::cluster::forward::MARKET_LEASE_MS;
/// The name of the engines' row in `market_owner` (one token for every symbol).
pub const MARKET: &str = "futures";

/// What an instance runs while it owns the engines (the engines are in the registry).
struct Owned {
    fence: Arc<Fence>,
    /// Ends the answering of forwarded commands (see [`serve`]).
    stop_serving: oneshot::Sender<()>,
}

/// Owns the futures engines whenever this instance holds their lease (see the module), until
/// `shutdown`.
pub async fn run(
    registry: Arc<FuturesRegistry>,
    bus: Arc<Bus>,
    mut shutdown: watch::Receiver<bool>,
) {
    let lease = NatsLease::new(bus.clone(), LEASE, LEASE_MS);
    let renew_every = Duration::from_millis((LEASE_MS / 4) as u64);
    let look_every = Duration::from_millis((LEASE_MS / 12) as u64);
    let mut owned: Option<Owned> = None;
    loop {
        let held = lease.acquire().await.unwrap_or_else(|error| {
            tracing::warn!(%error, "futures engines lease");
            false
        });
        owned = match (held, owned.take()) {
            (true, Some(still)) if !still.fence.is_lost() => Some(still),
            (true, lost) => {
                if let Some(lost) = lost {
                    give_up(&registry, lost);
                }
                match take(&registry, &bus).await {
                    Ok(taken) => Some(taken),
                    Err(error) => {
                        tracing::error!(%error, "taking the futures engines failed");
                        registry.uninstall();
                        None
                    }
                }
            }
            (false, Some(lost)) => {
                tracing::warn!("this instance lost the futures engines' lease");
                give_up(&registry, lost);
                None
            }
            (false, None) => None,
        };
        let pause = if owned.is_some() {
            renew_every
        } else {
            look_every
        };
        tokio::select! {
            _ = tokio::time::sleep(pause) => {}
            _ = shutdown.changed() => break,
        }
    }
    if let Some(owned) = owned {
        give_up(&registry, owned);
    }
}

/// Takes the engines: a new fencing token, the engines under it, the subscription.
async fn take(registry: &Arc<FuturesRegistry>, bus: &Bus) -> Result<Owned, String> {
    let started = std::time::Instant::now();
    let fence = Arc::new(
        fence::take(registry.db(), MARKET, bus.holder())
            .await
            .map_err(|e| e.to_string())?,
    );
    registry
        .install(fence.clone())
        .await
        .map_err(|e| e.to_string())?;
    let requests = bus
        .client()
        .queue_subscribe(forward::SUBJECT, "owner".to_owned())
        .await
        .map_err(|e| e.to_string())?;
    tracing::info!(
        token = fence.token(),
        rebuilt_ms = started.elapsed().as_millis() as u64,
        "this instance owns the futures engines"
    );
    let answering = registry.clone();
    let (stop_serving, stop) = oneshot::channel();
    tokio::spawn(serve(
        bus.client().clone(),
        requests,
        move |command: Result<WireCommand, serde_json::Error>| {
            let registry = answering.clone();
            async move {
                match command {
                    Ok(command) => registry.answer_here(command).await,
                    Err(error) => Reply::of(Err(Refusal::internal(error))),
                }
            }
        },
        stop,
    ));
    Ok(Owned {
        fence,
        stop_serving,
    })
}

/// Stops owning the engines: none runs here, no subscription (the commands already on their way
/// are answered "not the owner").
fn give_up(registry: &FuturesRegistry, owned: Owned) {
    owned.fence.lose();
    registry.uninstall();
    let _ = owned.stop_serving.send(());
}
