//! The 24h price change percent and its display (`+1.23%`, `-0.50%`, `0.00%`, `--`).

use rust_decimal::{Decimal, RoundingStrategy};

use super::number::fixed;

const ROUNDING: RoundingStrategy = RoundingStrategy::MidpointAwayFromZero;

/// The change from `open` to `amount` in percent: (amount − open) / open × 100, rounded to 2 decimals
/// midpoint away from zero and carrying exactly 2 decimals (`"1.20"`, `"0.00"`, never `"-0.00"`).
///
/// `None` unless both `amount` and `open` are above zero, and `None` when the percent does not fit a
/// [`Decimal`] (an open price so small that the change exceeds about 7.9 × 10²⁸ %). The quotient is
/// computed to the 28 significant digits of [`Decimal`] before rounding.
pub fn price_change_percent(amount: Decimal, open: Decimal) -> Option<Decimal> {
    if amount <= Decimal::ZERO || open <= Decimal::ZERO {
        return None;
    }
    // Both are positive, so the difference cannot overflow.
    let change = amount - open;
    // Multiplying first keeps two more digits of the quotient; dividing first survives a huge change.
    let percent = change
        .checked_mul(Decimal::ONE_HUNDRED)
        .and_then(|scaled| scaled.checked_div(open))
        .or_else(|| change.checked_div(open)?.checked_mul(Decimal::ONE_HUNDRED))?;
    let mut rounded = percent.round_dp_with_strategy(2, ROUNDING);
    if rounded.is_zero() {
        return Some(Decimal::new(0, 2));
    }
    // Fewer decimals only survive where 2 would overflow the mantissa (a percent above ~10²⁶).
    rounded.rescale(2);
    Some(rounded)
}

/// Displays a change percent with 2 decimals (midpoint away from zero), a `+` for a rise, a `-` for a
/// fall, no sign for zero and no thousands separators: `"+1.23%"`, `"-0.50%"`, `"0.00%"`,
/// `"+1234.56%"`; `None` (no percent known) shows as `"--"`.
pub fn format_percent(percent: Option<Decimal>) -> String {
    let Some(percent) = percent else {
        return "--".to_owned();
    };
    let rounded = percent.round_dp_with_strategy(2, ROUNDING);
    let sign = if rounded > Decimal::ZERO { "+" } else { "" };
    format!("{sign}{}%", fixed(rounded, 2, ROUNDING, false))
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn change(amount: &str, open: &str) -> Option<String> {
        price_change_percent(d(amount), d(open)).map(|p| p.to_string())
    }

    #[test]
    fn change_percent_rounds_to_two_decimals() {
        assert_eq!(change("101.23", "100").as_deref(), Some("1.23"));
        assert_eq!(change("99.5", "100").as_deref(), Some("-0.50"));
        assert_eq!(change("100", "100").as_deref(), Some("0.00"));
        assert_eq!(change("110", "100").as_deref(), Some("10.00"));
        // 1/3 of a percent up, 2/3 of a percent up.
        assert_eq!(change("301", "300").as_deref(), Some("0.33"));
        assert_eq!(change("302", "300").as_deref(), Some("0.67"));
        // Exact midpoints go away from zero.
        assert_eq!(change("100.005", "100").as_deref(), Some("0.01"));
        assert_eq!(change("99.995", "100").as_deref(), Some("-0.01"));
        // A fall too small to show is 0.00, not -0.00.
        assert_eq!(change("99.99999", "100").as_deref(), Some("0.00"));
    }

    #[test]
    fn change_percent_needs_both_positive() {
        assert_eq!(change("0", "100"), None);
        assert_eq!(change("100", "0"), None);
        assert_eq!(change("-1", "100"), None);
        assert_eq!(change("100", "-1"), None);
        assert_eq!(change("0", "0"), None);
    }

    #[test]
    fn change_percent_extremes() {
        assert_eq!(
            change(
                "79228162514264337593543950335",
                "0.0000000000000000000000000001"
            ),
            None
        );
        assert_eq!(
            change(
                "79228162514264337593543950335",
                "7922816251426433759354395033.5"
            )
            .as_deref(),
            Some("900.00")
        );
        assert_eq!(
            change("0.0000000000000000000000000001", "1").as_deref(),
            Some("-100.00")
        );
    }

    #[test]
    fn percent_display() {
        assert_eq!(format_percent(Some(d("1.23"))), "+1.23%");
        assert_eq!(format_percent(Some(d("-0.5"))), "-0.50%");
        assert_eq!(format_percent(Some(d("0"))), "0.00%");
        assert_eq!(format_percent(Some(d("-0.004"))), "0.00%");
        assert_eq!(format_percent(Some(d("0.004"))), "0.00%");
        assert_eq!(format_percent(Some(d("0.005"))), "+0.01%");
        assert_eq!(format_percent(Some(d("1234.567"))), "+1234.57%");
        assert_eq!(format_percent(None), "--");
    }
}
