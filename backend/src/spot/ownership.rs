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
//!   another instance takes the pair over, within [`LEASE_MS`] and a look; a stopping one
//!   releases its leases, so the others take its pairs at their next look.
//!
//! Spreading ([`Spread`]): every instance announces itself ([`Presence`], a key per instance in
//! a JetStream bucket with a TTL) and so knows the live instance count N; it owns at most its
//! share, ceil(pairs / N), and tries free pairs only below it. When it owns more (an instance
//! joined), it lets the surplus go gracefully: the engine stops (what is queued is answered), the
//! subscriptions go, and the lease is released ([`NatsLease::release`]) so an instance below its
//! share takes the pair at its next look; the fence keeps the old engine from writing after
//! that. Among instances below their share, one waits [`TRY_LATER_PER_PAIR`] per pair it owns
//! before trying a free pair, so the one owning the fewest usually wins; one that takes more than
//! its share in a race (several instances below it taking over a dead one's pairs) lets the
//! surplus go as above. A dead instance leaves
//! the count ([`crate::cluster::presence::PRESENCE_TTL`]) before its leases expire, so the
//! others' shares grow in time to take its pairs over within the bound above.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::{mpsc, oneshot, watch};
use tokio::task::JoinHandle;

use super::engine::Command;
use super::forward::{self, Reply, WireCommand, WireQuote};
use super::registry::{SpotRegistry, busy};
use crate::cluster::forward::serve;
use crate::cluster::{Bus, Fence, NatsLease, Presence, fence};
use crate::lease::Lease;

/// How much later an instance below its share tries a free pair, per pair it owns already.
pub const TRY_LATER_PER_PAIR: Duration = Duration::from_millis(100);

/// How long a pair's lease lasts from each renewal: how long a dead owner's pair stays without an
/// engine, at most.
pub const LEASE_MS: i64 = crate::cluster::forward::MARKET_LEASE_MS;

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
    /// Ends the answering of forwarded commands (see [`serve`]).
    stop_serving: oneshot::Sender<()>,
    /// Hands the simulator's quotes to the engine.
    quoting: JoinHandle<()>,
}

/// This instance's share of the spot pairs (see the module): the pairs listed, the live
/// instances and the pairs this instance owns or is taking.
pub struct Spread {
    presence: Arc<Presence>,
    /// The pairs listed (each runs [`run`]).
    pairs: AtomicUsize,
    /// The pairs this instance owns or is trying to take.
    held: Held,
}

impl Spread {
    /// The spread of this instance on `bus`, announcing it until `shutdown`.
    pub fn start(bus: Arc<Bus>, shutdown: watch::Receiver<bool>) -> Arc<Self> {
        let presence = Arc::new(Presence::new(bus));
        tokio::spawn(presence.clone().run(shutdown));
        Arc::new(Self {
            presence,
            pairs: AtomicUsize::new(0),
            held: Held::default(),
        })
    }

    /// The most pairs this instance should own now (none before it counted the instances: it
    /// does so as it starts).
    fn share(&self) -> usize {
        self.presence
            .live()
            .map_or(0, |live| share_of(self.pairs.load(Ordering::SeqCst), live))
    }
}

/// The pairs an instance owns, counted against its share.
#[derive(Default)]
struct Held(AtomicUsize);

impl Held {
    fn count(&self) -> usize {
        self.0.load(Ordering::SeqCst)
    }

    /// Counts a pair taken.
    fn add(&self) {
        self.0.fetch_add(1, Ordering::SeqCst);
    }

    /// Counts a pair let go or lost.
    fn remove(&self) {
        let _ = self
            .0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |held| {
                held.checked_sub(1)
            });
    }

    /// Counts one pair fewer when this instance holds more than `share`: `true` tells the caller
    /// to let its pair go (one caller per surplus pair).
    fn leave_surplus(&self, share: usize) -> bool {
        self.0
            .fetch_update(Ordering::SeqCst, Ordering::SeqCst, |held| {
                (held > share).then(|| held - 1)
            })
            .is_ok()
    }
}

/// ceil(`pairs` / `live`): one instance's share of the pairs.
fn share_of(pairs: usize, live: usize) -> usize {
    pairs.div_ceil(live.max(1))
}

