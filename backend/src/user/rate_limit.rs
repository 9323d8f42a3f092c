//! Fixed-window rate limits per key (`login:account:…`, `code:ip:…`), in memory. One process holds
//! the counters. In cluster mode the failure limits ([`RateLimiter::reserve`],
//! [`RateLimiter::reserve_guarded`]: logins, fund password, re-authentication) are also counted
//! in [`SharedCounts`] that every instance shares (`cluster/counters.rs`): an attempt is counted
//! there before its check (one atomic update), refused or raised by the shared count, and given
//! back when it succeeds, so N instances do not give N times the allowance. The event limits
//! ([`RateLimiter::hit`]: codes sent per address and per IP, support chat messages) are counted
//! there alone: each key by one atomic update, the event refused (and every key given back) when
//! a count passes its maximum, so a burst spread over the instances never passes a limit. Without
//! a cluster, or when its counters do not answer, this process's counters decide.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex},
    time::{Duration, Instant},
};

use futures_util::future::BoxFuture;

/// Counters every instance of a cluster shares: a fixed window per key, updated atomically.
pub trait SharedCounts: Send + Sync {
    /// Adds `delta` to `key`'s count in its current window of `window` (a new window when the
    /// last one ended) and answers the count after it.
    fn add<'a>(
        &'a self,
        key: &'a str,
        window: Duration,
        delta: i64,
    ) -> BoxFuture<'a, Result<Counted, String>>;
    /// Ends `key`'s window (its count is 0 again).
    fn clear<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), String>>;
}

/// A key's count after a change, in its current window.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Counted {
    /// What the window counts now.
    pub count: u32,
    /// How long until the window ends.
    pub resets_in: Duration,
}

/// A limit: at most `max` events per `window`.
#[derive(Debug, Clone, Copy)]
pub struct Limit {
    /// Events allowed per window.
    pub max: u32,
    /// The window.
    pub window: Duration,
}

impl Limit {
    /// `max` events per `secs` seconds.
    pub const fn per_secs(max: u32, secs: u64) -> Self {
        Self {
            max,
            window: Duration::from_secs(secs),
        }
    }
}

/// Failed logins per account (any IP) in 15 minutes before a sign-in also needs a code sent to the
/// account (the account is never locked: its owner passes with the password and the code).
pub const LOGIN_FAILURES_PER_ACCOUNT: Limit = Limit::per_secs(5, 900);
/// Failed logins per IP (any account) in 15 minutes.
pub const LOGIN_FAILURES_PER_IP: Limit = Limit::per_secs(50, 900);
/// Codes sent to one address per minute.
pub const CODES_PER_TARGET_MINUTE: Limit = Limit::per_secs(1, 60);
/// Codes sent to one address per hour.
pub const CODES_PER_TARGET_HOUR: Limit = Limit::per_secs(10, 3600);
/// Codes requested from one IP per hour.
pub const CODES_PER_IP_HOUR: Limit = Limit::per_secs(60, 3600);

/// The limits of sending verification codes (configurable: `security.code_resend_secs`,
/// `security.codes_per_ip_hour`; tests and e2e runs relax them, production keeps the defaults).
#[derive(Debug, Clone, Copy)]
pub struct CodeLimits {
    /// Codes to one address per resend window (one a minute by default).
    pub per_target: Limit,
    /// Codes to one address per hour.
    pub per_target_hour: Limit,
    /// Codes requested from one IP per hour.
    pub per_ip_hour: Limit,
}

impl Default for CodeLimits {
    fn default() -> Self {
        Self {
            per_target: CODES_PER_TARGET_MINUTE,
            per_target_hour: CODES_PER_TARGET_HOUR,
            per_ip_hour: CODES_PER_IP_HOUR,
        }
    }
}

/// The counters: failures per key in their window, and the attempts checked right now.
#[derive(Default)]
struct Counters {
    windows: HashMap<String, (Instant, u32)>,
    in_flight: HashMap<String, u32>,
}

