//! [`Liveness`]: what an instance knows of the others, so that a command forwarded to a market's
//! owner that dies (`kill -9`, a crash) does not wait out [`super::forward::ANSWER_WITHIN`]:
//!
//! - who holds each lease of the markets' bucket (`kestrel_leases_<MARKET_LEASE_MS>ms`), as last
//!   written: one watch of the bucket per instance ([`watch_leases`]); a lease is renewed every
//!   quarter of its TTL, so a holder that took it elsewhere is known within that;
//! - which instances are alive: the keys [`super::Presence`] counted at its last announcement
//!   (a dead instance's key expires within [`super::presence::PRESENCE_TTL`]).
//!
//! A caller that forwards a command notes the market's holder and, while it waits, looks whether
//! that holder is still alive ([`Liveness::gone`]); once it is not, the answer will never come
//! and the caller stops waiting at once: the command may or may not have been done, as after a
//! timeout, and the caller's retry rule applies (a command with an idempotency key is tried again
//! against the next owner, whose record of the key answers it if it was done). A live holder is
//! waited for as before, also when the lease moved meanwhile: a holder that lets a market go
//! answers what it received.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, RwLock};
use std::time::Duration;

use futures_util::StreamExt;
use tokio::sync::watch;

use super::Bus;

/// How often a waiting caller looks whether the holder it forwarded to is still alive.
pub const LOOK_EVERY: Duration = Duration::from_millis(250);

/// The leases' holders and the live instances (see the module).
#[derive(Default)]
pub struct Liveness {
    /// Lease name → holder, as last written to the markets' lease bucket.
    holders: RwLock<HashMap<String, String>>,
    /// The presence keys at the last count; `None` before the first one.
    live: RwLock<Option<HashSet<String>>>,
}

impl Liveness {
    /// The holder of lease `name` as last written, if it is known.
    pub fn holder(&self, name: &str) -> Option<String> {
        self.holders
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(name)
            .cloned()
    }

    /// Whether `holder` was counted alive at the last count (`true` before the first one).
    pub fn is_alive(&self, holder: &str) -> bool {
        self.live
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .as_ref()
            .is_none_or(|live| live.contains(&super::presence::key_of(holder)))
    }

    /// Resolves once `holder` is no longer alive (never while it is).
    pub async fn gone(&self, holder: &str) {
        loop {
            tokio::time::sleep(LOOK_EVERY).await;
            if !self.is_alive(holder) {
                return;
            }
        }
    }

    /// Records the presence keys of a count.
    pub(super) fn counted(&self, keys: HashSet<String>) {
        *self.live.write().unwrap_or_else(|e| e.into_inner()) = Some(keys);
    }

    fn held(&self, name: String, holder: Option<String>) {
        let mut holders = self.holders.write().unwrap_or_else(|e| e.into_inner());
        match holder {
            Some(holder) => holders.insert(name, holder),
            None => holders.remove(&name),
        };
    }
}

/// Follows the holders of the leases in the bucket of `ttl_ms` leases into `bus`'s
/// [`Liveness`], until `shutdown`; a watch that ends (the server restarted) is started again.
pub async fn watch_leases(bus: Arc<Bus>, ttl_ms: i64, mut shutdown: watch::Receiver<bool>) {
    loop {
        match super::lease::bucket(&bus, super::lease::lease_ttl(ttl_ms)).await {
            Ok(store) => match store.watch_with_history(">").await {
                Ok(mut entries) => loop {
                    let entry = tokio::select! {
                        entry = entries.next() => entry,
                        _ = shutdown.changed() => return,
                    };
                    let Some(Ok(entry)) = entry else { break };
                    let holder =
                        matches!(entry.operation, async_nats::jetstream::kv::Operation::Put)
                            .then(|| String::from_utf8_lossy(&entry.value).into_owned());
                    bus.liveness().held(entry.key, holder);
                },
                Err(error) => tracing::warn!(%error, "watching the market leases (NATS)"),
            },
            Err(error) => tracing::warn!(%error, "the market leases' bucket (NATS)"),
        }
        tokio::select! {
            _ = tokio::time::sleep(Duration::from_secs(1)) => {}
            _ = shutdown.changed() => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_holder_is_alive_until_a_count_misses_it() {
        let liveness = Liveness::default();
        assert!(liveness.is_alive("a#1"), "before the first count");
        liveness.counted(HashSet::from(["a_1".to_owned(), "b_2".to_owned()]));
        assert!(liveness.is_alive("a#1"));
        liveness.counted(HashSet::from(["b_2".to_owned()]));
        assert!(!liveness.is_alive("a#1"));
    }

    #[test]
    fn a_lease_holder_is_the_last_written() {
        let liveness = Liveness::default();
        liveness.held("spot_btcusdt".into(), Some("a#1".into()));
        liveness.held("spot_btcusdt".into(), Some("b#2".into()));
        assert_eq!(liveness.holder("spot_btcusdt").as_deref(), Some("b#2"));
        liveness.held("spot_btcusdt".into(), None);
        assert_eq!(liveness.holder("spot_btcusdt"), None);
    }
}
