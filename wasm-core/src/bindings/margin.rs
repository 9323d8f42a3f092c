//! The JavaScript exports of [`crate::margin`]. Each function takes one plain object with decimals
//! as strings and returns a plain object (or a string or `null`); an object of the wrong shape, or a
//! decimal that is not a plain decimal string, throws `invalid_argument` naming `input`.
//!
//! [`MarginCalculator`] is the fast path for one symbol: its tier table is read and validated once,
//! and each call takes plain strings, so no object crosses the boundary per call; its
//! `liquidationPriceScaled` takes and returns plain numbers (scaled integers), so no string does
//! either.

use serde::de::DeserializeOwned;
use wasm_bindgen::prelude::*;

use super::{from_js, throw, to_js};
use crate::margin;
use crate::money::parse_decimal;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** One row of a symbol's maintenance margin table; decimals are strings, rates fractions. */
export interface MarginTier {
  notionalFloor: string; notionalCap: string; maxLeverage: string; mmr: string; cum: string;
}
/** A futures position in one-way mode; walletBalance: isolated margin, or cross wallet balance. */
export interface Position {
  side: "long" | "short"; size: string; entryPrice: string; leverage: string;
  marginMode: "isolated" | "cross"; walletBalance: string;
  /** Cross only: the other cross positions' maintenance margin (TMM) and unrealised PnL (UPNL). */
  otherMaintenanceMargin?: string | null; otherUnrealizedPnl?: string | null;
}
/** Input of liquidationPrice; the price is rounded to tickSize, or to 8 decimals without it. */
export interface LiquidationInput {
  position: Position; tiers: MarginTier[]; tickSize?: string | null;
}
/** Input of positionMetrics. */
export interface PositionMetricsInput {
  position: Position; markPrice: string; tiers: MarginTier[]; tickSize?: string | null;
}
/** A position's figures at the mark price; percents are percents ("40" is 40%). */
export interface PositionMetrics {
  notional: string; initialMargin: string; maintenanceMargin: string; unrealizedPnl: string;
  marginBalance: string; roePercent: string; marginRatioPercent: string | null;
  liquidationPrice: string | null;
}
/** Input of maxOpenSize; takerFeeRate is a fraction ("0.0005" for 0.05%). */
export interface MaxOpenSizeInput {
  price: string; leverage: string; availableBalance: string; takerFeeRate: string; stepSize: string;
  tiers: MarginTier[];
}
/** The largest size a balance opens, and its cost (initial margin + open fee). */
export interface MaxOpenSize {
  size: string; notional: string; initialMargin: string; openFee: string; cost: string;
  maxNotional: string;
}
/** Input of pnlAtTrigger. */
export interface PnlAtTriggerInput {
  side: "long" | "short"; size: string; entryPrice: string; leverage: string; triggerPrice: string;
}
/** PnL and ROE (percent) if the position closed at the trigger price. */
export interface PnlAtTrigger { pnl: string; roePercent: string; }
/** Input of marginAdjustment; the position must be isolated. */
export interface MarginAdjustmentInput {
  position: Position; markPrice: string; direction: "add" | "remove"; amount: string;
  availableBalance?: string | null; tiers: MarginTier[]; tickSize?: string | null;
}
/** The isolated margin and liquidation price after the adjustment, and the most removable now. */
export interface MarginAdjustment {
  walletBalance: string; liquidationPrice: string | null; maxRemovable: string;
  exceedsLimit: boolean;
}
/** Input of spotOrderPreview: exactly one of quantity and quoteAmount (market buys only). */
export interface SpotOrderInput {
  side: "buy" | "sell"; orderType: "limit" | "market"; price: string;
  quantity?: string | null; quoteAmount?: string | null; feeRate: string;
  baseBalance: string; quoteBalance: string;
}
/** A spot order as if filled at its price; the fee is charged in the asset received. */
export interface SpotOrderPreview {
  quantity: string; amount: string; fee: string; feeAsset: "base" | "quote"; receive: string;
  baseBalanceAfter: string; quoteBalanceAfter: string; insufficientBalance: boolean;
}
/** Input of secondsPreview: a whole-number quantity (the stake), payoutRate a fraction. */
export interface SecondsInput {
  quantity: string; payoutRate: string; availableBalance?: string | null;
}
/** The outcomes of a seconds contract. */
export interface SecondsPreview {
  stake: string; payoutRate: string; profitIfRight: string; payoutIfRight: string;
  lossIfWrong: string; returnIfTie: string; insufficientBalance: boolean;
}
"#;

/// Reads the one object argument every margin export takes.
fn read<T: DeserializeOwned>(input: JsValue) -> Result<T, JsValue> {
    from_js("input", input)
}

