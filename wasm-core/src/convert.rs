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
            value: value.to_string(),
        });
    }
    // Every bound used here lies well inside ±2⁵³, so the comparison in f64 is exact.
    if value < min as f64 || value > max as f64 {
        return Err(CoreError::IntegerOutOfRange {
            name,
            value: value.to_string(),
            min,
            max,
        });
    }
    Ok(value as i64)
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
