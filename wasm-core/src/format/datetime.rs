//! Date and time display in the product's one format, `MM/DD/YYYY HH:mm:ss`, at a fixed UTC offset.
//! The civil-date conversion is [`crate::civil`]'s (proleptic Gregorian calendar), without a date
//! library.

use crate::civil::{MS_PER_DAY, civil_from_days};

/// Formats `epoch_ms` (milliseconds since 1970-01-01T00:00:00Z) at the fixed UTC offset
/// `offset_minutes` as `MM/DD/YYYY HH:mm:ss`, dropping the milliseconds: `format_date_time(0, -300)`
/// → `"12/31/1969 19:00:00"`.
///
/// Years 0 to 9999 have 4 digits; later years print all their digits and years before year 0
/// (1 BC) print as `-YYYY`. Every `i64` instant and `i32` offset is accepted.
pub fn format_date_time(epoch_ms: i64, offset_minutes: i32) -> String {
    // i128 so that an extreme instant plus an extreme offset cannot overflow.
    let local_ms = i128::from(epoch_ms) + i128::from(offset_minutes) * 60_000;
    // |local_ms| < 2⁶⁴, so the day count fits an i64 comfortably.
    let days = local_ms.div_euclid(i128::from(MS_PER_DAY)) as i64;
    let seconds_of_day = (local_ms.rem_euclid(i128::from(MS_PER_DAY)) / 1000) as u32;
    let (year, month, day) = civil_from_days(days);
    let (hour, minute, second) = (
        seconds_of_day / 3600,
        seconds_of_day / 60 % 60,
        seconds_of_day % 60,
    );
    let year = if year < 0 {
        format!("-{:04}", year.unsigned_abs())
    } else {
        format!("{year:04}")
    };
    format!("{month:02}/{day:02}/{year} {hour:02}:{minute:02}:{second:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_and_offsets() {
        assert_eq!(format_date_time(0, 0), "01/01/1970 00:00:00");
        assert_eq!(format_date_time(0, -300), "12/31/1969 19:00:00");
        assert_eq!(format_date_time(0, 345), "01/01/1970 05:45:00");
        assert_eq!(format_date_time(-1, 0), "12/31/1969 23:59:59");
        assert_eq!(format_date_time(999, 0), "01/01/1970 00:00:00");
    }

    #[test]
    fn leap_days_and_century_rules() {
        // 2024-02-29T12:00:00Z
        assert_eq!(
            format_date_time(1_709_208_000_000, 0),
            "02/29/2024 12:00:00"
        );
        // 2000-02-29 exists (divisible by 400), 1900-02-29 does not.
        assert_eq!(format_date_time(951_782_400_000, 0), "02/29/2000 00:00:00");
        assert_eq!(
            format_date_time(-2_203_891_200_000, 0),
            "03/01/1900 00:00:00"
        );
        assert_eq!(
            format_date_time(4_107_542_399_000, 0),
            "02/28/2100 23:59:59"
        );
        assert_eq!(
            format_date_time(4_107_542_400_000, 0),
            "03/01/2100 00:00:00"
        );
    }

    #[test]
    fn extremes() {
        // The JavaScript Date range: ±8.64e15 ms.
        assert_eq!(
            format_date_time(8_640_000_000_000_000, 0),
            "09/13/275760 00:00:00"
        );
        assert_eq!(
            format_date_time(-8_640_000_000_000_000, 0),
            "04/20/-271821 00:00:00"
        );
        assert_eq!(
            format_date_time(-62_167_219_200_000, 0),
            "01/01/0000 00:00:00"
        );
        assert_eq!(
            format_date_time(-62_167_219_200_001, 0),
            "12/31/-0001 23:59:59"
        );
        // Nothing overflows at the ends of the integer ranges.
        format_date_time(i64::MAX, i32::MAX);
        format_date_time(i64::MIN, i32::MIN);
    }
}
