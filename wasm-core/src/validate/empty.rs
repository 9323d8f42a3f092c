//! The emptiness rule (spec section 5) and the required-fields check built on it. `null`,
//! `undefined`, the empty string, the empty array and the empty object are empty; numbers (zero and
//! NaN included) and booleans never are. A string of spaces is not empty under this rule (the typed
//! forms of [`crate::validate`] are stricter and treat blank text as missing).
//!
//! The rule takes any JSON or JavaScript value. The core reads it through serde as a [`ValueShape`],
//! which keeps only what the rule needs; the wasm exports read the same shape from the JavaScript
//! value itself (not its JSON text, where `NaN` would be `null`), so the same value has the same
//! shape natively and in wasm.

use std::collections::BTreeMap;
use std::fmt;

use serde::de::{self, Deserialize, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::Violation;

/// What the emptiness rule sees of a value: its kind and, for collections and text, whether it has
/// anything in it. Deserializes from any self-describing format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ValueShape {
    /// `null` or `undefined`.
    Null,
    /// `true` or `false`.
    Bool,
    /// Any number.
    Number,
    /// A string.
    Text {
        /// Whether it has no characters.
        empty: bool,
    },
    /// An array (or a typed array of bytes).
    List {
        /// Whether it has no elements.
        empty: bool,
    },
    /// An object.
    Map {
        /// Whether it has no entries.
        empty: bool,
    },
}

impl ValueShape {
    /// Whether a value of this shape is empty under the emptiness rule.
    pub fn is_empty(self) -> bool {
        match self {
            Self::Null => true,
            Self::Bool | Self::Number => false,
            Self::Text { empty } | Self::List { empty } | Self::Map { empty } => empty,
        }
    }
}

/// Whether `value` is empty: `null`/`undefined`, `""`, `[]` or `{}`; never a number or a boolean.
pub fn is_empty(value: ValueShape) -> bool {
    value.is_empty()
}

/// Checks that no field of `form` named in `required` is empty (a field the form lacks counts as
/// `undefined`, so empty). Fails with one [`Violation::RequiredFields`] ('Please complete all required
/// (*) fields') listing the empty fields in the order of `required`, each once.
pub fn validate_required<S: AsRef<str>>(
    form: &BTreeMap<String, ValueShape>,
    required: &[S],
) -> Result<(), Violation> {
    let mut missing: Vec<String> = Vec::new();
    for name in required {
        let name = name.as_ref();
        let empty = form.get(name).is_none_or(|shape| shape.is_empty());
        if empty && !missing.iter().any(|m| m == name) {
            missing.push(name.to_owned());
        }
    }
    if missing.is_empty() {
        Ok(())
    } else {
        Err(Violation::RequiredFields { fields: missing })
    }
}

impl<'de> Deserialize<'de> for ValueShape {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        deserializer.deserialize_any(ShapeVisitor)
    }
}

struct ShapeVisitor;

impl<'de> Visitor<'de> for ShapeVisitor {
    type Value = ValueShape;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_unit<E: de::Error>(self) -> Result<ValueShape, E> {
        Ok(ValueShape::Null)
    }

    fn visit_none<E: de::Error>(self) -> Result<ValueShape, E> {
        Ok(ValueShape::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<ValueShape, D::Error> {
        ValueShape::deserialize(deserializer)
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<ValueShape, E> {
        Ok(ValueShape::Bool)
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<ValueShape, E> {
        Ok(ValueShape::Number)
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<ValueShape, E> {
        Ok(ValueShape::Number)
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<ValueShape, E> {
        Ok(ValueShape::Number)
    }

    fn visit_str<E: de::Error>(self, value: &str) -> Result<ValueShape, E> {
        Ok(ValueShape::Text {
            empty: value.is_empty(),
        })
    }

    fn visit_bytes<E: de::Error>(self, value: &[u8]) -> Result<ValueShape, E> {
        Ok(ValueShape::List {
            empty: value.is_empty(),
        })
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ValueShape, A::Error> {
        // Every element is consumed: serde_json fails an array that is not read to its end.
        let mut empty = true;
        while seq.next_element::<IgnoredAny>()?.is_some() {
            empty = false;
        }
        Ok(ValueShape::List { empty })
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ValueShape, A::Error> {
        let mut empty = true;
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {
            empty = false;
        }
        Ok(ValueShape::Map { empty })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn shape(value: serde_json::Value) -> ValueShape {
        serde_json::from_value(value).unwrap()
    }

    #[test]
    fn emptiness_rule() {
        for empty in [json!(null), json!(""), json!([]), json!({})] {
            assert!(is_empty(shape(empty.clone())), "{empty}");
        }
        for filled in [
            json!(0),
            json!(-1.5),
            json!(false),
            json!(true),
            json!(" "),
            json!([null]),
            json!({ "a": null }),
            json!([[]]),
        ] {
            assert!(!is_empty(shape(filled.clone())), "{filled}");
        }
    }

    #[test]
    fn required_fields() {
        let form: BTreeMap<String, ValueShape> = serde_json::from_value(json!({
            "name": "Ada", "idCard": "", "country": null, "age": 0, "tags": []
        }))
        .unwrap();
        assert_eq!(validate_required(&form, &["name", "age"]), Ok(()));
        assert_eq!(
            validate_required(
                &form,
                &["idCard", "name", "country", "tags", "missing", "idCard"]
            ),
            Err(Violation::RequiredFields {
                fields: vec![
                    "idCard".into(),
                    "country".into(),
                    "tags".into(),
                    "missing".into()
                ]
            })
        );
        assert_eq!(validate_required::<&str>(&form, &[]), Ok(()));
    }
}
