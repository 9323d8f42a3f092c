//! Futures order-form and position-dialog previews: the largest size a balance can open, the PnL
//! and ROE at a take-profit or stop-loss trigger, and adding or removing isolated margin.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::futures::{Position, Side, exact_liquidation_price, percent, round_price, tick_size};
use super::num::{
    self, add, div, fee_rate, floor_to_step, mul, non_negative, positive, result, sub,
};
use super::tiers::{MarginTier, max_notional, validate_tiers};
use crate::error::CoreError;

/// The input of [`max_open_size`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MaxOpenSizeInput {
    /// The order price (for a market order, the price it is expected to fill at), above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub price: Decimal,
    /// The leverage chosen in the order form, above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub leverage: Decimal,
    /// The balance available to open with, in the quote asset, not negative.
    #[serde(deserialize_with = "num::decimal")]
    pub available_balance: Decimal,
    /// The taker fee rate as a fraction (`0.0005` for 0.05%), from 0 up to (not including) 1.
    #[serde(deserialize_with = "num::decimal")]
    pub taker_fee_rate: Decimal,
    /// The symbol's quantity step, above zero: the size is rounded down to it.
    #[serde(deserialize_with = "num::decimal")]
    pub step_size: Decimal,
    /// The symbol's maintenance margin tiers (see [`validate_tiers`]).
    pub tiers: Vec<MarginTier>,
}

/// The largest order an available balance can open, and what it costs. Amounts have at most 8
/// decimals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MaxOpenSize {
    /// The largest size, a multiple of the step (0 when not even one step fits).
    pub size: Decimal,
    /// `size × price`.
    pub notional: Decimal,
    /// `notional / leverage`.
    pub initial_margin: Decimal,
    /// `notional × taker fee rate`.
    pub open_fee: Decimal,
    /// `initial margin + open fee`: what the balance pays, never above it.
    pub cost: Decimal,
    /// The largest notional the tier table allows at this leverage (0 when the leverage exceeds
    /// every tier's maximum).
    pub max_notional: Decimal,
}

/// The largest size, rounded down to the step, whose initial margin plus opening fee fits the
/// available balance and whose notional stays within the tiers that allow the leverage.
///
/// The cost of a size is `notional / leverage + notional × taker fee rate`, with the taker rate as
/// the worst case of an order that may take liquidity. The fee to close the position later is not
/// reserved: it is charged when the position closes, out of its margin and PnL, and the venue does
/// not hold it back when the order is placed either. Nor is any "open loss" of an order priced away
/// from the mark price: the reference formulas have none.
pub fn max_open_size(input: &MaxOpenSizeInput) -> Result<MaxOpenSize, CoreError> {
    let price = positive("price", input.price)?;
    let leverage = positive("leverage", input.leverage)?;
    let balance = non_negative("availableBalance", input.available_balance)?;
    let fee = fee_rate("takerFeeRate", input.taker_fee_rate)?;
    let step = positive("stepSize", input.step_size)?;
    validate_tiers(&input.tiers)?;

    let limit = max_notional(&input.tiers, leverage);
    let cost_of = |size: Decimal| -> Result<[Decimal; 4], CoreError> {
        let notional = mul(size, price)?;
        let margin = div(notional, leverage)?;
        let open_fee = mul(notional, fee)?;
        Ok([notional, margin, open_fee, add(margin, open_fee)?])
    };
    let fits = |size: Decimal| -> Result<bool, CoreError> {
        let [notional, .., cost] = cost_of(size)?;
        Ok(cost <= balance && notional <= limit)
    };

    let unit_cost = add(div(price, leverage)?, mul(price, fee)?)?;
    let by_balance = div(balance, unit_cost)?;
    let by_tiers = div(limit, price)?;
    let mut size = floor_to_step(by_balance.min(by_tiers), step)?;
    // The quotients carry 28 significant digits, so the floor can sit one step above the exact
    // answer; checking the cost itself makes the result exact.
    for _ in 0..3 {
        if size.is_zero() || fits(size)? {
            break;
        }
        size = sub(size, step)?.max(Decimal::ZERO);
    }
    if !fits(size)? {
        size = Decimal::ZERO;
    }
    let [notional, margin, open_fee, cost] = cost_of(size)?;
    Ok(MaxOpenSize {
        size,
        notional: result(notional),
        initial_margin: result(margin),
        open_fee: result(open_fee),
        cost: result(cost),
        max_notional: result(limit),
    })
}

