//! Trades and candles in [`Decimal`]s: aggregation (the reference path, which the packed path of
//! [`super::packed`] must equal), the live candle, roll-ups and gap filling.

use std::cmp::Ordering;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::interval::{Interval, check_time, offset_ms};
use super::packed;
use crate::convert::{MAX_EPOCH_MS, integer_from_number};
use crate::error::CoreError;
use crate::money::parse_decimal;

/// The most candles [`fill_gaps`] returns (about 69 days of 1m candles).
pub const MAX_FILLED_CANDLES: u64 = 100_000;

/// The largest whole number a JavaScript `number` holds exactly (2⁵³ − 1).
pub(crate) const MAX_SAFE_INTEGER: i64 = (1 << 53) - 1;

/// One trade: an exact price and quantity, and its time in milliseconds since the epoch.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Trade {
    /// The price, above zero.
    pub price: Decimal,
    /// The base-asset quantity, above zero.
    pub qty: Decimal,
    /// When it happened, in milliseconds since the epoch.
    pub time_ms: i64,
}

/// A trade as the market channel and the webapp hold it: decimals as strings, the time as a number
/// of milliseconds. Other fields (an id, a side) are ignored.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TradeInput {
    /// The price, a decimal string.
    pub price: String,
    /// The quantity, a decimal string.
    pub qty: String,
    /// The time in milliseconds since the epoch, a whole number.
    pub time: f64,
}

impl TradeInput {
    /// The trade, with the decimals parsed by [`parse_decimal`] and the time a whole number of
    /// milliseconds in the JavaScript `Date` range (argument `time`).
    pub fn to_trade(&self) -> Result<Trade, CoreError> {
        Ok(Trade {
            price: parse_decimal(&self.price)?,
            qty: parse_decimal(&self.qty)?,
            time_ms: integer_from_number("time", self.time, -MAX_EPOCH_MS, MAX_EPOCH_MS)?,
        })
    }
}

/// One candle. Serialized with decimals as strings:
/// `{"openTime":1704067200000,"open":"42000.5","high":"42010","low":"41990.1","close":"42001",
/// "baseVolume":"3.25","quoteVolume":"136503.1","tradeCount":17}`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Candle {
    /// The first millisecond of the candle's interval.
    pub open_time: i64,
    /// The price of the first trade.
    pub open: Decimal,
    /// The highest price.
    pub high: Decimal,
    /// The lowest price.
    pub low: Decimal,
    /// The price of the last trade.
    pub close: Decimal,
    /// The sum of the trades' quantities.
    pub base_volume: Decimal,
    /// The sum of the trades' price × quantity.
    pub quote_volume: Decimal,
    /// The number of trades.
    pub trade_count: u64,
}

/// A candle as the webapp holds it (the serialized form of [`Candle`]), to be checked and parsed.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct CandleInput {
    /// The open time in milliseconds since the epoch, a whole number.
    pub open_time: f64,
    /// The open price, a decimal string.
    pub open: String,
    /// The high price, a decimal string.
    pub high: String,
    /// The low price, a decimal string.
    pub low: String,
    /// The close price, a decimal string.
    pub close: String,
    /// The base volume, a decimal string.
    pub base_volume: String,
    /// The quote volume, a decimal string.
    pub quote_volume: String,
    /// The number of trades, a whole number.
    pub trade_count: f64,
}

impl CandleInput {
    /// The candle, with the decimals parsed by [`parse_decimal`], the open time a whole number of
    /// milliseconds in the JavaScript `Date` range (argument `openTime`) and the trade count a whole
    /// number from 0 to 2⁵³ − 1 (argument `tradeCount`). Whether the values fit together is checked
    /// by the function the candle is given to.
    pub fn to_candle(&self) -> Result<Candle, CoreError> {
        Ok(Candle {
            open_time: integer_from_number(
                "openTime",
                self.open_time,
                -MAX_EPOCH_MS,
                MAX_EPOCH_MS,
            )?,
            open: parse_decimal(&self.open)?,
            high: parse_decimal(&self.high)?,
            low: parse_decimal(&self.low)?,
            close: parse_decimal(&self.close)?,
            base_volume: parse_decimal(&self.base_volume)?,
            quote_volume: parse_decimal(&self.quote_volume)?,
            trade_count: integer_from_number("tradeCount", self.trade_count, 0, MAX_SAFE_INTEGER)?
                as u64,
        })
    }
}

