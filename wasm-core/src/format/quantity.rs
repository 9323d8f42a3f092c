//! Quantities (amounts of the base coin): the coin's quantity precision from the coin list when it
//! has one, otherwise the quantity's own digits. Like prices, quantities are truncated toward zero, so
//! a holding or an order is never shown larger than it is.

use rust_decimal::{Decimal, RoundingStrategy};

use super::number::{into_text, push_fixed};
use super::price::MAX_PRECISION;

/// Formats a quantity with thousands separators, truncated toward zero.
///
/// With `precision` (the coin's quantity precision) it shows exactly that many decimals, at most
/// [`MAX_PRECISION`] (a larger value is treated as 28): `format_quantity(1234.56789, Some(4))` →
/// `"1,234.5678"`. Without one it shows the value's own decimals without trailing zeros:
/// `1234.5000` → `"1,234.5"`, `2.000` → `"2"`.
pub fn format_quantity(value: Decimal, precision: Option<u32>) -> String {
    let mut out = Vec::new();
    push_quantity(&mut out, value, precision);
    into_text(out)
}

/// Appends the bytes of what [`format_quantity`] returns to `out`.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(crate) fn push_quantity(out: &mut Vec<u8>, value: Decimal, precision: Option<u32>) {
    let decimals = match precision {
        Some(precision) => precision.min(MAX_PRECISION),
        None => value.normalize().scale(),
    };
    push_fixed(out, value, decimals, RoundingStrategy::ToZero, true);
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    #[test]
    fn with_precision() {
        assert_eq!(format_quantity(d("1234.56789"), Some(4)), "1,234.5678");
        assert_eq!(format_quantity(d("0.99999"), Some(2)), "0.99");
        assert_eq!(format_quantity(d("5"), Some(3)), "5.000");
        assert_eq!(format_quantity(d("1234567"), Some(0)), "1,234,567");
        assert_eq!(format_quantity(d("-0.001"), Some(2)), "0.00");
        assert_eq!(
            format_quantity(d("1"), Some(99)),
            format!("1.{}", "0".repeat(28))
        );
    }

    #[test]
    fn own_digits() {
        assert_eq!(format_quantity(d("1234.5000"), None), "1,234.5");
        assert_eq!(format_quantity(d("2.000"), None), "2");
        assert_eq!(format_quantity(d("0"), None), "0");
        assert_eq!(format_quantity(d("0.00012300"), None), "0.000123");
        assert_eq!(format_quantity(d("-1500"), None), "-1,500");
    }

    proptest::proptest! {
        #[test]
        fn any_quantity_and_precision(
            mantissa in proptest::num::i128::ANY,
            scale in 0_u32..=28,
            precision in proptest::option::of(0_u32..=40),
        ) {
            let value = Decimal::from_i128_with_scale(mantissa % (1_i128 << 96), scale);
            let text = format_quantity(value, precision);
            proptest::prop_assert!(!text.is_empty());
        }
    }
}