/// The input of [`pnl_at_trigger`]: the position or order, and the trigger price.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct PnlAtTriggerInput {
    /// Long or short.
    pub side: Side,
    /// The size in the base asset, above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub size: Decimal,
    /// The entry price (of the position, or of the order not yet placed), above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub entry_price: Decimal,
    /// The leverage, above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub leverage: Decimal,
    /// The take-profit or stop-loss trigger price, above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub trigger_price: Decimal,
}

/// The result of [`pnl_at_trigger`], with at most 8 decimals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct PnlAtTrigger {
    /// `side × size × (trigger − entry)`: positive for a take profit, negative for a stop loss.
    pub pnl: Decimal,
    /// PnL / initial margin × 100, with initial margin `size × entry / leverage`.
    pub roe_percent: Decimal,
}

/// The PnL and ROE the position would have if it closed exactly at the trigger price (fees aside),
/// judged like the unrealised PnL.
pub fn pnl_at_trigger(input: &PnlAtTriggerInput) -> Result<PnlAtTrigger, CoreError> {
    let size = positive("size", input.size)?;
    let entry = positive("entryPrice", input.entry_price)?;
    let leverage = positive("leverage", input.leverage)?;
    let trigger = positive("triggerPrice", input.trigger_price)?;
    let pnl = mul(mul(input.side.sign(), size)?, sub(trigger, entry)?)?;
    let initial_margin = div(mul(size, entry)?, leverage)?;
    Ok(PnlAtTrigger {
        pnl: result(pnl),
        roe_percent: result(percent(pnl, initial_margin)?),
    })
}

/// Whether margin goes into or out of an isolated position.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum MarginDirection {
    /// Move `amount` from the available balance into the position.
    Add,
    /// Move `amount` from the position back to the available balance.
    Remove,
}

/// The input of [`margin_adjustment`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct MarginAdjustmentInput {
    /// The position, which must be isolated; its wallet balance is its isolated margin.
    pub position: Position,
    /// The mark price, above zero.
    #[serde(deserialize_with = "num::decimal")]
    pub mark_price: Decimal,
    /// Add or remove.
    pub direction: MarginDirection,
    /// The amount to move, not negative (0 while the field is still empty).
    #[serde(deserialize_with = "num::decimal")]
    pub amount: Decimal,
    /// The balance available to add from, not negative; absent when unknown (no limit is checked).
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub available_balance: Option<Decimal>,
    /// The symbol's maintenance margin tiers (see [`validate_tiers`]).
    pub tiers: Vec<MarginTier>,
    /// The symbol's price tick for the liquidation price (see
    /// [`liquidation_price`](super::liquidation_price)).
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub tick_size: Option<Decimal>,
}

/// What adding or removing margin does, with at most 8 decimals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MarginAdjustment {
    /// The isolated margin after the adjustment (below 0 when removing more than there is).
    pub wallet_balance: Decimal,
    /// The liquidation price after the adjustment, as
    /// [`liquidation_price`](super::liquidation_price) gives it.
    pub liquidation_price: Option<Decimal>,
    /// The most that can be removed now (see [`margin_adjustment`]).
    pub max_removable: Decimal,
    /// The amount is above the available balance (add) or above `max_removable` (remove): the
    /// figures above show what would happen, but the adjustment is not allowed.
    pub exceeds_limit: bool,
}

/// The new isolated margin and liquidation price after adding or removing `amount`, and the most
/// that can be removed.
///
/// The removal rule: what stays in the position, counting an unrealised loss but not an unrealised
/// profit, must still cover the initial margin at the mark price: `max removable = max(0, margin +
/// min(UPNL, 0) − size × mark / leverage)`. An unrealised profit is not money yet, so it cannot be
/// taken out; the initial margin at the mark price is what the same position would need to be
/// opened now. A cross position has no margin of its own to adjust:
/// [`CoreError::NotIsolatedMargin`].
pub fn margin_adjustment(input: &MarginAdjustmentInput) -> Result<MarginAdjustment, CoreError> {
    let mut p = input.position.check()?;
    if !p.isolated {
        return Err(CoreError::NotIsolatedMargin);
    }
    let mark = positive("markPrice", input.mark_price)?;
    let amount = non_negative("amount", input.amount)?;
    let available = input
        .available_balance
        .map(|b| non_negative("availableBalance", b))
        .transpose()?;
    validate_tiers(&input.tiers)?;
    let tick = tick_size(input.tick_size)?;

    let upnl = mul(mul(p.side, p.size)?, sub(mark, p.entry_price)?)?;
    let required = div(mul(p.size, mark)?, p.leverage)?;
    let max_removable =
        sub(add(p.wallet_balance, upnl.min(Decimal::ZERO))?, required)?.max(Decimal::ZERO);
    let (wallet_balance, exceeds_limit) = match input.direction {
        MarginDirection::Add => (
            add(p.wallet_balance, amount)?,
            available.is_some_and(|b| amount > b),
        ),
        MarginDirection::Remove => (sub(p.wallet_balance, amount)?, amount > max_removable),
    };
    p.wallet_balance = wallet_balance;
    let liquidation = round_price(exact_liquidation_price(&p, &input.tiers)?, tick)?;
    Ok(MarginAdjustment {
        wallet_balance: result(wallet_balance),
        liquidation_price: liquidation,
        max_removable: result(max_removable),
        exceeds_limit,
    })
}

