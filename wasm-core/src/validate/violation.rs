//! The failures of the input rules as data: a [`Violation`] serializes to the same
//! `{code, key, params}` payload as a [`CoreError`](crate::CoreError), and a form's
//! [`ValidationError`] adds the name of the field it belongs to.

use std::collections::BTreeMap;

use rust_decimal::Decimal;
use serde::ser::SerializeStruct;
use serde::{Serialize, Serializer};

use super::password::PasswordRule;
use crate::error::ErrorPayload;

/// One broken input rule, carrying what the message needs (never the rejected secret itself).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Violation {
    /// A required value is empty (or, in a form, blank).
    #[error("this field is required")]
    Required,
    /// Required fields of a form are empty: 'Please complete all required (*) fields'.
    #[error("required fields are empty: {}", fields.join(", "))]
    RequiredFields {
        /// The names of the empty fields, in the order they were asked for.
        fields: Vec<String>,
    },
    /// The password does not follow its rule: 'Invalid password format'.
    #[error("the password does not follow rule {rule}")]
    PasswordFormat {
        /// The rule it was checked against.
        rule: PasswordRule,
    },
    /// The confirmation differs from the password: 'Passwords do not match'.
    #[error("the passwords do not match")]
    PasswordMismatch,
    /// The new password is the same as the old one.
    #[error("the new password equals the old one")]
    PasswordUnchanged,
    /// The e-mail address is malformed.
    #[error("not an e-mail address")]
    EmailFormat,
    /// The text is not a number in the input form (digits with at most one decimal point).
    #[error("not a valid number: {value:?}")]
    InvalidNumber {
        /// The text as it was given.
        value: String,
    },
    /// The number starts with a superfluous zero (`01`, `00.5`).
    #[error("the number has a leading zero")]
    LeadingZero,
    /// The number has more decimals than allowed.
    #[error("at most {max} decimals are allowed")]
    TooManyDecimals {
        /// The most decimals allowed.
        max: u32,
    },
    /// The number is too large for the core (beyond about 7.9 × 10²⁸).
    #[error("number out of range: {value:?}")]
    NumberOutOfRange {
        /// The text as it was given.
        value: String,
    },
    /// The number must be above zero.
    #[error("the number must be above zero")]
    NotAboveZero,
    /// The quantity must be a whole number (seconds contracts).
    #[error("the quantity must be a whole number")]
    NotWholeNumber,
    /// The number is below the smallest allowed value.
    #[error("the number is below {min}")]
    BelowMinimum {
        /// The smallest allowed value.
        min: Decimal,
    },
    /// The number is above the largest allowed value.
    #[error("the number is above {max}")]
    AboveMaximum {
        /// The largest allowed value.
        max: Decimal,
    },
    /// The amount exceeds the available balance: 'Insufficient balance'.
    #[error("insufficient balance: {available} available")]
    InsufficientBalance {
        /// The available balance.
        available: Decimal,
    },
    /// The core cannot check addresses of this network.
    #[error("unsupported network {network:?}")]
    UnsupportedNetwork {
        /// The network name as it was given.
        network: String,
    },
    /// The address is malformed for its network or its checksum is wrong.
    #[error("not a valid {network} address")]
    InvalidAddress {
        /// The network name as it was given.
        network: String,
    },
    /// The identity document type is neither `idCard` nor `passport`.
    #[error("unknown card type {value:?}")]
    InvalidCardType {
        /// The type as it was given.
        value: String,
    },
    /// The identity document number is malformed.
    #[error("not a valid ID number")]
    IdNumberFormat,
    /// The bank card number is malformed.
    #[error("not a valid card number")]
    CardNumberFormat,
    /// The SWIFT (BIC) code is malformed.
    #[error("not a valid SWIFT code")]
    SwiftFormat,
    /// The phone number is malformed.
    #[error("not a valid phone number")]
    PhoneFormat,
    /// The anti-phishing code is not 4 to 20 ASCII letters or digits.
    #[error("the anti-phishing code must be 4 to 20 letters or digits")]
    AntiCodeFormat,
    /// The one-time code is not 6 digits.
    #[error("the code must be 6 digits")]
    OtpFormat,
    /// The text is longer than allowed.
    #[error("at most {max} characters are allowed")]
    TooLong {
        /// The most characters allowed.
        max: u32,
    },
    /// The value is none of the choices the field offers (an order's side or type).
    #[error("not a valid choice: {value:?}")]
    InvalidChoice {
        /// The value as it was given.
        value: String,
    },
    /// A price is not a multiple of the pair's tick size.
    #[error("the price must be a multiple of {tick}")]
    OffTick {
        /// The tick size.
        tick: Decimal,
    },
    /// A quantity is not a multiple of the pair's step size.
    #[error("the quantity must be a multiple of {step}")]
    OffStep {
        /// The step size.
        step: Decimal,
    },
    /// The order's value (price × quantity, or the amount spent) is below the pair's minimum
    /// notional.
    #[error("the order value is below the minimum of {min}")]
    BelowMinNotional {
        /// The minimum order value, in the quote asset.
        min: Decimal,
    },
    /// An amount to spend (quote amount) is given for an order other than a market buy.
    #[error("an amount to spend is only for a market buy")]
    QuoteAmountNotAllowed,
    /// A market buy gives both a quantity and an amount to spend; it takes exactly one.
    #[error("give either the quantity or the amount to spend, not both")]
    QuantityAndQuoteAmount,
}

