//! Number inputs (spec section 5): what an amount or quantity field accepts, the keystroke filter that
//! keeps the field in that form, and the whole-number quantity of seconds contracts.
//!
//! # Accepted form ([`validate_number_input`])
//! Digits with at most one decimal point, starting with a digit: `0`, `12`, `0.5`, `12.` (a trailing
//! point is what the field shows while the user types; it reads as `12`). No sign, exponent,
//! separator or space; no leading zero before another digit (`01`, `00.5`); at most `max_decimals`
//! decimals; and within the range of the core's decimals (28 decimals, about 7.9 × 10²⁸).
//!
//! # Keystroke filter ([`sanitize_number_input`])
//! Input fields run the filter on every change and show its result, so the field never holds
//! anything else than a prefix of an accepted number:
//!
//! | typed or pasted | shown | why |
//! |---|---|---|
//! | `12a3`, `-5`, `1 000` | `123`, `5`, `1000` | anything but digits and points is dropped |
//! | `1.2.3` | `1.23` | only the first point counts |
//! | `1,5` | `1.5` | with no `.` in the text, the first `,` is the decimal point (keyboards of many locales) |
//! | `1,234.5` | `1234.5` | with a `.` present, `,` is a thousands separator and is dropped |
//! | `007`, `00.5` | `7`, `0.5` | leading zeros go |
//! | `.5`, `.` | `0.5`, `0.` | a leading point gets its zero |
//! | `1.23456` (2 decimals) | `1.23` | extra decimals are cut, never rounded |
//! | `5.7` (0 decimals) | `5` | no point at all |
//! | `１２．５`, `１，５` | `12.5`, `1.5` | full-width digits, point and comma (CJK input methods) count as ASCII ones |
//!
//! The result is empty or accepted by [`validate_number_input`] with the same `max_decimals`, except
//! for a number beyond the core's range; filtering it again changes nothing.

use rust_decimal::Decimal;

use super::Violation;
use crate::money::parse_decimal;

/// Checks a number typed into an amount or quantity field (form in
/// [`crate::validate::number`]): [`Violation::Required`] when empty,
/// [`Violation::InvalidNumber`], [`Violation::LeadingZero`], [`Violation::TooManyDecimals`] or
/// [`Violation::NumberOutOfRange`]. `None` allows any number of decimals (up to the core's 28).
pub fn validate_number_input(value: &str, max_decimals: Option<u32>) -> Result<(), Violation> {
    parse_number_input(value, max_decimals).map(|_| ())
}

/// Filters what the user typed into the accepted form (table in [`crate::validate::number`]).
pub fn sanitize_number_input(value: &str, max_decimals: Option<u32>) -> String {
    let max_decimals = max_decimals.map_or(usize::MAX, |max| max as usize);
    let comma_is_point = !value.contains(['.', '\u{ff0e}']);
    let mut int = String::new();
    let mut frac = String::new();
    let mut seen_point = false;
    for c in value.chars() {
        let c = match c {
            '\u{ff10}'..='\u{ff19}' => char::from(b'0' + (c as u32 - 0xff10) as u8),
            '\u{ff0e}' => '.',
            ',' | '\u{ff0c}' if comma_is_point => '.',
            c => c,
        };
        match c {
            '0'..='9' if !seen_point => int.push(c),
            '0'..='9' if frac.len() < max_decimals => frac.push(c),
            '.' => seen_point = true,
            _ => {}
        }
    }
    let significant = int.trim_start_matches('0');
    let mut out = String::with_capacity(int.len() + frac.len() + 2);
    if significant.is_empty() && (seen_point || !int.is_empty()) {
        out.push('0');
    } else {
        out.push_str(significant);
    }
    if seen_point && max_decimals > 0 {
        out.push('.');
        out.push_str(&frac);
    }
    out
}

/// Checks the quantity of a seconds contract: a number input ([`validate_number_input`]) without a
/// decimal point ([`Violation::NotWholeNumber`]), above zero ([`Violation::NotAboveZero`]), and within
/// `min` ([`Violation::BelowMinimum`]) and `max` ([`Violation::AboveMaximum`]) when given.
pub fn validate_seconds_quantity(
    value: &str,
    min: Option<Decimal>,
    max: Option<Decimal>,
) -> Result<(), Violation> {
    let quantity = parse_number_input(value, None)?;
    if value.contains('.') {
        return Err(Violation::NotWholeNumber);
    }
    if quantity.is_zero() {
        return Err(Violation::NotAboveZero);
    }
    check_bounds(quantity, min, max)
}

/// Parses a number input that must be above zero, as amounts are (deposit, withdrawal).
pub(crate) fn parse_positive_amount(
    value: &str,
    max_decimals: Option<u32>,
) -> Result<Decimal, Violation> {
    let amount = parse_number_input(value, max_decimals)?;
    if amount.is_zero() {
        Err(Violation::NotAboveZero)
    } else {
        Ok(amount)
    }
}

fn check_bounds(
    value: Decimal,
    min: Option<Decimal>,
    max: Option<Decimal>,
) -> Result<(), Violation> {
    if let Some(min) = min.filter(|&min| value < min) {
        return Err(Violation::BelowMinimum { min });
    }
    if let Some(max) = max.filter(|&max| value > max) {
        return Err(Violation::AboveMaximum { max });
    }
    Ok(())
}