#[cfg(test)]
mod tests {
    use super::super::futures::MarginMode;
    use super::super::tiers::tests::btc_tiers;
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn max_input(price: &str, leverage: &str, balance: &str, fee: &str) -> MaxOpenSizeInput {
        MaxOpenSizeInput {
            price: d(price),
            leverage: d(leverage),
            available_balance: d(balance),
            taker_fee_rate: d(fee),
            step_size: d("0.001"),
            tiers: btc_tiers(),
        }
    }

    #[test]
    fn max_open_size_fits_margin_and_fee() {
        // Per BTC: 50,000 / 10 + 50,000 × 0.0005 = 5,025; 10,000 / 5,025 = 1.990049… → 1.990.
        let max = max_open_size(&max_input("50000", "10", "10000", "0.0005")).unwrap();
        assert_eq!(
            max,
            MaxOpenSize {
                size: d("1.99"),
                notional: d("99500"),
                initial_margin: d("9950"),
                open_fee: d("49.75"),
                cost: d("9999.75"),
                // Every tier allows 10x.
                max_notional: d("20000000"),
            }
        );
    }

    #[test]
    fn max_open_size_on_an_exact_fit_keeps_the_last_step() {
        // 5,025 buys exactly 1 BTC.
        let max = max_open_size(&max_input("50000", "10", "5025", "0.0005")).unwrap();
        assert_eq!(max.size, d("1"));
        assert_eq!(max.cost, d("5025"));
        // Without fees, 1/3 of a price: the quotient is 0.33333…, rounded down to 0.333.
        let max = max_open_size(&max_input("30000", "3", "3333.3333", "0")).unwrap();
        assert_eq!(max.size, d("0.333"));
    }

    #[test]
    fn max_open_size_respects_the_tier_of_the_leverage() {
        // At 125x only tier 1 (50,000 notional) is allowed: 1 BTC at 50,000, whatever the balance.
        let max = max_open_size(&max_input("50000", "125", "1000000", "0.0004")).unwrap();
        assert_eq!(max.size, d("1"));
        assert_eq!(max.max_notional, d("50000"));
        assert_eq!(max.initial_margin, d("400"));
        assert_eq!(max.open_fee, d("20"));
        // Above every tier's max leverage nothing can be opened.
        let max = max_open_size(&max_input("50000", "150", "1000000", "0.0004")).unwrap();
        assert_eq!(max.size, Decimal::ZERO);
        assert_eq!(max.max_notional, Decimal::ZERO);
        assert_eq!(max.cost, Decimal::ZERO);
    }

    #[test]
    fn max_open_size_of_nothing() {
        let max = max_open_size(&max_input("50000", "10", "0", "0.0005")).unwrap();
        assert_eq!(max.size, Decimal::ZERO);
        let max = max_open_size(&max_input("50000", "10", "5", "0.0005")).unwrap();
        assert_eq!(max.size, Decimal::ZERO);
    }

    #[test]
    fn max_open_size_rejects_bad_inputs() {
        assert_eq!(
            max_open_size(&max_input("50000", "10", "100", "1")).unwrap_err(),
            CoreError::FeeRateOutOfRange {
                name: "takerFeeRate",
                value: "1".into()
            }
        );
        assert_eq!(
            max_open_size(&max_input("50000", "0", "100", "0"))
                .unwrap_err()
                .code(),
            "not_positive"
        );
        assert_eq!(
            max_open_size(&max_input("50000", "10", "-1", "0"))
                .unwrap_err()
                .code(),
            "negative"
        );
    }

