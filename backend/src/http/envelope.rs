//! The envelope `{code, msg, data}` of spec section 7, and where a domain [`Refusal`] becomes HTTP:
//! its status ([`status_of`], the one mapping of a kind to a status) and its envelope
//! ([`envelope_of`]); framework errors (unknown paths, unreadable bodies) are read as refusals
//! ([`refusal_from_poem`]).

use poem::http::StatusCode;
use poem_openapi::{
    Object,
    types::{ParseFromJSON, ToJSON},
};

use crate::http::body::BodyError;
use crate::i18n::{Msg, t};
use crate::refusal::{Refusal, RefusalKind};

/// A successful answer: `code` 200, `msg` in the request's language, and the call's `data` (absent
/// when a call answers "nothing", such as no bound card).
#[derive(Debug, Object)]
#[oai(skip_serializing_if_is_none)]
pub struct Envelope<T: ParseFromJSON + ToJSON> {
    /// 200 on success.
    pub code: i32,
    /// A short message in the language of the `lang` header.
    pub msg: String,
    /// The call's result.
    pub data: T,
}

impl<T: ParseFromJSON + ToJSON> Envelope<T> {
    /// Wraps `data` in a success envelope.
    pub fn ok(data: T) -> Self {
        Self {
            code: 200,
            msg: t(Msg::Success, &[]),
            data,
        }
    }

    /// Wraps `data` in a success envelope whose `msg` is `msg` (for example "Login successful").
    pub fn ok_with(data: T, msg: Msg) -> Self {
        Self {
            code: 200,
            msg: t(msg, &[]),
            data,
        }
    }
}

/// A failed answer: `code` equals the HTTP status, `msg` says why in the user's language.
#[derive(Debug, Object)]
pub struct ErrorEnvelope {
    /// The HTTP status of the failure (400, 401, 404, 405, 413, 415, 500).
    pub code: i32,
    /// What went wrong, in the language of the `lang` header.
    pub msg: String,
    /// Machine-readable detail.
    pub data: ErrorDetail,
}

/// Machine-readable detail of a failure, for clients that react to it.
#[derive(Debug, Object)]
#[oai(skip_serializing_if_is_none)]
pub struct ErrorDetail {
    /// The message key (`invalid_field`, `not_found`, …), stable across languages.
    pub reason: String,
    /// The request field at fault, as a path (`keyword`, `items[2].price`), when there is one.
    pub field: Option<String>,
    /// Seconds to wait before trying again (rate limits, 429).
    #[oai(rename = "retryAfterSecs")]
    pub retry_after_secs: Option<u64>,
}

/// The HTTP status (and envelope code) of a refusal of `kind`: the one place a domain refusal
/// becomes HTTP.
pub fn status_of(kind: RefusalKind) -> StatusCode {
    match kind {
        RefusalKind::Invalid => StatusCode::BAD_REQUEST,
        RefusalKind::Unauthenticated => StatusCode::UNAUTHORIZED,
        RefusalKind::Forbidden => StatusCode::FORBIDDEN,
        RefusalKind::NotFound => StatusCode::NOT_FOUND,
        RefusalKind::Conflict => StatusCode::CONFLICT,
        RefusalKind::TooLarge => StatusCode::PAYLOAD_TOO_LARGE,
        RefusalKind::UnsupportedMedia => StatusCode::UNSUPPORTED_MEDIA_TYPE,
        RefusalKind::RateLimited => StatusCode::TOO_MANY_REQUESTS,
        RefusalKind::Unavailable => StatusCode::SERVICE_UNAVAILABLE,
        RefusalKind::Internal => StatusCode::INTERNAL_SERVER_ERROR,
    }
}

/// The refusal that a framework error stands for (parse errors, unknown paths, …).
pub fn refusal_from_poem(error: &poem::Error) -> Refusal {
    if let Some(body) = error.downcast_ref::<BodyError>() {
        return body.to_refusal();
    }
    if let Some(param) = error.downcast_ref::<poem_openapi::error::ParseParamError>() {
        return Refusal::invalid(Msg::InvalidField).with_field(param.name);
    }
    let status = error.status();
    let (kind, msg) = match status {
        StatusCode::NOT_FOUND => (RefusalKind::NotFound, Msg::NotFound),
        StatusCode::METHOD_NOT_ALLOWED => (RefusalKind::Invalid, Msg::MethodNotAllowed),
        StatusCode::UNSUPPORTED_MEDIA_TYPE => {
            (RefusalKind::UnsupportedMedia, Msg::UnsupportedMediaType)
        }
        StatusCode::PAYLOAD_TOO_LARGE => (RefusalKind::TooLarge, Msg::PayloadTooLarge),
        StatusCode::UNAUTHORIZED => (RefusalKind::Unauthenticated, Msg::Unauthorized),
        StatusCode::BAD_REQUEST => (RefusalKind::Invalid, Msg::InvalidBody),
        StatusCode::SERVICE_UNAVAILABLE => (RefusalKind::Unavailable, Msg::ServiceBusy),
        status if status.is_server_error() => {
            tracing::error!(%error, "request failed");
            (RefusalKind::Internal, Msg::InternalError)
        }
        _ => (RefusalKind::Invalid, Msg::InvalidBody),
    };
    Refusal::new(kind, msg)
}

/// The envelope of `refusal`, in the current request's language, with `code` its HTTP status.
pub fn envelope_of(refusal: &Refusal) -> ErrorEnvelope {
    let mut params: Vec<(&str, &str)> = refusal
        .params
        .iter()
        .map(|(name, value)| (*name, value.as_str()))
        .collect();
    if let Some(field) = &refusal.field {
        params.push(("field", field));
    }
    let msg = t(refusal.msg, &params);
    ErrorEnvelope {
        code: i32::from(status_of(refusal.kind).as_u16()),
        msg,
        data: ErrorDetail {
            reason: refusal.msg.key().to_owned(),
            field: refusal.field.clone(),
            retry_after_secs: refusal
                .param("seconds")
                .and_then(|value| value.parse().ok()),
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_kind_has_its_own_status() {
        let kinds = [
            RefusalKind::Invalid,
            RefusalKind::Unauthenticated,
            RefusalKind::Forbidden,
            RefusalKind::NotFound,
            RefusalKind::Conflict,
            RefusalKind::TooLarge,
            RefusalKind::UnsupportedMedia,
            RefusalKind::RateLimited,
            RefusalKind::Unavailable,
            RefusalKind::Internal,
        ];
        let statuses: std::collections::HashSet<_> =
            kinds.iter().map(|kind| status_of(*kind)).collect();
        assert_eq!(statuses.len(), kinds.len());
        assert_eq!(status_of(RefusalKind::Invalid), StatusCode::BAD_REQUEST);
        assert_eq!(
            status_of(RefusalKind::Unavailable),
            StatusCode::SERVICE_UNAVAILABLE
        );
    }

    #[test]
    fn an_envelope_carries_the_status_reason_field_and_wait() {
        let refusal = Refusal::new(RefusalKind::RateLimited, Msg::TooManyRequests)
            .with_field("password")
            .with_param("seconds", "42");
        let envelope = envelope_of(&refusal);
        assert_eq!(envelope.code, 429);
        assert_eq!(envelope.data.field.as_deref(), Some("password"));
        assert_eq!(envelope.data.retry_after_secs, Some(42));
        assert_eq!(envelope.data.reason, Msg::TooManyRequests.key());
    }
}