/// The counters.
#[derive(Default)]
pub struct RateLimiter {
    counters: Mutex<Counters>,
    /// Woken whenever an attempt in flight is decided.
    decided: tokio::sync::Notify,
    codes: CodeLimits,
    /// The cluster's counters (cluster mode), beside this process's.
    shared: Option<Arc<dyn SharedCounts>>,
}

/// Whether an attempt reserved with [`RateLimiter::reserve_guarded`] is within its guard.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Guard {
    /// Within the guard's limit: the ordinary check suffices.
    Open,
    /// The guard's failures and attempts in flight reach its limit: the attempt must bring a
    /// further proof (a code sent to the account) to be checked at all.
    Raised,
}

/// What [`RateLimiter::reserve`] found.
enum Reservation<'a> {
    /// Reserved: the attempt may be checked (the guard says how).
    Reserved(Attempt<'a>, Guard),
    /// The limit is used up: seconds until its window ends.
    Refused(u64),
    /// Failures and attempts in flight reach the limit: wait until one of those is decided.
    Wait,
}

impl RateLimiter {
    /// A limiter with no counts and the default code limits.
    pub fn new() -> Self {
        Self::default()
    }

    /// A limiter with no counts and these code limits.
    pub fn with_code_limits(codes: CodeLimits) -> Self {
        Self {
            codes,
            ..Self::default()
        }
    }

    /// This limiter, counting in `shared` too (cluster mode; see the module).
    pub fn shared_through(mut self, shared: Option<Arc<dyn SharedCounts>>) -> Self {
        self.shared = shared;
        self
    }

    /// The code-sending limits in force.
    pub fn code_limits(&self) -> CodeLimits {
        self.codes
    }

