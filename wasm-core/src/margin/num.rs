//! Checked decimal arithmetic, input range checks, result rounding and the strict decimal-string
//! deserializers the margin inputs use.
//!
//! Every operation of the margin module goes through these helpers, so an input too large for a
//! [`Decimal`] ends in [`CoreError::CalculationOverflow`] instead of a panic.

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Deserializer};

use crate::error::CoreError;
use crate::money::parse_decimal;

/// The decimals every amount, price and percent of a result is rounded to (unless a tick applies).
pub const RESULT_DECIMALS: u32 = 8;

/// `a + b`, or [`CoreError::CalculationOverflow`].
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn add(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_add(b).ok_or(CoreError::CalculationOverflow)
}

/// `a − b`, or [`CoreError::CalculationOverflow`].
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn sub(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_sub(b).ok_or(CoreError::CalculationOverflow)
}

/// `a × b`, or [`CoreError::CalculationOverflow`].
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn mul(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_mul(b).ok_or(CoreError::CalculationOverflow)
}

/// `a ÷ b` to 28 significant digits, or [`CoreError::CalculationOverflow`] (also for `b = 0`, which
/// the callers rule out by validating their inputs first).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn div(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_div(b).ok_or(CoreError::CalculationOverflow)
}

/// A result as the module returns it: [`RESULT_DECIMALS`] decimals, midpoint away from zero,
/// without trailing zeros and never `-0`.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn result(value: Decimal) -> Decimal {
    value
        .round_dp_with_strategy(RESULT_DECIMALS, RoundingStrategy::MidpointAwayFromZero)
        .normalize()
}

/// `value` rounded to the nearest multiple of `step`, midpoint away from zero, normalized.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn round_to_step(value: Decimal, step: Decimal) -> Result<Decimal, CoreError> {
    // A step of 1, 0.1, 0.01, … is a number of decimals: rounding to them needs no division and gives
    // the same number, as long as the division below would fit (|value| / step < 10²⁸; beyond that it
    // overflows, and the general path must fail alike).
    if let Some(decimals) = power_of_ten_decimals(step)
        && value.abs() < Decimal::from_i128_with_scale(10_i128.pow(28), decimals)
    {
        return Ok(value
            .round_dp_with_strategy(decimals, RoundingStrategy::MidpointAwayFromZero)
            .normalize());
    }
    let steps = div(value, step)?.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
    Ok(mul(steps, step)?.normalize())
}

/// `d` when `step` is 10⁻ᵈ (1, 0.1, 0.01, … 10⁻²⁸, in any scale: `0.010` too).
#[cfg_attr(optimize_hot, optimize(speed))]
fn power_of_ten_decimals(step: Decimal) -> Option<u32> {
    let mut mantissa = step.mantissa();
    let mut scale = step.scale();
    while mantissa > 1 && mantissa % 10 == 0 && scale > 0 {
        mantissa /= 10;
        scale -= 1;
    }
    (mantissa == 1).then_some(scale)
}

/// `value` rounded down to a multiple of `step` (both at least zero), without trailing zeros.
pub(super) fn floor_to_step(value: Decimal, step: Decimal) -> Result<Decimal, CoreError> {
    Ok(mul(div(value, step)?.floor(), step)?.normalize())
}

/// `value` when it is above zero, else [`CoreError::NotPositive`] naming the input `name`.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn positive(name: &'static str, value: Decimal) -> Result<Decimal, CoreError> {
    if value > Decimal::ZERO {
        Ok(value)
    } else {
        Err(CoreError::NotPositive {
            name,
            value: value.to_string(),
        })
    }
}

/// `value` when it is not below zero, else [`CoreError::Negative`] naming the input `name`.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn non_negative(name: &'static str, value: Decimal) -> Result<Decimal, CoreError> {
    if value >= Decimal::ZERO {
        Ok(value)
    } else {
        Err(CoreError::Negative {
            name,
            value: value.to_string(),
        })
    }
}

/// `value` when it is a fee rate from 0 (inclusive) to 1 (exclusive), else
/// [`CoreError::FeeRateOutOfRange`].
pub(super) fn fee_rate(name: &'static str, value: Decimal) -> Result<Decimal, CoreError> {
    if value >= Decimal::ZERO && value < Decimal::ONE {
        Ok(value)
    } else {
        Err(CoreError::FeeRateOutOfRange {
            name,
            value: value.to_string(),
        })
    }
}

/// Deserializes a decimal string with [`parse_decimal`]'s grammar: no exponents, separators or
/// silent rounding, and no JSON numbers, the same natively (serde_json) and in wasm (the
/// `JSON.stringify` text of the argument, read by `crate::json`).
pub(super) fn decimal<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Decimal, D::Error> {
    let text = String::deserialize(deserializer)?;
    parse_decimal(&text).map_err(serde::de::Error::custom)
}

