//! Checked conversions from host numbers to the integers the core takes.
//!
//! A JavaScript `number` is an `f64`. Passing it to wasm as an integer type would wrap or truncate it
//! silently (`-1` as `u32` is 4294967295), so the wasm bindings take `f64` and convert it here, and the
//! native test adapter converts JSON numbers the same way: both reject the same inputs with the same
//! [`CoreError`].

use crate::error::CoreError;
use crate::format::MAX_PRECISION;

/// The largest distance from the epoch, in milliseconds, that a JavaScript `Date` can represent.
pub const MAX_EPOCH_MS: i64 = 8_640_000_000_000_000;

/// The largest UTC offset accepted, in minutes (±18:00, the ISO 8601 and `java.time` limit).
pub const MAX_OFFSET_MINUTES: i32 = 18 * 60;

/// Converts `value` to a whole number in `min..=max`, naming the argument `name` in the error.
pub fn integer_from_number(
    name: &'static str,
    value: f64,
    min: i64,
    max: i64,
) -> Result<i64, CoreError> {
    if !value.is_finite() || value.fract() != 0.0 {
        return Err(CoreError::NotAnInteger {
            name,
            value: number_text(value),
        });
    }
    // Every bound used here lies well inside ±2⁵³, so the comparison in f64 is exact.
    if value < min as f64 || value > max as f64 {
        return Err(CoreError::IntegerOutOfRange {
            name,
            value: number_text(value),
            min,
            max,
        });
    }
    Ok(value as i64)
}

/// `value` as text for an error payload, as `f64`'s `Display` writes it (no exponent): `NaN`, `inf`,
/// `-inf`, a whole number with all its digits, or a fraction with the fewest decimals that read back
/// as the same number (`0.1`, `1.5`). A fraction whose shortest form has more than 15 significant
/// digits, or more than 22 decimals, is written exactly instead (`0.1 + 0.2` as
/// `0.3000000000000000444089209850062616169452667236328125`).
///
/// Written with integer arithmetic only: `f64`'s `Display` (shortest round trip by Grisu and Dragon)
/// is the largest single function of the wasm build, for error messages alone.
pub fn number_text(value: f64) -> String {
    if value.is_nan() {
        return "NaN".into();
    }
    let sign = if value.is_sign_negative() { "-" } else { "" };
    let magnitude = value.abs();
    if magnitude.is_infinite() {
        return format!("{sign}inf");
    }
    if magnitude.fract() == 0.0 && magnitude < 9_223_372_036_854_775_808.0 {
        return format!("{sign}{}", magnitude as i64);
    }
    if magnitude.fract() != 0.0
        && let Some(text) = short_fraction(magnitude)
    {
        return format!("{sign}{text}");
    }
    format!("{sign}{}", exact_decimal(magnitude))
}

/// The fraction `value` (finite, positive, not whole) with the fewest decimals `d` such that
/// `r / 10^d` is `value` again, when `r` stays below 2⁵³ and `d` at most 22: then both are exact
/// `f64`s and the one division is correctly rounded, so the check is exact.
fn short_fraction(value: f64) -> Option<String> {
    const LIMIT: f64 = 9_007_199_254_740_992.0; // 2⁵³
    let mut scale = 1.0_f64;
    for decimals in 1..=22_usize {
        scale *= 10.0;
        let scaled = (value * scale).round();
        if scaled + 1.0 >= LIMIT {
            return None;
        }
        // The product is rounded; the nearest integer to the exact one is among these.
        for candidate in [scaled, scaled - 1.0, scaled + 1.0] {
            if candidate > 0.0 && candidate / scale == value {
                let digits = format!("{:0>width$}", candidate as u64, width = decimals + 1);
                let (whole, fraction) = digits.split_at(digits.len() - decimals);
                return Some(format!("{whole}.{}", fraction.trim_end_matches('0')));
            }
        }
    }
    None
}

/// The exact decimal value of a finite, positive `value`: `mantissa × 2^exponent` computed on
/// decimal digits.
fn exact_decimal(value: f64) -> String {
    let bits = value.to_bits();
    let biased = ((bits >> 52) & 0x7ff) as i32;
    let fraction_bits = bits & ((1 << 52) - 1);
    let (mantissa, exponent) = if biased == 0 {
        (fraction_bits, -1074)
    } else {
        (fraction_bits | (1 << 52), biased - 1075)
    };
    // Little-endian decimal digits of the mantissa, times 2 (or 5, then shifted) per binary place.
    let mut digits: Vec<u8> = mantissa
        .to_string()
        .bytes()
        .rev()
        .map(|b| b - b'0')
        .collect();
    let factor = if exponent >= 0 { 2 } else { 5 };
    for _ in 0..exponent.unsigned_abs() {
        let mut carry = 0;
        for digit in &mut digits {
            let product = *digit * factor + carry;
            *digit = product % 10;
            carry = product / 10;
        }
        if carry > 0 {
            digits.push(carry);
        }
    }
    let decimals = if exponent >= 0 {
        0
    } else {
        exponent.unsigned_abs() as usize
    };
    while digits.len() <= decimals {
        digits.push(0);
    }
    let text: String = digits.iter().rev().map(|d| char::from(b'0' + d)).collect();
    let (whole, fraction) = text.split_at(text.len() - decimals);
    let fraction = fraction.trim_end_matches('0');
    if fraction.is_empty() {
        whole.to_owned()
    } else {
        format!("{whole}.{fraction}")
    }
}

