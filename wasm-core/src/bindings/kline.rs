//! The JavaScript exports of [`crate::kline`]. Intervals are the market channel's strings, offsets
//! and times JavaScript numbers, trades and candles plain objects with decimals as strings; the
//! batch export `aggregateTradesPacked` takes one `Float64Array` instead of an object per trade, and
//! the class `KlineBuffer` lets JavaScript write trades into wasm memory and read numeric candles back.

use wasm_bindgen::prelude::*;

use super::{from_js, throw, to_js};
use crate::convert::{MAX_EPOCH_MS, integer_from_number, offset_minutes_from_number};
use crate::kline::{self, Candle, CandleInput, Interval, Scales, TradeInput};

#[wasm_bindgen(typescript_custom_section)]
const TS_TYPES: &str = r#"
/** A kline interval of the market channel (`1month` is `1M`). */
export type KlineInterval = "1m" | "5m" | "15m" | "30m" | "1h" | "2h" | "4h" | "1d" | "1w" | "1M" | "1month";
/** One trade: decimals as strings, `time` in milliseconds since the epoch; other fields are ignored. */
export interface KlineTrade { price: string; qty: string; time: number; }
/** One candle: `openTime` in milliseconds, decimals as normalized strings. */
export interface Candle {
  openTime: number; open: string; high: string; low: string; close: string;
  baseVolume: string; quoteVolume: string; tradeCount: number;
}
/** What one trade did to the live candle: the candle it closed, if any, and the live candle. */
export interface LiveCandleUpdate { closed: Candle | null; live: Candle; }
/** The first and the last millisecond of an interval. */
export interface KlineBucket { openTime: number; closeTime: number; }
/** A market's last 24 hours (spec section 3); decimals as strings. */
export interface Rolling24h {
  openPrice: string; lastPrice: string; priceChange: string; priceChangePercent: string | null;
  highPrice: string; lowPrice: string; baseAssetVolume: string; quoteAssetVolume: string;
  totalNumberOfTrades: number;
}
"#;

fn interval(text: &str) -> Result<Interval, JsValue> {
    Interval::parse(text).map_err(throw)
}

fn offset(offset_minutes: f64) -> Result<i32, JsValue> {
    offset_minutes_from_number(offset_minutes).map_err(throw)
}

fn candles(inputs: &[CandleInput]) -> Result<Vec<Candle>, JsValue> {
    inputs
        .iter()
        .map(CandleInput::to_candle)
        .collect::<Result<_, _>>()
        .map_err(throw)
}

/// The interval containing `timeMs` at the UTC offset `offsetMinutes`: `{openTime, closeTime}`, both
/// inclusive.
#[wasm_bindgen(js_name = intervalBucket, unchecked_return_type = "KlineBucket")]
pub fn interval_bucket(
    #[wasm_bindgen(js_name = timeMs)] time_ms: f64,
    #[wasm_bindgen(js_name = interval, unchecked_param_type = "KlineInterval")] interval_text: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
) -> Result<JsValue, JsValue> {
    let time_ms =
        integer_from_number("timeMs", time_ms, -MAX_EPOCH_MS, MAX_EPOCH_MS).map_err(throw)?;
    let interval = interval(interval_text)?;
    let offset = offset(offset_minutes)?;
    to_js(&interval.bucket(time_ms, offset).map_err(throw)?)
}

/// The candles of `trades` (any order), one per interval with trades, oldest first.
#[wasm_bindgen(js_name = aggregateTrades, unchecked_return_type = "Candle[]")]
pub fn aggregate_trades(
    #[wasm_bindgen(unchecked_param_type = "KlineTrade[]")] trades: JsValue,
    #[wasm_bindgen(js_name = interval, unchecked_param_type = "KlineInterval")] interval_text: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
) -> Result<JsValue, JsValue> {
    let inputs: Vec<TradeInput> = from_js("trades", trades)?;
    let interval = interval(interval_text)?;
    let offset = offset(offset_minutes)?;
    let trades = inputs
        .iter()
        .map(TradeInput::to_trade)
        .collect::<Result<Vec<_>, _>>()
        .map_err(throw)?;
    to_js(&kline::aggregate_trades(&trades, interval, offset).map_err(throw)?)
}

/// `aggregateTrades` for large batches: `trades` holds three numbers per trade,
/// `[time₀, price₀, qty₀, time₁, …]`, with each price a whole number of 10^−`priceScale` and each
/// quantity of 10^−`qtyScale` (at price scale 2, `6500012` is 65000.12). One copy into wasm memory
/// and no object per trade; the candles are the same as `aggregateTrades` gives.
#[wasm_bindgen(js_name = aggregateTradesPacked, unchecked_return_type = "Candle[]")]
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn aggregate_trades_packed(
    trades: &[f64],
    #[wasm_bindgen(js_name = priceScale)] price_scale: f64,
    #[wasm_bindgen(js_name = qtyScale)] qty_scale: f64,
    #[wasm_bindgen(js_name = interval, unchecked_param_type = "KlineInterval")] interval_text: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
) -> Result<JsValue, JsValue> {
    let scales = Scales {
        price: integer_from_number("priceScale", price_scale, 0, 28).map_err(throw)? as u32,
        qty: integer_from_number("qtyScale", qty_scale, 0, 28).map_err(throw)? as u32,
    };
    let interval = interval(interval_text)?;
    let offset = offset(offset_minutes)?;
    to_js(&kline::aggregate_records(trades, scales, interval, offset).map_err(throw)?)
}

