//! Prices: a coin's own precision when it has one, otherwise decimals that shrink as the price grows.
//! Prices are truncated toward zero so a price is never shown above its real value.

use rust_decimal::{Decimal, RoundingStrategy};

use super::number::fixed;

/// The most decimals a price can show (the scale limit of [`Decimal`]).
pub const MAX_PRECISION: u32 = Decimal::MAX_SCALE;

/// Formats a price with thousands separators, truncated toward zero.
///
/// With `precision` (the coin's price precision) it shows exactly that many decimals, at most
/// [`MAX_PRECISION`] (a larger value is treated as 28): `format_price(1234.5678, Some(2))` →
/// `"1,234.56"`. Without one it shows [`auto_price_decimals`] decimals.
pub fn format_price(value: Decimal, precision: Option<u32>) -> String {
    let decimals = match precision {
        Some(precision) => precision.min(MAX_PRECISION),
        None => auto_price_decimals(value),
    };
    fixed(value, decimals, RoundingStrategy::ToZero, true)
}

/// The decimals [`format_price`] shows for `value` when no precision is given, by its magnitude
/// (table in [`crate::format`]): 6 down to 1 as the integer part grows from 1 to 6+ digits; below 1,
/// six significant digits up to 8 decimals, never fewer than 4 significant digits; 2 for zero.
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn auto_price_decimals(value: Decimal) -> u32 {
    if value.is_zero() {
        return 2;
    }
    let digits = value
        .mantissa()
        .unsigned_abs()
        .checked_ilog10()
        .map_or(1, |log| log + 1);
    let scale = value.scale();
    if digits > scale {
        let integer_digits = digits - scale;
        7_u32.saturating_sub(integer_digits).max(1)
    } else {
        let leading_zeros = scale - digits;
        if leading_zeros <= 4 {
            (leading_zeros + 6).min(8)
        } else {
            (leading_zeros + 4).min(MAX_PRECISION)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    #[test]
    fn auto_decimals_table_boundaries() {
        let table = [
            ("1000000", 1),
            ("100000", 1),
            ("99999.99", 2),
            ("10000", 2),
            ("9999.999", 3),
            ("1000", 3),
            ("999.9999", 4),
            ("100", 4),
            ("99.99999", 5),
            ("10", 5),
            ("9.999999", 6),
            ("1", 6),
            ("1.000", 6),
            ("0.999999", 6),
            ("0.1", 6),
            ("0.0999999", 7),
            ("0.01", 7),
            ("0.00999999", 8),
            ("0.001", 8),
            ("0.0009999", 8),
            ("0.0001", 8),
            ("0.00009999", 8),
            ("0.00001", 8),
            ("0.000009999", 9),
            ("0.000001", 9),
            ("0.0000000000000000000000001", 28),
            ("0.0000000000000000000000000001", 28),
            ("0", 2),
            ("0.000", 2),
            ("-100000", 1),
            ("-0.5", 6),
        ];
        for (value, decimals) in table {
            assert_eq!(auto_price_decimals(d(value)), decimals, "{value}");
        }
    }

    #[test]
    fn auto_prices() {
        assert_eq!(format_price(d("104321.56"), None), "104,321.5");
        assert_eq!(format_price(d("3456.7891"), None), "3,456.789");
        assert_eq!(format_price(d("2.3456789"), None), "2.345678");
        assert_eq!(format_price(d("0.12345678"), None), "0.123456");
        assert_eq!(format_price(d("0.00001234"), None), "0.00001234");
        assert_eq!(format_price(d("0.0000012345"), None), "0.000001234");
        assert_eq!(format_price(d("-0.0000012345"), None), "-0.000001234");
        assert_eq!(format_price(d("0"), None), "0.00");
        // Truncation never moves a price across a boundary of the table.
        assert_eq!(format_price(d("99999.999"), None), "99,999.99");
    }

    #[test]
    fn given_precision() {
        assert_eq!(format_price(d("1234.5678"), Some(2)), "1,234.56");
        assert_eq!(format_price(d("-1234.5678"), Some(2)), "-1,234.56");
        assert_eq!(format_price(d("1234.5678"), Some(0)), "1,234");
        assert_eq!(format_price(d("1.5"), Some(4)), "1.5000");
        assert_eq!(format_price(d("-0.009"), Some(2)), "0.00");
        assert_eq!(
            format_price(d("1"), Some(28)),
            "1.0000000000000000000000000000"
        );
        assert_eq!(
            format_price(d("1"), Some(40)),
            "1.0000000000000000000000000000"
        );
        assert_eq!(
            format_price(Decimal::MAX, Some(28)),
            "79,228,162,514,264,337,593,543,950,335.0000000000000000000000000000"
        );
    }
}
