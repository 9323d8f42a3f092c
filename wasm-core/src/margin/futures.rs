//! A USDT-margined futures position in one-way mode: its liquidation price (isolated and cross,
//! with the tier re-check) and the figures a positions panel shows next to it.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::num::{self, add, div, mul, non_negative, positive, result, round_to_step, sub};
use super::tiers::{MarginTier, TierTable, maintenance_margin, tier_index, validate_tiers};
use crate::error::CoreError;

/// The direction of a futures position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// Profits when the price rises (`side = +1` in the formulas).
    Long,
    /// Profits when the price falls (`side = −1` in the formulas).
    Short,
}

impl Side {
    /// `+1` for long, `−1` for short.
    #[cfg_attr(optimize_hot, optimize(speed))]
    pub fn sign(self) -> Decimal {
        match self {
            Self::Long => Decimal::ONE,
            Self::Short => Decimal::NEGATIVE_ONE,
        }
    }
}

impl std::str::FromStr for Side {
    type Err = CoreError;

    /// `"long"` or `"short"`, as the inputs spell them; anything else is
    /// [`CoreError::InvalidArgument`] naming `side`.
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn from_str(text: &str) -> Result<Self, CoreError> {
        match text {
            "long" => Ok(Self::Long),
            "short" => Ok(Self::Short),
            _ => Err(CoreError::InvalidArgument { name: "side" }),
        }
    }
}

/// How a position's margin is held.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarginMode {
    /// The position has its own margin; only that margin can be lost.
    Isolated,
    /// The position shares the cross wallet balance with every other cross position.
    Cross,
}

impl std::str::FromStr for MarginMode {
    type Err = CoreError;

    /// `"isolated"` or `"cross"`, as the inputs spell them; anything else is
    /// [`CoreError::InvalidArgument`] naming `marginMode`.
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn from_str(text: &str) -> Result<Self, CoreError> {
        match text {
            "isolated" => Ok(Self::Isolated),
            "cross" => Ok(Self::Cross),
            _ => Err(CoreError::InvalidArgument { name: "marginMode" }),
        }
    }
}

/// An open position (or the one an order form is about to open), decimals as strings.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Position {
    /// Long or short.
    pub side: Side,
    /// The absolute position size in the base asset, above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub size: Decimal,
    /// The average entry price, above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub entry_price: Decimal,
    /// The position's leverage, above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub leverage: Decimal,
    /// Isolated or cross.
    pub margin_mode: MarginMode,
    /// WB of the formulas, not negative: the isolated margin, or the cross wallet balance.
    #[serde(deserialize_with = "num::decimal")]
    pub wallet_balance: Decimal,
    /// Cross only (ignored when isolated): the maintenance margin of all other cross positions
    /// (TMM), not negative; absent means 0.
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub other_maintenance_margin: Option<Decimal>,
    /// Cross only (ignored when isolated): the unrealised PnL of all other cross positions (UPNL);
    /// absent means 0.
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub other_unrealized_pnl: Option<Decimal>,
}

/// A [`Position`] past its range checks, with TMM and UPNL at 0 when isolated.
#[derive(Debug, Clone, Copy)]
pub(super) struct Checked {
    pub side: Decimal,
    pub size: Decimal,
    pub entry_price: Decimal,
    pub leverage: Decimal,
    pub isolated: bool,
    pub wallet_balance: Decimal,
    pub other_mm: Decimal,
    pub other_upnl: Decimal,
}

impl Position {
    /// Range-checks the inputs, naming the first bad one.
    #[cfg_attr(optimize_hot, optimize(speed))]
    pub(super) fn check(&self) -> Result<Checked, CoreError> {
        let isolated = self.margin_mode == MarginMode::Isolated;
        let cross_only = |value: Option<Decimal>| {
            if isolated {
                Decimal::ZERO
            } else {
                value.unwrap_or_default()
            }
        };
        Ok(Checked {
            side: self.side.sign(),
            size: positive("size", self.size)?,
            entry_price: positive("entryPrice", self.entry_price)?,
            leverage: positive("leverage", self.leverage)?,
            isolated,
            wallet_balance: non_negative("walletBalance", self.wallet_balance)?,
            other_mm: non_negative(
                "otherMaintenanceMargin",
                cross_only(self.other_maintenance_margin),
            )?,
            other_upnl: cross_only(self.other_unrealized_pnl),
        })
    }
}

