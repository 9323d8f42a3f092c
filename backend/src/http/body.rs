//! `JsonBody<T>`: a JSON request body that is documented exactly like poem-openapi's `Json<T>` but,
//! when it cannot be read, says which field is at fault, so the user's message can name it.
//!
//! The body is read with serde (via `serde_path_to_error`) for the field path, then with
//! poem-openapi's own parser so that `#[oai(validator)]` rules still apply.

use poem::{FromRequest, Request, RequestBody, Result};
use poem_openapi::{
    ApiExtractor, ApiExtractorType, ExtractParamOptions,
    payload::{ParsePayload, Payload},
    registry::{MetaMediaType, MetaRequest, MetaSchemaRef, Registry},
    types::{ParseFromJSON, Type},
};
use serde::de::DeserializeOwned;
use serde_json::Value;

use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// Largest request body accepted by a JSON call.
pub const MAX_JSON_BODY_BYTES: usize = 1024 * 1024;

/// A JSON request body of type `T`.
#[derive(Debug, Clone)]
pub struct JsonBody<T>(pub T);

/// Why a JSON body was refused; carried inside `poem::Error` to the response's bad-request handler.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum BodyError {
    /// Not JSON at all.
    #[error("malformed JSON: {0}")]
    Malformed(String),
    /// A field has the wrong type or value.
    #[error("invalid value for field {0}")]
    InvalidField(String),
    /// A required field is absent.
    #[error("missing field {0}")]
    MissingField(String),
    /// A field the call does not know.
    #[error("unknown field {0}")]
    UnknownField(String),
    /// JSON of the wrong shape with no single field to blame, or a validator failed.
    #[error("invalid body: {0}")]
    Invalid(String),
    /// The body is larger than [`MAX_JSON_BODY_BYTES`].
    #[error("body too large")]
    TooLarge,
    /// The body is declared as something else than JSON.
    #[error("unsupported content type {0}")]
    UnsupportedContentType(String),
    /// A field's validator failed for a reason that has its own rule message: an empty string
    /// (`minLength` 1 → `field_required`) or a number typed in another form than
    /// [`crate::number`]'s (its pattern → `invalid_number`, `leading_zero`, …).
    #[error("field {0} breaks a rule")]
    Rule(String, Box<Refusal>),
}

impl BodyError {
    /// The refusal this stands for.
    pub fn to_refusal(&self) -> Refusal {
        let (kind, msg, field) = match self {
            BodyError::Malformed(_) => (RefusalKind::Invalid, Msg::MalformedJson, None),
            BodyError::InvalidField(field) => {
                (RefusalKind::Invalid, Msg::InvalidField, Some(field.clone()))
            }
            BodyError::MissingField(field) => {
                (RefusalKind::Invalid, Msg::MissingField, Some(field.clone()))
            }
            BodyError::UnknownField(field) => {
                (RefusalKind::Invalid, Msg::UnknownField, Some(field.clone()))
            }
            BodyError::Invalid(_) => (RefusalKind::Invalid, Msg::InvalidBody, None),
            BodyError::TooLarge => (RefusalKind::TooLarge, Msg::PayloadTooLarge, None),
            BodyError::UnsupportedContentType(_) => (
                RefusalKind::UnsupportedMedia,
                Msg::UnsupportedMediaType,
                None,
            ),
            BodyError::Rule(_, refusal) => return (**refusal).clone(),
        };
        Refusal {
            kind,
            msg,
            field,
            params: Vec::new(),
        }
    }

    fn into_poem(self) -> poem::Error {
        let status = super::envelope::status_of(self.to_refusal().kind);
        poem::Error::new(self, status)
    }
}

