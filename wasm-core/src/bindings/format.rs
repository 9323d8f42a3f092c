//! The JavaScript exports of [`crate::format`].

use wasm_bindgen::prelude::*;

use super::{throw, to_js};
use crate::convert::{epoch_ms_from_number, offset_minutes_from_number, precision_from_number};
use crate::error::CoreError;
use crate::format::{self, TickerRowInput};
use crate::money::parse_decimal;

/// `(amount − open) / open × 100` with 2 decimals, or `undefined` unless both are above zero.
#[wasm_bindgen(js_name = priceChangePercent)]
pub fn price_change_percent(amount: &str, open: &str) -> Result<Option<String>, JsValue> {
    let amount = parse_decimal(amount).map_err(throw)?;
    let open = parse_decimal(open).map_err(throw)?;
    Ok(format::price_change_percent(amount, open).map(|p| p.to_string()))
}

/// `"+1.23%"`, `"-0.50%"`, `"0.00%"`, or `"--"` when `percent` is `undefined` or `null`.
#[wasm_bindgen(js_name = formatPercent)]
pub fn format_percent(percent: Option<String>) -> Result<String, JsValue> {
    let percent = percent.as_deref().map(parse_decimal).transpose();
    Ok(format::format_percent(percent.map_err(throw)?))
}

/// `"1,234,567.89"`: thousands separators, 2 decimals.
#[wasm_bindgen(js_name = formatAmount)]
pub fn format_amount(value: &str) -> Result<String, JsValue> {
    Ok(format::format_amount(parse_decimal(value).map_err(throw)?))
}

/// `"45.60K"`, `"1.23M"`, `"2.10B"`, `"3.00T"`, `"999.99"`.
#[wasm_bindgen(js_name = formatCompact)]
pub fn format_compact(value: &str) -> Result<String, JsValue> {
    Ok(format::format_compact(parse_decimal(value).map_err(throw)?))
}

/// A price with exactly `precision` decimals (0 to 28), or decimals by magnitude when it is absent.
#[wasm_bindgen(js_name = formatPrice)]
pub fn format_price(value: &str, precision: Option<f64>) -> Result<String, JsValue> {
    let value = parse_decimal(value).map_err(throw)?;
    let precision = precision.map(precision_from_number).transpose();
    Ok(format::format_price(value, precision.map_err(throw)?))
}

/// `MM/DD/YYYY HH:mm:ss` of `epochMs` at the fixed UTC offset `offsetMinutes`.
#[wasm_bindgen(js_name = formatDateTime)]
pub fn format_date_time(
    #[wasm_bindgen(js_name = epochMs)] epoch_ms: f64,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
) -> Result<String, JsValue> {
    let epoch_ms = epoch_ms_from_number(epoch_ms).map_err(throw)?;
    let offset_minutes = offset_minutes_from_number(offset_minutes).map_err(throw)?;
    Ok(format::format_date_time(epoch_ms, offset_minutes))
}

/// The 38 time zones from UTC−12:00 to UTC+14:00.
#[wasm_bindgen(js_name = timeZones, unchecked_return_type = "TimeZone[]")]
pub fn time_zones() -> Result<JsValue, JsValue> {
    to_js(format::time_zones())
}

/// Formats a whole ticker table in one call; throws for the first row with a bad value.
#[wasm_bindgen(js_name = formatTickerRows, unchecked_return_type = "TickerRowView[]")]
pub fn format_ticker_rows(
    #[wasm_bindgen(unchecked_param_type = "TickerRowInput[]")] rows: JsValue,
) -> Result<JsValue, JsValue> {
    let rows: Vec<TickerRowInput> = serde_wasm_bindgen::from_value(rows)
        .map_err(|_| throw(CoreError::InvalidArgument { name: "rows" }))?;
    to_js(&format::format_ticker_rows(&rows).map_err(throw)?)
}