/// The input of [`liquidation_price`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct LiquidationInput {
    /// The position.
    pub position: Position,
    /// The symbol's maintenance margin tiers (see [`validate_tiers`]).
    pub tiers: Vec<MarginTier>,
    /// The symbol's price tick, above zero, to round the price to; absent: to 8 decimals.
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub tick_size: Option<Decimal>,
}

/// The estimated liquidation price of a one-way position; `None` when it has none (`--`).
///
/// ```text
/// LP = (WB − TMM + UPNL + cum − side × size × EP) / (size × MMR − side × size)
/// ```
/// with TMM = UPNL = 0 for an isolated position. The tier (MMR, cum) is the one the notional at the
/// liquidation price falls into: the price is first computed with the tier of the entry notional
/// and, when `size × LP` lands in another tier, recomputed with that tier, until the tier no longer
/// changes. Because the tiers' maintenance margin is continuous and convex ([`validate_tiers`])
/// that settles, within as many steps as there are tiers, on the one tier whose price lies in it;
/// in practice after one re-check, exactly as futures-math.md describes.
///
/// A result at or below 0 means no liquidation price. The price is rounded to the nearest multiple
/// of `tick_size` (midpoint away from zero), or to 8 decimals without one; a positive price that
/// rounds to 0 is also no liquidation price. The rounding is to the nearest tick, not toward the
/// safe side, as in the reference's examples: long 1 at 50,000 with 10x gives 45,180.72. Its short
/// example, 54,780.88, is the entry tier's figure; with the reference table that price is a tier-2
/// notional, so the re-check gives 54,776.12 (54,780.88 with a first tier reaching past it).
pub fn liquidation_price(input: &LiquidationInput) -> Result<Option<Decimal>, CoreError> {
    let position = input.position.check()?;
    validate_tiers(&input.tiers)?;
    checked_liquidation_price(&position, &input.tiers, input.tick_size)
}

/// [`liquidation_price`] with a table validated beforehand: the same checks (but the table's) in
/// the same order, the same result, for a caller that prices many positions of one symbol.
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn liquidation_price_in(
    tiers: &TierTable,
    position: &Position,
    tick_size: Option<Decimal>,
) -> Result<Option<Decimal>, CoreError> {
    checked_liquidation_price(&position.check()?, tiers.tiers(), tick_size)
}

#[cfg_attr(optimize_hot, optimize(speed))]
fn checked_liquidation_price(
    position: &Checked,
    tiers: &[MarginTier],
    tick_size_input: Option<Decimal>,
) -> Result<Option<Decimal>, CoreError> {
    let tick = tick_size(tick_size_input)?;
    round_price(exact_liquidation_price(position, tiers)?, tick)
}

/// `tick_size` checked to be above zero.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn tick_size(tick: Option<Decimal>) -> Result<Option<Decimal>, CoreError> {
    tick.map(|t| positive("tickSize", t)).transpose()
}

/// Rounds a liquidation price for display (see [`liquidation_price`]).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn round_price(
    price: Option<Decimal>,
    tick: Option<Decimal>,
) -> Result<Option<Decimal>, CoreError> {
    let Some(price) = price else {
        return Ok(None);
    };
    let rounded = match tick {
        Some(tick) => round_to_step(price, tick)?,
        None => result(price),
    };
    Ok((rounded > Decimal::ZERO).then_some(rounded))
}

