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
use crate::convert::number_text;
use crate::error::CoreError;

/// The largest scale a [`Decimal`] holds.
const MAX_SCALE: u32 = 28;

/// `Decimal`'s mantissa bound: below it (at a scale of at most 28) its arithmetic is exact.
const LIMIT: i128 = 1 << 96;

/// A quotient within `10^−GUARD` of a step of a rounding midpoint is left to the `Decimal` path.
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
    decimal_liquidation_price(tiers, position)
}

/// The `Decimal` path for a position the fixed-point path hands over; not inlined, so that the wasm
/// export does not carry a second copy of it.
#[inline(never)]
fn decimal_liquidation_price(
    tiers: &TierTable,
    position: &ScaledPosition,
) -> Result<Option<Decimal>, CoreError> {
    let (position, tick) = position.to_decimal()?;
    liquidation_price_in(tiers, &position, tick)
}

/// The largest integer an `f64` holds exactly with all its neighbours: `2⁵³ − 1`
/// (JavaScript's `Number.MAX_SAFE_INTEGER`).
pub const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// A JavaScript number as the mantissa of a [`Scaled`]: [`CoreError::NotAnInteger`] naming `name`
/// for a fraction, `NaN` or an infinity, [`CoreError::IntegerOutOfRange`] beyond ±[`MAX_SAFE_INTEGER`]
/// (where a number no longer tells its digits exactly). The scale is checked later, by
/// [`ScaledPosition::to_decimal`]. The error's value is written by
/// [`number_text`](crate::convert::number_text), as `f64`'s `Display` writes it.
pub fn scaled_from_f64(name: &'static str, mantissa: f64, scale: u32) -> Result<Scaled, CoreError> {
    if mantissa.fract() != 0.0 || !mantissa.is_finite() || mantissa.abs() > MAX_SAFE_INTEGER as f64
    {
        return Err(not_a_mantissa(name, mantissa));
    }
    // Exact: a whole number within ±2⁵³.
    Ok(Scaled {
        mantissa: mantissa as i64,
        scale,
    })
}

/// The error of [`scaled_from_f64`], out of line: seven inlined copies of it would cost the wasm
/// file more than the call costs an error.
#[cold]
#[inline(never)]
fn not_a_mantissa(name: &'static str, mantissa: f64) -> CoreError {
    if mantissa.fract() != 0.0 || !mantissa.is_finite() {
        CoreError::NotAnInteger {
            name,
            value: number_text(mantissa),
        }
    } else {
        CoreError::IntegerOutOfRange {
            name,
            value: number_text(mantissa),
            min: -MAX_SAFE_INTEGER,
            max: MAX_SAFE_INTEGER,
        }
    }
}

/// The scale of the liquidation price's mantissa in [`price_mantissa`]: the tick's scale, or 8
/// ([`RESULT_DECIMALS`](super::RESULT_DECIMALS)) without a tick.
pub fn result_scale(tick_size: Option<Scaled>) -> u32 {
    tick_size.map_or(super::RESULT_DECIMALS, |t| t.scale)
}

/// A liquidation price as a JavaScript number: its mantissa at `scale` (the price is a multiple of
/// `10^−scale`, see [`result_scale`]), 0 for no liquidation price (a price is never 0), or
/// [`CoreError::IntegerOutOfRange`] naming `liquidationPrice` when that mantissa exceeds
/// [`MAX_SAFE_INTEGER`].
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn price_mantissa(price: Option<Decimal>, scale: u32) -> Result<f64, CoreError> {
    let Some(price) = price else {
        return Ok(0.0);
    };
    let mantissa = scale
        .checked_sub(price.scale())
        .and_then(|up| POW10.get(up as usize))
        .and_then(|factor| price.mantissa().checked_mul(*factor))
        .filter(|m| m.unsigned_abs() <= MAX_SAFE_INTEGER as u128);
    match mantissa {
        // Exact: within ±2⁵³.
        Some(m) => Ok(m as f64),
        None => Err(CoreError::IntegerOutOfRange {
            name: "liquidationPrice",
            value: price.to_string(),
            min: 1,
            max: MAX_SAFE_INTEGER,
        }),
    }
}

/// A JavaScript number and its scale: `(mantissa, scale)` for `mantissa × 10^−scale`.
pub type NumberAndScale = (f64, u32);

/// The liquidation price of a position given as numbers, as the mantissa [`price_mantissa`] gives
/// (at [`result_scale`] of the tick): the core of `MarginCalculator.liquidationPriceScaled`, where
/// no string crosses the boundary either way. `side` is `1` (long) or `−1` (short), else
/// [`CoreError::InvalidArgument`] naming `side`; each decimal is a whole number and its scale
/// ([`scaled_from_f64`]). The price, `None` (0) and errors are those of [`liquidation_price_in`] for
/// the same decimals, the number errors first, in argument order.
#[allow(clippy::too_many_arguments)] // the position's fields, one plain argument each
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn liquidation_price_mantissa(
    tiers: &TierTable,
    side: i32,
    cross: bool,
    size: NumberAndScale,
    entry_price: NumberAndScale,
    leverage: NumberAndScale,
    wallet_balance: NumberAndScale,
    other_maintenance_margin: Option<NumberAndScale>,
    other_unrealized_pnl: Option<NumberAndScale>,
    tick_size: Option<NumberAndScale>,
) -> Result<f64, CoreError> {
    let side = match side {
        1 => Side::Long,
        -1 => Side::Short,
        _ => return Err(CoreError::InvalidArgument { name: "side" }),
    };
    let number = |name, (mantissa, scale): NumberAndScale| scaled_from_f64(name, mantissa, scale);
    let optional = |name, value: Option<NumberAndScale>| value.map(|v| number(name, v)).transpose();
    let position = ScaledPosition {
        side,
        margin_mode: if cross {
            MarginMode::Cross
        } else {
            MarginMode::Isolated
        },
        size: number("size", size)?,
        entry_price: number("entryPrice", entry_price)?,
        leverage: number("leverage", leverage)?,
        wallet_balance: number("walletBalance", wallet_balance)?,
        other_maintenance_margin: optional("otherMaintenanceMargin", other_maintenance_margin)?,
        other_unrealized_pnl: optional("otherUnrealizedPnl", other_unrealized_pnl)?,
        tick_size: optional("tickSize", tick_size)?,
    };
    let price = liquidation_price_scaled(tiers, &position)?;
    price_mantissa(price, result_scale(position.tick_size))
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
    let scaled = mul(value, *POW10.get(to.checked_sub(from)? as usize)?)?;
    fits(scaled)
}

