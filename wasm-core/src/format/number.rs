//! Rendering a decimal as display digits: rounding to a number of decimals, padding with zeros and
//! grouping thousands. Every display function of [`crate::format`] ends here, so they all agree on
//! signs and separators.

use rust_decimal::{Decimal, RoundingStrategy};

/// Rounds `value` to `dp` decimals with `strategy` and renders exactly `dp` decimals (no point when
/// `dp` is 0), with `,` between thousands of the integer part when `grouped`, and a leading `-` only
/// when the rounded value is below zero (so `-0.001` shows as `0.00`, never `-0.00`).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(crate) fn fixed(value: Decimal, dp: u32, strategy: RoundingStrategy, grouped: bool) -> String {
    let mut out = Vec::new();
    push_fixed(&mut out, value, dp, strategy, grouped);
    into_text(out)
}

/// The text of bytes written by the `push_` functions of this module (all ASCII).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(crate) fn into_text(bytes: Vec<u8>) -> String {
    String::from_utf8(bytes).expect("numbers are written in ASCII")
}

/// Appends the ASCII bytes of what [`fixed`] returns to `out`, without allocating anything else: the
/// batch formatters write a whole table into one buffer and make it text once ([`into_text`]).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(crate) fn push_fixed(
    out: &mut Vec<u8>,
    value: Decimal,
    dp: u32,
    strategy: RoundingStrategy,
    grouped: bool,
) {
    let half_up = match strategy {
        RoundingStrategy::ToZero => false,
        RoundingStrategy::MidpointAwayFromZero => true,
        // The display rules use only the two strategies above; any other rounds as a Decimal first.
        other => {
            let rounded = value.round_dp_with_strategy(dp, other);
            let (negative, mantissa) = (rounded.is_sign_negative(), rounded.mantissa());
            return push_scaled(
                out,
                negative,
                mantissa.unsigned_abs(),
                rounded.scale(),
                dp,
                false,
                grouped,
            );
        }
    };
    let mantissa = value.mantissa().unsigned_abs();
    push_scaled(
        out,
        value.is_sign_negative(),
        mantissa,
        value.scale(),
        dp,
        half_up,
        grouped,
    );
}

/// Appends the number ±`mantissa` × 10^−`scale` rounded to `dp` decimals — midpoint away from zero
/// when `half_up`, else toward zero — like [`push_fixed`]. The mantissa may exceed a [`Decimal`]'s
/// 96 bits and the scale its 28 decimals (exact products of two decimals); the rounding is integer
/// arithmetic, in 64 bits whenever the numbers fit.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(crate) fn push_scaled(
    out: &mut Vec<u8>,
    negative: bool,
    mantissa: u128,
    scale: u32,
    dp: u32,
    half_up: bool,
    grouped: bool,
) {
    let (mantissa, scale) = if scale > dp {
        (round_mantissa(mantissa, scale - dp, half_up), dp)
    } else {
        (mantissa, scale)
    };
    let mut buffer = [0_u8; 40];
    let digits = decimal_digits(mantissa, &mut buffer);
    let scale = scale as usize;
    let (int, frac_zeros, frac) = if digits.len() > scale {
        let (int, frac) = digits.split_at(digits.len() - scale);
        (int, 0, frac)
    } else {
        (&b"0"[..], scale - digits.len(), digits)
    };

    out.reserve(int.len() * 4 / 3 + dp as usize + 2);
    if negative && mantissa != 0 {
        out.push(b'-');
    }
    if grouped && int.len() > 3 {
        let first = match int.len() % 3 {
            0 => 3,
            rest => rest,
        };
        out.extend_from_slice(&int[..first]);
        for group in int[first..].chunks_exact(3) {
            out.push(b',');
            out.extend_from_slice(group);
        }
    } else {
        out.extend_from_slice(int);
    }
    if dp > 0 {
        out.push(b'.');
        out.resize(out.len() + frac_zeros, b'0');
        out.extend_from_slice(frac);
        out.resize(out.len() + dp as usize - scale, b'0');
    }
}

