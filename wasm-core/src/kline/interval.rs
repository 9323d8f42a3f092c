//! The kline intervals and their buckets: which interval a millisecond instant falls in, at a fixed
//! UTC offset, with integer arithmetic only.

use std::fmt;
use std::str::FromStr;

use serde::Serialize;

use crate::civil::{MS_PER_DAY, civil_from_days, days_from_civil};
use crate::convert::{MAX_EPOCH_MS, MAX_OFFSET_MINUTES};
use crate::error::CoreError;

const MS_PER_MINUTE: i64 = 60_000;
const MS_PER_HOUR: i64 = 60 * MS_PER_MINUTE;
// 1970-01-01 was a Thursday, so the first Monday is day 4.
const FIRST_MONDAY_MS: i64 = 4 * MS_PER_DAY;

/// A kline interval, from one minute to one calendar month.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Interval {
    /// `1m`
    OneMinute,
    /// `5m`
    FiveMinutes,
    /// `15m`
    FifteenMinutes,
    /// `30m`
    ThirtyMinutes,
    /// `1h`
    OneHour,
    /// `2h`
    TwoHours,
    /// `4h`
    FourHours,
    /// `1d`: a local calendar day, from midnight at the offset.
    OneDay,
    /// `1w`: a local calendar week, from Monday midnight at the offset.
    OneWeek,
    /// `1M` (also written `1month`): a local calendar month, from midnight of its first day.
    OneMonth,
}

/// The interval an instant falls in: from `open_time` to `close_time`, both inclusive, in milliseconds
/// since the epoch (`close_time` is the last millisecond before the next interval opens, as exchanges'
/// klines give it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Bucket {
    /// The first millisecond of the interval.
    pub open_time: i64,
    /// The last millisecond of the interval.
    pub close_time: i64,
}

impl Interval {
    /// Every interval, shortest first.
    pub const ALL: [Interval; 10] = [
        Self::OneMinute,
        Self::FiveMinutes,
        Self::FifteenMinutes,
        Self::ThirtyMinutes,
        Self::OneHour,
        Self::TwoHours,
        Self::FourHours,
        Self::OneDay,
        Self::OneWeek,
        Self::OneMonth,
    ];

    /// Parses the market channel's spelling: `1m`, `5m`, `15m`, `30m`, `1h`, `2h`, `4h`, `1d`, `1w`,
    /// `1M`, and `1month` for `1M`. Case matters (`1m` is a minute, `1M` a month); anything else is
    /// [`CoreError::UnknownInterval`].
    pub fn parse(text: &str) -> Result<Self, CoreError> {
        Ok(match text {
            "1m" => Self::OneMinute,
            "5m" => Self::FiveMinutes,
            "15m" => Self::FifteenMinutes,
            "30m" => Self::ThirtyMinutes,
            "1h" => Self::OneHour,
            "2h" => Self::TwoHours,
            "4h" => Self::FourHours,
            "1d" => Self::OneDay,
            "1w" => Self::OneWeek,
            "1M" | "1month" => Self::OneMonth,
            _ => {
                return Err(CoreError::UnknownInterval {
                    value: text.to_owned(),
                });
            }
        })
    }