/// The estimated liquidation price, or `null` when the position has none (shown as `--`).
#[wasm_bindgen(js_name = liquidationPrice, unchecked_return_type = "string | null")]
pub fn liquidation_price(
    #[wasm_bindgen(unchecked_param_type = "LiquidationInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&margin::liquidation_price(&read(input)?).map_err(throw)?)
}

/// Initial and maintenance margin, unrealised PnL, ROE, margin ratio and liquidation price at once.
#[wasm_bindgen(js_name = positionMetrics, unchecked_return_type = "PositionMetrics")]
pub fn position_metrics(
    #[wasm_bindgen(unchecked_param_type = "PositionMetricsInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&margin::position_metrics(&read(input)?).map_err(throw)?)
}

/// The largest size the available balance opens at a price and leverage, fees included.
#[wasm_bindgen(js_name = maxOpenSize, unchecked_return_type = "MaxOpenSize")]
pub fn max_open_size(
    #[wasm_bindgen(unchecked_param_type = "MaxOpenSizeInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&margin::max_open_size(&read(input)?).map_err(throw)?)
}

/// PnL and ROE at a take-profit or stop-loss trigger price.
#[wasm_bindgen(js_name = pnlAtTrigger, unchecked_return_type = "PnlAtTrigger")]
pub fn pnl_at_trigger(
    #[wasm_bindgen(unchecked_param_type = "PnlAtTriggerInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&margin::pnl_at_trigger(&read(input)?).map_err(throw)?)
}

/// The isolated margin and liquidation price after adding or removing margin.
#[wasm_bindgen(js_name = marginAdjustment, unchecked_return_type = "MarginAdjustment")]
pub fn margin_adjustment(
    #[wasm_bindgen(unchecked_param_type = "MarginAdjustmentInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&margin::margin_adjustment(&read(input)?).map_err(throw)?)
}

/// A spot order's cost or proceeds, fee and balances after.
#[wasm_bindgen(js_name = spotOrderPreview, unchecked_return_type = "SpotOrderPreview")]
pub fn spot_order_preview(
    #[wasm_bindgen(unchecked_param_type = "SpotOrderInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&margin::spot_order_preview(&read(input)?).map_err(throw)?)
}

/// A seconds contract's stake, profit if right, loss if wrong and return on a tie.
#[wasm_bindgen(js_name = secondsPreview, unchecked_return_type = "SecondsPreview")]
pub fn seconds_preview(
    #[wasm_bindgen(unchecked_param_type = "SecondsInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    to_js(&margin::seconds_preview(&read(input)?).map_err(throw)?)
}

/// A symbol's liquidation price calculator: the tier table is read and validated once, by the
/// constructor, so that each `liquidationPrice` call only parses the position's strings.
#[wasm_bindgen(js_name = MarginCalculator)]
pub struct MarginCalculator {
    tiers: margin::TierTable,
}

