//! Maintenance margin tiers (brackets): the table, its validation, the `cum` rule, and the lookups
//! the futures formulas need (the tier of a notional, the maintenance margin, the largest notional
//! a leverage allows).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::fixed::FixedTiers;
use super::num::{self, add, mul, sub};
use crate::error::CoreError;

/// One row of a symbol's maintenance margin table. Tiers are configuration, per symbol.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarginTier {
    /// Where the tier starts, as a notional (|size| × price, quote asset); 0 for the first tier.
    #[serde(deserialize_with = "num::decimal")]
    pub notional_floor: Decimal,
    /// The notional where the tier ends; a notional equal to the cap still belongs to this tier.
    #[serde(deserialize_with = "num::decimal")]
    pub notional_cap: Decimal,
    /// The highest leverage allowed while the position's notional lies in this tier.
    #[serde(deserialize_with = "num::decimal")]
    pub max_leverage: Decimal,
    /// The maintenance margin rate as a fraction (`0.004` for 0.40%).
    #[serde(deserialize_with = "num::decimal")]
    pub mmr: Decimal,
    /// The maintenance amount: `floor × (MMR − previous MMR) + previous cum`, 0 in the first tier.
    #[serde(deserialize_with = "num::decimal")]
    pub cum: Decimal,
}

/// Checks that `tiers` is a usable table, in order:
///
/// - it has at least one tier ([`CoreError::NoMarginTiers`]);
/// - the first tier starts at 0 and every other one where the previous one ends
///   ([`CoreError::MarginTierGap`]);
/// - every cap lies above its floor, every MMR is from 0 (inclusive) to 1 (exclusive), every max
///   leverage is at least 1, MMRs never fall and max leverages never rise from one tier to the next
///   ([`CoreError::InvalidMarginTier`]);
/// - every `cum` is the one the rule gives ([`CoreError::MarginTierCum`]), which makes the
///   maintenance margin continuous across tier boundaries.
///
/// Together these make the maintenance margin a continuous, convex function of the notional, which
/// is what lets [`liquidation_price`](super::liquidation_price) settle on exactly one tier. Tiers
/// are numbered from 1 in the errors, as tables show them.
pub fn validate_tiers(tiers: &[MarginTier]) -> Result<(), CoreError> {
    if tiers.is_empty() {
        return Err(CoreError::NoMarginTiers);
    }
    let mut previous: Option<&MarginTier> = None;
    for (index, tier) in tiers.iter().enumerate() {
        let number = index + 1;
        let expected_floor = previous.map_or(Decimal::ZERO, |p| p.notional_cap);
        if tier.notional_floor != expected_floor {
            return Err(CoreError::MarginTierGap { tier: number });
        }
        let well_formed = tier.notional_cap > tier.notional_floor
            && tier.mmr >= Decimal::ZERO
            && tier.mmr < Decimal::ONE
            && tier.max_leverage >= Decimal::ONE
            && previous.is_none_or(|p| tier.mmr >= p.mmr && tier.max_leverage <= p.max_leverage);
        if !well_formed {
            return Err(CoreError::InvalidMarginTier { tier: number });
        }
        let expected_cum = rule_cum(tier, previous)?;
        if tier.cum != expected_cum {
            return Err(CoreError::MarginTierCum {
                tier: number,
                expected: expected_cum.normalize().to_string(),
            });
        }
        previous = Some(tier);
    }
    Ok(())
}

/// A symbol's tier table that passed [`validate_tiers`], kept so that repeated calculations with
/// the same table (a positions panel re-pricing on every mark price) validate it once.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TierTable {
    tiers: Vec<MarginTier>,
    // The same table as integers, for the fixed-point liquidation price; `None` when out of range.
    fixed: Option<FixedTiers>,
}

impl TierTable {
    /// Validates `tiers` with [`validate_tiers`] and keeps them.
    pub fn new(tiers: Vec<MarginTier>) -> Result<Self, CoreError> {
        validate_tiers(&tiers)?;
        let fixed = FixedTiers::new(&tiers);
        Ok(Self { tiers, fixed })
    }

