//! Margin and order math (futures-math.md, spec sections 3 and 5): tiered maintenance margin, the
//! liquidation price of isolated and cross positions in one-way mode, the figures of a position,
//! the largest size a balance opens, PnL and ROE at a take-profit or stop-loss trigger, adding and
//! removing isolated margin, and the previews of spot orders and seconds contracts.
//!
//! # Inputs
//! Every function takes one input struct, which deserializes from camelCase JSON (or a JavaScript
//! object) with decimals as strings in [`parse_decimal`](crate::money::parse_decimal)'s grammar: a
//! JSON number, an exponent or a separator is refused, so the wasm build and the backend read the
//! same inputs. Rates (fees, MMR, payout) are fractions (`0.0005` for 0.05%); sizes and quantities
//! are in the base asset, prices, balances and notionals in the quote asset. Range checks name the
//! first input at fault ([`CoreError::NotPositive`], [`CoreError::Negative`],
//! [`CoreError::FeeRateOutOfRange`]); a tier table that is not sorted and contiguous, or whose
//! `cum` does not follow the rule, is refused by [`validate_tiers`]. An input the struct does not
//! fit at all (a missing field, a JSON number, an unknown side, a decimal with an exponent) is
//! answered at the wasm boundary with [`CoreError::InvalidArgument`] naming `input`.
//!
//! # Results
//! - Amounts and prices have at most 8 decimals ([`RESULT_DECIMALS`]), rounded midpoint away from
//!   zero, without trailing zeros; a liquidation price given a tick is rounded to the nearest tick
//!   instead. Exact figures (products of the inputs) come out unchanged when they fit 8 decimals.
//! - Ratios are percents (`roePercent: "40"` is 40%), ready for
//!   [`format_percent`](crate::format::format_percent).
//! - Facts are values, not errors: no liquidation price is `None` (shown as `--`), an order above
//!   the balance sets `insufficient_balance`, a margin change beyond its limit sets
//!   `exceeds_limit`.
//! - Arithmetic is checked: inputs too large for a [`Decimal`](rust_decimal::Decimal) end in
//!   [`CoreError::CalculationOverflow`], never in a panic.
//!
//! # Rules beyond the reference
//! - The tier re-check of the liquidation price repeats until the tier holds the price (once in
//!   practice, at most once per tier). Tier tables must therefore have MMRs that never fall, max
//!   leverages that never rise and every `cum` by the rule, which makes the answer unique and the
//!   margin ratio exactly 100% there ([`liquidation_price`]).
//! - The reference's short example (54,780.88) is its entry tier's figure; with the reference's
//!   own table that price is a tier-2 notional, and the re-check it requires gives 54,776.12.
//! - A notional equal to a tier's cap belongs to that tier ([`tier_for`]); beyond the last cap the
//!   last tier applies.
//! - Initial margin and ROE use the entry price (`size × entry / leverage`); maintenance margin and
//!   PnL use the mark price ([`position_metrics`]).
//! - Max open size reserves the opening taker fee but not the closing fee ([`max_open_size`]).
//! - Removable isolated margin keeps the initial margin at the mark price covered, counting an
//!   unrealised loss and not an unrealised profit ([`margin_adjustment`]).
//! - Spot fees are charged in the asset received ([`spot_order_preview`]).
//! - A seconds contract's whole-number quantity is its stake; a tie returns it
//!   ([`seconds_preview`]).
//!
//! [`CoreError::NotPositive`]: crate::CoreError::NotPositive
//! [`CoreError::Negative`]: crate::CoreError::Negative
//! [`CoreError::FeeRateOutOfRange`]: crate::CoreError::FeeRateOutOfRange
//! [`CoreError::InvalidArgument`]: crate::CoreError::InvalidArgument
//! [`CoreError::CalculationOverflow`]: crate::CoreError::CalculationOverflow

mod fixed;
mod futures;
mod num;
mod orders;
mod seconds;
mod spot;
mod tiers;

#[cfg(test)]
mod props;

pub use fixed::{
    MAX_SAFE_INTEGER, NumberAndScale, Scaled, ScaledPosition, liquidation_price_mantissa,
    liquidation_price_scaled, price_mantissa, result_scale, scaled_from_f64,
};
pub use futures::{
    LiquidationInput, MarginMode, Position, PositionMetrics, PositionMetricsInput, Side,
    liquidation_price, liquidation_price_in, position_metrics,
};
pub use num::RESULT_DECIMALS;
pub use orders::{
    MarginAdjustment, MarginAdjustmentInput, MarginDirection, MaxOpenSize, MaxOpenSizeInput,
    PnlAtTrigger, PnlAtTriggerInput, margin_adjustment, max_open_size, pnl_at_trigger,
};
pub use seconds::{SecondsInput, SecondsPreview, seconds_preview};
pub use spot::{
    FeeAsset, OrderSide, OrderType, SpotOrderInput, SpotOrderPreview, spot_fee, spot_order_preview,
};
pub use tiers::{MarginTier, TierTable, derive_cum, tier_for, validate_tiers};