/// What one trade did to the live candle: the candle it closed, if it opened a new interval, and the
/// live candle after it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LiveUpdate {
    /// The previous live candle, when the trade falls in a later interval (intervals without trades
    /// in between have no candle; see [`fill_gaps`]).
    pub closed: Option<Candle>,
    /// The live candle including the trade.
    pub live: Candle,
}

impl Candle {
    /// The candle of a single trade in the interval opening at `open_time`.
    fn from_trade(open_time: i64, trade: &Trade) -> Result<Self, CoreError> {
        Ok(Self {
            open_time,
            open: trade.price,
            high: trade.price,
            low: trade.price,
            close: trade.price,
            base_volume: trade.qty,
            quote_volume: trade
                .price
                .checked_mul(trade.qty)
                .ok_or(CoreError::VolumeOverflow)?,
            trade_count: 1,
        })
    }

    /// Adds a later trade of the same interval.
    fn add_trade(&mut self, trade: &Trade) -> Result<(), CoreError> {
        let turnover = trade
            .price
            .checked_mul(trade.qty)
            .ok_or(CoreError::VolumeOverflow)?;
        self.high = self.high.max(trade.price);
        self.low = self.low.min(trade.price);
        self.close = trade.price;
        self.base_volume = checked_add(self.base_volume, trade.qty)?;
        self.quote_volume = checked_add(self.quote_volume, turnover)?;
        self.trade_count = self
            .trade_count
            .checked_add(1)
            .ok_or(CoreError::VolumeOverflow)?;
        Ok(())
    }

    /// Adds the next candle of the same longer interval (or window).
    pub(crate) fn add_candle(&mut self, next: &Candle) -> Result<(), CoreError> {
        self.high = self.high.max(next.high);
        self.low = self.low.min(next.low);
        self.close = next.close;
        self.base_volume = checked_add(self.base_volume, next.base_volume)?;
        self.quote_volume = checked_add(self.quote_volume, next.quote_volume)?;
        self.trade_count = self
            .trade_count
            .checked_add(next.trade_count)
            .ok_or(CoreError::VolumeOverflow)?;
        Ok(())
    }

    /// A flat candle at this candle's close, with no trades, opening at `open_time`.
    fn quiet_after(&self, open_time: i64) -> Self {
        Self {
            open_time,
            open: self.close,
            high: self.close,
            low: self.close,
            close: self.close,
            base_volume: Decimal::ZERO,
            quote_volume: Decimal::ZERO,
            trade_count: 0,
        }
    }

    /// The same candle with every decimal normalized (no trailing zeros).
    pub(crate) fn normalized(mut self) -> Self {
        for value in [
            &mut self.open,
            &mut self.high,
            &mut self.low,
            &mut self.close,
            &mut self.base_volume,
            &mut self.quote_volume,
        ] {
            *value = value.normalize();
        }
        self
    }

    /// Checks that the candle is the `index`-th of a list of `interval` candles: it opens at the start
    /// of one of the interval's buckets, its prices are above zero with open and close between low and
    /// high, and its volumes are not negative.
    pub(crate) fn check(
        &self,
        index: usize,
        interval: Interval,
        offset_ms: i64,
    ) -> Result<(), CoreError> {
        let prices_fit = self.low > Decimal::ZERO
            && self.low <= self.high
            && (self.low..=self.high).contains(&self.open)
            && (self.low..=self.high).contains(&self.close);
        let volumes_fit =
            !self.base_volume.is_sign_negative() && !self.quote_volume.is_sign_negative();
        if prices_fit && volumes_fit && interval.opens_at(self.open_time, offset_ms) {
            Ok(())
        } else {
            Err(CoreError::InvalidCandle {
                index,
                open_time: self.open_time,
                interval: interval.as_str(),
            })
        }
    }
}

/// `items` sorted by time, stably (items of the same millisecond keep their order). One sort of
/// (time, index) pairs serves every item type, which keeps the wasm file small.
pub(crate) fn sorted_by_time<T: Copy>(items: &[T], time: impl Fn(&T) -> i64) -> Vec<T> {
    let mut order: Vec<(i64, usize)> = items.iter().map(&time).zip(0..).collect();
    order.sort_unstable();
    order.into_iter().map(|(_, index)| items[index]).collect()
}

