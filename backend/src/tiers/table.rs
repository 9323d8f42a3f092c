//! The published tier table and its rules (pure): which account tier a deposit total reaches and
//! how far the next one is, and whether a user's volume or assets make it VIP.

use rust_decimal::Decimal;

use crate::config::TiersConfig;

/// The account tiers, lowest first.
pub const ACCOUNT_TIERS: [&str; 4] = ["basic", "starter", "advanced", "premium"];
/// `user.user_type` of a VIP.
pub const VIP: &str = "vip";
/// `user.user_type` of everyone else.
pub const NORMAL: &str = "normal";

/// Each account tier's minimum deposits in USD (basic is 0), lowest first.
pub fn minimums(config: &TiersConfig) -> [Decimal; 4] {
    let [s, a, p] = config.account_tier_minimums;
    [Decimal::ZERO, s, a, p]
}

/// Where a deposit total stands: its tier, the next tier and how much is missing to it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Standing {
    /// The tier reached.
    pub tier: &'static str,
    /// The next tier, if any.
    pub next: Option<&'static str>,
    /// The next tier's minimum.
    pub next_minimum: Option<Decimal>,
    /// Progress from this tier's minimum to the next one's, 0 to 100 (100 at the top tier),
    /// rounded down to 2 decimals.
    pub progress_percent: Decimal,
}

/// The account tier `deposits_usd` reaches under `config` and the progress to the next one.
pub fn standing(config: &TiersConfig, deposits_usd: Decimal) -> Standing {
    let minimums = minimums(config);
    let index = minimums
        .iter()
        .rposition(|m| deposits_usd >= *m)
        .unwrap_or(0);
    let Some(next_minimum) = minimums.get(index + 1).copied() else {
        return Standing {
            tier: ACCOUNT_TIERS[index],
            next: None,
            next_minimum: None,
            progress_percent: Decimal::ONE_HUNDRED,
        };
    };
    let from = minimums[index];
    let span = next_minimum - from;
    let progress = if span.is_zero() {
        Decimal::ONE_HUNDRED
    } else {
        ((deposits_usd - from).max(Decimal::ZERO) * Decimal::ONE_HUNDRED / span)
            .min(Decimal::ONE_HUNDRED)
            .round_dp_with_strategy(2, rust_decimal::RoundingStrategy::ToZero)
    };
    Standing {
        tier: ACCOUNT_TIERS[index],
        next: Some(ACCOUNT_TIERS[index + 1]),
        next_minimum: Some(next_minimum),
        progress_percent: progress.normalize(),
    }
}

/// Whether a 30-day volume or an asset valuation (both USDT) makes a user VIP: either reaching
/// its threshold does.
pub fn is_vip(config: &TiersConfig, volume_usdt: Decimal, assets_usdt: Decimal) -> bool {
    volume_usdt >= config.vip_volume_usdt || assets_usdt >= config.vip_assets_usdt
}

/// A fee rate after a VIP's discount: `rate × (1 − discount)`, never below zero.
pub fn discounted(rate: Decimal, discount: Decimal) -> Decimal {
    (rate * (Decimal::ONE - discount.clamp(Decimal::ZERO, Decimal::ONE)))
        .max(Decimal::ZERO)
        .normalize()
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    fn config() -> TiersConfig {
        TiersConfig {
            account_tier_minimums: [dec!(1000), dec!(10000), dec!(100000)],
            vip_volume_usdt: dec!(500),
            vip_assets_usdt: dec!(2000),
            ..TiersConfig::default()
        }
    }

    #[test]
    fn deposits_reach_each_tier_at_its_minimum() {
        let c = config();
        assert_eq!(standing(&c, dec!(0)).tier, "basic");
        assert_eq!(standing(&c, dec!(999.99)).tier, "basic");
        assert_eq!(standing(&c, dec!(1000)).tier, "starter");
        assert_eq!(standing(&c, dec!(10000)).tier, "advanced");
        assert_eq!(standing(&c, dec!(100000)).tier, "premium");
    }

    #[test]
    fn progress_runs_from_this_minimum_to_the_next() {
        let c = config();
        let s = standing(&c, dec!(5500));
        assert_eq!(s.next, Some("advanced"));
        assert_eq!(s.next_minimum, Some(dec!(10000)));
        assert_eq!(s.progress_percent, dec!(50));
        assert_eq!(standing(&c, dec!(1)).progress_percent, dec!(0.1));
        let top = standing(&c, dec!(1000000));
        assert_eq!((top.next, top.progress_percent), (None, dec!(100)));
    }

    #[test]
    fn volume_or_assets_make_a_vip() {
        let c = config();
        assert!(!is_vip(&c, dec!(499.99), dec!(1999.99)));
        assert!(is_vip(&c, dec!(500), dec!(0)));
        assert!(is_vip(&c, dec!(0), dec!(2000)));
    }

    #[test]
    fn a_discounted_rate_is_never_negative() {
        assert_eq!(discounted(dec!(0.001), dec!(0.2)), dec!(0.0008));
        assert_eq!(discounted(dec!(0.001), dec!(1)), dec!(0));
        assert_eq!(discounted(dec!(0.001), dec!(7)), dec!(0));
        assert_eq!(discounted(dec!(0.001), dec!(-1)), dec!(0.001));
    }
}