/// Owns `symbol` whenever this instance holds its lease (see the module), within its share of
/// `spread`, until `shutdown`.
pub async fn run(
    registry: Arc<SpotRegistry>,
    bus: Arc<Bus>,
    spread: Arc<Spread>,
    symbol: String,
    mut shutdown: watch::Receiver<bool>,
) {
    spread.pairs.fetch_add(1, Ordering::SeqCst);
    let lease = NatsLease::new(bus.clone(), lease_name(&symbol), LEASE_MS);
    let renew_every = Duration::from_millis((LEASE_MS / 4) as u64);
    let look_every = Duration::from_millis((LEASE_MS / 12) as u64);
    let mut owned: Option<Owned> = None;
    loop {
        let share = spread.share();
        if owned.is_some() && spread.held.leave_surplus(share) {
            if let Some(leaving) = owned.take() {
                tracing::info!(%symbol, share, "this instance hands the spot pair over");
                give_up(&registry, &symbol, leaving);
                if let Err(error) = lease.release().await {
                    // It expires instead, within LEASE_MS.
                    tracing::warn!(%error, %symbol, "releasing the spot pair's lease");
                }
            }
        } else if owned.is_some() || spread.held.count() < share {
            if owned.is_none() {
                // Spreading (see the module): the less an instance owns, the sooner it tries.
                let wait = TRY_LATER_PER_PAIR * registry.owned_pairs() as u32;
                tokio::select! {
                    _ = tokio::time::sleep(wait) => {}
                    _ = shutdown.changed() => break,
                }
            }
            let had = owned.is_some();
            owned = look(&registry, &bus, &lease, &symbol, owned.take()).await;
            match (had, owned.is_some()) {
                (false, true) => spread.held.add(),
                (true, false) => spread.held.remove(),
                _ => {}
            }
        }
        tokio::select! {
            _ = tokio::time::sleep(if owned.is_some() { renew_every } else { look_every }) => {}
            _ = shutdown.changed() => break,
        }
    }
    if let Some(owned) = owned {
        give_up(&registry, &symbol, owned);
        spread.held.remove();
        // A stopping instance hands its pairs over at once rather than after the lease's TTL.
        if let Err(error) = lease.release().await {
            tracing::warn!(%error, %symbol, "releasing the spot pair's lease at shutdown");
        }
    }
    spread.pairs.fetch_sub(1, Ordering::SeqCst);
}

/// One look at `symbol`'s lease: renews or takes it, and answers what this instance owns of the
/// pair afterwards (`owned` before).
async fn look(
    registry: &Arc<SpotRegistry>,
    bus: &Bus,
    lease: &NatsLease,
    symbol: &str,
    owned: Option<Owned>,
) -> Option<Owned> {
    let held = lease.acquire().await.unwrap_or_else(|error| {
        tracing::warn!(%error, %symbol, "spot pair lease");
        false
    });
    match (held, owned) {
        (true, Some(still)) if !still.fence.is_lost() => Some(still),
        (true, lost) => {
            if let Some(lost) = lost {
                give_up(registry, symbol, lost);
            }
            match take(registry, bus, symbol).await {
                Ok(taken) => Some(taken),
                Err(error) => {
                    tracing::error!(%error, %symbol, "taking the spot pair failed");
                    None
                }
            }
        }
        (false, Some(lost)) => {
            tracing::warn!(%symbol, "this instance lost the spot pair's lease");
            give_up(registry, symbol, lost);
            None
        }
        (false, None) => None,
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
    let (stop_serving, stop) = oneshot::channel();
    tokio::spawn(serve(
        bus.client().clone(),
        commands,
        {
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
        },
        stop,
    ));
    let quoting = tokio::spawn(forward_quotes(quotes, sender));
    Ok(Owned {
        fence,
        stop_serving,
        quoting,
    })
}

/// Stops owning `symbol`: no engine, no subscriptions (the commands already on their way are
/// answered "not the owner").
fn give_up(registry: &SpotRegistry, symbol: &str, owned: Owned) {
    owned.fence.lose();
    registry.uninstall(symbol);
    let _ = owned.stop_serving.send(());
    owned.quoting.abort();
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_share_is_the_pairs_over_the_live_instances_rounded_up() {
        assert_eq!(share_of(12, 1), 12);
        assert_eq!(share_of(12, 3), 4);
        assert_eq!(share_of(12, 5), 3);
        assert_eq!(share_of(2, 3), 1);
        assert_eq!(share_of(12, 0), 12, "never fewer than one instance");
    }

    #[test]
    fn only_the_surplus_over_the_share_is_let_go() {
        let held = Held::default();
        for _ in 0..3 {
            held.add();
        }
        // More instances: the share falls from 3 to 1; two pairs go, whoever asks first.
        assert!(held.leave_surplus(1));
        assert!(held.leave_surplus(1));
        assert!(!held.leave_surplus(1), "at its share");
        assert_eq!(held.count(), 1);
        held.remove();
        held.remove();
        assert_eq!(held.count(), 0, "never below none");
    }
}
