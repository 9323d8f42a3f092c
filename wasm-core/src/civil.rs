//! Civil-date arithmetic on day numbers (days since 1970-01-01) in the proleptic Gregorian calendar,
//! with integers only: shared by date display ([`crate::format`]) and calendar-aligned kline buckets
//! ([`crate::kline`]).

/// Milliseconds in a day.
pub(crate) const MS_PER_DAY: i64 = 86_400_000;

/// The (year, month 1–12, day 1–31) of the day `days` after 1970-01-01.
///
/// Howard Hinnant's `civil_from_days`: count in 400-year eras of 146097 days starting on March 1st, so
/// the leap day falls at the end of each computed year. Exact for every `days` whose shift by 719468
/// does not overflow.
pub(crate) fn civil_from_days(days: i64) -> (i64, u32, u32) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let day_of_era = z.rem_euclid(146_097);
    let year_of_era =
        (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = (day_of_year - (153 * month_from_march + 2) / 5 + 1) as u32;
    let month = if month_from_march < 10 {
        month_from_march + 3
    } else {
        month_from_march - 9
    } as u32;
    let year = year_of_era + era * 400 + i64::from(month <= 2);
    (year, month, day)
}

/// The day number (days after 1970-01-01) of `year`-`month`-`day`, the inverse of
/// [`civil_from_days`] for `month` in 1–12 and `day` in 1–31.
pub(crate) fn days_from_civil(year: i64, month: u32, day: u32) -> i64 {
    let year = year - i64::from(month <= 2);
    let era = year.div_euclid(400);
    let year_of_era = year.rem_euclid(400);
    let month_from_march = i64::from((month + 9) % 12);
    let day_of_year = (153 * month_from_march + 2) / 5 + i64::from(day) - 1;
    let day_of_era = year_of_era * 365 + year_of_era / 4 - year_of_era / 100 + day_of_year;
    era * 146_097 + day_of_era - 719_468
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_day_by_day_walk() {
        // Walk 1970-01-01 forward and backward over 1200 years and compare with a naive calendar.
        fn is_leap(y: i64) -> bool {
            (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
        }
        fn days_in(y: i64, m: u32) -> u32 {
            match m {
                2 if is_leap(y) => 29,
                2 => 28,
                4 | 6 | 9 | 11 => 30,
                _ => 31,
            }
        }
        let (mut y, mut m, mut d) = (1970_i64, 1_u32, 1_u32);
        for days in 0..220_000 {
            assert_eq!(civil_from_days(days), (y, m, d), "day {days}");
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
            d += 1;
            if d > days_in(y, m) {
                d = 1;
                m += 1;
                if m > 12 {
                    m = 1;
                    y += 1;
                }
            }
        }
        let (mut y, mut m, mut d) = (1970_i64, 1_u32, 1_u32);
        for days in (-220_000..=0).rev() {
            assert_eq!(civil_from_days(days), (y, m, d), "day {days}");
            assert_eq!(days_from_civil(y, m, d), days, "{y}-{m}-{d}");
            if d == 1 {
                if m == 1 {
                    m = 12;
                    y -= 1;
                } else {
                    m -= 1;
                }
                d = days_in(y, m);
            } else {
                d -= 1;
            }
        }
    }

    #[test]
    fn round_trips_at_the_ends_of_the_javascript_date_range() {
        // ±8.64e15 ms is ±100,000,000 days.
        for days in [-100_000_000, -1, 0, 1, 100_000_000] {
            let (y, m, d) = civil_from_days(days);
            assert_eq!(days_from_civil(y, m, d), days);
        }
    }
}