/// The unrounded liquidation price, `None` when it is at or below 0. `tiers` must be valid.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn exact_liquidation_price(
    p: &Checked,
    tiers: &[MarginTier],
) -> Result<Option<Decimal>, CoreError> {
    let notional_at = |price: Decimal| -> Result<Decimal, CoreError> {
        Ok(mul(p.size, price)?.max(Decimal::ZERO))
    };
    // side × size: the side is ±1, so this is the size or its negation, exactly as the product.
    let signed_size = if p.side.is_sign_negative() {
        -p.size
    } else {
        p.size
    };
    // Everything but the tier's part of the numerator and denominator.
    let base_numerator = sub(
        add(sub(p.wallet_balance, p.other_mm)?, p.other_upnl)?,
        mul(signed_size, p.entry_price)?,
    )?;
    let solve = |index: usize| -> Result<Decimal, CoreError> {
        let tier = &tiers[index];
        let numerator = add(base_numerator, tier.cum)?;
        let denominator = sub(mul(p.size, tier.mmr)?, signed_size)?;
        div(numerator, denominator)
    };

    let mut index = tier_index(tiers, mul(p.size, p.entry_price)?);
    let mut price = solve(index)?;
    // Each re-check moves the price monotonically toward the answer, so the tier changes at most
    // once per tier; the bound only guards against rounding flipping between two neighbours at a
    // boundary, where both prices agree to the last digit anyway.
    for _ in 0..tiers.len() {
        let at_price = tier_index(tiers, notional_at(price)?);
        if at_price == index {
            break;
        }
        index = at_price;
        price = solve(index)?;
    }
    Ok((price > Decimal::ZERO).then_some(price))
}

/// The input of [`position_metrics`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionMetricsInput {
    /// The position.
    pub position: Position,
    /// The mark price, above zero: PnL and margin are judged against it, not the last trade.
    #[serde(deserialize_with = "num::decimal")]
    pub mark_price: Decimal,
    /// The symbol's maintenance margin tiers (see [`validate_tiers`]).
    pub tiers: Vec<MarginTier>,
    /// The symbol's price tick for the liquidation price (see [`liquidation_price`]).
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub tick_size: Option<Decimal>,
}

/// Everything a position row or an order form shows, in one call. Amounts and percents have at most
/// 8 decimals (midpoint away from zero), without trailing zeros.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PositionMetrics {
    /// `size × mark`, in the quote asset.
    pub notional: Decimal,
    /// `size × entry / leverage`: the margin the position was opened with.
    pub initial_margin: Decimal,
    /// This position's `notional × MMR − cum`, with the tier of the notional at the mark price.
    pub maintenance_margin: Decimal,
    /// `side × size × (mark − entry)`.
    pub unrealized_pnl: Decimal,
    /// WB + this position's unrealised PnL, plus the other cross positions' when cross: the equity
    /// the margin ratio divides by.
    pub margin_balance: Decimal,
    /// Unrealised PnL / initial margin × 100.
    pub roe_percent: Decimal,
    /// Maintenance margin (plus the other cross positions' when cross) / margin balance × 100: 100
    /// means liquidation. `None` when the margin balance is at or below 0.
    pub margin_ratio_percent: Option<Decimal>,
    /// The estimated liquidation price as [`liquidation_price`] gives it.
    pub liquidation_price: Option<Decimal>,
}

/// The figures of a position at the mark price (see [`PositionMetrics`]), its LP included.
pub fn position_metrics(input: &PositionMetricsInput) -> Result<PositionMetrics, CoreError> {
    let p = input.position.check()?;
    let mark = positive("markPrice", input.mark_price)?;
    validate_tiers(&input.tiers)?;
    let tick = tick_size(input.tick_size)?;

    let notional = mul(p.size, mark)?;
    let initial_margin = div(mul(p.size, p.entry_price)?, p.leverage)?;
    let maintenance = maintenance_margin(&input.tiers, notional)?;
    let upnl = mul(mul(p.side, p.size)?, sub(mark, p.entry_price)?)?;
    let margin_balance = add(add(p.wallet_balance, upnl)?, p.other_upnl)?;
    let total_maintenance = add(maintenance, p.other_mm)?;
    let margin_ratio = if margin_balance > Decimal::ZERO {
        Some(result(percent(total_maintenance, margin_balance)?))
    } else {
        None
    };
    let liquidation = round_price(exact_liquidation_price(&p, &input.tiers)?, tick)?;
    Ok(PositionMetrics {
        notional: result(notional),
        initial_margin: result(initial_margin),
        maintenance_margin: result(maintenance),
        unrealized_pnl: result(upnl),
        margin_balance: result(margin_balance),
        roe_percent: result(percent(upnl, initial_margin)?),
        margin_ratio_percent: margin_ratio,
        liquidation_price: liquidation,
    })
}

