//! Seconds contract preview: the stake, what a right call pays, a wrong one loses, a tie returns.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::num::{self, add, mul, non_negative, result};
use crate::error::CoreError;

/// The input of [`seconds_preview`].
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SecondsInput {
    /// The order quantity: the stake in the quote asset, a whole number, not negative.
    #[serde(deserialize_with = "num::decimal")]
    pub quantity: Decimal,
    /// The profit of a right call as a fraction of the stake (`0.85` pays 85% on top of the stake),
    /// not negative.
    #[serde(deserialize_with = "num::decimal")]
    pub payout_rate: Decimal,
    /// The balance the stake is paid from, not negative; absent when unknown (no check).
    #[serde(default, deserialize_with = "num::optional_decimal")]
    pub available_balance: Option<Decimal>,
}

/// The outcomes of a seconds contract, with at most 8 decimals.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SecondsPreview {
    /// The stake: the quantity.
    pub stake: Decimal,
    /// The payout rate, as given.
    pub payout_rate: Decimal,
    /// `stake × payout rate`: the profit of a right call.
    pub profit_if_right: Decimal,
    /// `stake + profit`: what a right call credits at settlement.
    pub payout_if_right: Decimal,
    /// The stake: what a wrong call loses (nothing is credited).
    pub loss_if_wrong: Decimal,
    /// The stake: a tie (settlement price equal to the opening price) returns it.
    pub return_if_tie: Decimal,
    /// The stake is above the available balance; not an error.
    pub insufficient_balance: bool,
}

/// Previews a seconds contract. The quantity must be a whole number (spec section 5:
/// [`CoreError::NotAnInteger`] otherwise) and is the stake itself; the outcome never depends on the
/// size beyond this proportion.
pub fn seconds_preview(input: &SecondsInput) -> Result<SecondsPreview, CoreError> {
    let stake = non_negative("quantity", input.quantity)?;
    if !stake.fract().is_zero() {
        return Err(CoreError::NotAnInteger {
            name: "quantity",
            value: stake.to_string(),
        });
    }
    let rate = non_negative("payoutRate", input.payout_rate)?;
    let available = input
        .available_balance
        .map(|b| non_negative("availableBalance", b))
        .transpose()?;
    let profit = mul(stake, rate)?;
    let stake = result(stake);
    Ok(SecondsPreview {
        stake,
        payout_rate: result(rate),
        profit_if_right: result(profit),
        payout_if_right: result(add(stake, profit)?),
        loss_if_wrong: stake,
        return_if_tie: stake,
        insufficient_balance: available.is_some_and(|b| stake > b),
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn preview(
        quantity: &str,
        rate: &str,
        balance: Option<&str>,
    ) -> Result<SecondsPreview, CoreError> {
        seconds_preview(&SecondsInput {
            quantity: d(quantity),
            payout_rate: d(rate),
            available_balance: balance.map(d),
        })
    }

    #[test]
    fn right_wrong_and_tie() {
        assert_eq!(
            preview("100", "0.85", Some("1000")).unwrap(),
            SecondsPreview {
                stake: d("100"),
                payout_rate: d("0.85"),
                profit_if_right: d("85"),
                payout_if_right: d("185"),
                loss_if_wrong: d("100"),
                return_if_tie: d("100"),
                insufficient_balance: false,
            }
        );
        assert!(
            preview("1001", "0.85", Some("1000"))
                .unwrap()
                .insufficient_balance
        );
        assert!(!preview("1001", "0.85", None).unwrap().insufficient_balance);
        assert_eq!(
            preview("7.000", "0.333333333", None)
                .unwrap()
                .profit_if_right,
            d("2.33333333")
        );
    }

    #[test]
    fn quantity_must_be_a_whole_number() {
        assert_eq!(
            preview("1.5", "0.8", None),
            Err(CoreError::NotAnInteger {
                name: "quantity",
                value: "1.5".into()
            })
        );
        assert_eq!(preview("-1", "0.8", None).unwrap_err().code(), "negative");
        assert_eq!(preview("1", "-0.8", None).unwrap_err().code(), "negative");
    }
}
