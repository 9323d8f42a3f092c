//! The liquidation price on scaled integers: a position given as `mantissa × 10^−scale` numbers
//! ([`ScaledPosition`]) and a fixed-point path on `i128` that gives exactly what the `Decimal` path
//! ([`liquidation_price_in`]) gives, falling back to it whenever it cannot be sure.
//!
//! The fast path keeps every sum and product the `Decimal` path forms below 2⁹⁶ at a scale of at
//! most 28, where `Decimal` arithmetic is exact, so both see the same numerator and denominator.
//! Only the division differs: `Decimal` rounds the quotient to its ~28 digits, the fast path keeps
//! it as an exact fraction. The two can therefore disagree only where a rounded quotient could fall
//! on the other side of a decision: a rounding midpoint of the result, or a tier cap in the re-check.
//! The fast path measures its distance to each such boundary and hands the position to the `Decimal`
//! path when that distance is within a bound far above `Decimal`'s error (and on any overflow, out of
//! range input or input error), so both give the same digits, `None` and errors (proptest in
//! `props.rs`).

use rust_decimal::Decimal;

use super::futures::{MarginMode, Position, Side, liquidation_price_in};
use super::tiers::{MarginTier, TierTable};
use crate::error::CoreError;

/// The largest scale a [`Decimal`] holds.
const MAX_SCALE: u32 = 28;

/// `Decimal`'s mantissa bound: below it (at a scale of at most 28) its arithmetic is exact.
const LIMIT: i128 = 1 << 96;

/// Guard digits kept below the rounding unit to measure the distance to a midpoint.
const GUARD: u32 = 9;

/// `10^n` for `n` up to 38.
const POW10: [i128; 39] = {
    let mut table = [1_i128; 39];
    let mut n = 1;
    while n < 39 {
        table[n] = table[n - 1] * 10;
        n += 1;
    }
    table
};

/// A decimal as a scaled integer: `mantissa × 10^−scale`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Scaled {
    /// The digits, sign included.
    pub mantissa: i64,
    /// The number of decimals, 0 to 28.
    pub scale: u32,
}

impl Scaled {
    /// The decimal, or [`CoreError::IntegerOutOfRange`] naming `name` for a scale above 28.
    pub fn to_decimal(self, name: &'static str) -> Result<Decimal, CoreError> {
        Decimal::try_from_i128_with_scale(i128::from(self.mantissa), self.scale).map_err(|_| {
            CoreError::IntegerOutOfRange {
                name,
                value: self.scale.to_string(),
                min: 0,
                max: i64::from(MAX_SCALE),
            }
        })
    }
}

/// A [`Position`] and its tick size as scaled integers, the input of [`liquidation_price_scaled`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ScaledPosition {
    /// Long or short.
    pub side: Side,
    /// Isolated or cross.
    pub margin_mode: MarginMode,
    /// As [`Position::size`].
    pub size: Scaled,
    /// As [`Position::entry_price`].
    pub entry_price: Scaled,
    /// As [`Position::leverage`].
    pub leverage: Scaled,
    /// As [`Position::wallet_balance`].
    pub wallet_balance: Scaled,
    /// As [`Position::other_maintenance_margin`].
    pub other_maintenance_margin: Option<Scaled>,
    /// As [`Position::other_unrealized_pnl`].
    pub other_unrealized_pnl: Option<Scaled>,
    /// As the tick size of [`liquidation_price_in`].
    pub tick_size: Option<Scaled>,
}