    fn counters(&self) -> std::sync::MutexGuard<'_, Counters> {
        self.counters.lock().unwrap_or_else(|e| e.into_inner())
    }

    #[cfg(test)]
    fn check_at(&self, key: &str, limit: Limit, now: Instant) -> Result<(), u64> {
        match failures(&self.counters(), key, limit, now) {
            (count, left) if count >= limit.max => Err(left),
            _ => Ok(()),
        }
    }

    #[cfg(test)]
    fn record_at(&self, key: &str, limit: Limit, now: Instant) {
        record_in(&mut self.counters(), key, limit, now);
    }

    /// Reserves one attempt under every `(key, limit)` before the slow check it guards (a password
    /// hash): `Err(seconds to wait)` when a limit is used up. While the failures counted and the
    /// attempts being checked reach a limit, it waits until one of those is decided, so parallel
    /// requests never have more attempts checked than failures are left, and right ones still
    /// pass in turn. The attempt counts as a failure unless it is declared a success
    /// ([`Attempt::succeeded`]).
    pub async fn reserve<'a>(&'a self, limits: &[(&str, Limit)]) -> Result<Attempt<'a>, u64> {
        loop {
            let decided = self.decided.notified();
            tokio::pin!(decided);
            // Registered before the state is read: a decision in between still wakes this one.
            decided.as_mut().enable();
            match self.try_reserve_at(limits, None, Instant::now()) {
                Reservation::Reserved(attempt, guard) => {
                    return self
                        .count_shared(attempt, guard, limits, None)
                        .await
                        .map(|(attempt, _)| attempt);
                }
                Reservation::Refused(seconds) => return Err(seconds),
                Reservation::Wait => decided.await,
            }
        }
    }

    /// Reserves one attempt as [`reserve`](Self::reserve) does under the hard `limits`, and under
    /// `guard` without ever refusing or waiting: once the guard's failures plus its attempts in
    /// flight reach its limit, the attempt is [`Guard::Raised`] — the caller asks for a further
    /// proof instead of locking the key's owner out. Both are decided in one step, so parallel
    /// attempts never get more ordinary checks than the guard has failures left. The attempt's
    /// failure counts under the guard too.
    pub async fn reserve_guarded<'a>(
        &'a self,
        limits: &[(&str, Limit)],
        guard: (&str, Limit),
    ) -> Result<(Attempt<'a>, Guard), u64> {
        loop {
            let decided = self.decided.notified();
            tokio::pin!(decided);
            decided.as_mut().enable();
            match self.try_reserve_at(limits, Some(guard), Instant::now()) {
                Reservation::Reserved(attempt, raised) => {
                    return self
                        .count_shared(attempt, raised, limits, Some(guard))
                        .await;
                }
                Reservation::Refused(seconds) => return Err(seconds),
                Reservation::Wait => decided.await,
            }
        }
    }

    fn try_reserve_at<'a>(
        &'a self,
        limits: &[(&str, Limit)],
        guard: Option<(&str, Limit)>,
        now: Instant,
    ) -> Reservation<'a> {
        let mut counters = self.counters();
        let mut wait = false;
        for (key, limit) in limits {
            let (count, left) = failures(&counters, key, *limit, now);
            if count >= limit.max {
                return Reservation::Refused(left);
            }
            let in_flight = counters.in_flight.get(*key).copied().unwrap_or(0);
            wait |= count + in_flight >= limit.max;
        }
        if wait {
            return Reservation::Wait;
        }
        let raised = guard.is_some_and(|(key, limit)| {
            let (count, _) = failures(&counters, key, limit, now);
            count + counters.in_flight.get(key).copied().unwrap_or(0) >= limit.max
        });
        let all: Vec<(String, Limit)> = limits
            .iter()
            .chain(guard.as_ref())
            .map(|(key, limit)| ((*key).to_owned(), *limit))
            .collect();
        for (key, _) in &all {
            *counters.in_flight.entry(key.clone()).or_insert(0) += 1;
        }
        Reservation::Reserved(
            Attempt {
                limiter: self,
                limits: all,
                outcome: Outcome::Failed,
                shared: Vec::new(),
            },
            if raised { Guard::Raised } else { Guard::Open },
        )
    }

    /// Ends an attempt in flight: a failure is counted under each of its keys.
    /// Counts a reserved attempt in the cluster's counters (nothing in one process): refused when
    /// a limit's shared count passes its maximum, raised when the guard's does. A counter the
    /// cluster cannot answer leaves this process's decision standing.
    async fn count_shared<'a>(
        &'a self,
        mut attempt: Attempt<'a>,
        mut guard: Guard,
        limits: &[(&str, Limit)],
        guarded: Option<(&str, Limit)>,
    ) -> Result<(Attempt<'a>, Guard), u64> {
        let Some(shared) = &self.shared else {
            return Ok((attempt, guard));
        };
        for (key, limit) in limits.iter().chain(guarded.as_ref()) {
            match shared.add(key, limit.window, 1).await {
                Ok(Counted { count, resets_in }) => {
                    attempt.shared.push((*key).to_owned());
                    if count <= limit.max {
                        continue;
                    }
                    if guarded.is_some_and(|(guard_key, _)| guard_key == *key) {
                        guard = Guard::Raised;
                        continue;
                    }
                    // Refused: not an attempt, so nothing counts (given back on drop).
                    attempt.succeeded();
                    return Err(resets_in.as_secs().max(1));
                }
                Err(error) => tracing::warn!(%error, key, "shared rate limit not counted"),
            }
        }
        Ok((attempt, guard))
    }

    fn decide(&self, attempt: &Attempt<'_>) {
        if let (Some(shared), Outcome::Succeeded { clearing }) = (&self.shared, &attempt.outcome)
            && !attempt.shared.is_empty()
        {
            // Counted before the check, given back now that it succeeded.
            let (shared, keys, clearing) =
                (shared.clone(), attempt.shared.clone(), clearing.clone());
            let windows: Vec<Duration> = keys
                .iter()
                .map(|key| {
                    attempt
                        .limits
                        .iter()
                        .find(|(known, _)| known == key)
                        .map_or(Duration::from_secs(1), |(_, limit)| limit.window)
                })
                .collect();
            if let Ok(runtime) = tokio::runtime::Handle::try_current() {
                runtime.spawn(async move {
                    for (key, window) in keys.iter().zip(windows) {
                        let done = if clearing.as_deref() == Some(key.as_str()) {
                            shared.clear(key).await
                        } else {
                            shared.add(key, window, -1).await.map(|_| ())
                        };
                        if let Err(error) = done {
                            tracing::warn!(%error, key, "shared rate limit not given back");
                        }
                    }
                });
            }
        }
        {
            let mut counters = self.counters();
            let now = Instant::now();
            for (key, limit) in &attempt.limits {
                if let Some(in_flight) = counters.in_flight.get_mut(key) {
                    *in_flight = in_flight.saturating_sub(1);
                    if *in_flight == 0 {
                        counters.in_flight.remove(key);
                    }
                }
                match &attempt.outcome {
                    Outcome::Failed => record_in(&mut counters, key, *limit, now),
                    Outcome::Succeeded { clearing } if clearing.as_deref() == Some(key) => {
                        counters.windows.remove(key);
                    }
                    Outcome::Succeeded { .. } => {}
                }
            }
        }
        self.decided.notify_waiters();
    }

    /// Counts one event under every `(key, limit)`, or none with `Err(seconds to wait)` when any
    /// of them is used up: parallel requests cannot pass a limit between its check and its
    /// record. In cluster mode the cluster's counters decide (see the module).
    pub async fn hit(&self, limits: &[(&str, Limit)]) -> Result<(), u64> {
        if let Some(shared) = &self.shared {
            match hit_shared(shared.as_ref(), limits).await {
                Ok(verdict) => return verdict,
                Err(error) => tracing::warn!(%error, "shared rate limit not counted"),
            }
        }
        self.hit_here(limits)
    }

    /// [`hit`](Self::hit) on this process's counters, in one step.
    fn hit_here(&self, limits: &[(&str, Limit)]) -> Result<(), u64> {
        let mut counters = self.counters();
        let now = Instant::now();
        for (key, limit) in limits {
            match failures(&counters, key, *limit, now) {
                (count, left) if count >= limit.max => return Err(left),
                _ => {}
            }
        }
        for (key, limit) in limits {
            record_in(&mut counters, key, *limit, now);
        }
        Ok(())
    }

    /// Forgets `key` (a successful login clears its account's failures).
    pub fn clear(&self, key: &str) {
        self.counters().windows.remove(key);
    }
}

