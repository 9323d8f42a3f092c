//! Errors as data: every failure of the core is a [`CoreError`] that serializes to the payload
//! `{ "code": "invalid_decimal", "key": "errors.invalidNumber", "params": { "value": "abc" } }`.
//!
//! `code` is a stable snake_case identifier for programs, `key` an i18n key the webapp translates into
//! the user's language, and `params` the string values the translation interpolates. The wasm edge
//! throws exactly this payload; the backend turns it into a refusal, which its HTTP layer renders as the envelope.

use std::collections::BTreeMap;

use serde::{Serialize, Serializer};

use crate::validate::Violation;

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
    // kline
    /// The text is not a kline interval: `1m`, `5m`, `15m`, `30m`, `1h`, `2h`, `4h`, `1d`, `1w`, `1M`
    /// (or `1month`).
    #[error("unknown kline interval: {value:?}")]
    UnknownInterval {
        /// The text as it was given.
        value: String,
    },
    /// A trade's price or quantity is not above zero.
    #[error("trade {index}: {name} must be above zero, got {value}")]
    NonPositiveTrade {
        /// The trade's position in the list given (0 for a single trade).
        index: usize,
        /// `price` or `qty`.
        name: &'static str,
        /// The value as given.
        value: String,
    },
    /// A candle does not open at the start of its interval, or its values are inconsistent (a price
    /// not above zero, low above high, open or close outside them, a negative volume).
    #[error("candle {index} opening at {open_time} is not a valid {interval} candle")]
    InvalidCandle {
        /// The candle's position in the list given (0 for a single candle).
        index: usize,
        /// The candle's open time in milliseconds since the epoch.
        open_time: i64,
        /// The interval the candle was checked against, for example `1m`.
        interval: &'static str,
    },
    /// A candle does not open after the candle before it.
    #[error("candle {index} does not open after the candle before it")]
    CandlesOutOfOrder {
        /// The position of the first candle out of order.
        index: usize,
    },
    /// A trade is older than the live candle it should update.
    #[error("the trade at {time} is older than the live candle opening at {open_time}")]
    TradeBeforeCandle {
        /// The trade's time in milliseconds since the epoch.
        time: i64,
        /// The live candle's open time in milliseconds since the epoch.
        open_time: i64,
    },
    /// A candle's volume, quote volume or trade count is beyond the range of the core's numbers.
    #[error("a candle's volume or trade count is out of range")]
    VolumeOverflow,
    /// Filling the gaps between candles would make more candles than one call may return.
    #[error("filling the gaps would make {count} candles, more than {max}")]
    TooManyCandles {
        /// The number of candles the gaps would make.
        count: u64,
        /// The most candles one call returns.
        max: u64,
    },
    // margin
    /// A margin input that must be above zero is not.
    #[error("{name} must be above zero, got {value}")]
    NotPositive {
        /// The input's name as the caller knows it (for example `entryPrice`).
        name: &'static str,
        /// The value as given.
        value: String,
    },
    /// A margin input that must not be negative is.
    #[error("{name} must not be negative, got {value}")]
    Negative {
        /// The input's name as the caller knows it (for example `walletBalance`).
        name: &'static str,
        /// The value as given.
        value: String,
    },
    /// A fee rate is not a fraction from 0 (inclusive) to 1 (exclusive).
    #[error("{name} must be from 0 up to 1, got {value}")]
    FeeRateOutOfRange {
        /// The input's name as the caller knows it (for example `takerFeeRate`).
        name: &'static str,
        /// The value as given.
        value: String,
    },
    /// A maintenance margin tier table has no tier.
    #[error("the margin tier table is empty")]
    NoMarginTiers,
    /// A margin tier does not start where the one before ends (the first one at 0).
    #[error("margin tier {tier} does not start where the tier before it ends")]
    MarginTierGap {
        /// The tier, numbered from 1.
        tier: usize,
    },
    /// A margin tier's cap, MMR or max leverage is out of range, or out of order with the tier before.
    #[error("margin tier {tier} is not valid")]
    InvalidMarginTier {
        /// The tier, numbered from 1.
        tier: usize,
    },
    /// A margin tier's cum is not floor × (MMR − previous MMR) + previous cum.
    #[error("margin tier {tier} has the wrong cum, expected {expected}")]
    MarginTierCum {
        /// The tier, numbered from 1.
        tier: usize,
        /// The cum the rule gives.
        expected: String,
    },
    /// Margin can only be added to or removed from an isolated position.
    #[error("only an isolated position's margin can be adjusted")]
    NotIsolatedMargin,
    /// A margin calculation's result is beyond the range of the core's numbers.
    #[error("the calculation is out of range")]
    CalculationOverflow,
    // cipher
    /// A sealed message does not open: the key, the associated data or a byte of the message differs
    /// from what was sealed.
    #[error("the sealed message could not be opened")]
    DecryptionFailed,
    // validate
    /// A value broke an input rule of [`crate::validate`]; code, key and params are the
    /// [`Violation`]'s own.
    #[error(transparent)]
    Invalid(#[from] Violation),
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
            // kline
            Self::UnknownInterval { .. } => "unknown_interval",
            Self::NonPositiveTrade { .. } => "non_positive_trade",
            Self::InvalidCandle { .. } => "invalid_candle",
            Self::CandlesOutOfOrder { .. } => "candles_out_of_order",
            Self::TradeBeforeCandle { .. } => "trade_before_candle",
            Self::VolumeOverflow => "volume_overflow",
            Self::TooManyCandles { .. } => "too_many_candles",
            // margin
            Self::NotPositive { .. } => "not_positive",
            Self::Negative { .. } => "negative",
            Self::FeeRateOutOfRange { .. } => "fee_rate_out_of_range",
            Self::NoMarginTiers => "no_margin_tiers",
            Self::MarginTierGap { .. } => "margin_tier_gap",
            Self::InvalidMarginTier { .. } => "invalid_margin_tier",
            Self::MarginTierCum { .. } => "margin_tier_cum",
            Self::NotIsolatedMargin => "not_isolated_margin",
            Self::CalculationOverflow => "calculation_overflow",
            // cipher
            Self::DecryptionFailed => "decryption_failed",
            // validate
            Self::Invalid(violation) => violation.code(),
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
            // kline
            Self::UnknownInterval { .. } => "errors.unknownInterval",
            Self::NonPositiveTrade { .. } => "errors.nonPositiveTrade",
            Self::InvalidCandle { .. } => "errors.invalidCandle",
            Self::CandlesOutOfOrder { .. } => "errors.candlesOutOfOrder",
            Self::TradeBeforeCandle { .. } => "errors.tradeBeforeCandle",
            Self::VolumeOverflow => "errors.volumeOverflow",
            Self::TooManyCandles { .. } => "errors.tooManyCandles",
            // margin
            Self::NotPositive { .. } => "errors.mustBePositive",
            Self::Negative { .. } => "errors.mustNotBeNegative",
            Self::FeeRateOutOfRange { .. } => "errors.feeRateOutOfRange",
            Self::NoMarginTiers => "errors.noMarginTiers",
            Self::MarginTierGap { .. } => "errors.marginTierGap",
            Self::InvalidMarginTier { .. } => "errors.invalidMarginTier",
            Self::MarginTierCum { .. } => "errors.marginTierCum",
            Self::NotIsolatedMargin => "errors.notIsolatedMargin",
            Self::CalculationOverflow => "errors.calculationOverflow",
            // cipher
            Self::DecryptionFailed => "errors.decryptionFailed",
            // validate
            Self::Invalid(violation) => violation.key(),
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
            // kline
            Self::UnknownInterval { value } => BTreeMap::from([("value", value.clone())]),
            Self::NonPositiveTrade { index, name, value } => BTreeMap::from([
                ("index", index.to_string()),
                ("name", (*name).to_owned()),
                ("value", value.clone()),
            ]),
            Self::InvalidCandle {
                index,
                open_time,
                interval,
            } => BTreeMap::from([
                ("index", index.to_string()),
                ("openTime", open_time.to_string()),
                ("interval", (*interval).to_owned()),
            ]),
            Self::CandlesOutOfOrder { index } => BTreeMap::from([("index", index.to_string())]),
            Self::TradeBeforeCandle { time, open_time } => BTreeMap::from([
                ("time", time.to_string()),
                ("openTime", open_time.to_string()),
            ]),
            Self::VolumeOverflow => BTreeMap::new(),
            Self::TooManyCandles { count, max } => {
                BTreeMap::from([("count", count.to_string()), ("max", max.to_string())])
            }
            // margin
            Self::NotPositive { name, value }
            | Self::Negative { name, value }
            | Self::FeeRateOutOfRange { name, value } => {
                BTreeMap::from([("name", (*name).to_owned()), ("value", value.clone())])
            }
            Self::NoMarginTiers
            | Self::NotIsolatedMargin
            | Self::CalculationOverflow
            | Self::DecryptionFailed => BTreeMap::new(),
            Self::MarginTierGap { tier } | Self::InvalidMarginTier { tier } => {
                BTreeMap::from([("tier", tier.to_string())])
            }
            Self::MarginTierCum { tier, expected } => {
                BTreeMap::from([("tier", tier.to_string()), ("expected", expected.clone())])
            }
            // validate
            Self::Invalid(violation) => violation.params(),
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