impl ScaledPosition {
    /// The same position in decimals, and its tick size; a scale above 28 is
    /// [`CoreError::IntegerOutOfRange`] naming the field's scale (`sizeScale`, …), in field order.
    pub fn to_decimal(&self) -> Result<(Position, Option<Decimal>), CoreError> {
        let optional = |value: Option<Scaled>, name| value.map(|v| v.to_decimal(name)).transpose();
        let position = Position {
            side: self.side,
            size: self.size.to_decimal("sizeScale")?,
            entry_price: self.entry_price.to_decimal("entryPriceScale")?,
            leverage: self.leverage.to_decimal("leverageScale")?,
            margin_mode: self.margin_mode,
            wallet_balance: self.wallet_balance.to_decimal("walletBalanceScale")?,
            other_maintenance_margin: optional(
                self.other_maintenance_margin,
                "otherMaintenanceMarginScale",
            )?,
            other_unrealized_pnl: optional(self.other_unrealized_pnl, "otherUnrealizedPnlScale")?,
        };
        Ok((position, optional(self.tick_size, "tickSizeScale")?))
    }
}

/// [`liquidation_price_in`] for a position given as scaled integers: the same price, `None` or
/// error, computed on `i128` when the inputs allow it and by the `Decimal` path otherwise.
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn liquidation_price_scaled(
    tiers: &TierTable,
    position: &ScaledPosition,
) -> Result<Option<Decimal>, CoreError> {
    if let Some(fixed) = tiers.fixed()
        && let Some(price) = fast_liquidation_price(fixed, position)
    {
        return Ok(price);
    }
    let (position, tick) = position.to_decimal()?;
    liquidation_price_in(tiers, &position, tick)
}

/// A tier table as integers at one scale per column, when every value fits.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct FixedTiers {
    mmr_scale: u32,
    cum_scale: u32,
    cap_scale: u32,
    /// `(mmr, cum, cap)` of each tier, at the scales above.
    rows: Vec<(i128, i128, i128)>,
}

impl FixedTiers {
    /// The table at common scales, or `None` when a value would leave `Decimal`'s exact range.
    pub(super) fn new(tiers: &[MarginTier]) -> Option<Self> {
        let scale = |get: fn(&MarginTier) -> Decimal| tiers.iter().map(|t| get(t).scale()).max();
        let mmr_scale = scale(|t| t.mmr)?;
        let cum_scale = scale(|t| t.cum)?;
        let cap_scale = scale(|t| t.notional_cap)?;
        let at = |value: Decimal, to: u32| rescale(value.mantissa(), value.scale(), to);
        let rows = tiers
            .iter()
            .map(|t| {
                Some((
                    at(t.mmr, mmr_scale)?,
                    at(t.cum, cum_scale)?,
                    at(t.notional_cap, cap_scale)?,
                ))
            })
            .collect::<Option<Vec<_>>>()?;
        Some(Self {
            mmr_scale,
            cum_scale,
            cap_scale,
            rows,
        })
    }
}

/// `value × 10^(to − from)` when `to ≥ from` and the result stays below [`LIMIT`].
#[cfg_attr(optimize_hot, optimize(speed))]
fn rescale(value: i128, from: u32, to: u32) -> Option<i128> {
    let scaled = value.checked_mul(*POW10.get(to.checked_sub(from)? as usize)?)?;
    fits(scaled)
}

/// `value` when `|value| < 2⁹⁶`.
#[cfg_attr(optimize_hot, optimize(speed))]
fn fits(value: i128) -> Option<i128> {
    (value.unsigned_abs() < LIMIT as u128).then_some(value)
}

