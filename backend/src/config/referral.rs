//! The referral programme's settings (`[referral]` in the file): the generation rates, the window
//! in which an invitation code may still be bound, the batch's period and the qualification
//! switches. The qualification switches decide who is paid, so they are deployment configuration
//! (the file, or the `EXCHANGE_REFERRAL_*` variables read by [`ReferralConfig::apply_env`]), the
//! same on every instance from its start: docs/operations.md says how an operator changes them.

use rust_decimal::Decimal;
use serde::Deserialize;

use super::{ConfigError, parse_env};

/// The referral programme (`[referral]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReferralConfig {
    /// Whether this instance runs the hourly rebate batch (off: fills wait for a run).
    pub enabled: bool,
    /// Seconds between two attempts of the batch on an instance (at least 1). A run pays the fills
    /// before the start of the clock's hour, so a shorter period only pays them sooner after the
    /// hour; the order-load benchmark shortens it to keep the batch busy during its window.
    pub batch_every_secs: u64,
    /// The share of each fee after the security fund paid to generations 1, 2 and 3 (fractions:
    /// `0.2` is 20 %); each at least 0, together below 1.
    pub generation_rates: [Decimal; 3],
    /// Days after registration within which an invitation code may still be bound.
    pub bind_window_days: i64,
    /// Withhold a rebate when the invitee and the ancestor logged in from the same IP address.
    pub withhold_same_address: bool,
    /// Withhold a rebate when the invitee has not passed identity verification (KYC level 0).
    pub withhold_unverified: bool,
}

impl Default for ReferralConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            batch_every_secs: 60,
            generation_rates: [Decimal::new(20, 2), Decimal::new(10, 2), Decimal::new(5, 2)],
            bind_window_days: 7,
            withhold_same_address: true,
            withhold_unverified: true,
        }
    }
}

impl ReferralConfig {
    /// Checks the rates (each ≥ 0, the sum below 1), the window (≥ 0) and the period (≥ 1 s).
    pub fn check(&self) -> Result<(), String> {
        check_rates(&self.generation_rates)?;
        if self.bind_window_days < 0 {
            return Err("bind_window_days must not be negative".into());
        }
        if self.batch_every_secs == 0 {
            return Err("batch_every_secs must be at least 1".into());
        }
        Ok(())
    }

    /// The environment's overrides: `EXCHANGE_REFERRAL_ENABLED`,
    /// `EXCHANGE_REFERRAL_BATCH_EVERY_SECS`, `EXCHANGE_REFERRAL_WITHHOLD_SAME_ADDRESS` and
    /// `EXCHANGE_REFERRAL_WITHHOLD_UNVERIFIED`.
    pub fn apply_env(&mut self, env: &impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        let switch = |name: &'static str, target: &mut bool| {
            if let Some(value) = env(name) {
                *target = parse_env(name, value, "true or false")?;
            }
            Ok::<_, ConfigError>(())
        };
        switch("EXCHANGE_REFERRAL_ENABLED", &mut self.enabled)?;
        switch(
            "EXCHANGE_REFERRAL_WITHHOLD_SAME_ADDRESS",
            &mut self.withhold_same_address,
        )?;
        switch(
            "EXCHANGE_REFERRAL_WITHHOLD_UNVERIFIED",
            &mut self.withhold_unverified,
        )?;
        if let Some(value) = env("EXCHANGE_REFERRAL_BATCH_EVERY_SECS") {
            self.batch_every_secs = parse_env(
                "EXCHANGE_REFERRAL_BATCH_EVERY_SECS",
                value,
                "seconds (an integer)",
            )?;
        }
        Ok(())
    }
}

/// Checks three generation rates: each at least 0, together below 1 (a rebate can never reach the
/// fee). Agents' rates are checked by the same rule.
pub fn check_rates(rates: &[Decimal; 3]) -> Result<(), String> {
    if rates.iter().any(|r| r.is_sign_negative()) {
        return Err("generation_rates must each be at least 0".into());
    }
    let sum: Decimal = rates.iter().sum();
    if sum >= Decimal::ONE {
        return Err(format!(
            "generation_rates must add up to below 1, not {sum}"
        ));
    }
    Ok(())
}
