//! The user's own money on screen: balances (what is held, available, frozen, equity, margin,
//! valuations) and signed results (profit and loss, fees, funding). One rule for each kind, so the
//! same figure reads the same on every screen:
//!
//! - A balance is truncated toward zero ([`format_balance`]): `298.88579145` → `"298.88"`, never
//!   `"298.89"`. A balance shown is always at most what is held, so a user can always move or spend
//!   the amount they read (the rule of the large exchanges' asset pages).
//! - A result is rounded to the nearest, a tie to the even digit ([`format_pnl`]): `1.005` →
//!   `"1.00"`, `1.015` → `"1.02"`, `-0.125` → `"-0.12"`. Results are flows, not holdings: the
//!   nearest figure is the truest one, and ties to even do not drift when rows are added up (a
//!   column of fees sums to its total as shown more often than with ties away from zero).

use rust_decimal::{Decimal, RoundingStrategy};

use super::number::fixed;
use super::price::MAX_PRECISION;

/// Decimals of a balance or a result when none is given (USDT figures).
pub const MONEY_DECIMALS: u32 = 2;

/// Formats a balance with thousands separators and `decimals` decimals (2 when absent, at most
/// [`MAX_PRECISION`]), truncated toward zero: `298.88579145` → `"298.88"`, `1234.999` →
/// `"1,234.99"`, `-0.009` → `"0.00"`.
pub fn format_balance(value: Decimal, decimals: Option<u32>) -> String {
    let decimals = decimals.unwrap_or(MONEY_DECIMALS).min(MAX_PRECISION);
    fixed(value, decimals, RoundingStrategy::ToZero, true)
}

/// Formats a profit, loss, fee or funding payment with thousands separators and 2 decimals,
/// rounded to the nearest and a tie to the even digit: `12.345` → `"12.34"`, `12.355` →
/// `"12.36"`, `-1234.5678` → `"-1,234.57"`. No `+` is added (the screen adds it with its colour).
pub fn format_pnl(value: Decimal) -> String {
    fixed(
        value,
        MONEY_DECIMALS,
        RoundingStrategy::MidpointNearestEven,
        true,
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    #[test]
    fn balances_are_never_shown_larger_than_held() {
        assert_eq!(format_balance(d("298.88579145"), None), "298.88");
        assert_eq!(format_balance(d("602.85863428"), None), "602.85");
        assert_eq!(format_balance(d("1234.999"), None), "1,234.99");
        assert_eq!(format_balance(d("-0.009"), None), "0.00");
        assert_eq!(format_balance(d("-12.349"), None), "-12.34");
        assert_eq!(format_balance(d("0.123456789"), Some(8)), "0.12345678");
        assert_eq!(format_balance(d("5"), Some(0)), "5");
        assert_eq!(
            format_balance(d("1.5"), Some(40)),
            format!("1.5{}", "0".repeat(27))
        );
    }

    #[test]
    fn results_round_half_to_even() {
        assert_eq!(format_pnl(d("298.88579145")), "298.89");
        assert_eq!(format_pnl(d("1.005")), "1.00");
        assert_eq!(format_pnl(d("1.015")), "1.02");
        assert_eq!(format_pnl(d("-0.125")), "-0.12");
        assert_eq!(format_pnl(d("-1234.5678")), "-1,234.57");
        assert_eq!(format_pnl(d("-0.004")), "0.00");
        assert_eq!(format_pnl(d("-0.005")), "0.00");
    }
}
