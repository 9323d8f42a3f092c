//! The referral programme's settings (`[referral]` in the file): the generation rates, the window
//! in which an invitation code may still be bound, and the qualification switches.

use rust_decimal::Decimal;
use serde::Deserialize;

/// The referral programme (`[referral]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct ReferralConfig {
    /// Whether this instance runs the hourly rebate batch (off: fills wait for a run).
    pub enabled: bool,
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
            generation_rates: [Decimal::new(20, 2), Decimal::new(10, 2), Decimal::new(5, 2)],
            bind_window_days: 7,
            withhold_same_address: true,
            withhold_unverified: true,
        }
    }
}

impl ReferralConfig {
    /// Checks the rates (each ≥ 0, the sum below 1) and the window (≥ 0).
    pub fn check(&self) -> Result<(), String> {
        check_rates(&self.generation_rates)?;
        if self.bind_window_days < 0 {
            return Err("bind_window_days must not be negative".into());
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