/// Counts one event under every `(key, limit)` in `shared`: `Ok(Ok(()))` when every count stays
/// within its maximum; `Ok(Err(seconds))` when one passes it, every key counted being given back
/// (a refused event counts nowhere); `Err` when the counters do not answer (what was counted is
/// given back too). Each count is one atomic update, so parallel events on any instances get
/// distinct counts and no more than the maximum pass.
async fn hit_shared(
    shared: &dyn SharedCounts,
    limits: &[(&str, Limit)],
) -> Result<Result<(), u64>, String> {
    let mut counted: Vec<(&str, Duration)> = Vec::new();
    let mut verdict = Ok(Ok(()));
    for (key, limit) in limits {
        match shared.add(key, limit.window, 1).await {
            Ok(after) => {
                counted.push((key, limit.window));
                if after.count > limit.max {
                    verdict = Ok(Err(after.resets_in.as_secs().max(1)));
                    break;
                }
            }
            Err(error) => {
                verdict = Err(error);
                break;
            }
        }
    }
    if !matches!(verdict, Ok(Ok(()))) {
        for (key, window) in counted {
            if let Err(error) = shared.add(key, window, -1).await {
                tracing::warn!(%error, key, "shared rate limit not given back");
            }
        }
    }
    verdict
}

/// The failures of `key` in its current window and the seconds until that window ends.
fn failures(counters: &Counters, key: &str, limit: Limit, now: Instant) -> (u32, u64) {
    match counters.windows.get(key) {
        Some((start, count)) if now.duration_since(*start) < limit.window => {
            let left = limit.window - now.duration_since(*start);
            (*count, left.as_secs().max(1))
        }
        _ => (0, 0),
    }
}