fn checked_add(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_add(b).ok_or(CoreError::VolumeOverflow)
}

/// Checks the `index`-th trade: its time in the JavaScript `Date` range, its price and quantity above
/// zero.
pub(crate) fn check_trade(index: usize, trade: &Trade) -> Result<(), CoreError> {
    check_time("time", trade.time_ms)?;
    for (name, value) in [("price", trade.price), ("qty", trade.qty)] {
        if value <= Decimal::ZERO {
            return Err(CoreError::NonPositiveTrade {
                index,
                name,
                value: value.to_string(),
            });
        }
    }
    Ok(())
}

/// Checks that `candles` are `interval` candles (see [`Candle::check`]) in strictly increasing open
/// time order; the first failing candle gives the error.
fn check_candles(candles: &[Candle], interval: Interval, offset_ms: i64) -> Result<(), CoreError> {
    for (index, candle) in candles.iter().enumerate() {
        candle.check(index, interval, offset_ms)?;
        if index > 0 && candle.open_time <= candles[index - 1].open_time {
            return Err(CoreError::CandlesOutOfOrder { index });
        }
    }
    Ok(())
}

/// The candles of `trades` at `interval` and the UTC offset `offset_minutes`, oldest first, one per
/// interval that has trades (see the module rules of [`crate::kline`]).
///
/// Trades may come in any order (they are sorted by time, stably). Fails with the first trade (in
/// the order given) whose time is outside the JavaScript `Date` range
/// ([`CoreError::IntegerOutOfRange`]) or whose price or quantity is not above zero
/// ([`CoreError::NonPositiveTrade`]), with [`CoreError::IntegerOutOfRange`] for an offset beyond
/// ±18:00, and with [`CoreError::VolumeOverflow`] when a volume exceeds the decimal range.
pub fn aggregate_trades(
    trades: &[Trade],
    interval: Interval,
    offset_minutes: i32,
) -> Result<Vec<Candle>, CoreError> {
    let offset_ms = offset_ms(offset_minutes)?;
    for (index, trade) in trades.iter().enumerate() {
        check_trade(index, trade)?;
    }
    if let Some((packed, scales)) = packed::pack_trades(trades)
        && let Some(candles) = packed::aggregate_exact(&packed, scales, interval, offset_ms)
    {
        return Ok(candles);
    }
    aggregate_decimal(trades, interval, offset_ms)
}

/// [`aggregate_trades`] in [`Decimal`] arithmetic, for trades already checked: the reference the
/// packed path must equal, and the fallback where it cannot be exact.
pub(crate) fn aggregate_decimal(
    trades: &[Trade],
    interval: Interval,
    offset_ms: i64,
) -> Result<Vec<Candle>, CoreError> {
    let sorted;
    let trades = if trades.is_sorted_by_key(|t| t.time_ms) {
        trades
    } else {
        sorted = sorted_by_time(trades, |t| t.time_ms);
        &sorted
    };
    let mut candles: Vec<Candle> = Vec::new();
    let mut close_time = i64::MIN;
    for trade in trades {
        match candles.last_mut() {
            Some(candle) if trade.time_ms <= close_time => candle.add_trade(trade)?,
            _ => {
                let bucket = interval.bucket_unchecked(trade.time_ms, offset_ms);
                close_time = bucket.close_time;
                candles.push(Candle::from_trade(bucket.open_time, trade)?);
            }
        }
    }
    Ok(candles.into_iter().map(Candle::normalized).collect())
}