impl Violation {
    /// The stable snake_case identifier of this violation.
    pub fn code(&self) -> &'static str {
        match self {
            Self::Required => "field_required",
            Self::RequiredFields { .. } => "required_fields",
            Self::PasswordFormat { .. } => "password_format",
            Self::PasswordMismatch => "password_mismatch",
            Self::PasswordUnchanged => "password_unchanged",
            Self::EmailFormat => "email_format",
            Self::InvalidNumber { .. } => "invalid_number",
            Self::LeadingZero => "leading_zero",
            Self::TooManyDecimals { .. } => "too_many_decimals",
            Self::NumberOutOfRange { .. } => "number_out_of_range",
            Self::NotAboveZero => "not_above_zero",
            Self::NotWholeNumber => "not_whole_number",
            Self::BelowMinimum { .. } => "below_minimum",
            Self::AboveMaximum { .. } => "above_maximum",
            Self::InsufficientBalance { .. } => "insufficient_balance",
            Self::UnsupportedNetwork { .. } => "unsupported_network",
            Self::InvalidAddress { .. } => "invalid_address",
            Self::InvalidCardType { .. } => "invalid_card_type",
            Self::IdNumberFormat => "id_number_format",
            Self::CardNumberFormat => "card_number_format",
            Self::SwiftFormat => "swift_format",
            Self::PhoneFormat => "phone_format",
            Self::AntiCodeFormat => "anti_code_format",
            Self::OtpFormat => "otp_format",
            Self::TooLong { .. } => "too_long",
            Self::InvalidChoice { .. } => "invalid_choice",
            Self::OffTick { .. } => "off_tick",
            Self::OffStep { .. } => "off_step",
            Self::BelowMinNotional { .. } => "below_min_notional",
            Self::QuoteAmountNotAllowed => "quote_amount_not_allowed",
            Self::QuantityAndQuoteAmount => "quantity_and_quote_amount",
        }
    }

    /// The i18n key of the user-facing message for this violation.
    pub fn key(&self) -> &'static str {
        match self {
            Self::Required => "errors.fieldRequired",
            Self::RequiredFields { .. } => "errors.requiredFields",
            Self::PasswordFormat { .. } => "errors.passwordFormat",
            Self::PasswordMismatch => "errors.passwordMismatch",
            Self::PasswordUnchanged => "errors.passwordUnchanged",
            Self::EmailFormat => "errors.emailFormat",
            Self::InvalidNumber { .. } => "errors.invalidNumber",
            Self::LeadingZero => "errors.leadingZero",
            Self::TooManyDecimals { .. } => "errors.tooManyDecimals",
            Self::NumberOutOfRange { .. } => "errors.numberOutOfRange",
            Self::NotAboveZero => "errors.aboveZero",
            Self::NotWholeNumber => "errors.wholeNumber",
            Self::BelowMinimum { .. } => "errors.belowMinimum",
            Self::AboveMaximum { .. } => "errors.aboveMaximum",
            Self::InsufficientBalance { .. } => "errors.insufficientBalance",
            Self::UnsupportedNetwork { .. } => "errors.unsupportedNetwork",
            Self::InvalidAddress { .. } => "errors.invalidAddress",
            Self::InvalidCardType { .. } => "errors.cardType",
            Self::IdNumberFormat => "errors.idNumberFormat",
            Self::CardNumberFormat => "errors.cardNumberFormat",
            Self::SwiftFormat => "errors.swiftFormat",
            Self::PhoneFormat => "errors.phoneFormat",
            Self::AntiCodeFormat => "errors.antiCodeFormat",
            Self::OtpFormat => "errors.otpFormat",
            Self::TooLong { .. } => "errors.tooLong",
            Self::InvalidChoice { .. } => "errors.invalidChoice",
            Self::OffTick { .. } => "errors.offTick",
            Self::OffStep { .. } => "errors.offStep",
            Self::BelowMinNotional { .. } => "errors.belowMinNotional",
            Self::QuoteAmountNotAllowed => "errors.quoteAmountNotAllowed",
            Self::QuantityAndQuoteAmount => "errors.quantityAndQuoteAmount",
        }
    }

    /// The values the translated message interpolates, by name, all as strings.
    pub fn params(&self) -> BTreeMap<&'static str, String> {
        match self {
            Self::RequiredFields { fields } => BTreeMap::from([
                ("fields", fields.join(", ")),
                ("count", fields.len().to_string()),
            ]),
            Self::PasswordFormat { rule } => BTreeMap::from([("rule", rule.to_string())]),
            Self::InvalidNumber { value } | Self::NumberOutOfRange { value } => {
                BTreeMap::from([("value", value.clone())])
            }
            Self::InvalidCardType { value } | Self::InvalidChoice { value } => {
                BTreeMap::from([("value", value.clone())])
            }
            Self::TooManyDecimals { max } | Self::TooLong { max } => {
                BTreeMap::from([("max", max.to_string())])
            }
            Self::BelowMinimum { min } | Self::BelowMinNotional { min } => {
                BTreeMap::from([("min", min.to_string())])
            }
            Self::OffTick { tick } => BTreeMap::from([("tick", tick.to_string())]),
            Self::OffStep { step } => BTreeMap::from([("step", step.to_string())]),
            Self::AboveMaximum { max } => BTreeMap::from([("max", max.to_string())]),
            Self::InsufficientBalance { available } => {
                BTreeMap::from([("available", available.to_string())])
            }
            Self::UnsupportedNetwork { network } | Self::InvalidAddress { network } => {
                BTreeMap::from([("network", network.clone())])
            }
            Self::Required
            | Self::PasswordMismatch
            | Self::PasswordUnchanged
            | Self::EmailFormat
            | Self::LeadingZero
            | Self::NotAboveZero
            | Self::NotWholeNumber
            | Self::IdNumberFormat
            | Self::CardNumberFormat
            | Self::SwiftFormat
            | Self::PhoneFormat
            | Self::AntiCodeFormat
            | Self::OtpFormat
            | Self::QuoteAmountNotAllowed
            | Self::QuantityAndQuoteAmount => BTreeMap::new(),
        }
    }

    /// The `{code, key, params}` payload of this violation.
    pub fn to_payload(&self) -> ErrorPayload {
        ErrorPayload {
            code: self.code(),
            key: self.key(),
            params: self.params(),
        }
    }
}