    /// The tiers, valid and in order.
    pub fn tiers(&self) -> &[MarginTier] {
        &self.tiers
    }

    /// The tiers as scaled integers, when they fit the fixed-point path.
    pub(super) fn fixed(&self) -> Option<&FixedTiers> {
        self.fixed.as_ref()
    }
}

/// Sets every tier's `cum` by the rule `cum_n = floor_n × (MMR_n − MMR_(n−1)) + cum_(n−1)`
/// (`cum_1 = 0`) from the floors and MMRs, then validates the table with [`validate_tiers`].
pub fn derive_cum(tiers: &mut [MarginTier]) -> Result<(), CoreError> {
    for index in 0..tiers.len() {
        let (before, rest) = tiers.split_at_mut(index);
        rest[0].cum = rule_cum(&rest[0], before.last())?;
    }
    validate_tiers(tiers)
}

fn rule_cum(tier: &MarginTier, previous: Option<&MarginTier>) -> Result<Decimal, CoreError> {
    match previous {
        None => Ok(Decimal::ZERO),
        Some(p) => add(mul(tier.notional_floor, sub(tier.mmr, p.mmr)?)?, p.cum),
    }
}

/// The index of the tier `notional` falls into: the first whose cap is at least `notional` (so a
/// notional on a boundary belongs to the lower tier, and anything at or below 0 to the first), or
/// the last tier beyond the table. `tiers` must not be empty.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn tier_index(tiers: &[MarginTier], notional: Decimal) -> usize {
    tiers
        .iter()
        .position(|t| notional <= t.notional_cap)
        .unwrap_or(tiers.len() - 1)
}

/// The tier `notional` falls into: the first whose cap is at least `notional` (so a notional on a
/// boundary belongs to the lower tier), else the last one. `None` only for an empty table.
pub fn tier_for(tiers: &[MarginTier], notional: Decimal) -> Option<&MarginTier> {
    (!tiers.is_empty()).then(|| &tiers[tier_index(tiers, notional)])
}

/// `notional × MMR − cum` with the tier `notional` falls into. `tiers` must not be empty.
pub(super) fn maintenance_margin(
    tiers: &[MarginTier],
    notional: Decimal,
) -> Result<Decimal, CoreError> {
    let tier = &tiers[tier_index(tiers, notional)];
    sub(mul(notional, tier.mmr)?, tier.cum)
}

