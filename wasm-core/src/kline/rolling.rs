//! The rolling 24-hour statistics of a market (spec sections 3 and 9), from its 1m candles.

use rust_decimal::Decimal;
use serde::Serialize;

use super::candle::Candle;
use super::interval::{Interval, check_time};
use crate::error::CoreError;
use crate::format::price_change_percent;

const MS_PER_MINUTE: i64 = 60_000;
const MINUTES_PER_DAY: i64 = 24 * 60;

/// A market's last 24 hours. Serialized with the spec's names and decimals as strings:
/// `priceChange`, `priceChangePercent`, `highPrice`, `lowPrice`, `baseAssetVolume`,
/// `quoteAssetVolume`, `totalNumberOfTrades`, plus the `openPrice` and `lastPrice` they derive from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Rolling24h {
    /// The open of the window's first candle.
    pub open_price: Decimal,
    /// The close of the window's last candle.
    pub last_price: Decimal,
    /// `last_price − open_price`.
    pub price_change: Decimal,
    /// The change in percent with 2 decimals, by [`price_change_percent`] (the one rule of the
    /// product), `None` when it is not defined.
    pub price_change_percent: Option<Decimal>,
    /// The highest high of the window.
    pub high_price: Decimal,
    /// The lowest low of the window.
    pub low_price: Decimal,
    /// The summed base volume (the 24h volume).
    pub base_asset_volume: Decimal,
    /// The summed quote volume (the 24h turnover).
    pub quote_asset_volume: Decimal,
    /// The summed trade count.
    pub total_number_of_trades: u64,
}

/// The statistics of the 1440 minutes up to and including the minute of `now_ms`: the 1m candles
/// opening from 23 h 59 min before that minute to that minute (so the live candle counts, and the
/// window moves by whole minutes). Candles outside the window are ignored; `None` when none is in it.
///
/// The candles must be 1m candles ([`CoreError::InvalidCandle`]) with strictly increasing open times
/// ([`CoreError::CandlesOutOfOrder`]); `now_ms` must be in the JavaScript `Date` range
/// ([`CoreError::IntegerOutOfRange`], argument `nowMs`). Fails with [`CoreError::VolumeOverflow`]
/// when a sum exceeds the decimal range.
pub fn rolling_24h(candles_1m: &[Candle], now_ms: i64) -> Result<Option<Rolling24h>, CoreError> {
    check_time("nowMs", now_ms)?;
    for index in 0..candles_1m.len() {
        check_at(candles_1m, index)?;
    }
    let last_minute = now_ms - now_ms.rem_euclid(MS_PER_MINUTE);
    let first_minute = last_minute - (MINUTES_PER_DAY - 1) * MS_PER_MINUTE;
    let start = candles_1m.partition_point(|c| c.open_time < first_minute);
    let end = candles_1m.partition_point(|c| c.open_time <= last_minute);
    let Some((first, rest)) = candles_1m.get(start..end).and_then(<[Candle]>::split_first) else {
        return Ok(None);
    };
    let mut day = *first;
    for candle in rest {
        day.add_candle(candle)?;
    }
    Ok(Some(statistics(day.normalized())))
}

/// The statistics of the window summed into one normalized candle.
fn statistics(day: Candle) -> Rolling24h {
    Rolling24h {
        open_price: day.open,
        last_price: day.close,
        // Both are positive decimals (checked), so the difference cannot overflow.
        price_change: (day.close - day.open).normalize(),
        price_change_percent: price_change_percent(day.close, day.open),
        high_price: day.high,
        low_price: day.low,
        base_asset_volume: day.base_volume,
        quote_asset_volume: day.quote_volume,
        total_number_of_trades: day.trade_count,
    }
}

/// [`rolling_24h`] for a caller that asks every tick while only the live (last) candle changes,
/// such as the market simulator: the window's closed candles (all but the last) are checked and
/// summed once, again only when the window moves to the next minute or the list changes at
/// either end (a candle added or dropped), and each call then checks and adds the last candle.
/// It returns exactly what `rolling_24h` returns for the same candles and time, provided a call
/// between two such changes only changes the last candle (which is what it is for; a change in
/// the middle of the list is not noticed).
#[derive(Debug, Clone, Default)]
pub struct RollingDay {
    /// What the closed candles were summed for, and their sum within the window (`None`: none
    /// is in it). Kept only after a sum that succeeded.
    closed: Option<(ClosedKey, Option<Candle>)>,
}

/// What identifies a list of closed candles and a window ([`RollingDay`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct ClosedKey {
    last_minute: i64,
    len: usize,
    first_open_time: i64,
    last_open_time: i64,
}