/// Applies one trade to the live candle (`null` or `undefined` when there is none yet):
/// `{closed, live}`.
#[wasm_bindgen(js_name = applyTrade, unchecked_return_type = "LiveCandleUpdate")]
pub fn apply_trade(
    #[wasm_bindgen(unchecked_param_type = "Candle | null | undefined")] live: JsValue,
    #[wasm_bindgen(unchecked_param_type = "KlineTrade")] trade: JsValue,
    #[wasm_bindgen(js_name = interval, unchecked_param_type = "KlineInterval")] interval_text: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
) -> Result<JsValue, JsValue> {
    let live: Option<CandleInput> = from_js("live", live)?;
    let trade: TradeInput = from_js("trade", trade)?;
    let interval = interval(interval_text)?;
    let offset = offset(offset_minutes)?;
    let live = live
        .as_ref()
        .map(CandleInput::to_candle)
        .transpose()
        .map_err(throw)?;
    let trade = trade.to_trade().map_err(throw)?;
    to_js(&kline::apply_trade(live, &trade, interval, offset).map_err(throw)?)
}

/// Rolls 1m candles (oldest first) up into `interval` candles.
#[wasm_bindgen(js_name = rollupCandles, unchecked_return_type = "Candle[]")]
pub fn rollup_candles(
    #[wasm_bindgen(js_name = candles, unchecked_param_type = "Candle[]")] candles_1m: JsValue,
    #[wasm_bindgen(js_name = interval, unchecked_param_type = "KlineInterval")] interval_text: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
) -> Result<JsValue, JsValue> {
    let inputs: Vec<CandleInput> = from_js("candles", candles_1m)?;
    let interval = interval(interval_text)?;
    let offset = offset(offset_minutes)?;
    to_js(&kline::rollup(&candles(&inputs)?, interval, offset).map_err(throw)?)
}

/// `candles` with a flat candle at the previous close for each interval without trades between them.
#[wasm_bindgen(js_name = fillCandleGaps, unchecked_return_type = "Candle[]")]
pub fn fill_candle_gaps(
    #[wasm_bindgen(js_name = candles, unchecked_param_type = "Candle[]")] candles_in: JsValue,
    #[wasm_bindgen(js_name = interval, unchecked_param_type = "KlineInterval")] interval_text: &str,
    #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
) -> Result<JsValue, JsValue> {
    let inputs: Vec<CandleInput> = from_js("candles", candles_in)?;
    let interval = interval(interval_text)?;
    let offset = offset(offset_minutes)?;
    to_js(&kline::fill_gaps(&candles(&inputs)?, interval, offset).map_err(throw)?)
}

/// The rolling 24h statistics of the 1m candles (oldest first) at `nowMs`, or `null` without
/// candles in the window.
#[wasm_bindgen(js_name = rolling24h, unchecked_return_type = "Rolling24h | null")]
pub fn rolling_24h(
    #[wasm_bindgen(js_name = candles, unchecked_param_type = "Candle[]")] candles_1m: JsValue,
    #[wasm_bindgen(js_name = nowMs)] now_ms: f64,
) -> Result<JsValue, JsValue> {
    let inputs: Vec<CandleInput> = from_js("candles", candles_1m)?;
    let now_ms =
        integer_from_number("nowMs", now_ms, -MAX_EPOCH_MS, MAX_EPOCH_MS).map_err(throw)?;
    to_js(&kline::rolling_24h(&candles(&inputs)?, now_ms).map_err(throw)?)
}

/// `aggregateTradesPacked` without copies at the boundary, for large batches: JavaScript writes the
/// trades straight into wasm memory through the `Float64Array` view of `trades()`, and reads the
/// candles back through `candles()`, ten numbers each: `[openTime, open, high, low, close,
/// tradeCount, baseHi, baseLo, quoteHi, quoteLo]`, prices in units of 10^−`priceScale`, the base
/// volume `baseHi × 2⁴⁸ + baseLo` in units of 10^−`qtyScale`, the quote volume likewise in units of
/// 10^−(`priceScale` + `qtyScale`): exact integers (`wasm_core::kline::FixedCandle`).
///
/// A producer holding the trades as 64-bit integers writes them through the `BigInt64Array` view of
/// `tradeIntegers()` (the same memory) and calls `aggregateIntegers`, which skips the conversion.
///
/// A view is valid until the next call that may allocate (`aggregate`, any other export): take it
/// again after each call, before reading or writing.
#[wasm_bindgen(js_name = KlineBuffer)]
pub struct KlineBuffer {
    buffer: kline::TradeBuffer,
}

