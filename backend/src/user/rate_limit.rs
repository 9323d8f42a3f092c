//! Fixed-window rate limits per key (`login:account:…`, `code:ip:…`), in memory. One process holds
//! the counters; behind a load balancer each instance limits on its own (docs/operations.md).

use std::{
    collections::HashMap,
    sync::Mutex,
    time::{Duration, Instant},
};

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

/// Failed logins per account (any IP) in 15 minutes.
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

/// The counters.
#[derive(Default)]
pub struct RateLimiter {
    windows: Mutex<HashMap<String, (Instant, u32)>>,
    codes: CodeLimits,
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

    /// The code-sending limits in force.
    pub fn code_limits(&self) -> CodeLimits {
        self.codes
    }

    /// `Err(seconds until the window ends)` when `key` has used up `limit`; otherwise `Ok`.
    pub fn check(&self, key: &str, limit: Limit) -> Result<(), u64> {
        self.check_at(key, limit, Instant::now())
    }

    fn check_at(&self, key: &str, limit: Limit, now: Instant) -> Result<(), u64> {
        let windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        match windows.get(key) {
            Some((start, count))
                if now.duration_since(*start) < limit.window && *count >= limit.max =>
            {
                let left = limit.window - now.duration_since(*start);
                Err(left.as_secs().max(1))
            }
            _ => Ok(()),
        }
    }

    /// Counts one event of `key`.
    pub fn record(&self, key: &str, limit: Limit) {
        self.record_at(key, limit, Instant::now());
    }

    fn record_at(&self, key: &str, limit: Limit, now: Instant) {
        let mut windows = self.windows.lock().unwrap_or_else(|e| e.into_inner());
        if windows.len() > 100_000 {
            windows.retain(|_, (start, _)| now.duration_since(*start) < Duration::from_secs(3600));
        }
        let entry = windows.entry(key.to_owned()).or_insert((now, 0));
        if now.duration_since(entry.0) >= limit.window {
            *entry = (now, 0);
        }
        entry.1 += 1;
    }

    /// [`check`](Self::check) then [`record`](Self::record).
    pub fn hit(&self, key: &str, limit: Limit) -> Result<(), u64> {
        self.check(key, limit)?;
        self.record(key, limit);
        Ok(())
    }

    /// Forgets `key` (a successful login clears its account's failures).
    pub fn clear(&self, key: &str) {
        self.windows
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .remove(key);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_limit_holds_within_the_window_and_clears() {
        let limiter = RateLimiter::new();
        let limit = Limit::per_secs(2, 60);
        assert!(limiter.hit("k", limit).is_ok());
        assert!(limiter.hit("k", limit).is_ok());
        let wait = limiter.hit("k", limit).unwrap_err();
        assert!((1..=60).contains(&wait));
        assert!(limiter.hit("other", limit).is_ok());
        limiter.clear("k");
        assert!(limiter.hit("k", limit).is_ok());
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