/// Reads `bytes` as a `T`, naming the field at fault when it cannot.
pub fn parse_json_body<T: DeserializeOwned + ParseFromJSON>(bytes: &[u8]) -> Result<T, BodyError> {
    if bytes.len() > MAX_JSON_BODY_BYTES {
        return Err(BodyError::TooLarge);
    }
    let value: Value = if bytes.iter().all(u8::is_ascii_whitespace) {
        Value::Null
    } else {
        serde_json::from_slice(bytes).map_err(|error| BodyError::Malformed(error.to_string()))?
    };
    serde_path_to_error::deserialize::<_, T>(&value).map_err(|error| {
        let path = error.path().to_string();
        let inner = error.into_inner().to_string();
        if let Some(name) = quoted_after(&inner, "missing field ") {
            BodyError::MissingField(join_path(&path, &name))
        } else if let Some(name) = quoted_after(&inner, "unknown field ") {
            // For an unknown field the path already ends with the field itself.
            BodyError::UnknownField(if path == "." { name } else { path })
        } else if path == "." {
            BodyError::Invalid(inner)
        } else if inner.contains("verification failed") {
            // A string out of its documented form (`super::form_text`).
            rule_of(&value, &path, &inner).unwrap_or(BodyError::InvalidField(path))
        } else {
            BodyError::InvalidField(path)
        }
    })?;
    T::parse_from_json(Some(value.clone())).map_err(|error| {
        let message = error.into_message();
        // A failed `#[oai(validator)]` reads "field `limit` verification failed. …".
        match quoted_after(&message, "field ") {
            Some(field) if message.contains("verification failed") => {
                rule_of(&value, &field, &message).unwrap_or(BodyError::InvalidField(field))
            }
            _ => BodyError::Invalid(message),
        }
    })
}

/// The rule a failed validator of the top-level string field `field` stands for, when it has its own
/// message: empty where `minLength` is 1, a number pattern of [`crate::number`], or the kline
/// interval's pattern.
fn rule_of(value: &Value, field: &str, message: &str) -> Option<BodyError> {
    let text = value.get(field)?.as_str()?;
    let refusal = if text.is_empty() && message.contains("minLength(1)") {
        Refusal::rule(field, &wasm_core::validate::Violation::Required)
    } else if message.contains(crate::number::WHOLE_PATTERN) {
        crate::number::whole(text, field).err()?
    } else if message.contains(crate::number::DECIMAL_PATTERN) {
        crate::number::decimal(text, field).err()?
    } else if message.contains(crate::market::api::INTERVAL_PATTERN) {
        crate::market::api::unknown_interval(text)
    } else {
        return None;
    };
    Some(BodyError::Rule(field.to_owned(), Box::new(refusal)))
}

/// The first back-quoted name after `prefix` in a serde message (`missing field `x``).
fn quoted_after(message: &str, prefix: &str) -> Option<String> {
    let rest = &message[message.find(prefix)? + prefix.len()..];
    let rest = rest.strip_prefix('`')?;
    Some(rest[..rest.find('`')?].to_owned())
}

fn join_path(path: &str, name: &str) -> String {
    if path == "." {
        name.to_owned()
    } else {
        format!("{path}.{name}")
    }
}

impl<T: Type> Payload for JsonBody<T> {
    const CONTENT_TYPE: &'static str = "application/json; charset=utf-8";

    fn check_content_type(content_type: &str) -> bool {
        matches!(content_type.parse::<mime::Mime>(), Ok(mime) if mime.type_() == "application"
            && (mime.subtype() == "json" || mime.suffix().is_some_and(|s| s == "json")))
    }

    fn schema_ref() -> MetaSchemaRef {
        T::schema_ref()
    }

    fn register(registry: &mut Registry) {
        T::register(registry);
    }
}

impl<T: ParseFromJSON + DeserializeOwned> ParsePayload for JsonBody<T> {
    const IS_REQUIRED: bool = T::IS_REQUIRED;

    async fn from_request(request: &Request, body: &mut RequestBody) -> Result<Self> {
        let bytes = <Vec<u8> as FromRequest>::from_request(request, body).await?;
        parse_json_body(&bytes)
            .map(JsonBody)
            .map_err(BodyError::into_poem)
    }
}