impl RollingDay {
    /// Nothing summed yet.
    pub fn new() -> Self {
        Self::default()
    }

    /// The statistics of the 1440 minutes up to `now_ms`, as [`rolling_24h`] (same checks, same
    /// errors, same result), summing only the last candle when the rest is as last time.
    pub fn update(
        &mut self,
        candles_1m: &[Candle],
        now_ms: i64,
    ) -> Result<Option<Rolling24h>, CoreError> {
        check_time("nowMs", now_ms)?;
        let Some((live, closed)) = candles_1m.split_last() else {
            return Ok(None);
        };
        let last_minute = now_ms - now_ms.rem_euclid(MS_PER_MINUTE);
        let first_minute = last_minute - (MINUTES_PER_DAY - 1) * MS_PER_MINUTE;
        let key = ClosedKey {
            last_minute,
            len: candles_1m.len(),
            first_open_time: candles_1m[0].open_time,
            last_open_time: live.open_time,
        };
        let cached = self.closed.filter(|(cached, _)| *cached == key);
        let closed_sum = match cached {
            Some((_, sum)) => {
                check_last(candles_1m)?;
                sum
            }
            None => {
                self.closed = None;
                // Every candle is checked before anything is summed, as `rolling_24h` does.
                for index in 0..candles_1m.len() {
                    check_at(candles_1m, index)?;
                }
                let start = closed.partition_point(|c| c.open_time < first_minute);
                let end = closed.partition_point(|c| c.open_time <= last_minute);
                let sum = match closed.get(start..end).and_then(<[Candle]>::split_first) {
                    Some((first, rest)) => {
                        let mut sum = *first;
                        for candle in rest {
                            sum.add_candle(candle)?;
                        }
                        Some(sum)
                    }
                    None => None,
                };
                self.closed = Some((key, sum));
                sum
            }
        };
        let live_in_window = (first_minute..=last_minute).contains(&live.open_time);
        let day = match (closed_sum, live_in_window) {
            (Some(mut day), true) => {
                day.add_candle(live)?;
                day
            }
            (Some(day), false) => day,
            (None, true) => *live,
            (None, false) => return Ok(None),
        };
        Ok(Some(statistics(day.normalized())))
    }
}

/// Checks the `index`-th of a list of 1m candles, and its order after the one before.
fn check_at(candles_1m: &[Candle], index: usize) -> Result<(), CoreError> {
    let candle = &candles_1m[index];
    candle.check(index, Interval::OneMinute, 0)?;
    if index > 0 && candle.open_time <= candles_1m[index - 1].open_time {
        return Err(CoreError::CandlesOutOfOrder { index });
    }
    Ok(())
}

