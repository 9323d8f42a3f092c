//! Which instance runs a spot pair's engine in cluster mode. Every instance runs [`run`] for every
//! pair; the one holding the pair's lease ([`lease_name`], a [`NatsLease`] of [`LEASE_MS`]) owns it:
//!
//! - on taking the lease it raises the pair's fencing token ([`fence::take`]), starts the engine —
//!   which rebuilds the book from the stored open orders, exactly as at a server's start — under
//!   that token, and subscribes to the pair's command subject (forwarded orders and cancellations,
//!   in a queue group) and quote subject (the simulator's moves for the house market maker);
//! - it renews the lease every [`LEASE_MS`]/4; when a renewal fails it stops serving the pair at
//!   once (the engine ends, the subscriptions go), and should its engine still try a batch, the
//!   token check refuses it;
//! - a dead owner stops renewing: its lease expires on the NATS server's clock and the next look of
//!   another instance takes the pair over, within [`LEASE_MS`] and a look.
//!
//! Spreading: any free lease is taken (no quota), but an instance waits before trying a free pair
//! a quarter of a second for every pair it owns already, so where instances race (started together,
//! or taking over a dead owner's pairs) the one owning the fewest pairs usually wins. Nothing
//! rebalances a running cluster: instances started one after another leave the pairs with the
//! first.

use std::sync::Arc;
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::{mpsc, watch};
use tokio::task::JoinHandle;

use super::engine::Command;
use super::forward::{self, Reply, WireCommand, WireQuote};
use super::registry::{SpotRegistry, busy};
use crate::cluster::forward::serve;
use crate::cluster::{Bus, Fence, NatsLease, fence};
use crate::lease::Lease;

/// How long a pair's lease lasts from each renewal: how long a dead owner's pair stays without an
/// engine, at most.
pub const LEASE_MS: i64 = 3_000;

/// The lease of `symbol`'s spot engine.
pub fn lease_name(symbol: &str) -> String {
    format!("spot_{symbol}")
}

/// The name of `symbol`'s row in `market_owner`.
pub fn market_name(symbol: &str) -> String {
    format!("spot:{symbol}")
}

/// What an instance runs while it owns a pair.
struct Owned {
    fence: Arc<Fence>,
    tasks: Vec<JoinHandle<()>>,
}

/// Owns `symbol` whenever this instance holds its lease (see the module), until `shutdown`.
pub async fn run(
    registry: Arc<SpotRegistry>,
    bus: Arc<Bus>,
    symbol: String,
    mut shutdown: watch::Receiver<bool>,
) {
    let lease = NatsLease::new(bus.clone(), lease_name(&symbol), LEASE_MS);
    let look_every = Duration::from_millis((LEASE_MS / 4) as u64);
    let mut owned: Option<Owned> = None;
    loop {
        if owned.is_none() {
            // Spreading (see the module): the less an instance owns, the sooner it tries.
            let wait = Duration::from_millis(250 * registry.owned_pairs() as u64);
            tokio::select! {
                _ = tokio::time::sleep(wait) => {}
                _ = shutdown.changed() => break,
            }
        }
        let held = lease.acquire().await.unwrap_or_else(|error| {
            tracing::warn!(%error, %symbol, "spot pair lease");
            false
        });
        owned = match (held, owned.take()) {
            (true, Some(still)) if !still.fence.is_lost() => Some(still),
            (true, lost) => {
                if let Some(lost) = lost {
                    give_up(&registry, &symbol, lost);
                }
                match take(&registry, &bus, &symbol).await {
                    Ok(taken) => Some(taken),
                    Err(error) => {
                        tracing::error!(%error, %symbol, "taking the spot pair failed");
                        None
                    }
                }
            }
            (false, Some(lost)) => {
                tracing::warn!(%symbol, "this instance lost the spot pair's lease");
                give_up(&registry, &symbol, lost);
                None
            }
            (false, None) => None,
        };
        tokio::select! {
            _ = tokio::time::sleep(look_every) => {}
            _ = shutdown.changed() => break,
        }
    }
    if let Some(owned) = owned {
        give_up(&registry, &symbol, owned);
    }
}

/// Takes `symbol`: a new fencing token, the engine under it, the subscriptions.
async fn take(registry: &Arc<SpotRegistry>, bus: &Bus, symbol: &str) -> Result<Owned, String> {
    let fence = Arc::new(
        fence::take(registry.pool(), &market_name(symbol), bus.holder())
            .await
            .map_err(|e| e.to_string())?,
    );
    let commands = bus
        .client()
        .queue_subscribe(forward::command_subject(symbol), "owner".to_owned())
        .await
        .map_err(|e| e.to_string())?;
    let quotes = bus
        .client()
        .subscribe(forward::quote_subject(symbol))
        .await
        .map_err(|e| e.to_string())?;
    let Some(sender) = registry.install(symbol, fence.clone()) else {
        return Err("the pair is not listed".into());
    };
    tracing::info!(%symbol, token = fence.token(), "this instance owns the spot pair");
    let tasks = vec![
        tokio::spawn(serve(bus.client().clone(), commands, {
            let (sender, fence) = (sender.clone(), fence.clone());
            move |command: Result<WireCommand, serde_json::Error>| {
                let (sender, fence) = (sender.clone(), fence.clone());
                async move {
                    match command {
                        Err(error) => Reply::of(Err(crate::refusal::Refusal::internal(error))),
                        Ok(command) => answer(&sender, &fence, command).await,
                    }
                }
            }
        })),
        tokio::spawn(forward_quotes(quotes, sender)),
    ];
    Ok(Owned { fence, tasks })
}

/// Stops owning `symbol`: no engine, no subscriptions.
fn give_up(registry: &SpotRegistry, symbol: &str, owned: Owned) {
    owned.fence.lose();
    registry.uninstall(symbol);
    for task in owned.tasks {
        task.abort();
    }
}

/// The engine's answer to a forwarded `command`, or [`Reply::NotOwner`] when this instance lost
/// the pair before it was done (nothing of it was stored).
async fn answer(sender: &mpsc::Sender<Command>, fence: &Fence, command: WireCommand) -> Reply {
    if fence.is_lost() {
        return Reply::NotOwner;
    }
    let (command, pending) = command.into_command();
    match sender.try_send(command) {
        Err(mpsc::error::TrySendError::Closed(_)) => Reply::NotOwner,
        Err(mpsc::error::TrySendError::Full(_)) => Reply::of(Err(busy())),
        Ok(()) => {
            let answer = pending.answer().await;
            if answer.is_err() && fence.is_lost() {
                Reply::NotOwner
            } else {
                Reply::of(answer)
            }
        }
    }
}

/// Hands the simulator's quotes of the pair to its engine (a full queue skips one: the next
/// replaces it).
async fn forward_quotes(mut quotes: async_nats::Subscriber, sender: mpsc::Sender<Command>) {
    while let Some(message) = quotes.next().await {
        if let Ok(quote) = serde_json::from_slice::<WireQuote>(&message.payload) {
            let _ = sender.try_send(quote.into_command());
        }
    }
}
