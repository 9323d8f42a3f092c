//! [`Presence`]: which instances of the cluster are alive, for sharing work out among them. Each
//! instance keeps an entry in the JetStream key-value bucket `kestrel_instances` (key: its holder
//! name, [`super::Bus::holder`]; `max_age` [`PRESENCE_TTL`]), rewritten every [`ANNOUNCE_EVERY`]
//! and deleted when it stops; after each rewrite it counts the entries. An instance that dies
//! stops rewriting its entry and the NATS server drops it within [`PRESENCE_TTL`] (the server's
//! clock, never the instances'), so the count follows joins at once and deaths within
//! [`PRESENCE_TTL`] and an announcement.
//!
//! The count only spreads work: it never decides who owns anything (leases and fences do), so a
//! count briefly wrong (a paused instance dropped and back) shifts the shares for a moment and
//! nothing else.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use async_nats::jetstream::kv;
use futures_util::TryStreamExt;
use tokio::sync::{OnceCell, watch};

use super::Bus;

/// The bucket's name.
const BUCKET: &str = "kestrel_instances";
/// How long an instance's entry lives unless rewritten: shorter than a spot pair's lease, so a
/// dead instance leaves the count before its pairs' leases expire.
pub const PRESENCE_TTL: Duration = Duration::from_secs(2);
/// How often an instance rewrites its entry and counts the others.
pub const ANNOUNCE_EVERY: Duration = Duration::from_millis(500);

/// This instance's presence and its count of the live instances (see the module).
pub struct Presence {
    bus: Arc<Bus>,
    store: OnceCell<kv::Store>,
    /// The live instances at the last count, this one included (0 before the first count).
    live: AtomicUsize,
}

impl Presence {
    /// This instance's presence on `bus`, not announced yet ([`run`](Self::run) announces it).
    pub fn new(bus: Arc<Bus>) -> Self {
        Self {
            bus,
            store: OnceCell::new(),
            live: AtomicUsize::new(0),
        }
    }

    /// The live instances at the last count, this one included; `None` before the first count.
    pub fn live(&self) -> Option<usize> {
        Some(self.live.load(Ordering::SeqCst)).filter(|&live| live > 0)
    }

    /// Announces this instance every [`ANNOUNCE_EVERY`] and counts the live ones, until
    /// `shutdown`; then withdraws the announcement, so the others count one fewer at once.
    pub async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        loop {
            match self.announce().await {
                Ok(live) => self.live.store(live, Ordering::SeqCst),
                Err(error) => tracing::warn!(%error, "instance presence"),
            }
            tokio::select! {
                _ = tokio::time::sleep(ANNOUNCE_EVERY) => {}
                _ = shutdown.changed() => break,
            }
        }
        if let Ok(store) = self.store().await
            && let Err(error) = store.delete(self.key()).await
        {
            tracing::warn!(%error, "instance presence not withdrawn");
        }
    }

    /// Rewrites this instance's entry and counts the entries (this one included).
    async fn announce(&self) -> Result<usize, String> {
        let store = self.store().await?;
        store
            .put(self.key(), self.bus.instance().to_owned().into())
            .await
            .map_err(|error| format!("presence entry (NATS): {error}"))?;
        let keys: std::collections::HashSet<String> = store
            .keys()
            .await
            .map_err(|error| format!("presence entries (NATS): {error}"))?
            .try_collect()
            .await
            .map_err(|error| format!("presence entries (NATS): {error}"))?;
        let live = keys.len().max(1);
        self.bus.liveness().counted(keys);
        Ok(live)
    }

    /// This instance's key: its holder name with every byte a key cannot hold as `_`.
    fn key(&self) -> String {
        key_of(self.bus.holder())
    }

    async fn store(&self) -> Result<&kv::Store, String> {
        self.store
            .get_or_try_init(|| async {
                self.bus
                    .jetstream()
                    .create_key_value(kv::Config {
                        bucket: BUCKET.into(),
                        description: "Kestrel instances: key = instance, alive while renewed"
                            .into(),
                        history: 1,
                        max_age: PRESENCE_TTL,
                        ..Default::default()
                    })
                    .await
                    .map_err(|error| format!("presence bucket (NATS): {error}"))
            })
            .await
    }
}

/// `holder` as a key-value key (letters, digits, `-`, `_`; anything else as `_`).
pub(super) fn key_of(holder: &str) -> String {
    holder
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || c == '-' {
                c
            } else {
                '_'
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::key_of;

    #[test]
    fn a_holder_becomes_a_valid_key() {
        assert_eq!(key_of("web-1.eu#0a1b2c3d"), "web-1_eu_0a1b2c3d");
    }
}
