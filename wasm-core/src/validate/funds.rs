//! The deposit and withdrawal forms (spec section 5): every field's error at once, each with the
//! field's name.

use serde::Deserialize;

use super::address::{Network, validate_address};
use super::number::parse_positive_amount;
use super::{ValidationError, Violation, filled};
use crate::error::CoreError;
use crate::format::MAX_PRECISION;
use crate::money::parse_decimal;

/// A deposit (recharge) form as the page holds it; absent, `null` and blank fields are missing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct DepositForm {
    /// The coin chosen, for example `USDT`.
    #[serde(default)]
    pub coin: Option<String>,
    /// The amount deposited, as typed (a number input, above zero).
    #[serde(default)]
    pub amount: Option<String>,
    /// The reference of the uploaded payment screenshot (its URL or upload id), set once uploaded.
    #[serde(default)]
    pub screenshot: Option<String>,
}

/// Checks a deposit form; returns every error (empty when valid), in the order `coin`, `amount`,
/// `screenshot`: [`Violation::Required`] for a missing field, and for the amount the errors of a
/// number input or [`Violation::NotAboveZero`].
pub fn validate_deposit_form(form: &DepositForm) -> Vec<ValidationError> {
    let mut errors = Vec::new();
    if filled(&form.coin).is_none() {
        errors.push(ValidationError::new("coin", Violation::Required));
    }
    match filled(&form.amount) {
        None => errors.push(ValidationError::new("amount", Violation::Required)),
        Some(amount) => {
            if let Err(violation) = parse_positive_amount(amount, None) {
                errors.push(ValidationError::new("amount", violation));
            }
        }
    }
    if filled(&form.screenshot).is_none() {
        errors.push(ValidationError::new("screenshot", Violation::Required));
    }
    errors
}

/// A withdrawal form as the page holds it, with the balance it is checked against. Absent, `null` and
/// blank user fields are missing.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct WithdrawalForm {
    /// The withdrawal method: the network name, for example `TRC20` (see
    /// [`Network::from_name`]).
    #[serde(default)]
    pub network: Option<String>,
    /// The destination address.
    #[serde(default)]
    pub address: Option<String>,
    /// The amount (quantity) withdrawn, as typed.
    #[serde(default)]
    pub amount: Option<String>,
    /// The fund (withdrawal) password.
    #[serde(default)]
    pub fund_password: Option<String>,
    /// The available balance of the coin, a decimal string from the backend (not user input).
    pub available: String,
    /// The coin's quantity precision: the most decimals the amount may have (0 to 28); absent for no
    /// limit.
    #[serde(default)]
    pub max_decimals: Option<u32>,
}