/// Applies one trade to the live candle of `interval` at the UTC offset `offset_minutes`.
///
/// Without a live candle, the trade opens one. A trade in the live candle's interval updates it (high,
/// low, close, volumes, count; trades count in the order they arrive). A trade in a later interval
/// closes the live candle (returned as `closed`) and opens a new one. A trade in an earlier interval
/// fails with [`CoreError::TradeBeforeCandle`]: a closed candle is not reopened. Fails too for a bad
/// trade (as [`aggregate_trades`] does, at index 0) or a live candle that is not an `interval` candle
/// ([`CoreError::InvalidCandle`]).
pub fn apply_trade(
    live: Option<Candle>,
    trade: &Trade,
    interval: Interval,
    offset_minutes: i32,
) -> Result<LiveUpdate, CoreError> {
    let offset_ms = offset_ms(offset_minutes)?;
    check_trade(0, trade)?;
    let open_time = interval
        .bucket_unchecked(trade.time_ms, offset_ms)
        .open_time;
    let Some(live) = live else {
        return Ok(LiveUpdate {
            closed: None,
            live: Candle::from_trade(open_time, trade)?.normalized(),
        });
    };
    live.check(0, interval, offset_ms)?;
    match open_time.cmp(&live.open_time) {
        Ordering::Less => Err(CoreError::TradeBeforeCandle {
            time: trade.time_ms,
            open_time: live.open_time,
        }),
        Ordering::Equal => {
            let mut updated = live;
            updated.add_trade(trade)?;
            Ok(LiveUpdate {
                closed: None,
                live: updated.normalized(),
            })
        }
        Ordering::Greater => Ok(LiveUpdate {
            closed: Some(live.normalized()),
            live: Candle::from_trade(open_time, trade)?.normalized(),
        }),
    }
}

/// Rolls 1m candles up into `interval` candles at the UTC offset `offset_minutes`: each longer
/// candle opens with its first 1m candle's open, closes with its last one's close, and takes the
/// highest high, the lowest low and the sums of volumes and counts. Intervals without 1m candles have
/// none. Rolling up the 1m candles of some trades gives exactly the candles of aggregating those
/// trades at `interval` (tested).
///
/// The candles must be 1m candles ([`CoreError::InvalidCandle`]) with strictly increasing open times
/// ([`CoreError::CandlesOutOfOrder`]); the first failing candle gives the error.
pub fn rollup(
    candles_1m: &[Candle],
    interval: Interval,
    offset_minutes: i32,
) -> Result<Vec<Candle>, CoreError> {
    let offset_ms = offset_ms(offset_minutes)?;
    check_candles(candles_1m, Interval::OneMinute, offset_ms)?;
    let mut rolled: Vec<Candle> = Vec::new();
    let mut close_time = i64::MIN;
    for candle in candles_1m {
        match rolled.last_mut() {
            Some(longer) if candle.open_time <= close_time => longer.add_candle(candle)?,
            _ => {
                let bucket = interval.bucket_unchecked(candle.open_time, offset_ms);
                close_time = bucket.close_time;
                rolled.push(Candle {
                    open_time: bucket.open_time,
                    ..*candle
                });
            }
        }
    }
    Ok(rolled.into_iter().map(Candle::normalized).collect())
}

/// `candles` with every interval between the first and the last candle present: each missing interval
/// gets a flat candle at the previous close with zero volumes and zero trades (the gap rule of
/// [`crate::kline`]).
///
/// The candles must be `interval` candles at the offset ([`CoreError::InvalidCandle`]) with strictly
/// increasing open times ([`CoreError::CandlesOutOfOrder`]). Fails with
/// [`CoreError::TooManyCandles`] when the result would hold more than [`MAX_FILLED_CANDLES`].
pub fn fill_gaps(
    candles: &[Candle],
    interval: Interval,
    offset_minutes: i32,
) -> Result<Vec<Candle>, CoreError> {
    let offset_ms = offset_ms(offset_minutes)?;
    check_candles(candles, interval, offset_ms)?;
    let (Some(first), Some(last)) = (candles.first(), candles.last()) else {
        return Ok(Vec::new());
    };
    let count = interval.buckets_between(first.open_time, last.open_time, offset_ms) + 1;
    if count > MAX_FILLED_CANDLES {
        return Err(CoreError::TooManyCandles {
            count,
            max: MAX_FILLED_CANDLES,
        });
    }
    let mut filled: Vec<Candle> = Vec::with_capacity(count as usize);
    for candle in candles {
        if let Some(&previous) = filled.last() {
            let mut open_time = next_open(interval, previous.open_time, offset_ms);
            while open_time < candle.open_time {
                filled.push(previous.quiet_after(open_time));
                open_time = next_open(interval, open_time, offset_ms);
            }
        }
        filled.push(candle.normalized());
    }
    Ok(filled)
}