/// `part / whole × 100`, dividing first so that a huge part cannot overflow the product.
pub(super) fn percent(part: Decimal, whole: Decimal) -> Result<Decimal, CoreError> {
    mul(part, Decimal::ONE_HUNDRED)
        .and_then(|scaled| div(scaled, whole))
        .or_else(|_| mul(div(part, whole)?, Decimal::ONE_HUNDRED))
}

#[cfg(test)]
mod tests {
    use super::super::tiers::tests::btc_tiers;
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn isolated(side: Side, size: &str, entry: &str, leverage: &str, margin: &str) -> Position {
        Position {
            side,
            size: d(size),
            entry_price: d(entry),
            leverage: d(leverage),
            margin_mode: MarginMode::Isolated,
            wallet_balance: d(margin),
            other_maintenance_margin: None,
            other_unrealized_pnl: None,
        }
    }

    fn lp(position: Position, tick: Option<&str>) -> Option<String> {
        liquidation_price(&LiquidationInput {
            position,
            tiers: btc_tiers(),
            tick_size: tick.map(d),
        })
        .unwrap()
        .map(|p| p.to_string())
    }

    #[test]
    fn worked_examples_of_futures_math() {
        // Long 1 at 50,000 with 10x: (5,000 − 50,000) / (0.004 − 1) = 45,180.722891566…, a notional
        // that tier 1 holds.
        let long = isolated(Side::Long, "1", "50000", "10", "5000");
        assert_eq!(lp(long.clone(), Some("0.01")).as_deref(), Some("45180.72"));
        assert_eq!(lp(long, None).as_deref(), Some("45180.72289157"));

        // Short 1 at 50,000 with 10x: the entry tier gives (5,000 + 50,000) / (0.004 + 1) =
        // 54,780.876494…, the reference's 54,780.88, which is what a table whose first tier reaches
        // that notional gives.
        let short = isolated(Side::Short, "1", "50000", "10", "5000");
        let mut wide_first_tier = btc_tiers();
        wide_first_tier.truncate(1);
        wide_first_tier[0].notional_cap = d("60000");
        let wide = |tick: Option<&str>| {
            liquidation_price(&LiquidationInput {
                position: short.clone(),
                tiers: wide_first_tier.clone(),
                tick_size: tick.map(d),
            })
            .unwrap()
            .map(|p| p.to_string())
        };
        assert_eq!(wide(Some("0.01")).as_deref(), Some("54780.88"));
        assert_eq!(wide(None).as_deref(), Some("54780.87649402"));
        // With the reference table a notional of 54,780.88 lies in tier 2 (50,000 – 250,000), so
        // the re-check the reference requires gives (5,000 + 50 + 50,000) / (0.005 + 1) =
        // 54,776.119…, where tier 2 does hold the notional and the margin ratio is exactly 100%.
        assert_eq!(lp(short, Some("0.01")).as_deref(), Some("54776.12"));
    }

    #[test]
    fn entry_tier_and_liquidation_tier_differ() {
        // Long 5.5 at 50,000 (notional 275,000: tier 3) with 10x. Tier 3 gives (27,500 + 1,300 −
        // 275,000) / (0.055 − 5.5) = 45,215.79…, a notional of 248,686.9 in tier 2; tier 2 gives
        // (27,500 + 50 − 275,000) / (0.0275 − 5.5) = 45,216.993…, which stays in tier 2.
        let long = isolated(Side::Long, "5.5", "50000", "10", "27500");
        assert_eq!(lp(long, Some("0.01")).as_deref(), Some("45216.99"));
        // Short 4.9 at 50,000 (245,000: tier 2) with 10x. Tier 2 gives
        // (24,500 + 50 + 245,000) / (0.0245 + 4.9) = 54,736.52…, a notional of 268,209 in tier 3;
        // tier 3 gives (24,500 + 1,300 + 245,000) / (0.049 + 4.9) = 54,718.125…, still tier 3.
        let short = isolated(Side::Short, "4.9", "50000", "10", "24500");
        assert_eq!(lp(short, Some("0.01")).as_deref(), Some("54718.12"));
    }