    fn trigger(side: Side, price: &str) -> PnlAtTrigger {
        pnl_at_trigger(&PnlAtTriggerInput {
            side,
            size: d("0.5"),
            entry_price: d("40000"),
            leverage: d("20"),
            trigger_price: d(price),
        })
        .unwrap()
    }

    #[test]
    fn pnl_and_roe_at_a_trigger() {
        // Initial margin 0.5 × 40,000 / 20 = 1,000.
        assert_eq!(
            trigger(Side::Long, "42000"),
            PnlAtTrigger {
                pnl: d("1000"),
                roe_percent: d("100")
            }
        );
        assert_eq!(trigger(Side::Long, "39000").pnl, d("-500"));
        assert_eq!(trigger(Side::Long, "39000").roe_percent, d("-50"));
        assert_eq!(trigger(Side::Short, "38000").pnl, d("1000"));
        assert_eq!(trigger(Side::Short, "40123.45").roe_percent, d("-6.1725"));
    }

    fn isolated_long() -> Position {
        Position {
            side: Side::Long,
            size: d("1"),
            entry_price: d("50000"),
            leverage: d("10"),
            margin_mode: MarginMode::Isolated,
            wallet_balance: d("5000"),
            other_maintenance_margin: None,
            other_unrealized_pnl: None,
        }
    }

    fn adjust(direction: MarginDirection, amount: &str, mark: &str) -> MarginAdjustment {
        margin_adjustment(&MarginAdjustmentInput {
            position: isolated_long(),
            mark_price: d(mark),
            direction,
            amount: d(amount),
            available_balance: Some(d("2000")),
            tiers: btc_tiers(),
            tick_size: Some(d("0.01")),
        })
        .unwrap()
    }

    #[test]
    fn adding_margin_lowers_a_long_liquidation_price() {
        // (6,000 − 50,000) / −0.996 = 44,176.706…
        let added = adjust(MarginDirection::Add, "1000", "50000");
        assert_eq!(added.wallet_balance, d("6000"));
        assert_eq!(added.liquidation_price, Some(d("44176.71")));
        assert!(!added.exceeds_limit);
        assert!(adjust(MarginDirection::Add, "2000.01", "50000").exceeds_limit);
    }

    #[test]
    fn removable_margin_keeps_the_initial_margin_at_mark() {
        // At mark 50,000: 5,000 − 5,000 = 0 removable.
        let none = adjust(MarginDirection::Remove, "1", "50000");
        assert_eq!(none.max_removable, Decimal::ZERO);
        assert!(none.exceeds_limit);
        // At mark 45,000: loss 5,000 counted, required 4,500: nothing, not negative.
        assert_eq!(
            adjust(MarginDirection::Remove, "0", "45000").max_removable,
            Decimal::ZERO
        );
        // At mark 40,000 the required margin shrinks but the loss is larger: still 0.
        // At mark 60,000: the profit does not count, required 6,000 > 5,000: 0.
        assert_eq!(
            adjust(MarginDirection::Remove, "0", "60000").max_removable,
            Decimal::ZERO
        );
        // A position with extra margin: 8,000 at mark 49,000 → 8,000 − 1,000 − 4,900 = 2,100.
        let mut rich = isolated_long();
        rich.wallet_balance = d("8000");
        let removed = margin_adjustment(&MarginAdjustmentInput {
            position: rich,
            mark_price: d("49000"),
            direction: MarginDirection::Remove,
            amount: d("2100"),
            available_balance: None,
            tiers: btc_tiers(),
            tick_size: Some(d("0.01")),
        })
        .unwrap();
        assert_eq!(removed.max_removable, d("2100"));
        assert!(!removed.exceeds_limit);
        assert_eq!(removed.wallet_balance, d("5900"));
        // (5,900 − 50,000) / −0.996 = 44,277.108…
        assert_eq!(removed.liquidation_price, Some(d("44277.11")));
    }

    #[test]
    fn cross_positions_cannot_adjust_margin() {
        let mut cross = isolated_long();
        cross.margin_mode = MarginMode::Cross;
        let err = margin_adjustment(&MarginAdjustmentInput {
            position: cross,
            mark_price: d("50000"),
            direction: MarginDirection::Add,
            amount: d("1"),
            available_balance: None,
            tiers: btc_tiers(),
            tick_size: None,
        })
        .unwrap_err();
        assert_eq!(err, CoreError::NotIsolatedMargin);
    }
}