/// Like [`decimal`], with `null` (and in JavaScript `undefined`) as `None`.
pub(super) fn optional_decimal<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<Decimal>, D::Error> {
    Option::<String>::deserialize(deserializer)?
        .map(|text| parse_decimal(&text).map_err(serde::de::Error::custom))
        .transpose()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    #[test]
    fn results_round_to_eight_decimals_without_trailing_zeros() {
        assert_eq!(result(d("1.234567895")).to_string(), "1.2345679");
        assert_eq!(result(d("-1.234567885")).to_string(), "-1.23456789");
        assert_eq!(result(d("5000.00")).to_string(), "5000");
        assert_eq!(result(d("-0.000000001")).to_string(), "0");
    }

    #[test]
    fn steps_round_to_nearest_or_down() {
        assert_eq!(
            round_to_step(d("45180.7228"), d("0.01"))
                .unwrap()
                .to_string(),
            "45180.72"
        );
        assert_eq!(
            round_to_step(d("54780.875"), d("0.01"))
                .unwrap()
                .to_string(),
            "54780.88"
        );
        assert_eq!(
            round_to_step(d("7.3"), d("0.5")).unwrap().to_string(),
            "7.5"
        );
        assert_eq!(
            floor_to_step(d("0.0999"), d("0.001")).unwrap().to_string(),
            "0.099"
        );
    }

    proptest::proptest! {
        /// Rounding to a power-of-ten step without dividing gives what dividing gives, errors included.
        #[test]
        fn power_of_ten_steps_round_as_dividing(
            mantissa in proptest::num::i128::ANY,
            scale in 0u32..=28,
            step_decimals in 0u32..=28,
            step_zeros in 0u32..=3,
        ) {
            let value = Decimal::from_i128_with_scale(mantissa % 79_228_162_514_264_337_593_543_950_335, scale);
            let zeros = step_zeros.min(28 - step_decimals);
            let step = Decimal::from_i128_with_scale(10_i128.pow(zeros), step_decimals + zeros);
            let steps = div(value, step).map(|q| q.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero));
            let by_division = steps.and_then(|q| mul(q, step)).map(|r| r.normalize());
            proptest::prop_assert_eq!(round_to_step(value, step), by_division);
        }
    }

    #[test]
    fn power_of_ten_steps() {
        assert_eq!(power_of_ten_decimals(d("0.01")), Some(2));
        assert_eq!(power_of_ten_decimals(d("0.010")), Some(2));
        assert_eq!(power_of_ten_decimals(d("1")), Some(0));
        assert_eq!(power_of_ten_decimals(d("1.000")), Some(0));
        assert_eq!(power_of_ten_decimals(d("10")), None);
        assert_eq!(power_of_ten_decimals(d("0.5")), None);
        assert_eq!(power_of_ten_decimals(d("0.02")), None);
        assert_eq!(
            round_to_step(d("-45180.725"), d("0.01"))
                .unwrap()
                .to_string(),
            "-45180.73"
        );
        assert_eq!(
            round_to_step(d("0.004"), d("0.01")).unwrap().to_string(),
            "0"
        );
        // Past 10²⁸ steps the division overflows, and so does the shortcut.
        assert_eq!(
            round_to_step(d("10000000000000000000000"), d("0.0000001")),
            Err(CoreError::CalculationOverflow)
        );
    }

    #[test]
    fn overflow_is_an_error() {
        assert_eq!(
            mul(Decimal::MAX, d("2")),
            Err(CoreError::CalculationOverflow)
        );
        assert_eq!(
            add(Decimal::MAX, Decimal::ONE),
            Err(CoreError::CalculationOverflow)
        );
        assert_eq!(
            sub(Decimal::MIN, Decimal::ONE),
            Err(CoreError::CalculationOverflow)
        );
        assert_eq!(
            div(Decimal::ONE, Decimal::ZERO),
            Err(CoreError::CalculationOverflow)
        );
    }

    #[test]
    fn range_checks_name_the_input() {
        assert_eq!(
            positive("size", Decimal::ZERO),
            Err(CoreError::NotPositive {
                name: "size",
                value: "0".into()
            })
        );
        assert!(non_negative("walletBalance", Decimal::ZERO).is_ok());
        assert!(fee_rate("feeRate", Decimal::ONE).is_err());
        assert!(fee_rate("feeRate", d("-0.001")).is_err());
        assert!(fee_rate("feeRate", d("0.999")).is_ok());
    }
}
