//! The JavaScript exports of [`crate::format`].

use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;

use super::{from_js, throw, to_js};
use crate::convert::{
    epoch_ms_from_number, integer_from_number, offset_minutes_from_number, precision_from_number,
};
use crate::format::{
    self, OrderBookInput, OrderBookOptions, TickerRowInput, TradeInput, TradePrecisions,
};
use crate::money::parse_decimal;

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A price level: `[price, quantity]` as decimal strings. */
export type BookLevel = [string, string];
/** One grouped level; decimals are strings, `depth` a share from "0.0000" to "1.0000". */
export interface GroupedLevel { price: string; quantity: string; cumulative: string; depth: string; }
/** Both sides of a grouped book, each best first. */
export interface GroupedBook { bids: GroupedLevel[]; asks: GroupedLevel[]; }
/** The order book to format, and how. */
export interface OrderBookInput {
  bids: BookLevel[]; asks: BookLevel[]; tick?: string | null;
  pricePrecision?: number | null; quantityPrecision?: number | null; limit?: number | null;
}
/** One formatted order book row; `depth` is a percent without sign, "0.00" to "100.00". */
export interface OrderBookRow { price: string; quantity: string; total: string; cumulative: string; depth: string; }
/** The formatted order book, each side best first. */
export interface OrderBookView { bids: OrderBookRow[]; asks: OrderBookRow[]; }
/** How to show an order book (formatOrderBookPacked). */
export interface OrderBookOptions {
  tick?: string | null; pricePrecision?: number | null; quantityPrecision?: number | null; limit?: number | null;
}
/**
 * Each side as one string: rows joined by "\n", each row's price, quantity, total, cumulative and
 * depth joined by "\t"; "" for a side without rows.
 */
export interface PackedOrderBook { bids: string; asks: string; }
/** One trade; `time` in milliseconds since the epoch. */
export interface TradeInput { price: string; quantity?: string; qty?: string; time: number; side: "buy" | "sell" | "BUY" | "SELL"; }
/** The pair's precisions. */
export interface TradePrecisions { pricePrecision?: number | null; quantityPrecision?: number | null; }
/** One formatted trade. */
export interface TradeView { price: string; quantity: string; time: string; direction: "up" | "down"; }
"#;

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

/// A balance (held, available, equity, margin): thousands separators, `decimals` decimals (2 when
/// absent), truncated toward zero (`"298.88579145"` → `"298.88"`).
#[wasm_bindgen(js_name = formatBalance)]
pub fn format_balance(value: &str, decimals: Option<f64>) -> Result<String, JsValue> {
    let value = parse_decimal(value).map_err(throw)?;
    let decimals = decimals.map(precision_from_number).transpose();
    Ok(format::format_balance(value, decimals.map_err(throw)?))
}

/// A profit, loss, fee or funding payment: thousands separators, 2 decimals, nearest with ties to
/// even (`"1.005"` → `"1.00"`, `"1.015"` → `"1.02"`).
#[wasm_bindgen(js_name = formatPnl)]
pub fn format_pnl(value: &str) -> Result<String, JsValue> {
    Ok(format::format_pnl(parse_decimal(value).map_err(throw)?))
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
    let rows: Vec<TickerRowInput> = from_js("rows", rows)?;
    to_js(&format::format_ticker_rows(&rows).map_err(throw)?)
}

/// A quantity with exactly `precision` decimals (0 to 28), or its own decimals when it is absent.
#[wasm_bindgen(js_name = formatQuantity)]
pub fn format_quantity(value: &str, precision: Option<f64>) -> Result<String, JsValue> {
    let value = parse_decimal(value).map_err(throw)?;
    let precision = precision.map(precision_from_number).transpose();
    Ok(format::format_quantity(value, precision.map_err(throw)?))
}

/// Groups both sides of a book to `tick` (a decimal string above zero), keeping at most `limit`
/// levels per side, with cumulative quantities and depth shares.
#[wasm_bindgen(js_name = groupOrderBook, unchecked_return_type = "GroupedBook")]
pub fn group_order_book(
    #[wasm_bindgen(unchecked_param_type = "BookLevel[]")] bids: JsValue,
    #[wasm_bindgen(unchecked_param_type = "BookLevel[]")] asks: JsValue,
    tick: &str,
    limit: Option<f64>,
) -> Result<JsValue, JsValue> {
    let bids: Vec<[String; 2]> = from_js("bids", bids)?;
    let asks: Vec<[String; 2]> = from_js("asks", asks)?;
    let tick = parse_decimal(tick).map_err(throw)?;
    let limit = limit
        .map(|limit| integer_from_number("limit", limit, 0, i64::from(u32::MAX)))
        .transpose()
        .map_err(throw)?;
    let book = format::group_order_book(&bids, &asks, tick, limit.map(|l| l as usize));
    to_js(&book.map_err(throw)?)
}

/// Groups (optionally) and formats a whole order book in one call.
#[wasm_bindgen(js_name = formatOrderBook, unchecked_return_type = "OrderBookView")]
pub fn format_order_book(
    #[wasm_bindgen(unchecked_param_type = "OrderBookInput")] input: JsValue,
) -> Result<JsValue, JsValue> {
    let input: OrderBookInput = from_js("input", input)?;
    to_js(&format::format_order_book(&input).map_err(throw)?)
}

/// `formatOrderBook` for the depth message's JSON text as it arrives from the socket; each side comes
/// back as one string of tab-separated cells and newline-separated rows (three strings cross the
/// boundary instead of one per cell).
#[wasm_bindgen(js_name = formatOrderBookPacked, unchecked_return_type = "PackedOrderBook")]
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn format_order_book_packed(
    message: &str,
    #[wasm_bindgen(unchecked_param_type = "OrderBookOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    let options: OrderBookOptions = from_js("options", options)?;
    let book = format::format_order_book_packed(message, &options).map_err(throw)?;
    // Built directly rather than through JSON text, which would escape every tab and newline.
    let object = Object::new();
    Reflect::set(
        &object,
        &JsValue::from_str("bids"),
        &JsValue::from_str(&book.bids),
    )?;
    Reflect::set(
        &object,
        &JsValue::from_str("asks"),
        &JsValue::from_str(&book.asks),
    )?;
    Ok(object.into())
}

/// Formats a list of trades in one call: price, quantity, `HH:mm:ss` at `offsetMinutes`, direction.
#[wasm_bindgen(js_name = formatTrades, unchecked_return_type = "TradeView[]")]
pub fn format_trades(
    #[wasm_bindgen(unchecked_param_type = "TradeInput[]")] trades: JsValue,
    #[wasm_bindgen(unchecked_param_type = "TradePrecisions")] precisions: JsValue,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
) -> Result<JsValue, JsValue> {
    let trades: Vec<TradeInput> = from_js("trades", trades)?;
    let precisions: TradePrecisions = from_js("precisions", precisions)?;
    let offset_minutes = offset_minutes_from_number(offset_minutes).map_err(throw)?;
    to_js(&format::format_trades(&trades, &precisions, offset_minutes).map_err(throw)?)
}