fn record_in(counters: &mut Counters, key: &str, limit: Limit, now: Instant) {
    let windows = &mut counters.windows;
    if windows.len() > 100_000 {
        windows.retain(|_, (start, _)| now.duration_since(*start) < Duration::from_secs(3600));
    }
    let entry = windows.entry(key.to_owned()).or_insert((now, 0));
    if now.duration_since(entry.0) >= limit.window {
        *entry = (now, 0);
    }
    entry.1 += 1;
}

/// How an attempt ended.
enum Outcome {
    /// Wrong (or never declared right): counted as a failure.
    Failed,
    /// Right; `clearing` names a key whose failures it ends.
    Succeeded { clearing: Option<String> },
}

/// An attempt being checked, reserved under its limits. Dropped as it is, it counts as a failure;
/// a success does not count.
#[must_use = "an attempt is a failure unless declared a success"]
pub struct Attempt<'a> {
    limiter: &'a RateLimiter,
    limits: Vec<(String, Limit)>,
    outcome: Outcome,
    /// The keys counted in the cluster's counters (given back if it succeeds).
    shared: Vec<String>,
}

impl Attempt<'_> {
    /// The attempt succeeded: it counts against none of its limits.
    pub fn succeeded(mut self) {
        self.outcome = Outcome::Succeeded { clearing: None };
    }

    /// The attempt succeeded and ends the failures counted under `key` (a right login password
    /// clears its account's wrong ones).
    pub fn succeeded_clearing(mut self, key: &str) {
        self.outcome = Outcome::Succeeded {
            clearing: Some(key.to_owned()),
        };
    }
}