/// The largest notional a position may reach at `leverage`: the cap of the last tier whose max
/// leverage is at least `leverage` (max leverages never rise, so those tiers come first), or 0 when
/// `leverage` exceeds every tier's.
pub(super) fn max_notional(tiers: &[MarginTier], leverage: Decimal) -> Decimal {
    tiers
        .iter()
        .take_while(|t| t.max_leverage >= leverage)
        .last()
        .map_or(Decimal::ZERO, |t| t.notional_cap)
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn tier(floor: &str, cap: &str, lev: &str, mmr: &str, cum: &str) -> MarginTier {
        MarginTier {
            notional_floor: d(floor),
            notional_cap: d(cap),
            max_leverage: d(lev),
            mmr: d(mmr),
            cum: d(cum),
        }
    }

    /// The BTCUSDT table of futures-math.md.
    pub fn btc_tiers() -> Vec<MarginTier> {
        vec![
            tier("0", "50000", "125", "0.004", "0"),
            tier("50000", "250000", "100", "0.005", "50"),
            tier("250000", "1000000", "50", "0.01", "1300"),
            tier("1000000", "10000000", "20", "0.025", "16300"),
            tier("10000000", "20000000", "10", "0.05", "266300"),
        ]
    }

    #[test]
    fn the_reference_table_is_valid_and_its_cum_follows_the_rule() {
        assert_eq!(validate_tiers(&btc_tiers()), Ok(()));
        let mut derived = btc_tiers();
        for t in &mut derived {
            t.cum = d("123");
        }
        derive_cum(&mut derived).unwrap();
        assert_eq!(derived, btc_tiers());
    }

    #[test]
    fn rejects_bad_tables() {
        assert_eq!(validate_tiers(&[]), Err(CoreError::NoMarginTiers));

        let mut t = btc_tiers();
        t[0].notional_floor = d("1");
        assert_eq!(
            validate_tiers(&t),
            Err(CoreError::MarginTierGap { tier: 1 })
        );

        let mut t = btc_tiers();
        t.swap(1, 2);
        assert_eq!(
            validate_tiers(&t),
            Err(CoreError::MarginTierGap { tier: 2 })
        );

        let mut t = btc_tiers();
        t[2].notional_floor = d("250001");
        assert_eq!(
            validate_tiers(&t),
            Err(CoreError::MarginTierGap { tier: 3 })
        );

        for change in [
            |t: &mut MarginTier| t.notional_cap = t.notional_floor,
            |t: &mut MarginTier| t.mmr = Decimal::ONE,
            |t: &mut MarginTier| t.mmr = d("-0.001"),
            |t: &mut MarginTier| t.max_leverage = d("0.5"),
            |t: &mut MarginTier| t.max_leverage = d("126"),
            |t: &mut MarginTier| t.mmr = d("0.0039"),
        ] {
            let mut t = btc_tiers();
            change(&mut t[1]);
            assert_eq!(
                validate_tiers(&t),
                Err(CoreError::InvalidMarginTier { tier: 2 })
            );
        }

        let mut t = btc_tiers();
        t[3].cum = d("16000");
        assert_eq!(
            validate_tiers(&t),
            Err(CoreError::MarginTierCum {
                tier: 4,
                expected: "16300".into()
            })
        );
        let mut t = btc_tiers();
        t[0].cum = d("1");
        assert_eq!(
            validate_tiers(&t),
            Err(CoreError::MarginTierCum {
                tier: 1,
                expected: "0".into()
            })
        );
    }

    #[test]
    fn a_notional_on_a_cap_belongs_to_the_lower_tier() {
        let t = btc_tiers();
        assert_eq!(tier_index(&t, d("-5")), 0);
        assert_eq!(tier_index(&t, Decimal::ZERO), 0);
        assert_eq!(tier_index(&t, d("50000")), 0);
        assert_eq!(tier_index(&t, d("50000.01")), 1);
        assert_eq!(tier_index(&t, d("20000000")), 4);
        assert_eq!(tier_index(&t, d("99999999")), 4);
        assert_eq!(tier_for(&t, d("300000")).unwrap().mmr, d("0.01"));
        assert_eq!(tier_for(&[], d("1")), None);
    }

    #[test]
    fn maintenance_margin_is_continuous_at_boundaries() {
        let t = btc_tiers();
        assert_eq!(maintenance_margin(&t, d("50000")).unwrap(), d("200"));
        // Just above the boundary, tier 2: 50000.01 × 0.005 − 50.
        assert_eq!(
            maintenance_margin(&t, d("50000.01")).unwrap(),
            d("200.00005")
        );
        assert_eq!(maintenance_margin(&t, d("250000")).unwrap(), d("1200"));
        assert_eq!(maintenance_margin(&t, d("1000000")).unwrap(), d("8700"));
    }

    #[test]
    fn max_notional_follows_the_leverage() {
        let t = btc_tiers();
        assert_eq!(max_notional(&t, d("125")), d("50000"));
        assert_eq!(max_notional(&t, d("101")), d("50000"));
        assert_eq!(max_notional(&t, d("100")), d("250000"));
        assert_eq!(max_notional(&t, d("20")), d("10000000"));
        assert_eq!(max_notional(&t, d("1")), d("20000000"));
        assert_eq!(max_notional(&t, d("126")), Decimal::ZERO);
    }
}