    #[test]
    fn a_second_re_check_when_the_entry_tier_overshoots() {
        // Long 30 at 50,000 (1.5M: tier 4) with WB 1,485,000. Tier 4 gives a price at or below 0;
        // its notional (0) is in tier 1, which gives 15,000 / 29.88 = 502.008…, a notional of
        // 15,060 that tier 1 holds.
        let long = isolated(Side::Long, "30", "50000", "1.0101", "1485000");
        assert_eq!(lp(long, Some("0.01")).as_deref(), Some("502.01"));
    }

    #[test]
    fn cross_margin_counts_the_other_positions() {
        // (10,000 − 500 + (−1,000) + 0 − 50,000) / (0.004 − 1) = 41,666.666…
        let mut long = isolated(Side::Long, "1", "50000", "10", "10000");
        long.margin_mode = MarginMode::Cross;
        long.other_maintenance_margin = Some(d("500"));
        long.other_unrealized_pnl = Some(d("-1000"));
        assert_eq!(lp(long.clone(), Some("0.01")).as_deref(), Some("41666.67"));
        // The same figures on an isolated position are ignored: (10,000 − 50,000) / −0.996.
        long.margin_mode = MarginMode::Isolated;
        assert_eq!(lp(long, Some("0.01")).as_deref(), Some("40160.64"));

        // Short, cross: tier 1 gives (20,000 − 300 + 700 + 0 + 50,000) / (0.004 + 1) = 70,119.52…,
        // a notional in tier 2, which gives (70,400 + 50) / (0.005 + 1) = 70,099.502…
        let mut short = isolated(Side::Short, "1", "50000", "10", "20000");
        short.margin_mode = MarginMode::Cross;
        short.other_maintenance_margin = Some(d("300"));
        short.other_unrealized_pnl = Some(d("700"));
        assert_eq!(lp(short, Some("0.01")).as_deref(), Some("70099.5"));
    }

    #[test]
    fn no_liquidation_price_is_none() {
        // A 1x long with its whole notional as margin: (50,000 − 50,000) / −0.996 = 0.
        assert_eq!(
            lp(isolated(Side::Long, "1", "50000", "1", "50000"), None),
            None
        );
        // A cross long whose wallet covers more than the notional.
        let mut rich = isolated(Side::Long, "1", "50000", "10", "60000");
        rich.margin_mode = MarginMode::Cross;
        assert_eq!(lp(rich, None), None);
        // A positive price that rounds to 0 at the tick.
        let tiny = isolated(Side::Long, "1", "50000", "1", "49999.999");
        assert_eq!(lp(tiny.clone(), None).as_deref(), Some("0.00100402"));
        assert_eq!(lp(tiny, Some("0.01")), None);
        // A cross short whose other positions already lost more than everything: numerator ≤ 0.
        let mut broke = isolated(Side::Short, "1", "50000", "10", "1000");
        broke.margin_mode = MarginMode::Cross;
        broke.other_unrealized_pnl = Some(d("-60000"));
        assert_eq!(lp(broke, None), None);
    }

    #[test]
    fn bad_inputs_are_errors() {
        let input = |position: Position, tiers: Vec<MarginTier>, tick: Option<&str>| {
            liquidation_price(&LiquidationInput {
                position,
                tiers,
                tick_size: tick.map(d),
            })
        };
        let ok = isolated(Side::Long, "1", "50000", "10", "5000");
        let mut zero = ok.clone();
        zero.size = Decimal::ZERO;
        assert_eq!(
            input(zero, btc_tiers(), None),
            Err(CoreError::NotPositive {
                name: "size",
                value: "0".into()
            })
        );
        let mut negative = ok.clone();
        negative.wallet_balance = d("-1");
        assert_eq!(
            input(negative, btc_tiers(), None).unwrap_err().code(),
            "negative"
        );
        assert_eq!(
            input(ok.clone(), vec![], None),
            Err(CoreError::NoMarginTiers)
        );
        assert_eq!(
            input(ok, btc_tiers(), Some("0")).unwrap_err(),
            CoreError::NotPositive {
                name: "tickSize",
                value: "0".into()
            }
        );
    }

