//! Money and prices as exact decimals: [`Decimal`] inside the core, plain decimal strings at every
//! boundary (JSON, wasm). This module turns those strings into decimals and rejects anything else.

use rust_decimal::Decimal;

use crate::error::CoreError;

/// Parses a plain decimal string such as `"1234.5"`, `"-0.001"`, `"+7"`, `".5"` or `"5."`.
///
/// Surrounding whitespace is ignored. Accepted is an optional sign, digits and at most one decimal
/// point, with at least one digit. Rejected are empty text ([`CoreError::EmptyDecimal`]), exponent forms
/// (`1e5`), `NaN`, infinities, digit separators (`1_000`, `1,000`) and any other character
/// ([`CoreError::InvalidDecimal`]), and numbers with more than 28 decimals or beyond the decimal range
/// of about ±7.9 × 10²⁸ ([`CoreError::DecimalOutOfRange`]): the core never rounds an input silently.
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn parse_decimal(text: &str) -> Result<Decimal, CoreError> {
    let trimmed = text.trim();
    if trimmed.is_empty() {
        return Err(CoreError::EmptyDecimal);
    }
    if !is_plain_decimal(trimmed) {
        return Err(CoreError::InvalidDecimal {
            value: text.to_owned(),
        });
    }
    Decimal::from_str_exact(trimmed).map_err(|_| CoreError::DecimalOutOfRange {
        value: text.to_owned(),
    })
}

// rust_decimal's own parser also takes `_` separators and rounds past 28 digits in places, so the
// grammar is checked here first and the parse itself must be exact.
#[cfg_attr(optimize_hot, optimize(speed))]
fn is_plain_decimal(text: &str) -> bool {
    let unsigned = text.strip_prefix(['+', '-']).unwrap_or(text);
    let (int, frac) = unsigned.split_once('.').unwrap_or((unsigned, ""));
    let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    all_digits(int) && all_digits(frac) && !(int.is_empty() && frac.is_empty())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ok(text: &str) -> String {
        parse_decimal(text).unwrap().to_string()
    }

    #[test]
    fn accepts_plain_decimals() {
        assert_eq!(ok("1234.5"), "1234.5");
        assert_eq!(ok("  -0.001 "), "-0.001");
        assert_eq!(ok("+7"), "7");
        assert_eq!(ok(".5"), "0.5");
        assert_eq!(ok("5."), "5");
        assert_eq!(ok("007"), "7");
        assert_eq!(
            ok("0.0000000000000000000000000001"),
            "0.0000000000000000000000000001"
        );
        assert_eq!(
            ok("79228162514264337593543950335"),
            "79228162514264337593543950335"
        );
        assert_eq!(
            ok("-79228162514264337593543950335"),
            "-79228162514264337593543950335"
        );
    }

    #[test]
    fn rejects_empty() {
        assert_eq!(parse_decimal(""), Err(CoreError::EmptyDecimal));
        assert_eq!(parse_decimal(" \t\n"), Err(CoreError::EmptyDecimal));
    }

    #[test]
    fn rejects_non_plain_forms() {
        for text in [
            "abc", "1e5", "1E5", "NaN", "nan", "inf", "Infinity", "-", "+", ".", "1_000", "1,000",
            "1.2.3", "--1", "+-1", "1 000", "0x10", "١", "1.5%",
        ] {
            assert_eq!(
                parse_decimal(text),
                Err(CoreError::InvalidDecimal {
                    value: text.to_owned()
                }),
                "{text:?}"
            );
        }
    }

    #[test]
    fn rejects_out_of_range_instead_of_rounding() {
        for text in [
            "79228162514264337593543950336",
            "100000000000000000000000000000",
            "0.00000000000000000000000000001",
            "1.00000000000000000000000000001",
        ] {
            assert_eq!(
                parse_decimal(text),
                Err(CoreError::DecimalOutOfRange {
                    value: text.to_owned()
                }),
                "{text:?}"
            );
        }
    }
}