#[wasm_bindgen(js_class = KlineBuffer)]
impl KlineBuffer {
    /// A buffer for `capacity` trades (at most 50 million), every number 0.
    #[wasm_bindgen(constructor)]
    pub fn new(capacity: f64) -> Result<KlineBuffer, JsValue> {
        let max = kline::TradeBuffer::MAX_CAPACITY as i64;
        let capacity = integer_from_number("capacity", capacity, 0, max).map_err(throw)?;
        let buffer = kline::TradeBuffer::new(capacity as usize).map_err(throw)?;
        Ok(Self { buffer })
    }

    /// The trades to fill, `[time₀, price₀, qty₀, …]`: a view of wasm memory, three numbers per trade
    /// of the capacity.
    pub fn trades(&mut self) -> js_sys::Float64Array {
        let records = self.buffer.records_mut();
        // SAFETY: a view of memory the buffer owns; it is valid until wasm memory grows (the
        // export's documentation says to take it again after each call).
        unsafe { js_sys::Float64Array::view_mut_raw(records.as_mut_ptr(), records.len()) }
    }

    /// The trades to fill as integers, `[time₀, price₀, qty₀, …]`: a `BigInt64Array` view of the same
    /// memory as `trades()` (24 bytes a trade, little-endian `i64`), for `aggregateIntegers`.
    #[wasm_bindgen(js_name = tradeIntegers)]
    pub fn trade_integers(&mut self) -> js_sys::BigInt64Array {
        let trades = self.buffer.trades_mut();
        // SAFETY: as for `trades`: three `i64` per trade of memory the buffer owns.
        unsafe { js_sys::BigInt64Array::view_mut_raw(trades.as_mut_ptr().cast(), 3 * trades.len()) }
    }

    /// Aggregates the first `count` trades into the candles of `candles()` and returns how many there
    /// are; the rules and errors of `aggregateTradesPacked`, `volume_overflow` for a volume of 2⁹⁶
    /// or more, `integer_out_of_range` naming `count` beyond the capacity.
    pub fn aggregate(
        &mut self,
        count: f64,
        #[wasm_bindgen(js_name = priceScale)] price_scale: f64,
        #[wasm_bindgen(js_name = qtyScale)] qty_scale: f64,
        #[wasm_bindgen(js_name = interval, unchecked_param_type = "KlineInterval")]
        interval_text: &str,
        #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
    ) -> Result<f64, JsValue> {
        let args = (count, price_scale, qty_scale, interval_text, offset_minutes);
        self.run(false, args)
    }

    /// `aggregate` for trades written as integers through `tradeIntegers()`: no conversion, the same
    /// candles and errors for the same values (times within the `Date` range, prices and quantities
    /// within ±(2⁵³ − 1) and above zero).
    #[wasm_bindgen(js_name = aggregateIntegers)]
    pub fn aggregate_integers(
        &mut self,
        count: f64,
        #[wasm_bindgen(js_name = priceScale)] price_scale: f64,
        #[wasm_bindgen(js_name = qtyScale)] qty_scale: f64,
        #[wasm_bindgen(js_name = interval, unchecked_param_type = "KlineInterval")]
        interval_text: &str,
        #[wasm_bindgen(js_name = offsetMinutes)] offset_minutes: f64,
    ) -> Result<f64, JsValue> {
        let args = (count, price_scale, qty_scale, interval_text, offset_minutes);
        self.run(true, args)
    }

    /// The candles of the last `aggregate`, ten numbers each: a view of wasm memory.
    pub fn candles(&self) -> js_sys::Float64Array {
        // SAFETY: as for `trades`; JavaScript may write into it, which only changes this result.
        unsafe { js_sys::Float64Array::view(self.buffer.candles()) }
    }
}

impl KlineBuffer {
    /// Both aggregations: the arguments checked once, in the order of the parameters.
    fn run(&mut self, integers: bool, args: (f64, f64, f64, &str, f64)) -> Result<f64, JsValue> {
        let (count, price_scale, qty_scale, interval_text, offset_minutes) = args;
        let count = integer_from_number("count", count, 0, self.buffer.capacity() as i64)
            .map_err(throw)? as usize;
        let scales = Scales {
            price: integer_from_number("priceScale", price_scale, 0, 28).map_err(throw)? as u32,
            qty: integer_from_number("qtyScale", qty_scale, 0, 28).map_err(throw)? as u32,
        };
        let interval = interval(interval_text)?;
        let offset = offset(offset_minutes)?;
        let buffer = &mut self.buffer;
        let candles = if integers {
            buffer.aggregate_integers(count, scales, interval, offset)
        } else {
            buffer.aggregate(count, scales, interval, offset)
        };
        Ok(candles.map_err(throw)? as f64)
    }
}