#[wasm_bindgen(js_class = MarginCalculator)]
impl MarginCalculator {
    /// Keeps `tiers` for every later call; throws `invalid_argument` naming `tiers` for a value that
    /// is not an array of tiers, or the table's error as `liquidationPrice` does.
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "MarginTier[]")] tiers: JsValue,
    ) -> Result<MarginCalculator, JsValue> {
        let tiers = from_js("tiers", tiers)?;
        let tiers = margin::TierTable::new(tiers).map_err(throw)?;
        Ok(Self { tiers })
    }

    /// The same price as the `liquidationPrice` function gives for this position and table, or
    /// `null`. Decimals are strings; a bad one throws its own error (`invalid_decimal`, …), an
    /// unknown side or margin mode `invalid_argument` naming it.
    #[wasm_bindgen(js_name = liquidationPrice, unchecked_return_type = "string | null")]
    #[allow(clippy::too_many_arguments)] // one plain argument per field: no object to read per call
    #[cfg_attr(optimize_hot, optimize(speed))]
    pub fn liquidation_price(
        &self,
        #[wasm_bindgen(unchecked_param_type = "\"long\" | \"short\"")] side: &str,
        size: &str,
        #[wasm_bindgen(js_name = entryPrice)] entry_price: &str,
        leverage: &str,
        #[wasm_bindgen(js_name = walletBalance)] wallet_balance: &str,
        #[wasm_bindgen(js_name = marginMode, unchecked_param_type = "\"isolated\" | \"cross\"")]
        margin_mode: &str,
        #[wasm_bindgen(js_name = otherMaintenanceMargin)] other_maintenance_margin: Option<String>,
        #[wasm_bindgen(js_name = otherUnrealizedPnl)] other_unrealized_pnl: Option<String>,
        #[wasm_bindgen(js_name = tickSize)] tick_size: Option<String>,
    ) -> Result<JsValue, JsValue> {
        // In argument order, as the native vector adapter reads them.
        let optional = |text: Option<String>| text.as_deref().map(parse_decimal).transpose();
        let position = margin::Position {
            side: side.parse().map_err(throw)?,
            size: parse_decimal(size).map_err(throw)?,
            entry_price: parse_decimal(entry_price).map_err(throw)?,
            leverage: parse_decimal(leverage).map_err(throw)?,
            wallet_balance: parse_decimal(wallet_balance).map_err(throw)?,
            margin_mode: margin_mode.parse().map_err(throw)?,
            other_maintenance_margin: optional(other_maintenance_margin).map_err(throw)?,
            other_unrealized_pnl: optional(other_unrealized_pnl).map_err(throw)?,
        };
        let tick_size = optional(tick_size).map_err(throw)?;
        price_or_null(margin::liquidation_price_in(
            &self.tiers,
            &position,
            tick_size,
        ))
    }

    /// The same liquidation price with every decimal given as a whole number and its scale
    /// (`size = 15, sizeScale = 1` for 1.5), and returned the same way: no string crosses the
    /// boundary. `side` is `1` (long) or `-1` (short), `cross` the margin mode; the optional
    /// decimals are `null` or `undefined` when absent (their scales then unused). Returns the price's
    /// mantissa at `tickSizeScale` with a tick, at 8 without one (`4518072` with tick `1, 2` is
    /// 45180.72), or `0` for no liquidation price. Each mantissa must be a whole number within
    /// ±(2⁵³ − 1) (`not_an_integer`, `integer_out_of_range` naming it), each scale at most 28
    /// (`integer_out_of_range` naming `sizeScale`, …); a price whose mantissa exceeds 2⁵³ − 1 throws
    /// `integer_out_of_range` naming `liquidationPrice`. Otherwise the same price, `null` as 0, and
    /// the same errors as `liquidationPrice` for the same decimals: a fixed-point path on the table
    /// read by the constructor, the `Decimal` path where it cannot be sure.
    #[wasm_bindgen(js_name = liquidationPriceScaled)]
    #[allow(clippy::too_many_arguments)] // one plain number per field: nothing to read per call
    #[cfg_attr(optimize_hot, optimize(speed))]
    pub fn liquidation_price_scaled(
        &self,
        side: i32,
        cross: bool,
        size: f64,
        #[wasm_bindgen(js_name = sizeScale)] size_scale: u32,
        #[wasm_bindgen(js_name = entryPrice)] entry_price: f64,
        #[wasm_bindgen(js_name = entryPriceScale)] entry_price_scale: u32,
        leverage: f64,
        #[wasm_bindgen(js_name = leverageScale)] leverage_scale: u32,
        #[wasm_bindgen(js_name = walletBalance)] wallet_balance: f64,
        #[wasm_bindgen(js_name = walletBalanceScale)] wallet_balance_scale: u32,
        #[wasm_bindgen(js_name = otherMaintenanceMargin)] other_maintenance_margin: Option<f64>,
        #[wasm_bindgen(js_name = otherMaintenanceMarginScale)] other_maintenance_margin_scale: u32,
        #[wasm_bindgen(js_name = otherUnrealizedPnl)] other_unrealized_pnl: Option<f64>,
        #[wasm_bindgen(js_name = otherUnrealizedPnlScale)] other_unrealized_pnl_scale: u32,
        #[wasm_bindgen(js_name = tickSize)] tick_size: Option<f64>,
        #[wasm_bindgen(js_name = tickSizeScale)] tick_size_scale: u32,
    ) -> Result<f64, JsValue> {
        margin::liquidation_price_mantissa(
            &self.tiers,
            side,
            cross,
            (size, size_scale),
            (entry_price, entry_price_scale),
            (leverage, leverage_scale),
            (wallet_balance, wallet_balance_scale),
            other_maintenance_margin.map(|m| (m, other_maintenance_margin_scale)),
            other_unrealized_pnl.map(|m| (m, other_unrealized_pnl_scale)),
            tick_size.map(|m| (m, tick_size_scale)),
        )
        .map_err(throw)
    }
}

/// A liquidation price as a string, `null` for none, or the error's payload to throw.
#[cfg_attr(optimize_hot, optimize(speed))]
fn price_or_null(
    price: Result<Option<rust_decimal::Decimal>, crate::CoreError>,
) -> Result<JsValue, JsValue> {
    Ok(match price.map_err(throw)? {
        Some(price) => JsValue::from_str(&price.to_string()),
        None => JsValue::NULL,
    })
}