impl Serialize for Violation {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_payload().serialize(serializer)
    }
}

/// A [`Violation`] of one field of a form; serializes flat as `{field, code, key, params}`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ValidationError {
    /// The field's name as the form's input object spells it (for example `fundPassword`).
    pub field: &'static str,
    /// What is wrong with it.
    pub violation: Violation,
}

impl ValidationError {
    /// The error of `field` for `violation`.
    pub fn new(field: &'static str, violation: Violation) -> Self {
        Self { field, violation }
    }
}

impl Serialize for ValidationError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut out = serializer.serialize_struct("ValidationError", 4)?;
        out.serialize_field("field", self.field)?;
        out.serialize_field("code", self.violation.code())?;
        out.serialize_field("key", self.violation.key())?;
        out.serialize_field("params", &self.violation.params())?;
        out.end()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_code_key_params() {
        let json = serde_json::to_value(Violation::RequiredFields {
            fields: vec!["name".into(), "idCard".into()],
        })
        .unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "code": "required_fields",
                "key": "errors.requiredFields",
                "params": { "fields": "name, idCard", "count": "2" }
            })
        );
    }

    #[test]
    fn field_errors_are_flat() {
        let error = ValidationError::new(
            "amount",
            Violation::InsufficientBalance {
                available: Decimal::new(1050, 2),
            },
        );
        assert_eq!(
            serde_json::to_value(error).unwrap(),
            serde_json::json!({
                "field": "amount",
                "code": "insufficient_balance",
                "key": "errors.insufficientBalance",
                "params": { "available": "10.50" }
            })
        );
    }

    #[test]
    fn wraps_into_core_error() {
        let error = crate::CoreError::from(Violation::PasswordMismatch);
        assert_eq!(error.code(), "password_mismatch");
        assert_eq!(error.key(), "errors.passwordMismatch");
        assert_eq!(error.to_string(), "the passwords do not match");
        assert_eq!(
            serde_json::to_value(&error).unwrap(),
            serde_json::to_value(Violation::PasswordMismatch).unwrap()
        );
    }
}