impl Drop for Attempt<'_> {
    fn drop(&mut self) {
        self.limiter.decide(self);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn the_limit_holds_within_the_window_and_clears() {
        let limiter = RateLimiter::new();
        let limit = Limit::per_secs(2, 60);
        assert!(limiter.hit(&[("k", limit)]).await.is_ok());
        assert!(limiter.hit(&[("k", limit)]).await.is_ok());
        let wait = limiter.hit(&[("k", limit)]).await.unwrap_err();
        assert!((1..=60).contains(&wait));
        assert!(limiter.hit(&[("other", limit)]).await.is_ok());
        limiter.clear("k");
        assert!(limiter.hit(&[("k", limit)]).await.is_ok());
    }

    /// The cluster's counters within one process: every change under one lock, atomic as the
    /// NATS bucket's compare-and-set; `down` answers nothing, as an unreachable NATS server.
    #[derive(Default)]
    struct OneLockCounts {
        windows: Mutex<HashMap<String, (Instant, u32)>>,
        down: bool,
    }

    impl SharedCounts for OneLockCounts {
        fn add<'a>(
            &'a self,
            key: &'a str,
            window: Duration,
            delta: i64,
        ) -> BoxFuture<'a, Result<Counted, String>> {
            Box::pin(async move {
                // Lets parallel callers interleave between their changes.
                tokio::task::yield_now().await;
                if self.down {
                    return Err("the counters do not answer".into());
                }
                let mut windows = self.windows.lock().unwrap();
                let now = Instant::now();
                let entry = windows.entry(key.to_owned()).or_insert((now, 0));
                if now.duration_since(entry.0) >= window {
                    *entry = (now, 0);
                }
                entry.1 = u32::try_from((i64::from(entry.1) + delta).max(0)).unwrap();
                Ok(Counted {
                    count: entry.1,
                    resets_in: window.saturating_sub(now.duration_since(entry.0)),
                })
            })
        }

        fn clear<'a>(&'a self, key: &'a str) -> BoxFuture<'a, Result<(), String>> {
            Box::pin(async move {
                self.windows.lock().unwrap().remove(key);
                Ok(())
            })
        }
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn a_burst_spread_over_instances_passes_no_more_than_the_shared_limit() {
        let shared: Arc<dyn SharedCounts> = Arc::new(OneLockCounts::default());
        let instances: Vec<Arc<RateLimiter>> = (0..3)
            .map(|_| Arc::new(RateLimiter::new().shared_through(Some(shared.clone()))))
            .collect();
        let limit = Limit::per_secs(5, 60);
        let tasks: Vec<_> = (0..48)
            .map(|n| {
                let limiter = instances[n % 3].clone();
                tokio::spawn(async move { limiter.hit(&[("code:target:a", limit)]).await })
            })
            .collect();
        let mut passed = 0;
        for task in tasks {
            match task.await.unwrap() {
                Ok(()) => passed += 1,
                Err(wait) => assert!((1..=60).contains(&wait), "wait {wait}"),
            }
        }
        assert_eq!(passed, 5, "each instance alone would have passed 5");
    }

    #[tokio::test]
    async fn a_refused_event_gives_back_every_key_it_counted() {
        let limiter = RateLimiter::new().shared_through(Some(Arc::new(OneLockCounts::default())));
        let (wide, narrow) = (Limit::per_secs(2, 60), Limit::per_secs(1, 60));
        assert!(
            limiter
                .hit(&[("ip", wide), ("target", narrow)])
                .await
                .is_ok()
        );
        assert!(
            limiter
                .hit(&[("ip", wide), ("target", narrow)])
                .await
                .is_err()
        );
        // The refused event did not count under `ip`: one more fits there.
        assert!(limiter.hit(&[("ip", wide)]).await.is_ok());
        assert!(limiter.hit(&[("ip", wide)]).await.is_err());
    }

    #[tokio::test]
    async fn without_the_cluster_counters_this_process_decides() {
        let down = OneLockCounts {
            down: true,
            ..OneLockCounts::default()
        };
        let limiter = RateLimiter::new().shared_through(Some(Arc::new(down)));
        let limit = Limit::per_secs(1, 60);
        assert!(limiter.hit(&[("k", limit)]).await.is_ok());
        assert!(limiter.hit(&[("k", limit)]).await.is_err());
    }

    #[tokio::test]
    async fn failures_count_and_successes_do_not() {
        let limiter = RateLimiter::new();
        let limit = Limit::per_secs(2, 60);
        limiter.reserve(&[("k", limit)]).await.unwrap().succeeded();
        drop(limiter.reserve(&[("k", limit)]).await.unwrap());
        limiter.reserve(&[("k", limit)]).await.unwrap().succeeded();
        drop(limiter.reserve(&[("k", limit)]).await.unwrap());
        assert!(
            limiter.reserve(&[("k", limit)]).await.is_err(),
            "two failures use it up"
        );
    }

    #[test]
    fn attempts_in_flight_hold_back_more_than_the_failures_left() {
        let limiter = RateLimiter::new();
        let limit = Limit::per_secs(2, 60);
        let now = Instant::now();
        let Reservation::Reserved(first, _) = limiter.try_reserve_at(&[("k", limit)], None, now)
        else {
            panic!("the first attempt is reserved");
        };
        let Reservation::Reserved(second, _) = limiter.try_reserve_at(&[("k", limit)], None, now)
        else {
            panic!("the second attempt is reserved");
        };
        // Both may still fail: a third waits for one of them rather than being checked now.
        assert!(matches!(
            limiter.try_reserve_at(&[("k", limit)], None, now),
            Reservation::Wait
        ));
        first.succeeded();
        let Reservation::Reserved(third, _) = limiter.try_reserve_at(&[("k", limit)], None, now)
        else {
            panic!("a success makes room");
        };
        drop((second, third));
        assert!(matches!(
            limiter.try_reserve_at(&[("k", limit)], None, now),
            Reservation::Refused(_)
        ));
    }

    #[test]
    fn an_attempt_under_two_limits_waits_for_either() {
        let limiter = RateLimiter::new();
        let (narrow, wide) = (Limit::per_secs(1, 60), Limit::per_secs(10, 60));
        let now = Instant::now();
        let held = limiter.try_reserve_at(&[("account", narrow), ("ip", wide)], None, now);
        assert!(matches!(held, Reservation::Reserved(..)));
        assert!(matches!(
            limiter.try_reserve_at(&[("account", narrow), ("ip", wide)], None, now),
            Reservation::Wait
        ));
        // The waiting attempt reserved nothing under the wide limit.
        assert_eq!(limiter.counters().in_flight.get("ip"), Some(&1));
    }

    #[test]
    fn a_guard_raises_instead_of_refusing_and_counts_attempts_in_flight() {
        let limiter = RateLimiter::new();
        let (guard, wide) = (Limit::per_secs(2, 60), Limit::per_secs(100, 60));
        let now = Instant::now();
        let reserve = || limiter.try_reserve_at(&[("ip", wide)], Some(("account", guard)), now);
        let (Reservation::Reserved(first, Guard::Open), Reservation::Reserved(second, Guard::Open)) =
            (reserve(), reserve())
        else {
            panic!("two attempts are within the guard");
        };
        // Two in flight may both fail: a third is raised at once, neither refused nor waiting.
        let Reservation::Reserved(third, Guard::Raised) = reserve() else {
            panic!("the third is raised");
        };
        drop((first, second, third));
        // Three failures counted: raised until the window ends or a success clears the account.
        let Reservation::Reserved(fourth, Guard::Raised) = reserve() else {
            panic!("still raised");
        };
        fourth.succeeded_clearing("account");
        assert!(matches!(reserve(), Reservation::Reserved(_, Guard::Open)));
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn parallel_attempts_never_have_more_checked_than_failures_left() {
        let limiter = std::sync::Arc::new(RateLimiter::new());
        let limit = Limit::per_secs(5, 60);
        let checked = std::sync::Arc::new(std::sync::atomic::AtomicU32::new(0));
        let tasks: Vec<_> = (0..32)
            .map(|_| {
                let (limiter, checked) = (limiter.clone(), checked.clone());
                tokio::spawn(async move {
                    if let Ok(attempt) = limiter.reserve(&[("k", limit)]).await {
                        checked.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                        tokio::task::yield_now().await;
                        drop(attempt);
                    }
                })
            })
            .collect();
        for task in tasks {
            task.await.unwrap();
        }
        assert_eq!(checked.load(std::sync::atomic::Ordering::Relaxed), 5);
    }

    #[tokio::test(flavor = "multi_thread", worker_threads = 4)]
    async fn parallel_right_attempts_all_pass_in_turn() {
        let limiter = std::sync::Arc::new(RateLimiter::new());
        let limit = Limit::per_secs(5, 60);
        let tasks: Vec<_> = (0..32)
            .map(|_| {
                let limiter = limiter.clone();
                tokio::spawn(async move {
                    let attempt = limiter.reserve(&[("k", limit)]).await?;
                    tokio::task::yield_now().await;
                    attempt.succeeded();
                    Ok::<_, u64>(())
                })
            })
            .collect();
        for task in tasks {
            assert!(task.await.unwrap().is_ok());
        }
    }

    #[test]
    fn a_new_window_starts_after_the_old_one() {
        let limiter = RateLimiter::new();
        let limit = Limit::per_secs(1, 60);
        let start = Instant::now();
        limiter.record_at("k", limit, start);
        assert_eq!(
            limiter.check_at("k", limit, start + Duration::from_secs(59)),
            Err(1)
        );
        let later = start + Duration::from_secs(60);
        assert!(limiter.check_at("k", limit, later).is_ok());
        limiter.record_at("k", limit, later);
        assert!(
            limiter.check_at("k", limit, later).is_err(),
            "the new window counts afresh"
        );
    }
}