/// The liquidation price on integers: `Some(result)` exactly as the `Decimal` path gives it, or
/// `None` to let that path decide (an input it refuses, a value out of the exact range, a quotient
/// too close to a rounding midpoint or a tier cap).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn fast_liquidation_price(
    tiers: &FixedTiers,
    p: &ScaledPosition,
) -> Option<Option<Decimal>> {
    let isolated = p.margin_mode == MarginMode::Isolated;
    let zero = Scaled {
        mantissa: 0,
        scale: 0,
    };
    let cross_only = |value: Option<Scaled>| {
        if isolated {
            zero
        } else {
            value.unwrap_or(zero)
        }
    };
    let (size, entry, wallet) = (p.size, p.entry_price, p.wallet_balance);
    let (other_mm, other_upnl) = (
        cross_only(p.other_maintenance_margin),
        cross_only(p.other_unrealized_pnl),
    );
    // The range checks of `Position::check` and the tick's: any failure is the Decimal path's error.
    let in_range = size.mantissa > 0
        && entry.mantissa > 0
        && p.leverage.mantissa > 0
        && wallet.mantissa >= 0
        && other_mm.mantissa >= 0
        && p.tick_size.is_none_or(|t| t.mantissa > 0 && t.scale <= 18)
        && [size, entry, p.leverage, wallet]
            .iter()
            .chain(&p.other_maintenance_margin)
            .chain(&p.other_unrealized_pnl)
            .all(|v| v.scale <= MAX_SCALE);
    if !in_range {
        return None;
    }
    let s = i128::from(size.mantissa);
    let a = size.scale;
    // Size at most 10¹⁵ keeps `Decimal`'s error on a notional far below the cap tolerance.
    if POW10.get(15 + a as usize).is_some_and(|&limit| s > limit) {
        return None;
    }
    let signed_size = if p.side == Side::Long { s } else { -s };

    // The numerator without the tier's cum, at scale q: WB − TMM + UPNL − side × size × EP.
    let product_scale = a + entry.scale;
    let q = wallet
        .scale
        .max(other_mm.scale)
        .max(other_upnl.scale)
        .max(tiers.cum_scale)
        .max(product_scale);
    if q > MAX_SCALE {
        return None;
    }
    let entry_notional = fits(s.checked_mul(i128::from(entry.mantissa))?)?;
    let w = rescale(i128::from(wallet.mantissa), wallet.scale, q)?;
    let tmm = rescale(i128::from(other_mm.mantissa), other_mm.scale, q)?;
    let upnl = rescale(i128::from(other_upnl.mantissa), other_upnl.scale, q)?;
    let signed_notional = rescale(
        if p.side == Side::Long {
            entry_notional
        } else {
            -entry_notional
        },
        product_scale,
        q,
    )?;
    let base = fits(fits(fits(w - tmm)? + upnl)? - signed_notional)?;

    let r = tiers.mmr_scale;
    if a + r > MAX_SCALE {
        return None;
    }
    let one = POW10[r as usize];
    // LP of tier `index` as an exact fraction `num / den` with `den > 0`.
    let solve = |index: usize| -> Option<(i128, i128)> {
        let (mmr, cum, _) = tiers.rows[index];
        let numerator = fits(base + rescale(cum, tiers.cum_scale, q)?)?;
        let denominator = fits(fits(s.checked_mul(mmr)?)? - signed_size.checked_mul(one)?)?;
        if denominator == 0 {
            return None;
        }
        // numerator / 10^q ÷ (denominator / 10^(a+r)).
        let (num, den) = if a + r >= q {
            (
                numerator.checked_mul(POW10[(a + r - q) as usize])?,
                denominator,
            )
        } else {
            (
                numerator,
                denominator.checked_mul(POW10[(q - a - r) as usize])?,
            )
        };
        let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
        // |LP| ≤ 10²⁰ and |size × LP| ≤ 10²⁰: the `Decimal` path's division and notional cannot
        // overflow where this one goes on.
        let bound = den.checked_mul(POW10[20])?;
        (num.checked_abs()? <= bound
            && s.checked_mul(num.checked_abs()?)? <= bound.checked_mul(POW10[a as usize])?)
        .then_some((num, den))
    };

    let mut index = tier_of(tiers, entry_notional, product_scale)?;
    let mut price = solve(index)?;
    for _ in 0..tiers.rows.len() {
        let at_price = tier_at_price(tiers, s, a, price)?;
        if at_price == index {
            break;
        }
        index = at_price;
        price = solve(index)?;
    }
    let (num, den) = price;
    if num <= 0 {
        return Some(None);
    }
    round_positive(num, den, p.tick_size)
}

