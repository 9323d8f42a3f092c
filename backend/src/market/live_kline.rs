//! The live candle of every interval of a pair (`1m` … `1M`, UTC calendar): the closed minutes of
//! each interval's current bucket folded into one candle, plus the growing minute. Minutes are
//! folded in as they close, so a month's candle costs one merge a minute, not a month of rows.

use wasm_core::kline::{Candle, Interval};

/// The closed part of each interval's current bucket, by position in [`Interval::ALL`].
#[derive(Debug, Clone, Default)]
pub struct LiveKlines {
    closed: [Option<Candle>; 10],
}

/// A bucket's candle merged with a later 1m candle of the same bucket.
fn merge(bucket: &Candle, minute: &Candle) -> Candle {
    Candle {
        open_time: bucket.open_time,
        open: bucket.open,
        high: bucket.high.max(minute.high),
        low: bucket.low.min(minute.low),
        close: minute.close,
        base_volume: bucket.base_volume + minute.base_volume,
        quote_volume: bucket.quote_volume + minute.quote_volume,
        trade_count: bucket.trade_count + minute.trade_count,
    }
}

/// The UTC bucket opening time of `interval` containing `time_ms`.
fn bucket_open(interval: Interval, time_ms: i64) -> i64 {
    interval
        .bucket(time_ms, 0)
        .map_or(time_ms, |bucket| bucket.open_time)
}

/// The earliest time whose closed minutes can still be part of a current bucket at `now_ms` (the
/// start of the current month or week, whichever is earlier).
pub fn history_start(now_ms: i64) -> i64 {
    bucket_open(Interval::OneMonth, now_ms).min(bucket_open(Interval::OneWeek, now_ms))
}

impl LiveKlines {
    /// Folds in stored closed 1m candles, oldest first.
    pub fn from_minutes(minutes: &[Candle]) -> Self {
        let mut live = Self::default();
        for minute in minutes {
            live.close_minute(minute);
        }
        live
    }

    /// Folds in a minute that has closed; returns the candles it completed (buckets that the
    /// minute opened a new one of), as `(interval, final candle)`.
    pub fn close_minute(&mut self, minute: &Candle) -> Vec<(Interval, Candle)> {
        let mut completed = Vec::new();
        for (slot, interval) in self.closed.iter_mut().zip(Interval::ALL) {
            let open = bucket_open(interval, minute.open_time);
            *slot = match slot.take() {
                Some(bucket) if bucket.open_time == open => Some(merge(&bucket, minute)),
                previous => {
                    if let Some(done) = previous {
                        completed.push((interval, done));
                    }
                    Some(Candle {
                        open_time: open,
                        ..*minute
                    })
                }
            };
        }
        completed
    }

    /// The live candle of every interval, given the growing minute.
    pub fn current(&self, live_minute: &Candle) -> Vec<(Interval, Candle)> {
        self.closed
            .iter()
            .zip(Interval::ALL)
            .map(|(slot, interval)| {
                let open = bucket_open(interval, live_minute.open_time);
                let candle = match slot {
                    Some(bucket) if bucket.open_time == open => merge(bucket, live_minute),
                    _ => Candle {
                        open_time: open,
                        ..*live_minute
                    },
                };
                (interval, candle)
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal::Decimal;
    use rust_decimal_macros::dec;
    use wasm_core::kline::rollup;

    use super::*;

    fn minute(open_time: i64, open: Decimal, close: Decimal) -> Candle {
        Candle {
            open_time,
            open,
            high: open.max(close) + dec!(1),
            low: open.min(close) - dec!(1),
            close,
            base_volume: dec!(2),
            quote_volume: dec!(200),
            trade_count: 3,
        }
    }

    /// 2026-11-21 00:00 UTC, a Saturday.
    const DAY: i64 = 1_795_219_200_000;

    #[test]
    fn the_live_candles_equal_the_rollup_of_the_minutes() {
        // Three hours of minutes, then a growing one.
        let minutes: Vec<Candle> = (0..180)
            .map(|i| {
                minute(
                    DAY + i * 60_000,
                    Decimal::from(100 + i % 7),
                    Decimal::from(101 + i % 5),
                )
            })
            .collect();
        let (closed, live) = minutes.split_at(179);
        let klines = LiveKlines::from_minutes(closed);
        for (interval, candle) in klines.current(&live[0]) {
            let rolled = rollup(&minutes, interval, 0).unwrap();
            assert_eq!(candle, *rolled.last().unwrap(), "{}", interval.as_str());
        }
    }

    #[test]
    fn a_minute_opening_a_new_bucket_completes_the_old_one() {
        let mut klines = LiveKlines::default();
        klines.close_minute(&minute(DAY + 3_540_000, dec!(1), dec!(2)));
        let completed = klines.close_minute(&minute(DAY + 3_600_000, dec!(2), dec!(3)));
        let intervals: Vec<&str> = completed.iter().map(|(i, _)| i.as_str()).collect();
        assert_eq!(intervals, ["1m", "5m", "15m", "30m", "1h"]);
        assert_eq!(completed[4].1.open_time, DAY);
    }

    #[test]
    fn history_reaches_back_to_the_month_or_week_start() {
        // Saturday 21 November: the week began on Monday 16th, the month on the 1st.
        assert_eq!(history_start(DAY + 3_600_000), DAY - 20 * 86_400_000);
    }
}
