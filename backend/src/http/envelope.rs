//! The envelope `{code, msg, data}` of spec section 7 and the error type that becomes one.

use poem::http::StatusCode;
use poem_openapi::{
    Object,
    types::{ParseFromJSON, ToJSON},
};

use crate::http::body::BodyError;
use crate::i18n::{Msg, t};

/// A successful answer: `code` 200, `msg` in the request's language, and the call's `data`.
#[derive(Debug, Object)]
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
pub struct ErrorDetail {
    /// The message key (`invalid_field`, `not_found`, …), stable across languages.
    pub reason: String,
    /// The request field at fault, as a path (`keyword`, `items[2].price`), when there is one.
    pub field: Option<String>,
    /// Seconds to wait before trying again (rate limits, 429).
    #[oai(rename = "retryAfterSecs")]
    pub retry_after_secs: Option<u64>,
}

/// A failure of a call, carried from services to handlers and rendered as an [`ErrorEnvelope`].
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ApiError {
    /// HTTP status and envelope code.
    pub status: StatusCode,
    /// The message.
    pub msg: Msg,
    /// The field at fault.
    pub field: Option<String>,
    /// Other values the message names (`{symbol}`, `{interval}`, …).
    pub params: Vec<(&'static str, String)>,
}

impl ApiError {
    /// A failure with `status` and `msg` and no field.
    pub fn new(status: StatusCode, msg: Msg) -> Self {
        Self {
            status,
            msg,
            field: None,
            params: Vec::new(),
        }
    }

    /// The same failure naming the request field at fault.
    pub fn with_field(mut self, field: &str) -> Self {
        self.field = Some(field.to_owned());
        self
    }

    /// The same failure with `{name}` in its message filled with `value`.
    pub fn with_param(mut self, name: &'static str, value: impl Into<String>) -> Self {
        self.params.push((name, value.into()));
        self
    }

    /// An unexpected server-side failure; the cause is logged, never shown.
    pub fn internal(cause: impl std::fmt::Display) -> Self {
        tracing::error!(%cause, "internal error");
        Self::new(StatusCode::INTERNAL_SERVER_ERROR, Msg::InternalError)
    }

    /// The failure that a framework error stands for (parse errors, unknown paths, …).
    pub fn from_poem(error: &poem::Error) -> Self {
        if let Some(body) = error.downcast_ref::<BodyError>() {
            return body.to_api_error();
        }
        if let Some(param) = error.downcast_ref::<poem_openapi::error::ParseParamError>() {
            return Self::new(StatusCode::BAD_REQUEST, Msg::InvalidField).with_field(param.name);
        }
        let status = error.status();
        let msg = match status {
            StatusCode::NOT_FOUND => Msg::NotFound,
            StatusCode::METHOD_NOT_ALLOWED => Msg::MethodNotAllowed,
            StatusCode::UNSUPPORTED_MEDIA_TYPE => Msg::UnsupportedMediaType,
            StatusCode::PAYLOAD_TOO_LARGE => Msg::PayloadTooLarge,
            StatusCode::UNAUTHORIZED => Msg::Unauthorized,
            StatusCode::BAD_REQUEST => Msg::InvalidBody,
            StatusCode::SERVICE_UNAVAILABLE => Msg::ServiceBusy,
            status if status.is_server_error() => {
                tracing::error!(%error, "request failed");
                Msg::InternalError
            }
            _ => Msg::InvalidBody,
        };
        Self::new(status, msg)
    }

    /// The envelope of this failure, in the current request's language.
    pub fn envelope(&self) -> ErrorEnvelope {
        let mut params: Vec<(&str, &str)> = self
            .params
            .iter()
            .map(|(name, value)| (*name, value.as_str()))
            .collect();
        if let Some(field) = &self.field {
            params.push(("field", field));
        }
        let msg = t(self.msg, &params);
        ErrorEnvelope {
            code: i32::from(self.status.as_u16()),
            msg,
            data: ErrorDetail {
                reason: self.msg.key().to_owned(),
                field: self.field.clone(),
                retry_after_secs: self
                    .params
                    .iter()
                    .find(|(name, _)| *name == "seconds")
                    .and_then(|(_, value)| value.parse().ok()),
            },
        }
    }
}

impl From<wasm_core::validate::ValidationError> for ApiError {
    /// A broken input rule of a form field: 400, the rule's message, the field named.
    fn from(error: wasm_core::validate::ValidationError) -> Self {
        ApiError::rule(error.field, &error.violation)
    }
}

impl ApiError {
    /// The 400 failure of `field` breaking `violation` (wasm-core's rules, checked again here).
    pub fn rule(field: &str, violation: &wasm_core::validate::Violation) -> Self {
        let mut error =
            Self::new(StatusCode::BAD_REQUEST, Msg::Rule(violation.code())).with_field(field);
        for (name, value) in violation.params() {
            error = error.with_param(name, value);
        }
        error
    }

    /// The first of a form's errors, if any (the webapp shows all of them before calling).
    pub fn first_of(errors: Vec<wasm_core::validate::ValidationError>) -> Result<(), Self> {
        match errors.into_iter().next() {
            Some(error) => Err(error.into()),
            None => Ok(()),
        }
    }
}

/// Whether `error` says the database had no free connection in time: the pool is saturated (a
/// burst of requests, a starved machine), not broken, so the request is answered as busy.
pub fn is_pool_timeout(error: &sea_orm::DbErr) -> bool {
    use sea_orm::{ConnAcquireErr, DbErr, RuntimeErr, sqlx};
    match error {
        DbErr::ConnectionAcquire(ConnAcquireErr::Timeout) => true,
        DbErr::Conn(RuntimeErr::SqlxError(cause))
        | DbErr::Exec(RuntimeErr::SqlxError(cause))
        | DbErr::Query(RuntimeErr::SqlxError(cause)) => {
            matches!(cause.as_ref(), sqlx::Error::PoolTimedOut)
        }
        _ => false,
    }
}

impl From<sea_orm::DbErr> for ApiError {
    /// 503 `service_busy` when the pool had no connection in time (nothing was done; the client
    /// may retry), else an internal error.
    fn from(error: sea_orm::DbErr) -> Self {
        if is_pool_timeout(&error) {
            tracing::warn!(%error, "no database connection in time; answered busy");
            return Self::new(StatusCode::SERVICE_UNAVAILABLE, Msg::ServiceBusy);
        }
        Self::internal(error)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use sea_orm::{ConnAcquireErr, DbErr};

    #[test]
    fn a_saturated_pool_is_busy_and_other_database_failures_are_internal() {
        let busy = ApiError::from(DbErr::ConnectionAcquire(ConnAcquireErr::Timeout));
        assert_eq!(
            (busy.status, busy.msg),
            (StatusCode::SERVICE_UNAVAILABLE, Msg::ServiceBusy)
        );
        let broken = ApiError::from(DbErr::Custom("disk I/O error".into()));
        assert_eq!(
            (broken.status, broken.msg),
            (StatusCode::INTERNAL_SERVER_ERROR, Msg::InternalError)
        );
    }
}
