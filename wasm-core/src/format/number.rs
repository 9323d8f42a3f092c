//! Rendering a decimal as display digits: rounding to a number of decimals, padding with zeros and
//! grouping thousands. Every display function of [`crate::format`] ends here, so they all agree on
//! signs and separators.

use rust_decimal::{Decimal, RoundingStrategy};

/// Rounds `value` to `dp` decimals with `strategy` and renders exactly `dp` decimals (no point when
/// `dp` is 0), with `,` between thousands of the integer part when `grouped`, and a leading `-` only
/// when the rounded value is below zero (so `-0.001` shows as `0.00`, never `-0.00`).
pub(crate) fn fixed(value: Decimal, dp: u32, strategy: RoundingStrategy, grouped: bool) -> String {
    let rounded = value.round_dp_with_strategy(dp, strategy);
    let digits = rounded.mantissa().unsigned_abs().to_string();
    let scale = rounded.scale() as usize;
    let (int, frac) = if digits.len() > scale {
        let (int, frac) = digits.split_at(digits.len() - scale);
        (int.to_owned(), frac.to_owned())
    } else {
        ("0".to_owned(), format!("{digits:0>scale$}"))
    };

    let mut out = String::with_capacity(int.len() * 4 / 3 + dp as usize + 2);
    if rounded.is_sign_negative() && !rounded.is_zero() {
        out.push('-');
    }
    if grouped {
        push_grouped(&mut out, &int);
    } else {
        out.push_str(&int);
    }
    if dp > 0 {
        out.push('.');
        out.push_str(&frac);
        // `round_dp_with_strategy` leaves a value with fewer decimals untouched: pad it.
        out.extend(std::iter::repeat_n('0', dp as usize - frac.len()));
    }
    out
}

/// Appends the digit string `int` with `,` between each group of three digits from the right.
fn push_grouped(out: &mut String, int: &str) {
    for (i, digit) in int.chars().enumerate() {
        if i > 0 && (int.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(digit);
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
    fn pads_rounds_and_groups() {
        let away = RoundingStrategy::MidpointAwayFromZero;
        assert_eq!(fixed(d("1234567.891"), 2, away, true), "1,234,567.89");
        assert_eq!(fixed(d("1234567.891"), 2, away, false), "1234567.89");
        assert_eq!(fixed(d("-1234.5"), 2, away, true), "-1,234.50");
        assert_eq!(fixed(d("0.005"), 2, away, true), "0.01");
        assert_eq!(fixed(d("-0.004"), 2, away, true), "0.00");
        assert_eq!(fixed(d("0.0001"), 6, away, true), "0.000100");
        assert_eq!(fixed(d("0.000001"), 4, away, true), "0.0000");
        assert_eq!(fixed(d("999.5"), 0, away, true), "1,000");
        assert_eq!(fixed(d("100"), 0, away, true), "100");
        assert_eq!(fixed(d("123456"), 1, away, true), "123,456.0");
    }

    #[test]
    fn truncates_toward_zero() {
        let trunc = RoundingStrategy::ToZero;
        assert_eq!(fixed(d("1.999"), 2, trunc, true), "1.99");
        assert_eq!(fixed(d("-1.999"), 2, trunc, true), "-1.99");
        assert_eq!(fixed(d("-0.009"), 2, trunc, true), "0.00");
    }
}
