//! Numbers typed by users (amounts, prices, quantities, leverage): the one strict reading every such
//! input goes through, and the patterns the OpenAPI document declares for them.
//!
//! The accepted form is wasm-core's number input ([`wasm_core::validate::validate_number_input`]:
//! digits with at most one decimal point, no sign, exponent, separator or space, no leading zero
//! before another digit) without the trailing point a field shows while the user types: `0`, `10`,
//! `0.5`, `10.25`. Refused, each with the rule's own message: `" 10"`, `"10 "`, `"+10"`, `"-1"`,
//! `"1e3"`, `"1_000"` (`invalid_number`), `"010"`, `"00.5"` (`leading_zero`), `"10."`, `".5"`
//! (`invalid_number`), `""` (`field_required`). Whole numbers (leverage) are the same without a point
//! (`not_whole_number`).

use rust_decimal::Decimal;
use wasm_core::validate::{Violation, validate_number_input};

use crate::refusal::Refusal;

/// The document's pattern of a decimal input ([`decimal`]).
pub const DECIMAL_PATTERN: &str = r"^(0|[1-9][0-9]*)(\.[0-9]+)?$";
/// The document's pattern of a whole-number input ([`whole`]) from 1.
pub const WHOLE_PATTERN: &str = r"^[1-9][0-9]*$";

/// Reads `text`, the request field `field`, as a decimal in the accepted form (module doc), or
/// refuses it as invalid with the rule it breaks.
pub fn decimal(text: &str, field: &str) -> Result<Decimal, Refusal> {
    validate_number_input(text, None).map_err(|violation| Refusal::rule(field, &violation))?;
    let invalid = || {
        Refusal::rule(
            field,
            &Violation::InvalidNumber {
                value: text.to_owned(),
            },
        )
    };
    if text.ends_with('.') {
        return Err(invalid());
    }
    wasm_core::money::parse_decimal(text).map_err(|_| invalid())
}

/// Reads `text` as a whole number from 1 in the accepted form (no point): [`decimal`], then
/// `not_whole_number` for a fraction and `not_above_zero` for 0.
pub fn whole(text: &str, field: &str) -> Result<Decimal, Refusal> {
    let value = decimal(text, field)?;
    if text.contains('.') {
        return Err(Refusal::rule(field, &Violation::NotWholeNumber));
    }
    if value.is_zero() {
        return Err(Refusal::rule(field, &Violation::NotAboveZero));
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::i18n::Msg;

    fn reason(result: Result<Decimal, Refusal>) -> &'static str {
        match result.expect_err("refused").msg {
            Msg::Rule(code) => code,
            other => other.key(),
        }
    }

    #[test]
    fn plain_decimals_are_read_exactly() {
        for (text, value) in [
            ("0", "0"),
            ("10", "10"),
            ("0.5", "0.5"),
            ("10.25", "10.25"),
            ("0.000000000000000001", "0.000000000000000001"),
            (
                "79228162514264337593543950335",
                "79228162514264337593543950335",
            ),
        ] {
            assert_eq!(
                decimal(text, "amount").unwrap().to_string(),
                value,
                "{text}"
            );
        }
    }

    #[test]
    fn anything_else_is_refused_with_its_rule() {
        for (text, rule) in [
            ("10 ", "invalid_number"),
            (" 10", "invalid_number"),
            ("\t10", "invalid_number"),
            ("+10", "invalid_number"),
            ("-10", "invalid_number"),
            ("10.", "invalid_number"),
            (".5", "invalid_number"),
            ("1e3", "invalid_number"),
            ("1_000", "invalid_number"),
            ("1,5", "invalid_number"),
            ("1.2.3", "invalid_number"),
            ("١٠", "invalid_number"),
            ("010", "leading_zero"),
            ("00.5", "leading_zero"),
            ("", "field_required"),
            ("79228162514264337593543950336", "number_out_of_range"),
        ] {
            let refused = decimal(text, "amount");
            assert_eq!(reason(refused.clone()), rule, "{text:?}");
            assert_eq!(refused.unwrap_err().field.as_deref(), Some("amount"));
        }
    }

    #[test]
    fn whole_numbers_have_no_point() {
        assert_eq!(whole("10", "leverage").unwrap(), Decimal::TEN);
        assert_eq!(reason(whole("10.0", "leverage")), "not_whole_number");
        assert_eq!(reason(whole("+10", "leverage")), "invalid_number");
        assert_eq!(reason(whole("010", "leverage")), "leading_zero");
        assert_eq!(reason(whole("10 ", "leverage")), "invalid_number");
        assert_eq!(reason(whole("0", "leverage")), "not_above_zero");
    }

    /// The document's patterns accept exactly what the parser reads.
    #[test]
    fn the_patterns_agree_with_the_parser() {
        let decimal_pattern = regex::Regex::new(DECIMAL_PATTERN).unwrap();
        let whole_pattern = regex::Regex::new(WHOLE_PATTERN).unwrap();
        for text in [
            "0", "1", "10", "0.5", "10.25", "10 ", " 10", "+10", "-1", "10.", ".5", "010", "00.5",
            "", "1e3", "1.2.3", "10.0", "10\n",
        ] {
            assert_eq!(
                decimal_pattern.is_match(text),
                decimal(text, "x").is_ok(),
                "{text:?}"
            );
            assert_eq!(
                whole_pattern.is_match(text),
                whole(text, "x").is_ok(),
                "{text:?}"
            );
        }
    }
}