    /// The canonical spelling, `1m` … `1M`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::OneMinute => "1m",
            Self::FiveMinutes => "5m",
            Self::FifteenMinutes => "15m",
            Self::ThirtyMinutes => "30m",
            Self::OneHour => "1h",
            Self::TwoHours => "2h",
            Self::FourHours => "4h",
            Self::OneDay => "1d",
            Self::OneWeek => "1w",
            Self::OneMonth => "1M",
        }
    }

    /// The interval's fixed length in milliseconds, `None` for `1M` (months differ in length).
    pub fn fixed_ms(self) -> Option<i64> {
        Some(match self {
            Self::OneMinute => MS_PER_MINUTE,
            Self::FiveMinutes => 5 * MS_PER_MINUTE,
            Self::FifteenMinutes => 15 * MS_PER_MINUTE,
            Self::ThirtyMinutes => 30 * MS_PER_MINUTE,
            Self::OneHour => MS_PER_HOUR,
            Self::TwoHours => 2 * MS_PER_HOUR,
            Self::FourHours => 4 * MS_PER_HOUR,
            Self::OneDay => MS_PER_DAY,
            Self::OneWeek => 7 * MS_PER_DAY,
            Self::OneMonth => return None,
        })
    }

    /// The bucket of `time_ms` at the UTC offset `offset_minutes` (see the module rules of
    /// [`crate::kline`]).
    ///
    /// Fails with [`CoreError::IntegerOutOfRange`] when `time_ms` is outside the JavaScript `Date`
    /// range (±[`MAX_EPOCH_MS`], argument `time`) or the offset outside ±[`MAX_OFFSET_MINUTES`]
    /// (argument `offsetMinutes`).
    pub fn bucket(self, time_ms: i64, offset_minutes: i32) -> Result<Bucket, CoreError> {
        let offset_ms = offset_ms(offset_minutes)?;
        check_time("time", time_ms)?;
        Ok(self.bucket_unchecked(time_ms, offset_ms))
    }

    /// [`Interval::bucket`] for a time and an offset in milliseconds already known to be in range,
    /// where nothing can overflow: |local time| stays below 2⁵⁴ and a month below 2³².
    pub(crate) fn bucket_unchecked(self, time_ms: i64, offset_ms: i64) -> Bucket {
        let local = time_ms + offset_ms;
        let (start, end) = match self.fixed_ms() {
            Some(len) => {
                let anchor = if self == Self::OneWeek {
                    FIRST_MONDAY_MS
                } else {
                    0
                };
                let start = local - (local - anchor).rem_euclid(len);
                (start, start + len)
            }
            None => {
                let (year, month, _) = civil_from_days(local.div_euclid(MS_PER_DAY));
                let (next_year, next_month) = if month == 12 {
                    (year + 1, 1)
                } else {
                    (year, month + 1)
                };
                (
                    days_from_civil(year, month, 1) * MS_PER_DAY,
                    days_from_civil(next_year, next_month, 1) * MS_PER_DAY,
                )
            }
        };
        Bucket {
            open_time: start - offset_ms,
            close_time: end - offset_ms - 1,
        }
    }

    /// How many buckets after the one opening at `first` the one opening at `last` opens, for two
    /// open times of this interval with `first <= last`.
    pub(crate) fn buckets_between(self, first: i64, last: i64, offset_ms: i64) -> u64 {
        let count = match self.fixed_ms() {
            Some(len) => (last - first) / len,
            None => {
                let month_index = |open_time: i64| {
                    let (year, month, _) =
                        civil_from_days((open_time + offset_ms).div_euclid(MS_PER_DAY));
                    year * 12 + i64::from(month)
                };
                month_index(last) - month_index(first)
            }
        };
        count.unsigned_abs()
    }

    /// Whether `open_time` is the first millisecond of one of this interval's buckets.
    pub(crate) fn opens_at(self, open_time: i64, offset_ms: i64) -> bool {
        check_time("openTime", open_time).is_ok()
            && self.bucket_unchecked(open_time, offset_ms).open_time == open_time
    }
}

impl fmt::Display for Interval {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for Interval {
    type Err = CoreError;

    fn from_str(text: &str) -> Result<Self, CoreError> {
        Self::parse(text)
    }
}

impl Serialize for Interval {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

/// `offset_minutes` in milliseconds, checked to lie within ±[`MAX_OFFSET_MINUTES`].
pub(crate) fn offset_ms(offset_minutes: i32) -> Result<i64, CoreError> {
    if !(-MAX_OFFSET_MINUTES..=MAX_OFFSET_MINUTES).contains(&offset_minutes) {
        return Err(CoreError::IntegerOutOfRange {
            name: "offsetMinutes",
            value: offset_minutes.to_string(),
            min: -i64::from(MAX_OFFSET_MINUTES),
            max: i64::from(MAX_OFFSET_MINUTES),
        });
    }
    Ok(i64::from(offset_minutes) * MS_PER_MINUTE)
}

/// Checks that the instant `ms` (the argument `name`) lies in the JavaScript `Date` range.
pub(crate) fn check_time(name: &'static str, ms: i64) -> Result<i64, CoreError> {
    if !(-MAX_EPOCH_MS..=MAX_EPOCH_MS).contains(&ms) {
        return Err(CoreError::IntegerOutOfRange {
            name,
            value: ms.to_string(),
            min: -MAX_EPOCH_MS,
            max: MAX_EPOCH_MS,
        });
    }
    Ok(ms)
}

#[cfg(test)]
mod tests {
    use super::*;

