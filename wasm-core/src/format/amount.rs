//! Amounts and volumes: full form with thousands separators (`1,234,567.89`) and compact form with
//! K/M/B/T suffixes (`1.23M`). Both round to 2 decimals, midpoint away from zero.

use rust_decimal::{Decimal, RoundingStrategy};

use super::number::{fixed, push_fixed};

const ROUNDING: RoundingStrategy = RoundingStrategy::MidpointAwayFromZero;

/// Compact units: the power of ten each divides by, and its suffix.
const UNITS: [(u32, &str); 5] = [(0, ""), (3, "K"), (6, "M"), (9, "B"), (12, "T")];

/// Formats an amount with thousands separators and exactly 2 decimals, midpoint away from zero:
/// `1234567.891` → `"1,234,567.89"`, `-1234.5` → `"-1,234.50"`, `-0.004` → `"0.00"`.
pub fn format_amount(value: Decimal) -> String {
    fixed(value, 2, ROUNDING, true)
}

/// Appends the bytes of what [`format_amount`] returns to `out`.
pub(crate) fn push_amount(out: &mut Vec<u8>, value: Decimal) {
    push_fixed(out, value, 2, ROUNDING, true);
}

/// Formats an amount compactly with 2 decimals, midpoint away from zero, and a suffix: none below
/// one thousand, `K` from 1,000, `M` from 1,000,000, `B` from 10⁹ and `T` from 10¹², for example
/// `"999.99"`, `"45.60K"`, `"1.23M"`, `"2.10B"`, `"3.00T"`, `"-1.50K"`.
///
/// The unit follows the rounded figure, so a value that rounds up to 1000 of a unit moves to the next
/// unit (`999999.999` → `"1.00M"`, not `"1000.00K"`). Past 1000T the figure keeps separators
/// (`"1,234.00T"`).
pub fn format_compact(value: Decimal) -> String {
    let thousand = Decimal::ONE_THOUSAND;
    let magnitude = value.abs();
    let mut unit = UNITS
        .iter()
        .rposition(|&(exp, _)| magnitude >= Decimal::from(10_u64.pow(exp)))
        .unwrap_or(0);
    loop {
        let (exp, suffix) = UNITS[unit];
        let rounded = shift_point_left(value, exp).round_dp_with_strategy(2, ROUNDING);
        if rounded.abs() >= thousand && unit + 1 < UNITS.len() {
            unit += 1;
            continue;
        }
        return format!("{}{suffix}", fixed(rounded, 2, ROUNDING, true));
    }
}

/// Divides `value` by 10^`places` exactly, by moving the decimal point.
fn shift_point_left(value: Decimal, places: u32) -> Decimal {
    // When the shifted scale would pass 28, decimals far beyond the ones shown are cut first. Rounding
    // to 2 decimals midpoint away from zero looks only at the first dropped digit (original decimal
    // places + 3, at most 15), and at least 16 decimals survive the cut, so the result is exact.
    let kept = value.scale().min(Decimal::MAX_SCALE - places);
    let cut = value.round_dp_with_strategy(kept, RoundingStrategy::ToZero);
    // The mantissa is unchanged and the scale is at most 28, so this cannot panic.
    Decimal::from_i128_with_scale(cut.mantissa(), cut.scale() + places)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    #[test]
    fn amount_groups_and_rounds() {
        assert_eq!(format_amount(d("1234567.891")), "1,234,567.89");
        assert_eq!(format_amount(d("-1234.5")), "-1,234.50");
        assert_eq!(format_amount(d("0")), "0.00");
        assert_eq!(format_amount(d("0.005")), "0.01");
        assert_eq!(format_amount(d("-0.005")), "-0.01");
        assert_eq!(format_amount(d("-0.0049")), "0.00");
        assert_eq!(format_amount(d("999.995")), "1,000.00");
    }

    #[test]
    fn compact_units_and_boundaries() {
        assert_eq!(format_compact(d("999.99")), "999.99");
        assert_eq!(format_compact(d("999.994")), "999.99");
        assert_eq!(format_compact(d("999.995")), "1.00K");
        assert_eq!(format_compact(d("1000")), "1.00K");
        assert_eq!(format_compact(d("45600")), "45.60K");
        assert_eq!(format_compact(d("999994")), "999.99K");
        assert_eq!(format_compact(d("999995")), "1.00M");
        assert_eq!(format_compact(d("999999.999")), "1.00M");
        assert_eq!(format_compact(d("1234567")), "1.23M");
        assert_eq!(format_compact(d("2100000000")), "2.10B");
        assert_eq!(format_compact(d("999995000000")), "1.00T");
        assert_eq!(format_compact(d("3000000000000")), "3.00T");
        assert_eq!(format_compact(d("1234000000000000")), "1,234.00T");
        assert_eq!(format_compact(d("-1500")), "-1.50K");
        assert_eq!(format_compact(d("-0.001")), "0.00");
        assert_eq!(format_compact(d("0")), "0.00");
    }

    #[test]
    fn compact_is_exact_with_28_digit_inputs() {
        // 28 decimals: the shift must cut decimals far below the ones shown without moving them.
        assert_eq!(format_compact(d("1.2345000000000000000000000001")), "1.23");
        assert_eq!(format_compact(d("1004.9999999999999999999999999")), "1.00K");
        assert_eq!(format_compact(d("1234999999999.9999999999999999")), "1.23T");
        assert_eq!(format_compact(d("1235000000000.0000000000000001")), "1.24T");
        assert_eq!(format_compact(Decimal::MAX), "79,228,162,514,264,337.59T");
        assert_eq!(format_compact(Decimal::MIN), "-79,228,162,514,264,337.59T");
    }
}
