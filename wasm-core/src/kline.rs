//! Klines (candles): trades into candles at the market channel's intervals, the live candle updated
//! trade by trade, 1m candles rolled up into longer intervals, gaps filled for charts, and the rolling
//! 24-hour statistics of spec section 3. Money stays [`Decimal`](rust_decimal::Decimal); times are
//! integer milliseconds since the epoch, and every bucket is integer arithmetic (no `f64`, no `%` on
//! floats).
//!
//! # Intervals and buckets
//! `1m`, `5m`, `15m`, `30m`, `1h`, `2h`, `4h`, `1d`, `1w`, `1M` (also `1month`), see [`Interval`]. A
//! candle covers the instants from its open time up to, not including, the next candle's open time.
//! Buckets follow the local clock and calendar of a fixed UTC offset in minutes (±18:00, the user's
//! time zone of [`crate::format::time_zones`]): a day opens at local midnight, a week on Monday at
//! local midnight, a month at local midnight of its first day (calendar months: 28 to 31 days), and the
//! intraday intervals on multiples of their length from local midnight (at +05:45 an hour opens at
//! :15 UTC). Every bucket edge is a whole minute, so 1m candles roll up into every interval at every
//! offset. Times must lie in the JavaScript `Date` range, ±8.64 × 10¹⁵ ms.
//!
//! # Trades and candles
//! A [`Candle`] has the price of its first trade (open), its highest and lowest price, the price of
//! its last trade (close), the sum of the quantities (base volume), the sum of price × quantity
//! (quote volume) and the number of trades. Trades need a price and a quantity above zero.
//! [`aggregate_trades`] takes trades in any order and sorts them by time first, keeping the given
//! order among trades of the same millisecond (so of those the first given opens and the last given
//! closes); sorted input, the usual case, costs no sorting. [`apply_trade`] updates the live candle
//! with trades in the order they arrive.
//!
//! Every decimal of a candle is normalized (`65000.1`, never `65000.10`): candles built from the
//! same trades by any path ([`aggregate_trades`], [`aggregate_packed`], [`apply_trade`], [`rollup`])
//! are equal, and equal as strings.
//!
//! # Intervals without trades
//! An interval without trades has no candle: [`aggregate_trades`], [`apply_trade`] and [`rollup`]
//! never invent one, so the data stays what happened. Charts that want a continuous series call
//! [`fill_gaps`], which inserts, for each missing interval between two candles, a flat candle at the
//! previous close (open = high = low = close) with zero volumes and zero trades, as exchanges' kline
//! charts show a quiet interval.
//!
//! # Exact and fast
//! Volumes are exact [`Decimal`](rust_decimal::Decimal) sums. [`aggregate_trades`] packs the trades
//! into fixed-point integers at one scale per batch ([`PackedTrade`], 24 bytes) and aggregates those
//! with 64-bit products and 128-bit sums, one comparison per trade for the bucket, and no allocation
//! per trade; whenever a value or sum would not be exact in that form (more than 28 decimals in a
//! product, a sum beyond 96 bits, a decimal that does not fit 64 bits at the batch's scale) it uses
//! [`Decimal`](rust_decimal::Decimal) arithmetic instead. Both give the same candles (tested).
//! [`aggregate_packed`] takes packed trades directly, and [`aggregate_records`] flat `f64` triples
//! (the wasm export `aggregateTradesPacked`, a `Float64Array`). Volumes have the 28 significant
//! digits of a [`Decimal`](rust_decimal::Decimal): beyond that (never with real markets) a sum is
//! rounded, and a roll-up may then differ from direct aggregation in the last digit.
//!
//! # Numeric candles for large batches
//! [`TradeBuffer`] holds trades that a wasm caller writes in place (the class `KlineBuffer`, a
//! `Float64Array` view of wasm memory) and returns the candles of [`aggregate_records_fixed`] as
//! ten numbers each, with the volumes as exact integers in two 48-bit parts: no copy of the trades
//! and no object or string per candle at the boundary (layout in [`FixedCandle`]'s module).

mod candle;
mod fixed;
mod interval;
mod packed;
mod rolling;
#[cfg(test)]
mod tests;

pub use candle::{
    Candle, CandleInput, LiveUpdate, MAX_FILLED_CANDLES, Trade, TradeInput, aggregate_trades,
    apply_trade, fill_gaps, rollup,
};
pub use fixed::{
    FIXED_CANDLE_FIELDS, FixedCandle, TradeBuffer, aggregate_packed_fixed, aggregate_records_fixed,
};
pub use interval::{Bucket, Interval};
pub use packed::{PackedTrade, Scales, aggregate_packed, aggregate_records, pack_trades};
pub use rolling::{Rolling24h, RollingDay, rolling_24h};