    // 2024-01-01T00:00:00Z, a Monday.
    const JAN_1_2024: i64 = 1_704_067_200_000;

    fn utc(y: i64, mo: u32, d: u32, h: i64, mi: i64) -> i64 {
        days_from_civil(y, mo, d) * MS_PER_DAY + h * MS_PER_HOUR + mi * MS_PER_MINUTE
    }

    fn open(interval: &str, time_ms: i64, offset_minutes: i32) -> i64 {
        Interval::parse(interval)
            .unwrap()
            .bucket(time_ms, offset_minutes)
            .unwrap()
            .open_time
    }

    #[test]
    fn parses_every_spelling_and_rejects_others() {
        for interval in Interval::ALL {
            assert_eq!(Interval::parse(interval.as_str()), Ok(interval));
            assert_eq!(interval.to_string().parse::<Interval>(), Ok(interval));
        }
        assert_eq!(Interval::parse("1month"), Ok(Interval::OneMonth));
        assert_eq!(Interval::parse("1M"), Ok(Interval::OneMonth));
        assert_eq!(Interval::parse("1m"), Ok(Interval::OneMinute));
        for text in [
            "", "1", "1H", "1D", "1W", "3m", "1y", "1MONTH", " 1m", "1m ", "60",
        ] {
            assert_eq!(
                Interval::parse(text),
                Err(CoreError::UnknownInterval {
                    value: text.to_owned()
                }),
                "{text:?}"
            );
        }
    }

    #[test]
    fn fixed_intervals_at_utc() {
        let t = JAN_1_2024 + 3 * MS_PER_HOUR + 47 * MS_PER_MINUTE + 12_345;
        assert_eq!(
            open("1m", t, 0),
            JAN_1_2024 + 3 * MS_PER_HOUR + 47 * MS_PER_MINUTE
        );
        assert_eq!(
            open("5m", t, 0),
            JAN_1_2024 + 3 * MS_PER_HOUR + 45 * MS_PER_MINUTE
        );
        assert_eq!(
            open("15m", t, 0),
            JAN_1_2024 + 3 * MS_PER_HOUR + 45 * MS_PER_MINUTE
        );
        assert_eq!(
            open("30m", t, 0),
            JAN_1_2024 + 3 * MS_PER_HOUR + 30 * MS_PER_MINUTE
        );
        assert_eq!(open("1h", t, 0), JAN_1_2024 + 3 * MS_PER_HOUR);
        assert_eq!(open("2h", t, 0), JAN_1_2024 + 2 * MS_PER_HOUR);
        assert_eq!(open("4h", t, 0), JAN_1_2024);
        assert_eq!(open("1d", t, 0), JAN_1_2024);
        let bucket = Interval::OneMinute.bucket(t, 0).unwrap();
        assert_eq!(bucket.close_time - bucket.open_time, MS_PER_MINUTE - 1);
    }

    #[test]
    fn bucket_edges_belong_to_the_later_bucket() {
        assert_eq!(open("1h", JAN_1_2024, 0), JAN_1_2024);
        assert_eq!(open("1h", JAN_1_2024 - 1, 0), JAN_1_2024 - MS_PER_HOUR);
        assert_eq!(
            Interval::OneHour
                .bucket(JAN_1_2024 - 1, 0)
                .unwrap()
                .close_time,
            JAN_1_2024 - 1
        );
    }