/// The powers of ten that fit a `u64`, 10⁰ to 10¹⁹.
pub(crate) const POW10_U64: [u64; 20] = {
    let mut table = [1_u64; 20];
    let mut i = 1;
    while i < table.len() {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// `mantissa` with its last `drop` digits removed, rounded midpoint away from zero when `half_up`,
/// else toward zero.
#[cfg_attr(optimize_hot, optimize(speed))]
fn round_mantissa(mantissa: u128, drop: u32, half_up: bool) -> u128 {
    // 64-bit arithmetic when it suffices: 128-bit division is a library call, slow in wasm32.
    if let (Ok(m), Some(&d)) = (u64::try_from(mantissa), POW10_U64.get(drop as usize)) {
        let (quotient, remainder) = (m / d, m % d);
        return u128::from(quotient + u64::from(half_up && remainder >= d - remainder));
    }
    // 10^39 exceeds u128: every mantissa is below half of it, so it rounds to zero either way.
    let Some(divisor) = 10_u128.checked_pow(drop) else {
        return 0;
    };
    let (quotient, remainder) = (mantissa / divisor, mantissa % divisor);
    quotient + u128::from(half_up && remainder >= divisor - remainder)
}

/// The ASCII decimal digits of `value` (`"0"` for zero), written into the end of `buffer`.
#[cfg_attr(optimize_hot, optimize(speed))]
fn decimal_digits(value: u128, buffer: &mut [u8; 40]) -> &[u8] {
    // 128-bit division is a slow library call (on wasm32 above all): peel off 19-digit chunks with
    // one such division each, and write the digits of each chunk with 64-bit arithmetic, two at a
    // time.
    const CHUNK: u128 = 10_000_000_000_000_000_000;
    if let Ok(small) = u64::try_from(value) {
        let start = write_u64(small, &mut buffer[..]);
        return &buffer[start..];
    }
    let mut start = buffer.len();
    let mut rest = value;
    while rest >= CHUNK {
        let chunk = (rest % CHUNK) as u64;
        rest /= CHUNK;
        let end = start;
        start = write_u64(chunk, &mut buffer[..end]);
        // A chunk below the top one has exactly 19 digits: restore its leading zeros.
        while start > end - 19 {
            start -= 1;
            buffer[start] = b'0';
        }
    }
    let end = start;
    start = write_u64(rest as u64, &mut buffer[..end]);
    &buffer[start..]
}

/// Writes the digits of `value` (at least one) at the end of `buffer`; returns where they start.
#[cfg_attr(optimize_hot, optimize(speed))]
fn write_u64(mut value: u64, buffer: &mut [u8]) -> usize {
    const PAIRS: &[u8; 200] = b"0001020304050607080910111213141516171819\
        2021222324252627282930313233343536373839\
        4041424344454647484950515253545556575859\
        6061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899";
    let mut start = buffer.len();
    while value >= 100 {
        let pair = (value % 100) as usize * 2;
        value /= 100;
        start -= 2;
        buffer[start..start + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    }
    if value >= 10 {
        let pair = value as usize * 2;
        start -= 2;
        buffer[start..start + 2].copy_from_slice(&PAIRS[pair..pair + 2]);
    } else {
        start -= 1;
        buffer[start] = b'0' + value as u8;
    }
    start
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
        assert_eq!(fixed(d("0"), 3, away, true), "0.000");
        assert_eq!(fixed(d("-0.00"), 0, away, true), "0");
        assert_eq!(
            fixed(Decimal::MAX, 0, away, true),
            "79,228,162,514,264,337,593,543,950,335"
        );
        assert_eq!(
            fixed(Decimal::MIN, 2, away, false),
            "-79228162514264337593543950335.00"
        );
    }

    #[test]
    fn digits_across_chunks() {
        let mut buffer = [0_u8; 40];
        for value in [
            0,
            9,
            10,
            u128::from(u64::MAX),
            10_000_000_000_000_000_000,
            10_000_000_000_000_000_001,
            99_999_999_999_999_999_999,
            u128::MAX,
        ] {
            let digits = decimal_digits(value, &mut buffer);
            assert_eq!(std::str::from_utf8(digits).unwrap(), value.to_string());
        }
    }

    #[test]
    fn matches_decimal_rounding() {
        let values = [
            "0",
            "0.005",
            "-0.005",
            "0.0049",
            "1.995",
            "-1.995",
            "999.995",
            "123.456789",
            "-0.5",
            "0.5",
            "1.5",
            "2.5",
            "79228162514264337593543950335",
            "-7.9228162514264337593543950335",
            "0.0000000000000000000000000001",
            "12345678901234567890.123456789",
        ];
        for text in values {
            let value = d(text);
            for dp in [0, 1, 2, 4, 8, 28] {
                for strategy in [
                    RoundingStrategy::ToZero,
                    RoundingStrategy::MidpointAwayFromZero,
                    RoundingStrategy::MidpointNearestEven,
                ] {
                    let rounded = value.round_dp_with_strategy(dp, strategy);
                    let mut expected = if rounded.is_sign_negative() && !rounded.is_zero() {
                        "-".to_owned()
                    } else {
                        String::new()
                    };
                    let plain = rounded.abs().to_string();
                    let (int, frac) = plain.split_once('.').unwrap_or((&plain, ""));
                    expected.push_str(int);
                    if dp > 0 {
                        expected.push('.');
                        expected.push_str(&format!("{frac:0<width$}", width = dp as usize));
                    }
                    assert_eq!(
                        fixed(value, dp, strategy, false),
                        expected,
                        "{text} {dp} {strategy:?}"
                    );
                }
            }
        }
    }

    #[test]
    fn rounds_wide_mantissas() {
        let mut out = Vec::new();
        // 1.5 × 10^30 with 31 decimals: wider than a Decimal.
        push_scaled(&mut out, false, 15 * 10_u128.pow(30), 31, 0, true, true);
        assert_eq!(out, b"2");
        out.clear();
        push_scaled(&mut out, true, u128::MAX, 56, 2, true, true);
        assert_eq!(out, b"0.00");
        out.clear();
        push_scaled(&mut out, false, u128::MAX, 38, 2, true, false);
        assert_eq!(out, b"3.40");
    }

    #[test]
    fn any_number_of_decimals() {
        let mut out = Vec::new();
        push_scaled(&mut out, false, u128::MAX, 0, 100, true, true);
        let out = into_text(out);
        let (int, frac) = out.split_once('.').unwrap();
        assert_eq!(int, "340,282,366,920,938,463,463,374,607,431,768,211,455");
        assert_eq!(frac, "0".repeat(100));
    }

    #[test]
    fn appends_to_the_buffer() {
        let mut out = b"x=".to_vec();
        push_fixed(&mut out, d("1234.5"), 2, RoundingStrategy::ToZero, true);
        assert_eq!(into_text(out), "x=1,234.50");
    }

    #[test]
    fn truncates_toward_zero() {
        let trunc = RoundingStrategy::ToZero;
        assert_eq!(fixed(d("1.999"), 2, trunc, true), "1.99");
        assert_eq!(fixed(d("-1.999"), 2, trunc, true), "-1.99");
        assert_eq!(fixed(d("-0.009"), 2, trunc, true), "0.00");
    }
}
