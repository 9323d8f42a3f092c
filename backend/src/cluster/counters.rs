//! [`NatsCounts`]: the rate limits' windows shared by every instance (failures, codes sent,
//! support chat messages: [`crate::user::rate_limit::SharedCounts`]), as entries of the JetStream key-value bucket
//! `kestrel_limits` (`max_age` one hour, the longest window). An entry is `{start, count}` (the
//! window's start in epoch milliseconds); every change is a compare-and-set: read the entry, write
//! it back at the revision read (`create` when there is none), and read again on a conflict after
//! a short random pause that grows with the conflicts (so a burst of changes on one key, from any
//! number of instances, spreads out instead of colliding again) — so instances counting at once
//! all count.

use std::sync::Arc;
use std::time::Duration;

use async_nats::jetstream::kv;
use futures_util::future::BoxFuture;
use rand::RngExt;
use serde::{Deserialize, Serialize};
use tokio::sync::OnceCell;

use super::Bus;
use crate::user::rate_limit::{Counted, SharedCounts};

/// The bucket's name.
const BUCKET: &str = "kestrel_limits";
/// How long an untouched entry lives: the longest window.
const MAX_AGE: Duration = Duration::from_secs(3600);
/// Conflicts tolerated before a change gives up (each means another change won meanwhile).
const TRIES: u32 = 200;
/// The longest pause after a conflict, in microseconds (the pause grows to it with the conflicts).
const MOST_PAUSE_MICROS: u64 = 5_000;

/// One key's window.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
struct Window {
    /// When it started, epoch milliseconds.
    start: i64,
    /// What was counted in it.
    count: u32,
}

/// The rate limits' windows of the cluster (see the module).
pub struct NatsCounts {
    bus: Arc<Bus>,
    store: OnceCell<kv::Store>,
}

impl NatsCounts {
    /// The counters on `bus`.
    pub fn new(bus: Arc<Bus>) -> Self {
        Self {
            bus,
            store: OnceCell::new(),
        }
    }

    async fn store(&self) -> Result<&kv::Store, String> {
        self.store
            .get_or_try_init(|| async {
                self.bus
                    .jetstream()
                    .create_key_value(kv::Config {
                        bucket: BUCKET.into(),
                        description: "Kestrel rate limits: key = limit key, value = window".into(),
                        history: 1,
                        max_age: MAX_AGE,
                        ..Default::default()
                    })
                    .await
                    .map_err(|error| format!("limits bucket (NATS): {error}"))
            })
            .await
    }

    async fn add_to(&self, key: &str, window: Duration, delta: i64) -> Result<Counted, String> {
        let store = self.store().await?;
        let name = entry_name(key);
        let window_ms = i64::try_from(window.as_millis()).unwrap_or(i64::MAX);
        for conflicts in 0..TRIES {
            if conflicts > 0 {
                let most = (250 * u64::from(conflicts)).min(MOST_PAUSE_MICROS);
                let pause = rand::rng().random_range(0..=most);
                tokio::time::sleep(Duration::from_micros(pause)).await;
            }
            let now = crate::clock::now_ms();
            let entry = store
                .entry(name.as_str())
                .await
                .map_err(|error| format!("limit entry (NATS): {error}"))?
                .filter(|entry| matches!(entry.operation, kv::Operation::Put));
            let current = entry
                .as_ref()
                .and_then(|entry| serde_json::from_slice::<Window>(&entry.value).ok())
                .filter(|current| now - current.start < window_ms)
                .unwrap_or(Window {
                    start: now,
                    count: 0,
                });
            let next = Window {
                count: u32::try_from((i64::from(current.count) + delta).max(0)).unwrap_or(u32::MAX),
                ..current
            };
            let value = serde_json::to_vec(&next).unwrap_or_default();
            let written = match &entry {
                None => store.create(name.as_str(), value.into()).await.is_ok(),
                Some(entry) => store
                    .update(name.as_str(), value.into(), entry.revision)
                    .await
                    .is_ok(),
            };
            if written {
                let left_ms = (next.start + window_ms - now).clamp(0, window_ms);
                return Ok(Counted {
                    count: next.count,
                    resets_in: Duration::from_millis(left_ms as u64),
                });
            }
        }
        Err(format!("limit {key}: too many concurrent changes"))
    }
}

impl SharedCounts for NatsCounts {
    fn add<'a>(
        &'a self,
        key: &'a str,
        window: Duration,
        delta: i64,
    ) -> BoxFuture<'a, Result<Counted, String>> {
        Box::pin(self.add_to(key, window, delta))
    }

    fn clear<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), String>> {
        Box::pin(async move {
            self.store()
                .await?
                .delete(entry_name(key))
                .await
                .map_err(|error| format!("limit entry (NATS): {error}"))
        })
    }
}

/// `key` as a key-value entry name (letters, digits, `-`, `_`; every other byte as `=XX`).
fn entry_name(key: &str) -> String {
    key.bytes()
        .map(|byte| {
            if byte.is_ascii_alphanumeric() || byte == b'-' || byte == b'_' {
                char::from(byte).to_string()
            } else {
                format!("={byte:02X}")
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::entry_name;

    #[test]
    fn an_entry_name_keeps_only_safe_bytes() {
        assert_eq!(
            entry_name("login:account:a.b@x.io"),
            "login=3Aaccount=3Aa=2Eb=40x=2Eio"
        );
    }
}