/// Checks a withdrawal form; returns every error (empty when valid), in the order `network`,
/// `address`, `amount`, `fundPassword`:
///
/// - `network`: [`Violation::Required`], or [`Violation::UnsupportedNetwork`];
/// - `address`: [`Violation::Required`], or [`Violation::InvalidAddress`] for the chosen network
///   (not checked while the network is missing or unsupported);
/// - `amount`: [`Violation::Required`], the errors of a number input, [`Violation::NotAboveZero`], or
///   [`Violation::InsufficientBalance`] ('Insufficient balance') above `available`;
/// - `fundPassword`: [`Violation::Required`].
///
/// Fails only when the caller's own data is malformed: `available` is not a decimal
/// ([`CoreError::InvalidDecimal`] and friends) or `maxDecimals` exceeds 28
/// ([`CoreError::IntegerOutOfRange`]).
pub fn validate_withdrawal_form(form: &WithdrawalForm) -> Result<Vec<ValidationError>, CoreError> {
    let available = parse_decimal(&form.available)?;
    if let Some(max) = form.max_decimals.filter(|&max| max > MAX_PRECISION) {
        return Err(CoreError::IntegerOutOfRange {
            name: "maxDecimals",
            value: max.to_string(),
            min: 0,
            max: i64::from(MAX_PRECISION),
        });
    }
    let mut errors = Vec::new();
    let network = filled(&form.network);
    let supported = network.filter(|name| Network::from_name(name).is_some());
    match network {
        None => errors.push(ValidationError::new("network", Violation::Required)),
        Some(name) if supported.is_none() => errors.push(ValidationError::new(
            "network",
            Violation::UnsupportedNetwork {
                network: name.to_owned(),
            },
        )),
        Some(_) => {}
    }
    match (filled(&form.address), supported) {
        (None, _) => errors.push(ValidationError::new("address", Violation::Required)),
        (Some(address), Some(network)) => {
            if let Err(violation) = validate_address(network, address) {
                errors.push(ValidationError::new("address", violation));
            }
        }
        (Some(_), None) => {}
    }
    match filled(&form.amount) {
        None => errors.push(ValidationError::new("amount", Violation::Required)),
        Some(amount) => match parse_positive_amount(amount, form.max_decimals) {
            Err(violation) => errors.push(ValidationError::new("amount", violation)),
            Ok(amount) if amount > available => errors.push(ValidationError::new(
                "amount",
                Violation::InsufficientBalance { available },
            )),
            Ok(_) => {}
        },
    }
    if filled(&form.fund_password).is_none() {
        errors.push(ValidationError::new("fundPassword", Violation::Required));
    }
    Ok(errors)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal::Decimal;

    fn codes(errors: &[ValidationError]) -> Vec<(&'static str, &'static str)> {
        errors
            .iter()
            .map(|e| (e.field, e.violation.code()))
            .collect()
    }

    #[test]
    fn deposit() {
        let form = DepositForm {
            coin: Some("USDT".into()),
            amount: Some("100.5".into()),
            screenshot: Some("uploads/abc.png".into()),
        };
        assert!(validate_deposit_form(&form).is_empty());
        assert_eq!(
            codes(&validate_deposit_form(&DepositForm::default())),
            [
                ("coin", "field_required"),
                ("amount", "field_required"),
                ("screenshot", "field_required")
            ]
        );
        let bad = DepositForm {
            coin: Some("  ".into()),
            amount: Some("0".into()),
            ..form.clone()
        };
        assert_eq!(
            codes(&validate_deposit_form(&bad)),
            [("coin", "field_required"), ("amount", "not_above_zero")]
        );
        let bad = DepositForm {
            amount: Some("1e3".into()),
            ..form
        };
        assert_eq!(
            codes(&validate_deposit_form(&bad)),
            [("amount", "invalid_number")]
        );
    }

    fn withdrawal() -> WithdrawalForm {
        WithdrawalForm {
            network: Some("TRC20".into()),
            address: Some("TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7".into()),
            amount: Some("10".into()),
            fund_password: Some("123456".into()),
            available: "10".into(),
            max_decimals: Some(2),
        }
    }

    #[test]
    fn withdrawal_valid_up_to_the_balance() {
        assert_eq!(validate_withdrawal_form(&withdrawal()), Ok(vec![]));
    }

    #[test]
    fn withdrawal_errors() {
        let form = WithdrawalForm {
            amount: Some("10.01".into()),
            ..withdrawal()
        };
        assert_eq!(
            validate_withdrawal_form(&form).unwrap(),
            [ValidationError::new(
                "amount",
                Violation::InsufficientBalance {
                    available: Decimal::TEN
                }
            )]
        );
        let form = WithdrawalForm {
            network: None,
            address: None,
            amount: None,
            fund_password: Some(String::new()),
            ..withdrawal()
        };
        assert_eq!(
            codes(&validate_withdrawal_form(&form).unwrap()),
            [
                ("network", "field_required"),
                ("address", "field_required"),
                ("amount", "field_required"),
                ("fundPassword", "field_required")
            ]
        );
        let form = WithdrawalForm {
            network: Some("SOL".into()),
            amount: Some("1.234".into()),
            ..withdrawal()
        };
        assert_eq!(
            codes(&validate_withdrawal_form(&form).unwrap()),
            [
                ("network", "unsupported_network"),
                ("amount", "too_many_decimals")
            ]
        );
        let form = WithdrawalForm {
            network: Some("ERC20".into()),
            ..withdrawal()
        };
        assert_eq!(
            codes(&validate_withdrawal_form(&form).unwrap()),
            [("address", "invalid_address")]
        );
    }

    #[test]
    fn withdrawal_caller_data_errors() {
        let form = WithdrawalForm {
            available: "lots".into(),
            ..withdrawal()
        };
        assert_eq!(
            validate_withdrawal_form(&form),
            Err(CoreError::InvalidDecimal {
                value: "lots".into()
            })
        );
        let form = WithdrawalForm {
            max_decimals: Some(29),
            ..withdrawal()
        };
        assert_eq!(
            validate_withdrawal_form(&form).unwrap_err().code(),
            "integer_out_of_range"
        );
    }
}