    #[test]
    fn days_follow_the_offset_including_quarter_and_half_hours() {
        // Kathmandu (+05:45): local midnight of 2024-01-01 is 2023-12-31T18:15Z.
        let kathmandu_midnight = utc(2023, 12, 31, 18, 15);
        assert_eq!(open("1d", utc(2024, 1, 1, 12, 0), 345), kathmandu_midnight);
        assert_eq!(open("1d", kathmandu_midnight, 345), kathmandu_midnight);
        assert_eq!(
            open("1d", kathmandu_midnight - 1, 345),
            kathmandu_midnight - MS_PER_DAY
        );
        // Hours and half hours follow the local clock too: 09:14 local at +05:45 opens 08:45 local.
        assert_eq!(
            open("1h", utc(2024, 1, 1, 3, 29), 345),
            utc(2024, 1, 1, 3, 15)
        );
        assert_eq!(
            open("30m", utc(2024, 1, 1, 3, 29), 345),
            utc(2024, 1, 1, 3, 15)
        );
        // Marquesas (−09:30): local midnight of 2024-01-01 is 09:30Z.
        assert_eq!(
            open("1d", utc(2024, 1, 1, 9, 29), -570),
            utc(2023, 12, 31, 9, 30)
        );
        assert_eq!(
            open("1d", utc(2024, 1, 1, 9, 30), -570),
            utc(2024, 1, 1, 9, 30)
        );
        assert_eq!(
            open("4h", utc(2024, 1, 1, 9, 29), -570),
            utc(2024, 1, 1, 5, 30)
        );
    }

    #[test]
    fn weeks_start_on_monday_local() {
        // 2024-01-07 is a Sunday, 2024-01-08 a Monday.
        assert_eq!(
            open("1w", utc(2024, 1, 7, 23, 59), 0),
            utc(2024, 1, 1, 0, 0)
        );
        assert_eq!(open("1w", utc(2024, 1, 8, 0, 0), 0), utc(2024, 1, 8, 0, 0));
        // At +05:45, Monday 2024-01-08 00:00 local is Sunday 18:15Z.
        assert_eq!(
            open("1w", utc(2024, 1, 7, 18, 15), 345),
            utc(2024, 1, 7, 18, 15)
        );
        assert_eq!(
            open("1w", utc(2024, 1, 7, 18, 14), 345),
            utc(2023, 12, 31, 18, 15)
        );
        // At −09:30, Sunday 2024-01-07 20:00Z is still Sunday morning local: the week of Jan 1.
        assert_eq!(
            open("1w", utc(2024, 1, 7, 20, 0), -570),
            utc(2024, 1, 1, 9, 30)
        );
        // The epoch's week opened on Monday 1969-12-29.
        assert_eq!(open("1w", 0, 0), utc(1969, 12, 29, 0, 0));
        assert_eq!(open("1w", -1, 0), utc(1969, 12, 29, 0, 0));
    }

    #[test]
    fn months_are_calendar_months() {
        assert_eq!(
            open("1M", utc(2024, 1, 31, 23, 59), 0),
            utc(2024, 1, 1, 0, 0)
        );
        // Leap February has 29 days, a common one 28, and 1900 (not divisible by 400) is common.
        let feb = Interval::OneMonth
            .bucket(utc(2024, 2, 10, 0, 0), 0)
            .unwrap();
        assert_eq!(feb.open_time, utc(2024, 2, 1, 0, 0));
        assert_eq!(feb.close_time + 1, utc(2024, 3, 1, 0, 0));
        assert_eq!(feb.close_time + 1 - feb.open_time, 29 * MS_PER_DAY);
        assert_eq!(
            open("1M", utc(2023, 2, 28, 23, 59), 0),
            utc(2023, 2, 1, 0, 0)
        );
        assert_eq!(open("1M", utc(2023, 3, 1, 0, 0), 0), utc(2023, 3, 1, 0, 0));
        let feb_1900 = Interval::OneMonth
            .bucket(utc(1900, 2, 15, 0, 0), 0)
            .unwrap();
        assert_eq!(
            feb_1900.close_time + 1 - feb_1900.open_time,
            28 * MS_PER_DAY
        );
        let feb_2000 = Interval::OneMonth
            .bucket(utc(2000, 2, 15, 0, 0), 0)
            .unwrap();
        assert_eq!(
            feb_2000.close_time + 1 - feb_2000.open_time,
            29 * MS_PER_DAY
        );
    }

