//! Errors as data: every failure of the core is a [`CoreError`] that serializes to the payload
//! `{ "code": "invalid_decimal", "key": "errors.invalidNumber", "params": { "value": "abc" } }`.
//!
//! `code` is a stable snake_case identifier for programs, `key` an i18n key the webapp translates into
//! the user's language, and `params` the string values the translation interpolates. The wasm edge
//! throws exactly this payload; the backend maps it into its envelope.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

/// A failure of a core function, carrying the offending input.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum CoreError {
    /// A decimal was expected but the text is empty (or only whitespace).
    #[error("a number is required")]
    EmptyDecimal,
    /// The text is not a plain decimal number (no exponents, NaN, infinities or separators).
    #[error("not a decimal number: {value:?}")]
    InvalidDecimal {
        /// The text as it was given.
        value: String,
    },
    /// The text is a decimal number, but it has more than 28 decimals or is too large for the core.
    #[error("decimal number out of range: {value:?}")]
    DecimalOutOfRange {
        /// The text as it was given.
        value: String,
    },
    /// A numeric argument that must be a whole number is fractional or not finite.
    #[error("{name} must be a whole number, got {value}")]
    NotAnInteger {
        /// The argument's name as the caller knows it (for example `precision`).
        name: &'static str,
        /// The value as it was given.
        value: String,
    },
    /// A whole-number argument lies outside its allowed range.
    #[error("{name} must be between {min} and {max}, got {value}")]
    IntegerOutOfRange {
        /// The argument's name as the caller knows it (for example `offsetMinutes`).
        name: &'static str,
        /// The value as it was given.
        value: String,
        /// The smallest allowed value.
        min: i64,
        /// The largest allowed value.
        max: i64,
    },
    /// A structured argument does not have the expected shape (for example rows that are not objects).
    #[error("argument {name} has the wrong shape")]
    InvalidArgument {
        /// The argument's name as the caller knows it (for example `rows`).
        name: &'static str,
    },
}

/// The serializable form of a [`CoreError`]: what crosses the wasm boundary and what the webapp translates.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ErrorPayload {
    /// Stable snake_case identifier, for example `invalid_decimal`.
    pub code: &'static str,
    /// The i18n key of the message, for example `errors.invalidNumber`.
    pub key: &'static str,
    /// Values the translated message interpolates, by name.
    pub params: BTreeMap<&'static str, String>,
}

impl CoreError {
    /// The stable snake_case identifier of this error.
    pub fn code(&self) -> &'static str {
        match self {
            Self::EmptyDecimal => "empty_decimal",
            Self::InvalidDecimal { .. } => "invalid_decimal",
            Self::DecimalOutOfRange { .. } => "decimal_out_of_range",
            Self::NotAnInteger { .. } => "not_an_integer",
            Self::IntegerOutOfRange { .. } => "integer_out_of_range",
            Self::InvalidArgument { .. } => "invalid_argument",
        }
    }

    /// The i18n key of the user-facing message for this error.
    pub fn key(&self) -> &'static str {
        match self {
            Self::EmptyDecimal => "errors.required",
            Self::InvalidDecimal { .. } => "errors.invalidNumber",
            Self::DecimalOutOfRange { .. } => "errors.numberOutOfRange",
            Self::NotAnInteger { .. } => "errors.notAnInteger",
            Self::IntegerOutOfRange { .. } => "errors.integerOutOfRange",
            Self::InvalidArgument { .. } => "errors.invalidArgument",
        }
    }

    /// The `{code, key, params}` payload of this error.
    pub fn to_payload(&self) -> ErrorPayload {
        let params = match self {
            Self::EmptyDecimal => BTreeMap::new(),
            Self::InvalidDecimal { value } | Self::DecimalOutOfRange { value } => {
                BTreeMap::from([("value", value.clone())])
            }
            Self::NotAnInteger { name, value } => {
                BTreeMap::from([("name", (*name).to_owned()), ("value", value.clone())])
            }
            Self::IntegerOutOfRange {
                name,
                value,
                min,
                max,
            } => BTreeMap::from([
                ("name", (*name).to_owned()),
                ("value", value.clone()),
                ("min", min.to_string()),
                ("max", max.to_string()),
            ]),
            Self::InvalidArgument { name } => BTreeMap::from([("name", (*name).to_owned())]),
        };
        ErrorPayload {
            code: self.code(),
            key: self.key(),
            params,
        }
    }
}

impl Serialize for CoreError {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.to_payload().serialize(serializer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn serializes_as_code_key_params() {
        let err = CoreError::InvalidDecimal {
            value: "abc".into(),
        };
        let json = serde_json::to_value(&err).unwrap();
        assert_eq!(
            json,
            serde_json::json!({
                "code": "invalid_decimal",
                "key": "errors.invalidNumber",
                "params": { "value": "abc" }
            })
        );
    }

    #[test]
    fn params_are_all_strings() {
        let err = CoreError::IntegerOutOfRange {
            name: "precision",
            value: "29".into(),
            min: 0,
            max: 28,
        };
        let json = serde_json::to_value(&err).unwrap();
        assert_eq!(
            json["params"],
            serde_json::json!({ "name": "precision", "value": "29", "min": "0", "max": "28" })
        );
        assert_eq!(
            serde_json::to_value(CoreError::EmptyDecimal).unwrap()["params"],
            serde_json::json!({})
        );
    }
}
