//! Funds arithmetic shared by the withdrawal form and the backend: what a withdrawal takes from the
//! balance and what arrives at the address after the network fee.

use rust_decimal::Decimal;
use serde::Serialize;

use crate::error::CoreError;
use crate::validate::Violation;

/// A withdrawal's figures, all in the coin withdrawn.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct WithdrawalQuote {
    /// What leaves the user's balance (the fee included).
    pub amount: Decimal,
    /// The withdrawal fee (a fixed amount of the coin per network).
    pub fee: Decimal,
    /// What arrives at the address: `amount − fee`, always above zero.
    pub received: Decimal,
}

/// The figures of withdrawing `amount` with a fixed `fee`: `received = amount − fee`.
///
/// Fails with [`Violation::NotAboveZero`] for an amount not above zero,
/// [`Violation::BelowMinimum`] (with the fee as `min`) for an amount that does not exceed the fee
/// (nothing would arrive), and [`CoreError::Negative`] (`fee`) for a negative fee. Results are
/// normalised (`"10.50"` reads `"10.5"`).
pub fn withdrawal_quote(amount: Decimal, fee: Decimal) -> Result<WithdrawalQuote, CoreError> {
    if fee.is_sign_negative() && !fee.is_zero() {
        return Err(CoreError::Negative {
            name: "fee",
            value: fee.to_string(),
        });
    }
    if amount <= Decimal::ZERO {
        return Err(Violation::NotAboveZero.into());
    }
    if amount <= fee {
        return Err(Violation::BelowMinimum {
            min: fee.normalize(),
        }
        .into());
    }
    Ok(WithdrawalQuote {
        amount: amount.normalize(),
        fee: fee.normalize(),
        received: (amount - fee).normalize(),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn dec(text: &str) -> Decimal {
        text.parse().unwrap()
    }

    #[test]
    fn received_is_amount_less_fee() {
        let quote = withdrawal_quote(dec("100.50"), dec("1")).unwrap();
        assert_eq!(
            (quote.amount, quote.fee, quote.received),
            (dec("100.5"), dec("1"), dec("99.5"))
        );
        let quote = withdrawal_quote(dec("0.00100000"), dec("0.0005")).unwrap();
        assert_eq!(quote.received.to_string(), "0.0005");
        let free = withdrawal_quote(dec("3"), dec("0")).unwrap();
        assert_eq!(free.received, dec("3"));
    }

    #[test]
    fn nothing_arriving_is_a_violation() {
        assert_eq!(
            withdrawal_quote(dec("1"), dec("1")),
            Err(CoreError::Invalid(Violation::BelowMinimum {
                min: dec("1")
            }))
        );
        assert_eq!(
            withdrawal_quote(dec("0.5"), dec("1.00")),
            Err(CoreError::Invalid(Violation::BelowMinimum {
                min: dec("1")
            }))
        );
        assert_eq!(
            withdrawal_quote(dec("0"), dec("0")),
            Err(CoreError::Invalid(Violation::NotAboveZero))
        );
        assert_eq!(
            withdrawal_quote(dec("-2"), dec("1")),
            Err(CoreError::Invalid(Violation::NotAboveZero))
        );
        assert_eq!(
            withdrawal_quote(dec("2"), dec("-1")).unwrap_err().code(),
            "negative"
        );
    }
}