    #[test]
    fn december_to_january_across_offsets() {
        let dec = Interval::OneMonth
            .bucket(utc(2023, 12, 31, 12, 0), 0)
            .unwrap();
        assert_eq!(dec.open_time, utc(2023, 12, 1, 0, 0));
        assert_eq!(dec.close_time + 1, utc(2024, 1, 1, 0, 0));
        // 2023-12-31T20:00Z is already January 2024 at +05:45 and still December at −09:30.
        assert_eq!(
            open("1M", utc(2023, 12, 31, 20, 0), 345),
            utc(2023, 12, 31, 18, 15)
        );
        assert_eq!(
            open("1M", utc(2023, 12, 31, 20, 0), -570),
            utc(2023, 12, 1, 9, 30)
        );
        // 2024-01-01T05:00Z is still December at −09:30.
        let dec_marquesas = Interval::OneMonth
            .bucket(utc(2024, 1, 1, 5, 0), -570)
            .unwrap();
        assert_eq!(dec_marquesas.open_time, utc(2023, 12, 1, 9, 30));
        assert_eq!(dec_marquesas.close_time + 1, utc(2024, 1, 1, 9, 30));
    }

    #[test]
    fn before_the_epoch_and_at_the_ends_of_the_range() {
        assert_eq!(open("1d", -1, 0), -MS_PER_DAY);
        assert_eq!(open("1M", -1, 0), utc(1969, 12, 1, 0, 0));
        for interval in Interval::ALL {
            for offset in [-1080, -570, 0, 345, 1080] {
                for time in [-MAX_EPOCH_MS, MAX_EPOCH_MS] {
                    let bucket = interval.bucket(time, offset).unwrap();
                    assert!(bucket.open_time <= time && time <= bucket.close_time);
                }
            }
        }
    }

    #[test]
    fn rejects_times_and_offsets_out_of_range() {
        assert!(matches!(
            Interval::OneMinute.bucket(MAX_EPOCH_MS + 1, 0),
            Err(CoreError::IntegerOutOfRange { name: "time", .. })
        ));
        assert!(matches!(
            Interval::OneMinute.bucket(i64::MIN, 0),
            Err(CoreError::IntegerOutOfRange { name: "time", .. })
        ));
        assert!(matches!(
            Interval::OneMinute.bucket(0, 1081),
            Err(CoreError::IntegerOutOfRange {
                name: "offsetMinutes",
                ..
            })
        ));
        assert!(Interval::OneMinute.bucket(0, i32::MIN).is_err());
    }

    #[test]
    fn every_time_lies_in_its_bucket_and_buckets_tile() {
        for interval in Interval::ALL {
            for offset in [-570, 0, 345] {
                let step = 7 * MS_PER_MINUTE + 13;
                let mut time = utc(2023, 11, 20, 0, 0);
                let mut previous: Option<Bucket> = None;
                while time < utc(2024, 3, 10, 0, 0) {
                    let bucket = interval.bucket(time, offset).unwrap();
                    assert!(bucket.open_time <= time && time <= bucket.close_time);
                    assert!(interval.opens_at(bucket.open_time, i64::from(offset) * 60_000));
                    if let Some(p) = previous.filter(|p| *p != bucket) {
                        if interval.fixed_ms().is_none_or(|len| len > step) {
                            assert_eq!(p.close_time + 1, bucket.open_time, "{interval} {offset}");
                        } else {
                            assert!(p.close_time < bucket.open_time, "{interval} {offset}");
                        }
                    }
                    previous = Some(bucket);
                    time += step;
                }
            }
        }
    }
}