/// Converts a price precision (number of decimals) given as a host number: a whole number in
/// `0..=`[`MAX_PRECISION`].
pub fn precision_from_number(value: f64) -> Result<u32, CoreError> {
    integer_from_number("precision", value, 0, i64::from(MAX_PRECISION)).map(|p| p as u32)
}

/// Converts an instant in milliseconds since the Unix epoch given as a host number: a whole number
/// within ±[`MAX_EPOCH_MS`], the range of a JavaScript `Date`.
pub fn epoch_ms_from_number(value: f64) -> Result<i64, CoreError> {
    integer_from_number("epochMs", value, -MAX_EPOCH_MS, MAX_EPOCH_MS)
}

/// Converts a count (days, decimals) given as a host number: a whole number from 0 to `u32::MAX`;
/// the function it is given to checks its own range.
pub fn count_from_number(name: &'static str, value: f64) -> Result<u32, CoreError> {
    integer_from_number(name, value, 0, i64::from(u32::MAX)).map(|n| n as u32)
}

/// Converts a UTC offset in minutes given as a host number: a whole number within
/// ±[`MAX_OFFSET_MINUTES`].
pub fn offset_minutes_from_number(value: f64) -> Result<i32, CoreError> {
    let max = i64::from(MAX_OFFSET_MINUTES);
    integer_from_number("offsetMinutes", value, -max, max).map(|m| m as i32)
}

/// Converts a limit on the decimals of a number input given as a host number (`maxDecimals`): a whole
/// number in `0..=`[`MAX_PRECISION`].
pub fn max_decimals_from_number(value: f64) -> Result<u32, CoreError> {
    integer_from_number("maxDecimals", value, 0, i64::from(MAX_PRECISION)).map(|d| d as u32)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn accepts_whole_numbers_in_range() {
        assert_eq!(precision_from_number(0.0), Ok(0));
        assert_eq!(precision_from_number(28.0), Ok(28));
        assert_eq!(precision_from_number(-0.0), Ok(0));
        assert_eq!(epoch_ms_from_number(-8.64e15), Ok(-MAX_EPOCH_MS));
        assert_eq!(offset_minutes_from_number(-1080.0), Ok(-1080));
    }

    #[test]
    fn rejects_fractions_and_non_finite() {
        for value in [1.5, f64::NAN, f64::INFINITY, f64::NEG_INFINITY] {
            assert!(matches!(
                precision_from_number(value),
                Err(CoreError::NotAnInteger {
                    name: "precision",
                    ..
                })
            ));
        }
    }

    #[test]
    fn number_text_writes_what_f64_display_writes() {
        let mut values = vec![
            0.0,
            -0.0,
            1.0,
            -1.0,
            1.5,
            -2.5,
            0.1,
            0.5,
            30.5,
            1e-7,
            1e-20,
            123_456.789,
            9_007_199_254_740_992.0,
            8.64e15 + 1.0,
            9.3e18,
            -1e19,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            5e-324,
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            std::f64::consts::PI,
        ];
        // A deterministic spread of fractions, small and large.
        let mut x = 0.123_f64;
        for _ in 0..2000 {
            x = (x * 7.3 + 0.37) % 1000.0;
            values.push(x);
            values.push(x / 1e9);
            values.push((x * 1000.0).round() / 1000.0);
        }
        for value in values {
            let text = number_text(value);
            let display = value.to_string();
            if text != display {
                // Only a fraction of 16 or 17 significant digits, or beyond 22 decimals, is written
                // exactly instead.
                let significant = display.trim_start_matches(['-', '0', '.']).replace('.', "");
                let decimals = display.split_once('.').map_or(0, |(_, f)| f.len());
                assert!(
                    significant.len() > 15 || decimals > 22,
                    "{value:?}: {text} vs {display}"
                );
                assert_eq!(text.parse::<f64>(), Ok(value), "{value:?}");
            }
        }
        assert_eq!(
            number_text(0.1 + 0.2),
            "0.3000000000000000444089209850062616169452667236328125"
        );
    }

    #[test]
    fn rejects_out_of_range() {
        assert_eq!(
            precision_from_number(29.0),
            Err(CoreError::IntegerOutOfRange {
                name: "precision",
                value: "29".into(),
                min: 0,
                max: 28
            })
        );
        assert!(precision_from_number(-1.0).is_err());
        assert!(epoch_ms_from_number(8.64e15 + 1.0).is_err());
        assert!(offset_minutes_from_number(1081.0).is_err());
    }
}
