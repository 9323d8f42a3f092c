//! The user tiers' settings (`[tiers]` in the file): the published VIP thresholds and fee
//! discount, the account tiers' minimum deposits in USD, the merchants' default rebate rate and how
//! often the recompute job runs.

use rust_decimal::Decimal;
use serde::Deserialize;

/// The user tiers (`[tiers]`).
#[derive(Debug, Clone, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct TiersConfig {
    /// Whether this instance runs the periodic recompute job.
    pub enabled: bool,
    /// A user is VIP from this 30-day trading volume in USDT (spot and futures, both sides).
    pub vip_volume_usdt: Decimal,
    /// ... or from these assets valued in USDT (every account, live prices).
    pub vip_assets_usdt: Decimal,
    /// The fraction taken off a VIP's spot and futures trading fees (`0.2` is 20 %), 0 to 1.
    pub vip_fee_discount: Decimal,
    /// The minimum deposits in USD of the tiers starter, advanced and premium (basic is 0),
    /// ascending.
    pub account_tier_minimums: [Decimal; 3],
    /// Minutes between runs of the recompute job.
    pub recompute_minutes: u64,
    /// The generation-1 rebate rate a merchant is given when approved without a rate of its own.
    pub merchant_default_rate: Decimal,
}

impl Default for TiersConfig {
    fn default() -> Self {
        Self {
            enabled: true,
            vip_volume_usdt: Decimal::new(1_000_000, 0),
            vip_assets_usdt: Decimal::new(100_000, 0),
            vip_fee_discount: Decimal::new(20, 2),
            account_tier_minimums: [
                Decimal::new(1_000, 0),
                Decimal::new(10_000, 0),
                Decimal::new(100_000, 0),
            ],
            recompute_minutes: 60,
            merchant_default_rate: Decimal::new(30, 2),
        }
    }
}

impl TiersConfig {
    /// Checks the discount (0 to 1), the thresholds (≥ 0, minimums ascending), the merchant rate
    /// (0 to below 1) and the period (≥ 1 minute).
    pub fn check(&self) -> Result<(), String> {
        if self.vip_fee_discount.is_sign_negative() || self.vip_fee_discount > Decimal::ONE {
            return Err("vip_fee_discount must be between 0 and 1".into());
        }
        if self.vip_volume_usdt.is_sign_negative() || self.vip_assets_usdt.is_sign_negative() {
            return Err("vip thresholds must not be negative".into());
        }
        let m = &self.account_tier_minimums;
        if m[0].is_sign_negative() || m[0] > m[1] || m[1] > m[2] {
            return Err("account_tier_minimums must be at least 0 and ascending".into());
        }
        if self.merchant_default_rate.is_sign_negative()
            || self.merchant_default_rate >= Decimal::ONE
        {
            return Err("merchant_default_rate must be at least 0 and below 1".into());
        }
        if self.recompute_minutes == 0 {
            return Err("recompute_minutes must be at least 1".into());
        }
        Ok(())
    }
}