/// Checks the accepted form of a number input and returns its value.
fn parse_number_input(value: &str, max_decimals: Option<u32>) -> Result<Decimal, Violation> {
    if value.is_empty() {
        return Err(Violation::Required);
    }
    let (int, frac) = value.split_once('.').unwrap_or((value, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digits(int) || !digits(frac) {
        return Err(Violation::InvalidNumber {
            value: value.to_owned(),
        });
    }
    if int.len() > 1 && int.starts_with('0') {
        return Err(Violation::LeadingZero);
    }
    if let Some(max) = max_decimals.filter(|&max| frac.len() > max as usize) {
        return Err(Violation::TooManyDecimals { max });
    }
    parse_decimal(value).map_err(|_| Violation::NumberOutOfRange {
        value: value.to_owned(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    #[test]
    fn accepted_form() {
        for ok in ["0", "12", "0.5", "12.", "0.", "10.05", "100"] {
            assert_eq!(validate_number_input(ok, None), Ok(()), "{ok}");
        }
        assert_eq!(validate_number_input("", None), Err(Violation::Required));
        for bad in [
            ".5", "-1", "+1", "1e5", "1,000", "1 000", " 1", "1.2.3", "abc", ".",
        ] {
            assert_eq!(
                validate_number_input(bad, None),
                Err(Violation::InvalidNumber { value: bad.into() }),
                "{bad}"
            );
        }
        for bad in ["01", "00", "00.5", "007"] {
            assert_eq!(
                validate_number_input(bad, None),
                Err(Violation::LeadingZero),
                "{bad}"
            );
        }
        assert_eq!(validate_number_input("1.23", Some(2)), Ok(()));
        assert_eq!(
            validate_number_input("1.234", Some(2)),
            Err(Violation::TooManyDecimals { max: 2 })
        );
        assert_eq!(
            validate_number_input("1.5", Some(0)),
            Err(Violation::TooManyDecimals { max: 0 })
        );
        assert_eq!(validate_number_input("1.", Some(0)), Ok(()));
        let huge = "1".repeat(30);
        assert_eq!(
            validate_number_input(&huge, None),
            Err(Violation::NumberOutOfRange {
                value: huge.clone()
            })
        );
    }

    #[test]
    fn filter_table() {
        let table = [
            ("12a3", None, "123"),
            ("-5", None, "5"),
            ("1 000", None, "1000"),
            ("1.2.3", None, "1.23"),
            ("1,5", None, "1.5"),
            ("1,234.5", None, "1234.5"),
            ("007", None, "7"),
            ("00.5", None, "0.5"),
            ("000", None, "0"),
            (".5", None, "0.5"),
            (".", None, "0."),
            ("0.50", None, "0.50"),
            ("1.23456", Some(2), "1.23"),
            ("5.7", Some(0), "5"),
            ("5.", Some(0), "5"),
            ("１２．５", None, "12.5"),
            ("１，５", None, "1.5"),
            ("", None, ""),
            ("abc", None, ""),
            ("1e5", None, "15"),
        ];
        for (typed, max, shown) in table {
            assert_eq!(
                sanitize_number_input(typed, max),
                shown,
                "{typed:?} {max:?}"
            );
        }
    }

    #[test]
    fn seconds_quantity() {
        let q = |v: &str| validate_seconds_quantity(v, None, None);
        assert_eq!(q("10"), Ok(()));
        assert_eq!(q(""), Err(Violation::Required));
        assert_eq!(q("0"), Err(Violation::NotAboveZero));
        assert_eq!(q("1.5"), Err(Violation::NotWholeNumber));
        assert_eq!(q("10."), Err(Violation::NotWholeNumber));
        assert_eq!(q("10.0"), Err(Violation::NotWholeNumber));
        assert_eq!(q("010"), Err(Violation::LeadingZero));
        assert_eq!(
            q("-1"),
            Err(Violation::InvalidNumber { value: "-1".into() })
        );
        let bounds = |v: &str| {
            validate_seconds_quantity(v, Some(Decimal::new(10, 0)), Some(Decimal::new(500, 0)))
        };
        assert_eq!(bounds("10"), Ok(()));
        assert_eq!(bounds("500"), Ok(()));
        assert_eq!(
            bounds("9"),
            Err(Violation::BelowMinimum {
                min: Decimal::new(10, 0)
            })
        );
        assert_eq!(
            bounds("501"),
            Err(Violation::AboveMaximum {
                max: Decimal::new(500, 0)
            })
        );
    }

    proptest! {
        #[test]
        fn filtered_input_is_accepted(text in "[0-9.,a\\- ０-９．，]{0,40}", max in proptest::option::of(0_u32..=28)) {
            let shown = sanitize_number_input(&text, max);
            prop_assert_eq!(sanitize_number_input(&shown, max), shown.clone());
            match validate_number_input(&shown, max) {
                Ok(()) => {}
                Err(Violation::Required) => prop_assert!(shown.is_empty()),
                Err(Violation::NumberOutOfRange { .. }) => {}
                Err(other) => prop_assert!(false, "{shown:?} refused: {other:?}"),
            }
        }

        #[test]
        fn any_text_is_handled(text in "\\PC{0,40}", max in proptest::option::of(0_u32..=40)) {
            let _ = validate_number_input(&text, max);
            let _ = sanitize_number_input(&text, max);
            let _ = validate_seconds_quantity(&text, None, None);
        }
    }
}
