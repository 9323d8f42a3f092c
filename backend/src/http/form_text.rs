//! Request strings of a documented form ([`FormText`]): the OpenAPI document states the form as
//! the field's `pattern`, and the server checks it with a hand-written matcher of that pattern.
//!
//! poem-openapi's own `#[oai(validator(pattern = …))]` compiles its regular expression on every
//! check: on the order endpoints, two compilations a request took about a tenth of the server's
//! CPU and many of its allocations. The fields every order, transfer or chart request carries use
//! these types instead; a length limit stays a `#[oai(validator(max_length = …))]` on the field,
//! which adds `maxLength` to the same schema. Cold paths keep the validator.
//!
//! [`super::body::parse_json_body`] reads a body with serde first: a string out of its form is
//! refused there, with the message a failed poem-openapi validator has (`verification failed.
//! pattern("…")`), so the answer names the field and the rule's own message, as before.

use std::borrow::Cow;
use std::marker::PhantomData;
use std::ops::Deref;

use poem_openapi::registry::{MetaSchema, MetaSchemaRef};
use poem_openapi::types::{ParseError, ParseFromJSON, ParseResult, ToJSON, Type};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::Value;

/// A form of request string: its pattern in the document and the code that matches it.
pub trait TextForm: Send + Sync + 'static {
    /// The pattern the document states (a regular expression anchored at both ends).
    const PATTERN: &'static str;

    /// Whether `text` matches [`Self::PATTERN`] (the tests check that they agree).
    fn matches(text: &str) -> bool;
}

/// A decimal as users type it ([`crate::number::DECIMAL_PATTERN`]): `0`, `10`, `0.5`.
pub struct DecimalForm;

impl TextForm for DecimalForm {
    const PATTERN: &'static str = crate::number::DECIMAL_PATTERN;

    fn matches(text: &str) -> bool {
        let (whole, fraction) = match text.split_once('.') {
            Some((whole, fraction)) => (whole, Some(fraction)),
            None => (text, None),
        };
        let digits = |part: &str| !part.is_empty() && part.bytes().all(|b| b.is_ascii_digit());
        let whole_ok = whole == "0" || (digits(whole) && !whole.starts_with('0'));
        whole_ok && fraction.is_none_or(digits)
    }
}

/// A whole number from 1 ([`crate::number::WHOLE_PATTERN`]): `1`, `20`.
pub struct WholeForm;

impl TextForm for WholeForm {
    const PATTERN: &'static str = crate::number::WHOLE_PATTERN;

    fn matches(text: &str) -> bool {
        !text.is_empty() && !text.starts_with('0') && text.bytes().all(|b| b.is_ascii_digit())
    }
}

/// A candle interval ([`crate::market::api::INTERVAL_PATTERN`]): `1m` … `1M`, or `1month`.
pub struct IntervalForm;

impl TextForm for IntervalForm {
    const PATTERN: &'static str = crate::market::api::INTERVAL_PATTERN;

    fn matches(text: &str) -> bool {
        matches!(
            text,
            "1m" | "5m" | "15m" | "30m" | "1h" | "2h" | "4h" | "1d" | "1w" | "1M" | "1month"
        )
    }
}

/// A decimal request field.
pub type DecimalText = FormText<DecimalForm>;
/// A whole-number request field.
pub type WholeText = FormText<WholeForm>;
/// A candle interval request field.
pub type IntervalText = FormText<IntervalForm>;

/// A request string in the form `F` (see the module); derefs to the text.
pub struct FormText<F> {
    text: String,
    form: PhantomData<F>,
}

impl<F: TextForm> FormText<F> {
    /// `text` when it is in the form, else the message of a failed pattern validator.
    pub fn new(text: impl Into<String>) -> Result<Self, String> {
        let text = text.into();
        if F::matches(&text) {
            Ok(Self {
                text,
                form: PhantomData,
            })
        } else {
            Err(format!("verification failed. pattern(\"{}\")", F::PATTERN))
        }
    }