/// Checks the last of a non-empty list of 1m candles.
fn check_last(candles_1m: &[Candle]) -> Result<(), CoreError> {
    check_at(candles_1m, candles_1m.len() - 1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    const T0: i64 = 1_704_067_200_000;
    const MIN: i64 = 60_000;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn minute(open_time: i64, open: &str, close: &str, volume: &str) -> Candle {
        let (low, high) = if d(open) < d(close) {
            (d(open), d(close))
        } else {
            (d(close), d(open))
        };
        Candle {
            open_time,
            open: d(open),
            high,
            low,
            close: d(close),
            base_volume: d(volume),
            quote_volume: d(volume) * d(close),
            trade_count: 2,
        }
    }

    #[test]
    fn the_window_is_the_1440_minutes_up_to_now() {
        let now = T0 + 1440 * MIN + 30_000;
        let candles = [
            // One minute too old.
            minute(T0, "50", "50", "9"),
            // The first minute of the window and the minute of now.
            minute(T0 + MIN, "100", "90", "1"),
            minute(T0 + 700 * MIN, "90", "120", "2"),
            minute(T0 + 1440 * MIN, "120", "101.5", "1"),
            // A candle after now is ignored.
            minute(T0 + 1441 * MIN, "1", "1000", "100"),
        ];
        let stats = rolling_24h(&candles, now).unwrap().unwrap();
        assert_eq!(
            stats,
            Rolling24h {
                open_price: d("100"),
                last_price: d("101.5"),
                price_change: d("1.5"),
                price_change_percent: Some(d("1.50")),
                high_price: d("120"),
                low_price: d("90"),
                base_asset_volume: d("4"),
                quote_asset_volume: d("431.5"),
                total_number_of_trades: 6,
            }
        );
        assert_eq!(
            serde_json::to_value(stats).unwrap(),
            serde_json::json!({
                "openPrice": "100", "lastPrice": "101.5", "priceChange": "1.5",
                "priceChangePercent": "1.50", "highPrice": "120", "lowPrice": "90",
                "baseAssetVolume": "4", "quoteAssetVolume": "431.5", "totalNumberOfTrades": 6
            })
        );
    }

    #[test]
    fn a_fall_and_an_empty_window() {
        let candles = [minute(T0, "200", "150", "1")];
        let stats = rolling_24h(&candles, T0).unwrap().unwrap();
        assert_eq!(stats.price_change, d("-50"));
        assert_eq!(stats.price_change_percent, Some(d("-25.00")));
        assert_eq!(rolling_24h(&candles, T0 + 1440 * MIN).unwrap(), None);
        assert_eq!(rolling_24h(&candles, T0 - 1).unwrap(), None);
        assert_eq!(rolling_24h(&[], T0).unwrap(), None);
    }

    #[test]
    fn checks_candles_and_now() {
        let a = minute(T0, "1", "1", "1");
        assert_eq!(
            rolling_24h(&[a, a], T0),
            Err(CoreError::CandlesOutOfOrder { index: 1 })
        );
        let hourly_misaligned = Candle {
            open_time: T0 + 1,
            ..a
        };
        assert!(matches!(
            rolling_24h(&[hourly_misaligned], T0),
            Err(CoreError::InvalidCandle { index: 0, .. })
        ));
        assert!(matches!(
            rolling_24h(&[a], i64::MIN),
            Err(CoreError::IntegerOutOfRange { name: "nowMs", .. })
        ));
    }
}

#[cfg(test)]
mod rolling_day_tests {
    //! [`RollingDay`] against [`rolling_24h`] over a market's life: the live candle growing,
    //! minutes opening (some after long gaps), the oldest dropped, time moving past the window's
    //! edges, and candles the checks refuse.
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    use super::*;

    const T0: i64 = 1_704_067_200_000;
    const MIN: i64 = 60_000;

    #[derive(Debug, Clone)]
    enum Step {
        /// A trade at this price (cents) and quantity into the live candle.
        Trade(i64, i64),
        /// A minute opening this many minutes after the live one, at this price.
        Open(i64, i64),
        /// The oldest candle dropped.
        DropOldest,
        /// Time moving on by this many milliseconds.
        Wait(i64),
        /// The live candle broken (its low above its high).
        Break,
    }

    fn step() -> impl Strategy<Value = Step> {
        prop_oneof![
            4 => (1_i64..1_000_000, 1_i64..1_000).prop_map(|(p, q)| Step::Trade(p, q)),
            2 => (prop_oneof![Just(1_i64), 2_i64..5, 1_400_i64..1_500], 1_i64..1_000_000)
                .prop_map(|(gap, p)| Step::Open(gap, p)),
            1 => Just(Step::DropOldest),
            2 => prop_oneof![0_i64..MIN, MIN * 1_400..MIN * 1_500].prop_map(Step::Wait),
            1 => Just(Step::Break),
        ]
    }

    fn opened(open_time: i64, price: i64) -> Candle {
        let price = Decimal::new(price, 2);
        Candle {
            open_time,
            open: price,
            high: price,
            low: price,
            close: price,
            base_volume: Decimal::ZERO,
            quote_volume: Decimal::ZERO,
            trade_count: 0,
        }
    }

    proptest! {
        #[test]
        fn gives_what_rolling_24h_gives_tick_by_tick(
            steps in prop::collection::vec(step(), 1..60),
        ) {
            let mut candles = vec![opened(T0, 100)];
            let mut now = T0;
            let mut day = RollingDay::new();
            for step in steps {
                match step {
                    Step::Trade(price, qty) => {
                        if let Some(live) = candles.last_mut() {
                            let (price, qty) = (Decimal::new(price, 2), Decimal::new(qty, 3));
                            live.high = live.high.max(price);
                            live.low = live.low.min(price);
                            live.close = price;
                            live.base_volume += qty;
                            live.quote_volume += price * qty;
                            live.trade_count += 1;
                        }
                    }
                    Step::Open(gap, price) => {
                        let last = candles.last().map_or(T0, |c| c.open_time);
                        candles.push(opened(last + gap * MIN, price));
                        now = now.max(last + gap * MIN);
                    }
                    Step::DropOldest => {
                        if !candles.is_empty() {
                            candles.remove(0);
                        }
                    }
                    Step::Wait(ms) => now += ms,
                    Step::Break => {
                        if let Some(live) = candles.last_mut() {
                            live.low = live.high + Decimal::ONE;
                        }
                    }
                }
                prop_assert_eq!(day.update(&candles, now), rolling_24h(&candles, now));
            }
        }
    }
}
