//! A short in-memory cache of live sessions for the hot trading calls (spot orders, cancellations,
//! order lists): token hash → (user id, session id, expiry), so that most such requests skip the
//! session statement and its two hand-offs to sqlx's SQLite thread.
//!
//! **What it holds and what it serves.** Only a session's identity — who it is, which session,
//! until when — never the user row or the session's re-authentication time. It backs
//! [`SatokenCached`](super::auth::SatokenCached) alone. Every call that reads the user row or the
//! session (password, authenticator, re-authentication, withdrawals, operators' calls, profile)
//! keeps the database check of [`Satoken`](super::auth::Satoken) on every request.
//!
//! **Correctness in one instance.** An entry is served for at most [`TTL`] after it was read, and
//! never after the session's `expires_at`. Everything that ends a session or changes what a
//! session may do calls [`forget_user`] after it is written (logout, device revocation, password
//! change or reset — which ends the other sessions —, re-authentication), so this instance sees
//! the change at the next request. A read that started before such a change cannot put its stale
//! answer back: [`forget_user`] moves an epoch, and [`remember`] refuses an answer read under an
//! older epoch.
//!
//! **Several instances.** The cache is per process. In cluster mode [`forget_user`] also tells
//! the other instances, through the instance's [`Fanout`] (a request runs [`in_scope`] of it),
//! which forget the user's sessions on receipt ([`forget_user_here`]), so a session ended through
//! one instance stops on every instance at once (within the NATS hop), not after [`TTL`]. Without
//! NATS (one process) nothing leaves the process.

use std::collections::HashMap;
use std::sync::{LazyLock, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use crate::cluster::Fanout;

tokio::task_local! {
    /// The fanout of the instance serving the current request.
    static FANOUT: Fanout;
}

/// Runs `request` with `fanout` as its instance's (what [`forget_user`] tells).
pub async fn in_scope<F: std::future::Future>(fanout: Fanout, request: F) -> F::Output {
    FANOUT.scope(fanout, request).await
}

/// How long a cached session is served before it is read again.
pub const TTL: Duration = Duration::from_secs(2);

/// Entries kept at most; past it, stale ones are dropped, then all.
const MAX_ENTRIES: usize = 100_000;

/// Who a live session belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct SessionIdentity {
    /// The user's id.
    pub user_id: i64,
    /// The session's id.
    pub session_id: i64,
}

struct Entry {
    identity: SessionIdentity,
    expires_at_ms: i64,
    read_at: Instant,
}

#[derive(Default)]
struct Cache {
    epoch: u64,
    entries: HashMap<String, Entry>,
}

static CACHE: LazyLock<Mutex<Cache>> = LazyLock::new(Mutex::default);

fn cache() -> MutexGuard<'static, Cache> {
    // A panic while holding the lock leaves nothing half-written worth refusing.
    CACHE
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner())
}

/// The cached session of `token_hash`, if it was read less than [`TTL`] ago and has not expired
/// at `now_ms`.
pub fn lookup(token_hash: &str, now_ms: i64) -> Option<SessionIdentity> {
    let cache = cache();
    let entry = cache.entries.get(token_hash)?;
    (entry.read_at.elapsed() < TTL && entry.expires_at_ms > now_ms).then_some(entry.identity)
}

/// The epoch to pass to [`remember`]: take it before reading the session.
pub fn epoch() -> u64 {
    cache().epoch
}

/// Caches a session read from the database under `epoch` (taken before the read); does nothing
/// if a session was ended or changed since.
pub fn remember(token_hash: String, identity: SessionIdentity, expires_at_ms: i64, epoch: u64) {
    let mut cache = cache();
    if cache.epoch != epoch {
        return;
    }
    if cache.entries.len() >= MAX_ENTRIES {
        cache
            .entries
            .retain(|_, entry| entry.read_at.elapsed() < TTL);
        if cache.entries.len() >= MAX_ENTRIES {
            cache.entries.clear();
        }
    }
    cache.entries.insert(
        token_hash,
        Entry {
            identity,
            expires_at_ms,
            read_at: Instant::now(),
        },
    );
}

/// Drops every cached session of `user_id`, and refuses answers read before now, here and (in
/// cluster mode) on every instance. Call it after the change is written (after the commit, when
/// it is in a transaction).
pub fn forget_user(user_id: i64) {
    forget_user_here(user_id);
    // Outside a request (a unit test, a job) there is no instance to tell.
    let _ = FANOUT.try_with(|fanout| fanout.session_ended(user_id));
}

/// [`forget_user`] in this process only (what another instance's signal does).
pub fn forget_user_here(user_id: i64) {
    let mut cache = cache();
    cache.epoch = cache.epoch.wrapping_add(1);
    cache
        .entries
        .retain(|_, entry| entry.identity.user_id != user_id);
}

#[cfg(test)]
mod tests {
    use super::*;

    fn identity(user_id: i64) -> SessionIdentity {
        SessionIdentity {
            user_id,
            session_id: user_id * 10,
        }
    }

    #[test]
    fn an_entry_is_served_until_forgotten_or_expired() {
        let hash = "unit-test-hash-1".to_owned();
        // Another test may move the epoch in between; then the answer is refused and read again.
        for _ in 0..100 {
            remember(hash.clone(), identity(-1), 2_000, epoch());
            if lookup(&hash, 0).is_some() {
                break;
            }
        }
        assert_eq!(lookup(&hash, 1_999), Some(identity(-1)));
        assert_eq!(lookup(&hash, 2_000), None, "expired");
        forget_user(-1);
        assert_eq!(lookup(&hash, 0), None, "forgotten");
    }

    #[test]
    fn a_read_from_before_a_change_is_not_kept() {
        let hash = "unit-test-hash-2".to_owned();
        let before = epoch();
        forget_user(-2);
        remember(hash.clone(), identity(-2), i64::MAX, before);
        assert_eq!(lookup(&hash, 0), None);
    }
}
