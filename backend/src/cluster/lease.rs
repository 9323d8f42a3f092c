//! [`NatsLease`]: a job's lease as an entry of a JetStream key-value bucket whose `max_age` is the
//! lease's time to live (one bucket per TTL, `kestrel_leases_<ttl>ms`, made on first use). The key
//! is the job's name and the value the holder (the instance's name and a process token):
//!
//! - free (no entry: never taken, or expired because its holder stopped renewing): `create`, which
//!   only one of several instances wins;
//! - ours: `update` with the revision we last wrote, which fails if anyone wrote in between;
//! - another holder's live entry: never overwritten; the job waits for it to expire;
//! - let go ([`NatsLease::release`]): our entry deleted at the revision we last wrote, so another
//!   instance takes it at its next look instead of after the TTL.
//!
//! The revision of our last write is the fencing token ([`NatsLease::token`]): it grows with every
//! write, so a later holder's token is always higher than an earlier one's. Expiry is the NATS
//! server's clock alone, never the instances'.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use async_nats::jetstream::kv;
use futures_util::future::BoxFuture;
use sea_orm::DbErr;
use tokio::sync::OnceCell;

use super::Bus;
use crate::lease::Lease;

/// A job's lease on the cluster's bus (see the module).
pub struct NatsLease {
    bus: Arc<Bus>,
    name: String,
    ttl: Duration,
    store: OnceCell<kv::Store>,
    /// The revision of our last write, 0 when we do not hold the lease.
    revision: AtomicU64,
}

impl NatsLease {
    /// The lease of job `name` (a key: letters, digits, `_`, `-`), lasting `ttl_ms` from each
    /// renewal.
    pub fn new(bus: Arc<Bus>, name: impl Into<String>, ttl_ms: i64) -> Self {
        Self {
            bus,
            name: name.into(),
            ttl: lease_ttl(ttl_ms),
            store: OnceCell::new(),
            revision: AtomicU64::new(0),
        }
    }

    /// The fencing token of the lease while this instance holds it: the revision of its last
    /// write (`None` when it does not hold it).
    pub fn token(&self) -> Option<u64> {
        Some(self.revision.load(Ordering::SeqCst)).filter(|&revision| revision != 0)
    }

    async fn store(&self) -> Result<&kv::Store, DbErr> {
        self.store
            .get_or_try_init(|| async {
                bucket(&self.bus, self.ttl)
                    .await
                    .map_err(|error| nats_error("lease bucket", error))
            })
            .await
    }

    /// Lets the lease go if this instance holds it (see the module); a no-op otherwise. The
    /// delete is conditional on our last revision, so it never removes a later holder's entry.
    pub async fn release(&self) -> Result<(), DbErr> {
        let revision = self.revision.swap(0, Ordering::SeqCst);
        if revision == 0 {
            return Ok(());
        }
        self.store()
            .await?
            .delete_expect_revision(self.name.as_str(), Some(revision))
            .await
            .map_err(|error| nats_error("lease release", error))
    }

    async fn try_acquire(&self) -> Result<bool, DbErr> {
        let store = self.store().await?;
        let holder = self.bus.holder();
        let entry = store
            .entry(self.name.as_str())
            .await
            .map_err(|error| nats_error("lease entry", error))?
            .filter(|entry| matches!(entry.operation, kv::Operation::Put));
        let written = match entry {
            None => store
                .create(self.name.as_str(), holder.to_owned().into())
                .await
                .ok(),
            Some(entry) if entry.value.as_ref() == holder.as_bytes() => store
                .update(self.name.as_str(), holder.to_owned().into(), entry.revision)
                .await
                .ok(),
            // Another holder's live lease: never overwritten.
            Some(_) => None,
        };
        // A failed create or update means another instance wrote first (or the write timed out:
        // then not holding is the safe answer; the next attempt looks again).
        self.revision
            .store(written.unwrap_or_default(), Ordering::SeqCst);
        Ok(written.is_some())
    }
}

impl Lease for NatsLease {
    fn acquire(&self) -> BoxFuture<'_, Result<bool, DbErr>> {
        Box::pin(async move {
            let held = self.try_acquire().await;
            if held.is_err() {
                self.revision.store(0, Ordering::SeqCst);
            }
            held
        })
    }
}

/// A NATS failure in the [`Lease`] trait's error type.
fn nats_error(what: &str, error: impl std::fmt::Display) -> DbErr {
    DbErr::Custom(format!("{what} (NATS): {error}"))
}

/// A lease's time to live for `ttl_ms` (one second at least).
pub fn lease_ttl(ttl_ms: i64) -> Duration {
    Duration::from_millis(ttl_ms.max(1000) as u64)
}

/// The bucket of the leases that live `ttl` (made on first use).
pub async fn bucket(
    bus: &Bus,
    ttl: Duration,
) -> Result<kv::Store, async_nats::jetstream::context::CreateKeyValueError> {
    bus.jetstream()
        .create_key_value(kv::Config {
            bucket: format!("kestrel_leases_{}ms", ttl.as_millis()),
            description: "Kestrel job leases: key = job, value = holder".into(),
            history: 1,
            max_age: ttl,
            ..Default::default()
        })
        .await
}