    /// The text.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl<F> Deref for FormText<F> {
    type Target = str;

    fn deref(&self) -> &str {
        &self.text
    }
}

impl<F> Clone for FormText<F> {
    fn clone(&self) -> Self {
        Self {
            text: self.text.clone(),
            form: PhantomData,
        }
    }
}

impl<F> PartialEq for FormText<F> {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl<F> std::fmt::Debug for FormText<F> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self.text.fmt(f)
    }
}

/// Tests and tools write requests from literals; a literal out of the form is a bug there.
impl<F: TextForm> From<&str> for FormText<F> {
    fn from(text: &str) -> Self {
        Self::new(text).unwrap_or_else(|message| panic!("{text:?}: {message}"))
    }
}

impl<F: TextForm> Type for FormText<F> {
    const IS_REQUIRED: bool = true;

    type RawValueType = String;

    type RawElementValueType = String;

    fn name() -> Cow<'static, str> {
        "string".into()
    }

    fn schema_ref() -> MetaSchemaRef {
        MetaSchemaRef::Inline(Box::new(MetaSchema {
            pattern: Some(F::PATTERN.to_owned()),
            ..MetaSchema::new("string")
        }))
    }

    fn as_raw_value(&self) -> Option<&String> {
        Some(&self.text)
    }

    fn raw_element_iter<'a>(&'a self) -> Box<dyn Iterator<Item = &'a String> + 'a> {
        Box::new(std::iter::once(&self.text))
    }

    fn is_empty(&self) -> bool {
        self.text.is_empty()
    }
}

impl<F: TextForm> ParseFromJSON for FormText<F> {
    fn parse_from_json(value: Option<Value>) -> ParseResult<Self> {
        match value.unwrap_or_default() {
            Value::String(text) => Self::new(text).map_err(ParseError::custom),
            other => Err(ParseError::expected_type(other)),
        }
    }
}

impl<F: TextForm> ToJSON for FormText<F> {
    fn to_json(&self) -> Option<Value> {
        Some(Value::String(self.text.clone()))
    }
}

impl<F> Serialize for FormText<F> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.text)
    }
}

impl<'de, F: TextForm> Deserialize<'de> for FormText<F> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        Self::new(text).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn agrees<F: TextForm>(texts: &[&str]) {
        let pattern = regex::Regex::new(F::PATTERN).unwrap();
        for text in texts {
            assert_eq!(F::matches(text), pattern.is_match(text), "{text:?}");
        }
    }

    const TEXTS: &[&str] = &[
        "", "0", "1", "9", "10", "0.5", "10.25", "0.000", "00", "01", "010", "00.5", "0.", ".5",
        "10.", "1.2.3", " 10", "10 ", "+10", "-1", "1e3", "1_000", "10\n", "١٠", "1m", "5m", "15m",
        "30m", "1h", "2h", "4h", "1d", "1w", "1M", "1month", "1mo", "1y", "m", "1 m", "1m ", "1H",
    ];

    #[test]
    fn each_matcher_agrees_with_its_pattern() {
        agrees::<DecimalForm>(TEXTS);
        agrees::<WholeForm>(TEXTS);
        agrees::<IntervalForm>(TEXTS);
    }

    #[test]
    fn a_text_out_of_its_form_is_refused_as_a_failed_pattern_validator() {
        let refused = serde_json::from_str::<DecimalText>("\"01\"").unwrap_err();
        assert!(
            refused.to_string().contains(&format!(
                "verification failed. pattern(\"{}\")",
                crate::number::DECIMAL_PATTERN
            )),
            "{refused}"
        );
        let read: DecimalText = serde_json::from_str("\"10.5\"").unwrap();
        assert_eq!(&*read, "10.5");
        assert!(serde_json::from_str::<DecimalText>("10").is_err());
        assert!(DecimalText::parse_from_json(Some(Value::from("1e3"))).is_err());
        assert_eq!(
            WholeText::parse_from_json(Some(Value::from("20")))
                .unwrap()
                .as_str(),
            "20"
        );
    }
}