/// The tier of an exact notional `value × 10^−scale` (the first cap at or above it, else the last).
#[cfg_attr(optimize_hot, optimize(speed))]
fn tier_of(tiers: &FixedTiers, value: i128, scale: u32) -> Option<usize> {
    let common = scale.max(tiers.cap_scale);
    let value = value.checked_mul(POW10[(common - scale) as usize])?;
    let factor = POW10[(common - tiers.cap_scale) as usize];
    for (index, &(_, _, cap)) in tiers.rows.iter().enumerate() {
        if value <= cap.checked_mul(factor)? {
            return Some(index);
        }
    }
    Some(tiers.rows.len() - 1)
}

/// The tier of the notional `size × num / den` (`s × 10^−a` the size, 0 for a price at or below
/// 0), or `None` when that notional lies within 10⁻¹⁰ of a cap or above 10¹⁵, where the `Decimal`
/// path's rounded price could pick the other tier.
#[cfg_attr(optimize_hot, optimize(speed))]
fn tier_at_price(tiers: &FixedTiers, s: i128, a: u32, (num, den): (i128, i128)) -> Option<usize> {
    if num <= 0 {
        return Some(0);
    }
    // notional = s × num / (den × 10^a); against cap × 10^−k: compare s × num × 10^k with
    // cap × den × 10^a, both scaled by 10^k.
    let k = tiers.cap_scale;
    let lhs = s.checked_mul(num)?.checked_mul(POW10[k as usize])?;
    let den_a = den.checked_mul(POW10[a as usize])?;
    let unit = den_a.checked_mul(POW10[k as usize])?;
    if lhs > unit.checked_mul(POW10[15])? {
        return None;
    }
    let mut found = tiers.rows.len() - 1;
    for (index, &(_, _, cap)) in tiers.rows.iter().enumerate() {
        let diff = lhs.checked_sub(cap.checked_mul(den_a)?)?;
        // |notional − cap| ≤ 10⁻¹⁰: too close to call.
        if diff.checked_abs()?.checked_mul(POW10[10])? <= unit {
            return None;
        }
        if diff < 0 {
            found = index;
            break;
        }
    }
    Some(found)
}

/// The positive price `num / den` rounded as the `Decimal` path rounds it (to the tick, midpoint
/// away from zero, else to 8 decimals), normalized; `Some(None)` when it rounds to 0, `None` when
/// the quotient lies too close to a midpoint to be sure.
#[cfg_attr(optimize_hot, optimize(speed))]
fn round_positive(num: i128, den: i128, tick: Option<Scaled>) -> Option<Option<Decimal>> {
    // The price in rounding units: num / den × 10^8, or num / den / (tick × 10^−ts).
    let (x, y, step, scale) = match tick {
        None => (num.checked_mul(POW10[8])?, den, 1, 8),
        Some(t) => (
            num.checked_mul(POW10[t.scale as usize])?,
            den.checked_mul(i128::from(t.mantissa))?,
            i128::from(t.mantissa),
            t.scale,
        ),
    };
    let z = x.checked_mul(POW10[GUARD as usize])?;
    let units = z / y;
    let exact = z % y == 0;
    let (steps, fraction) = (units / POW10[GUARD as usize], units % POW10[GUARD as usize]);
    // Beyond 10¹⁵ steps `Decimal`'s ~28 digits would come within the guard digits.
    if steps >= POW10[15] {
        return None;
    }
    let half = 5 * POW10[GUARD as usize - 1];
    if fraction == half - 1 || (fraction == half && !exact) {
        return None;
    }
    let rounded = steps + i128::from(fraction >= half);
    if rounded == 0 {
        return Some(None);
    }
    let value = Decimal::try_from_i128_with_scale(rounded.checked_mul(step)?, scale).ok()?;
    Some(Some(value.normalize()))
}