    #[test]
    fn metrics_of_a_long() {
        // Long 1 at 50,000, 10x, isolated 5,000, mark 52,000.
        let metrics = position_metrics(&PositionMetricsInput {
            position: isolated(Side::Long, "1", "50000", "10", "5000"),
            mark_price: d("52000"),
            tiers: btc_tiers(),
            tick_size: Some(d("0.1")),
        })
        .unwrap();
        assert_eq!(
            metrics,
            PositionMetrics {
                notional: d("52000"),
                initial_margin: d("5000"),
                // 52,000 is in tier 2: 52,000 × 0.005 − 50.
                maintenance_margin: d("210"),
                unrealized_pnl: d("2000"),
                margin_balance: d("7000"),
                roe_percent: d("40"),
                margin_ratio_percent: Some(d("3")),
                liquidation_price: Some(d("45180.7")),
            }
        );
    }

    #[test]
    fn metrics_of_a_losing_cross_short() {
        // Short 2 at 30,000 (60,000), 20x, cross wallet 4,000, others: MM 100 and UPNL −500;
        // mark 31,000: UPNL −2,000, notional 62,000 in tier 2, MM 62,000 × 0.005 − 50 = 260.
        let mut short = isolated(Side::Short, "2", "30000", "20", "4000");
        short.margin_mode = MarginMode::Cross;
        short.other_maintenance_margin = Some(d("100"));
        short.other_unrealized_pnl = Some(d("-500"));
        let metrics = position_metrics(&PositionMetricsInput {
            position: short,
            mark_price: d("31000"),
            tiers: btc_tiers(),
            tick_size: None,
        })
        .unwrap();
        assert_eq!(metrics.initial_margin, d("3000"));
        assert_eq!(metrics.maintenance_margin, d("260"));
        assert_eq!(metrics.unrealized_pnl, d("-2000"));
        assert_eq!(metrics.margin_balance, d("1500"));
        assert_eq!(metrics.roe_percent, d("-66.66666667"));
        // (260 + 100) / 1,500 = 24%.
        assert_eq!(metrics.margin_ratio_percent, Some(d("24")));
        // (4,000 − 100 − 500 + 50 + 60,000) / (0.01 + 2) = 31,567.16…, notional 63,134 in tier 2.
        assert_eq!(metrics.liquidation_price, Some(d("31567.16417910")));
    }

    #[test]
    fn margin_ratio_is_none_without_equity() {
        let metrics = position_metrics(&PositionMetricsInput {
            position: isolated(Side::Long, "1", "50000", "10", "5000"),
            mark_price: d("44000"),
            tiers: btc_tiers(),
            tick_size: None,
        })
        .unwrap();
        assert_eq!(metrics.margin_balance, d("-1000"));
        assert_eq!(metrics.margin_ratio_percent, None);
    }

    #[test]
    fn serde_shape_is_camel_case_with_string_decimals() {
        let input: PositionMetricsInput = serde_json::from_value(serde_json::json!({
            "position": {
                "side": "long", "size": "1", "entryPrice": "50000", "leverage": "10",
                "marginMode": "isolated", "walletBalance": "5000"
            },
            "markPrice": "50000",
            "tiers": serde_json::to_value(btc_tiers()).unwrap(),
            "tickSize": null
        }))
        .unwrap();
        let json = serde_json::to_value(position_metrics(&input).unwrap()).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "notional": "50000", "initialMargin": "5000", "maintenanceMargin": "200",
                "unrealizedPnl": "0", "marginBalance": "5000", "roePercent": "0",
                "marginRatioPercent": "4", "liquidationPrice": "45180.72289157"
            })
        );
        for bad in ["1e3", "1_000", "", "0x10"] {
            let mut value = serde_json::to_value(&input).unwrap();
            value["markPrice"] = bad.into();
            assert!(
                serde_json::from_value::<PositionMetricsInput>(value).is_err(),
                "{bad}"
            );
        }
        let mut value = serde_json::to_value(&input).unwrap();
        value["markPrice"] = 50000.into();
        assert!(serde_json::from_value::<PositionMetricsInput>(value).is_err());
    }
}