/// `a × b` when the magnitudes' bits add up to at most 126, so that it fits an `i128` with room
/// for a sum or difference of two such products; `None` otherwise (also for some products that
/// would fit: the caller then hands over to the `Decimal` path). No overflow-checked multiplication,
/// which costs a slow library call in wasm.
#[cfg_attr(optimize_hot, optimize(speed))]
fn mul(a: i128, b: i128) -> Option<i128> {
    let bits = 256 - a.unsigned_abs().leading_zeros() - b.unsigned_abs().leading_zeros();
    (bits <= 126).then(|| a.wrapping_mul(b))
}

/// `(x / y, x % y)` with one division, on 64 bits when both fit (one wasm instruction).
#[cfg_attr(optimize_hot, optimize(speed))]
fn divide(x: u128, y: u128) -> (u128, u128) {
    if (x | y) >> 64 == 0 {
        let (x, y) = (x as u64, y as u64);
        let q = x / y;
        (u128::from(q), u128::from(x - q * y))
    } else {
        let q = x / y;
        (q, x - q * y)
    }
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
    let entry_notional = fits(mul(s, i128::from(entry.mantissa))?)?;
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
        let denominator = fits(fits(mul(s, mmr)?)? - mul(signed_size, one)?)?;
        if denominator == 0 {
            return None;
        }
        // numerator / 10^q ÷ (denominator / 10^(a+r)).
        let (num, den) = if a + r >= q {
            (mul(numerator, POW10[(a + r - q) as usize])?, denominator)
        } else {
            (numerator, mul(denominator, POW10[(q - a - r) as usize])?)
        };
        let (num, den) = if den < 0 { (-num, -den) } else { (num, den) };
        // |LP| ≤ 10²⁰ and |size × LP| ≤ 10²⁰: the `Decimal` path's division and notional cannot
        // overflow where this one goes on.
        let bound = mul(den, POW10[20])?;
        (num.abs() <= bound && mul(s, num.abs())? <= mul(bound, POW10[a as usize])?)
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
    let value = mul(value, POW10[(common - scale) as usize])?;
    let factor = POW10[(common - tiers.cap_scale) as usize];
    for (index, &(_, _, cap)) in tiers.rows.iter().enumerate() {
        if value <= mul(cap, factor)? {
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
    let lhs = mul(mul(s, num)?, POW10[k as usize])?;
    let den_a = mul(den, POW10[a as usize])?;
    let unit = mul(den_a, POW10[k as usize])?;
    if lhs > mul(unit, POW10[15])? {
        return None;
    }
    let mut found = tiers.rows.len() - 1;
    for (index, &(_, _, cap)) in tiers.rows.iter().enumerate() {
        // Both sides below 2¹²⁶ (`mul`), so the difference fits.
        let diff = lhs - mul(cap, den_a)?;
        // |notional − cap| ≤ 10⁻¹⁰: too close to call.
        if mul(diff.abs(), POW10[10])? <= unit {
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
        None => (mul(num, POW10[8])?, den, 1, 8),
        Some(t) => (
            mul(num, POW10[t.scale as usize])?,
            mul(den, i128::from(t.mantissa))?,
            i128::from(t.mantissa),
            t.scale,
        ),
    };
    // Below 2⁹⁶, twice the remainder's distance to the midpoint times 10⁹ fits.
    if y >= LIMIT {
        return None;
    }
    let (steps, remainder) = divide(x as u128, y as u128);
    // Beyond 10¹⁵ steps `Decimal`'s ~28 digits would come near the 10⁻⁹ step of the check below.
    if steps >= POW10[15] as u128 {
        return None;
    }
    // |2 × remainder − y| / 2y is the distance to the midpoint in steps: at 0 the quotient is exact
    // (as `Decimal`'s is) and rounds away from zero; within 10⁻⁹ of a step it is too close to call.
    let twice = 2 * remainder;
    let distance = twice.abs_diff(y as u128);
    if distance != 0 && distance * POW10[GUARD as usize] as u128 <= 2 * y as u128 {
        return None;
    }
    let rounded = (steps + u128::from(twice >= y as u128)) as i128;
    if rounded == 0 {
        return Some(None);
    }
    let value = Decimal::try_from_i128_with_scale(mul(rounded, step)?, scale).ok()?;
    Some(Some(value.normalize()))
}