impl<'a, T: ParseFromJSON + DeserializeOwned> ApiExtractor<'a> for JsonBody<T> {
    const TYPES: &'static [ApiExtractorType] = &[ApiExtractorType::RequestObject];
    type ParamType = ();
    type ParamRawType = ();

    fn register(registry: &mut Registry) {
        <Self as Payload>::register(registry);
    }

    fn request_meta() -> Option<MetaRequest> {
        Some(MetaRequest {
            description: None,
            content: vec![MetaMediaType {
                content_type: <Self as Payload>::CONTENT_TYPE,
                schema: <Self as Payload>::schema_ref(),
            }],
            required: <Self as ParsePayload>::IS_REQUIRED,
        })
    }

    async fn from_request(
        request: &'a Request,
        body: &mut RequestBody,
        _param_opts: ExtractParamOptions<Self::ParamType>,
    ) -> Result<Self> {
        // A call whose body is optional may come with no body and no content type at all.
        match request.content_type() {
            Some(content_type) if !Self::check_content_type(content_type) => {
                Err(BodyError::UnsupportedContentType(content_type.to_owned()).into_poem())
            }
            _ => <Self as ParsePayload>::from_request(request, body).await,
        }
    }
}

#[cfg(test)]
mod tests {
    use poem_openapi::Object;
    use serde::Deserialize;

    use super::*;

    #[derive(Debug, Object, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Inner {
        price: String,
    }

    #[derive(Debug, Object, Deserialize, PartialEq)]
    #[serde(deny_unknown_fields)]
    struct Outer {
        name: String,
        count: Option<i32>,
        items: Vec<Inner>,
    }

    #[derive(Debug, Object, Deserialize, PartialEq)]
    struct Limited {
        #[oai(validator(minimum(value = "1")))]
        limit: i32,
    }

    #[test]
    fn a_failed_validator_names_its_field() {
        let error = parse_json_body::<Limited>(br#"{"limit":0}"#).unwrap_err();
        assert_eq!(error, BodyError::InvalidField("limit".into()));
    }

    #[test]
    fn a_valid_body_is_read() {
        let outer: Outer = parse_json_body(br#"{"name":"a","items":[{"price":"1.5"}]}"#).unwrap();
        assert_eq!(outer.items[0].price, "1.5");
        assert_eq!(outer.count, None);
    }

    #[test]
    fn a_wrong_type_names_the_field_path() {
        let error =
            parse_json_body::<Outer>(br#"{"name":"a","items":[{"price":"1"},{"price":2}]}"#)
                .unwrap_err();
        assert_eq!(error, BodyError::InvalidField("items[1].price".into()));
        let error =
            parse_json_body::<Outer>(br#"{"name":"a","count":"x","items":[]}"#).unwrap_err();
        assert_eq!(error, BodyError::InvalidField("count".into()));
    }

    #[test]
    fn a_missing_or_unknown_field_is_named() {
        assert_eq!(
            parse_json_body::<Outer>(br#"{"items":[]}"#).unwrap_err(),
            BodyError::MissingField("name".into())
        );
        assert_eq!(
            parse_json_body::<Outer>(br#"{"name":"a","items":[],"extra":1}"#).unwrap_err(),
            BodyError::UnknownField("extra".into())
        );
    }

    #[test]
    fn malformed_json_and_oversized_bodies_are_refused() {
        assert!(matches!(
            parse_json_body::<Outer>(b"{\"name\":").unwrap_err(),
            BodyError::Malformed(_)
        ));
        let big = vec![b' '; MAX_JSON_BODY_BYTES + 1];
        assert_eq!(
            parse_json_body::<Outer>(&big).unwrap_err(),
            BodyError::TooLarge
        );
    }

    #[test]
    fn an_empty_body_is_null_for_an_optional_body() {
        assert_eq!(parse_json_body::<Option<Outer>>(b"").unwrap(), None);
        assert!(matches!(
            parse_json_body::<Outer>(b"").unwrap_err(),
            BodyError::Invalid(_)
        ));
    }
}