/// The open time of the interval after the one opening at `open_time`.
fn next_open(interval: Interval, open_time: i64, offset_ms: i64) -> i64 {
    interval.bucket_unchecked(open_time, offset_ms).close_time + 1
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    // 2024-01-01T00:00:00Z, a Monday.
    const T0: i64 = 1_704_067_200_000;
    const MIN: i64 = 60_000;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn trade(price: &str, qty: &str, time_ms: i64) -> Trade {
        Trade {
            price: d(price),
            qty: d(qty),
            time_ms,
        }
    }

    fn candle(open_time: i64, ohlc: [&str; 4], volumes: [&str; 2], trade_count: u64) -> Candle {
        Candle {
            open_time,
            open: d(ohlc[0]),
            high: d(ohlc[1]),
            low: d(ohlc[2]),
            close: d(ohlc[3]),
            base_volume: d(volumes[0]),
            quote_volume: d(volumes[1]),
            trade_count,
        }
    }

    fn text(candles: &[Candle]) -> String {
        serde_json::to_string(candles).unwrap()
    }

    #[test]
    fn one_candle_per_interval_with_trades() {
        let trades = [
            trade("100.10", "1.5", T0 + 5),
            trade("101", "0.5", T0 + 20_000),
            trade("99.5", "2", T0 + 59_999),
            // Nothing in the second minute; the third has one trade.
            trade("100", "0.25", T0 + 2 * MIN),
        ];
        let candles = aggregate_trades(&trades, Interval::OneMinute, 0).unwrap();
        assert_eq!(
            candles,
            [
                candle(T0, ["100.1", "101", "99.5", "99.5"], ["4", "399.65"], 3),
                candle(
                    T0 + 2 * MIN,
                    ["100", "100", "100", "100"],
                    ["0.25", "25"],
                    1
                ),
            ]
        );
        // Normalized: no trailing zeros in any decimal.
        assert_eq!(
            text(&candles[..1]),
            r#"[{"openTime":1704067200000,"open":"100.1","high":"101","low":"99.5","close":"99.5","baseVolume":"4","quoteVolume":"399.65","tradeCount":3}]"#
        );
        assert_eq!(aggregate_trades(&[], Interval::OneDay, 0).unwrap(), []);
    }

    #[test]
    fn unsorted_trades_are_sorted_stably() {
        let sorted = [
            trade("1", "1", T0),
            trade("2", "1", T0 + 10),
            trade("3", "1", T0 + 10),
            trade("4", "1", T0 + MIN),
        ];
        let shuffled = [sorted[3], sorted[1], sorted[0], sorted[2]];
        let expected = aggregate_trades(&sorted, Interval::OneMinute, 0).unwrap();
        assert_eq!(
            aggregate_trades(&shuffled, Interval::OneMinute, 0).unwrap(),
            expected
        );
        // Of two trades in the same millisecond, the one given last closes.
        assert_eq!(expected[0].close, d("3"));
        let swapped = [sorted[0], sorted[2], sorted[1], sorted[3]];
        assert_eq!(
            aggregate_trades(&swapped, Interval::OneMinute, 0).unwrap()[0].close,
            d("2")
        );
    }

    #[test]
    fn bad_trades_fail_with_the_first_in_order() {
        let trades = [
            trade("1", "1", T0),
            trade("0", "1", T0 + 1),
            trade("1", "-2", T0 + 2),
        ];
        assert_eq!(
            aggregate_trades(&trades, Interval::OneMinute, 0),
            Err(CoreError::NonPositiveTrade {
                index: 1,
                name: "price",
                value: "0".into()
            })
        );
        assert_eq!(
            aggregate_trades(&trades[2..], Interval::OneMinute, 0),
            Err(CoreError::NonPositiveTrade {
                index: 0,
                name: "qty",
                value: "-2".into()
            })
        );
        assert!(matches!(
            aggregate_trades(&[trade("1", "1", i64::MAX)], Interval::OneMinute, 0),
            Err(CoreError::IntegerOutOfRange { name: "time", .. })
        ));
        assert!(matches!(
            aggregate_trades(&[trade("1", "1", T0)], Interval::OneMinute, 1081),
            Err(CoreError::IntegerOutOfRange {
                name: "offsetMinutes",
                ..
            })
        ));
    }

    #[test]
    fn volume_beyond_the_decimal_range_fails() {
        let huge = "79228162514264337593543950335";
        assert_eq!(
            aggregate_trades(&[trade(huge, "2", T0)], Interval::OneMinute, 0),
            Err(CoreError::VolumeOverflow)
        );
        assert_eq!(
            aggregate_trades(
                &[trade("1", huge, T0), trade("1", huge, T0 + 1)],
                Interval::OneMinute,
                0
            ),
            Err(CoreError::VolumeOverflow)
        );
    }

    #[test]
    fn live_candle_follows_trades() {
        let first = apply_trade(
            None,
            &trade("100.50", "1", T0 + 1_000),
            Interval::OneMinute,
            0,
        )
        .unwrap();
        assert_eq!(first.closed, None);
        assert_eq!(
            first.live,
            candle(T0, ["100.5", "100.5", "100.5", "100.5"], ["1", "100.5"], 1)
        );
        let second = apply_trade(
            Some(first.live),
            &trade("101", "2", T0 + 2_000),
            Interval::OneMinute,
            0,
        )
        .unwrap();
        assert_eq!(second.closed, None);
        assert_eq!(
            second.live,
            candle(T0, ["100.5", "101", "100.5", "101"], ["3", "302.5"], 2)
        );
        // Three minutes later: the live candle closes, the quiet minutes get no candle.
        let third = apply_trade(
            Some(second.live),
            &trade("99", "1", T0 + 3 * MIN),
            Interval::OneMinute,
            0,
        )
        .unwrap();
        assert_eq!(third.closed, Some(second.live));
        assert_eq!(
            third.live,
            candle(T0 + 3 * MIN, ["99", "99", "99", "99"], ["1", "99"], 1)
        );
        assert_eq!(
            apply_trade(
                Some(third.live),
                &trade("1", "1", T0 + 2 * MIN),
                Interval::OneMinute,
                0
            ),
            Err(CoreError::TradeBeforeCandle {
                time: T0 + 2 * MIN,
                open_time: T0 + 3 * MIN
            })
        );
        // A live candle that is not a 1h candle is refused.
        assert_eq!(
            apply_trade(
                Some(third.live),
                &trade("1", "1", T0 + 3 * MIN),
                Interval::OneHour,
                0
            ),
            Err(CoreError::InvalidCandle {
                index: 0,
                open_time: T0 + 3 * MIN,
                interval: "1h"
            })
        );
    }

    #[test]
    fn live_candle_equals_aggregation() {
        let trades: Vec<Trade> = (0..500)
            .map(|i| {
                trade(
                    &format!("{}.{}", 100 + i % 7, i % 10),
                    &format!("0.{:03}", i + 1),
                    T0 + i64::from(i) * 37_123,
                )
            })
            .collect();
        for interval in [
            Interval::OneMinute,
            Interval::FifteenMinutes,
            Interval::OneHour,
        ] {
            let mut closed = Vec::new();
            let mut live = None;
            for t in &trades {
                let update = apply_trade(live, t, interval, 345).unwrap();
                closed.extend(update.closed);
                live = Some(update.live);
            }
            closed.extend(live);
            assert_eq!(closed, aggregate_trades(&trades, interval, 345).unwrap());
        }
    }

    #[test]
    fn rollup_equals_direct_aggregation_across_a_month_edge() {
        // Every 7 minutes from 2024-01-30 to 2024-02-02, at −09:30.
        let trades: Vec<Trade> = (0..700)
            .map(|i| {
                trade(
                    &format!("{}.25", 42_000 + (i * 31) % 500),
                    &format!("0.{:04}", 1 + i % 997),
                    T0 + 29 * 1440 * MIN + i64::from(i) * 7 * MIN,
                )
            })
            .collect();
        let minutes = aggregate_trades(&trades, Interval::OneMinute, -570).unwrap();
        for interval in Interval::ALL {
            assert_eq!(
                rollup(&minutes, interval, -570).unwrap(),
                aggregate_trades(&trades, interval, -570).unwrap(),
                "{interval}"
            );
        }
    }

    #[test]
    fn rollup_checks_its_candles() {
        let one = candle(T0, ["1", "1", "1", "1"], ["1", "1"], 1);
        let misaligned = Candle {
            open_time: T0 + 1,
            ..one
        };
        assert_eq!(
            rollup(&[one, misaligned], Interval::OneHour, 0),
            Err(CoreError::InvalidCandle {
                index: 1,
                open_time: T0 + 1,
                interval: "1m"
            })
        );
        assert_eq!(
            rollup(&[one, one], Interval::OneHour, 0),
            Err(CoreError::CandlesOutOfOrder { index: 1 })
        );
        let low_above_high = Candle { low: d("2"), ..one };
        assert!(matches!(
            rollup(&[low_above_high], Interval::OneHour, 0),
            Err(CoreError::InvalidCandle { index: 0, .. })
        ));
        let negative_volume = Candle {
            base_volume: d("-1"),
            ..one
        };
        assert!(rollup(&[negative_volume], Interval::OneHour, 0).is_err());
    }

    #[test]
    fn gaps_are_filled_with_flat_candles_at_the_previous_close() {
        let a = candle(T0, ["10", "12", "9", "11.50"], ["2", "21"], 2);
        let b = candle(T0 + 3 * MIN, ["11", "11", "11", "11"], ["1", "11"], 1);
        let filled = fill_gaps(&[a, b], Interval::OneMinute, 0).unwrap();
        let flat = |open_time| candle(open_time, ["11.5", "11.5", "11.5", "11.5"], ["0", "0"], 0);
        assert_eq!(
            filled,
            [a.normalized(), flat(T0 + MIN), flat(T0 + 2 * MIN), b]
        );
        assert_eq!(fill_gaps(&[], Interval::OneMinute, 0).unwrap(), []);
        assert_eq!(fill_gaps(&[b], Interval::OneMinute, 0).unwrap(), [b]);
    }

    #[test]
    fn month_gaps_cross_the_year() {
        // Monthly candles at +05:45 for November 2023 and February 2024.
        let local_month = |days: i64| days * 1440 * MIN - 345 * MIN;
        let nov = candle(local_month(19_662), ["1", "1", "1", "1"], ["1", "1"], 1);
        let feb = candle(local_month(19_754), ["2", "2", "2", "2"], ["1", "2"], 1);
        let filled = fill_gaps(&[nov, feb], Interval::OneMonth, 345).unwrap();
        let opens: Vec<i64> = filled.iter().map(|c| c.open_time).collect();
        // 2023-12-01, 2024-01-01 (days 19692 and 19723 since the epoch).
        assert_eq!(
            opens,
            [
                local_month(19_662),
                local_month(19_692),
                local_month(19_723),
                local_month(19_754)
            ]
        );
    }

    #[test]
    fn filling_too_many_gaps_fails() {
        let a = candle(T0, ["1", "1", "1", "1"], ["1", "1"], 1);
        let b = Candle {
            open_time: T0 + 100_000 * MIN,
            ..a
        };
        assert_eq!(
            fill_gaps(&[a, b], Interval::OneMinute, 0),
            Err(CoreError::TooManyCandles {
                count: 100_001,
                max: MAX_FILLED_CANDLES
            })
        );
        let c = Candle {
            open_time: T0 + 99_999 * MIN,
            ..a
        };
        assert_eq!(
            fill_gaps(&[a, c], Interval::OneMinute, 0).unwrap().len(),
            100_000
        );
    }

    #[test]
    fn inputs_convert_with_named_errors() {
        let input = TradeInput {
            price: "1.5".into(),
            qty: "2".into(),
            time: 1.5,
        };
        assert!(matches!(
            input.to_trade(),
            Err(CoreError::NotAnInteger { name: "time", .. })
        ));
        let input = CandleInput {
            open_time: T0 as f64,
            open: "1".into(),
            high: "1".into(),
            low: "1".into(),
            close: "x".into(),
            base_volume: "1".into(),
            quote_volume: "1".into(),
            trade_count: 1.0,
        };
        assert_eq!(
            input.to_candle(),
            Err(CoreError::InvalidDecimal { value: "x".into() })
        );
        let input = CandleInput {
            close: "1".into(),
            trade_count: -1.0,
            ..input
        };
        assert!(matches!(
            input.to_candle(),
            Err(CoreError::IntegerOutOfRange {
                name: "tradeCount",
                ..
            })
        ));
    }

    #[test]
    fn kline_errors_serialize_as_code_key_params() {
        let json = serde_json::to_value(CoreError::NonPositiveTrade {
            index: 3,
            name: "qty",
            value: "0".into(),
        })
        .unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "code": "non_positive_trade",
                "key": "errors.nonPositiveTrade",
                "params": { "index": "3", "name": "qty", "value": "0" }
            })
        );
    }
}
