//! The generic response shapes: [`PublicResponse`] for account calls a visitor makes (login,
//! registration, codes), [`MemberResponse`] for calls with the `satoken` header, and
//! [`LookupResponse`] for the public market-data reads of one pair. Each operation instantiates one
//! with its own `data` type, so the OpenAPI document (and orval's hooks) list every outcome of
//! every operation.

use poem_openapi::{
    ApiResponse,
    payload::Json,
    types::{ParseFromJSON, ToJSON},
};

use super::{ApiError, Envelope, ErrorEnvelope};
use crate::i18n::Msg;

/// Outcomes of a call a visitor may make.
#[derive(ApiResponse)]
#[oai(bad_request_handler = "public_bad_request")]
pub enum PublicResponse<T: ParseFromJSON + ToJSON + Send + Sync> {
    /// Done: `data` is the result, `msg` says so in the user's language.
    #[oai(status = 200)]
    Ok(Json<Envelope<T>>),
    /// The input breaks a rule or is unreadable: `msg` says why, `data.field` names the field and
    /// `data.reason` is the stable key (`invalid_credentials`, `totp_required`, `password_format`…).
    #[oai(status = 400)]
    BadRequest(Json<ErrorEnvelope>),
    /// The body is larger than 1 MiB.
    #[oai(status = 413)]
    PayloadTooLarge(Json<ErrorEnvelope>),
    /// The body is not declared as JSON.
    #[oai(status = 415)]
    UnsupportedMediaType(Json<ErrorEnvelope>),
    /// Too many attempts: `msg` says how many seconds to wait.
    #[oai(status = 429)]
    TooManyRequests(Json<ErrorEnvelope>),
    /// A server failure; nothing was changed.
    #[oai(status = 500)]
    InternalError(Json<ErrorEnvelope>),
    /// The message could not be delivered by this deployment (text messages without a provider).
    #[oai(status = 503)]
    ServiceUnavailable(Json<ErrorEnvelope>),
}

fn public_bad_request<T: ParseFromJSON + ToJSON + Send + Sync>(
    error: poem::Error,
) -> PublicResponse<T> {
    ApiError::from_poem(&error).into()
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> From<ApiError> for PublicResponse<T> {
    fn from(error: ApiError) -> Self {
        use poem::http::StatusCode as S;
        let envelope = Json(error.envelope());
        match error.status {
            S::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge(envelope),
            S::UNSUPPORTED_MEDIA_TYPE => Self::UnsupportedMediaType(envelope),
            S::TOO_MANY_REQUESTS => Self::TooManyRequests(envelope),
            S::SERVICE_UNAVAILABLE => Self::ServiceUnavailable(envelope),
            status if status.is_server_error() => Self::InternalError(envelope),
            _ => Self::BadRequest(envelope),
        }
    }
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> PublicResponse<T> {
    /// The success with `data` and the message `msg`, or the failure.
    pub fn of(result: Result<T, ApiError>, msg: Msg) -> Self {
        match result {
            Ok(data) => Self::Ok(Json(Envelope::ok_with(data, msg))),
            Err(error) => error.into(),
        }
    }
}

/// Outcomes of a call of a logged-in user (`satoken` header).
#[derive(ApiResponse)]
#[oai(bad_request_handler = "member_bad_request")]
pub enum MemberResponse<T: ParseFromJSON + ToJSON + Send + Sync> {
    /// Done: `data` is the result, `msg` says so in the user's language.
    #[oai(status = 200)]
    Ok(Json<Envelope<T>>),
    /// The input breaks a rule or is unreadable: `msg` says why, `data.field` names the field and
    /// `data.reason` is the stable key.
    #[oai(status = 400)]
    BadRequest(Json<ErrorEnvelope>),
    /// No session, or it expired or was revoked: the webapp logs out.
    #[oai(status = 401)]
    Unauthorized(Json<ErrorEnvelope>),
    /// The user's role does not allow the call.
    #[oai(status = 403)]
    Forbidden(Json<ErrorEnvelope>),
    /// No such object of this user (another user's objects are indistinguishable from missing ones).
    #[oai(status = 404)]
    NotFound(Json<ErrorEnvelope>),
    /// The object changed meanwhile (already reviewed, a quote expired): nothing was done; read it
    /// again and retry.
    #[oai(status = 409)]
    Conflict(Json<ErrorEnvelope>),
    /// The body is larger than allowed.
    #[oai(status = 413)]
    PayloadTooLarge(Json<ErrorEnvelope>),
    /// The body's type is not accepted.
    #[oai(status = 415)]
    UnsupportedMediaType(Json<ErrorEnvelope>),
    /// Too many attempts: `msg` says how many seconds to wait.
    #[oai(status = 429)]
    TooManyRequests(Json<ErrorEnvelope>),
    /// A server failure; nothing was changed.
    #[oai(status = 500)]
    InternalError(Json<ErrorEnvelope>),
    /// The message could not be delivered by this deployment.
    #[oai(status = 503)]
    ServiceUnavailable(Json<ErrorEnvelope>),
}

fn member_bad_request<T: ParseFromJSON + ToJSON + Send + Sync>(
    error: poem::Error,
) -> MemberResponse<T> {
    ApiError::from_poem(&error).into()
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> From<ApiError> for MemberResponse<T> {
    fn from(error: ApiError) -> Self {
        use poem::http::StatusCode as S;
        let envelope = Json(error.envelope());
        match error.status {
            S::UNAUTHORIZED => Self::Unauthorized(envelope),
            S::FORBIDDEN => Self::Forbidden(envelope),
            S::NOT_FOUND => Self::NotFound(envelope),
            S::CONFLICT => Self::Conflict(envelope),
            S::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge(envelope),
            S::UNSUPPORTED_MEDIA_TYPE => Self::UnsupportedMediaType(envelope),
            S::TOO_MANY_REQUESTS => Self::TooManyRequests(envelope),
            S::SERVICE_UNAVAILABLE => Self::ServiceUnavailable(envelope),
            status if status.is_server_error() => Self::InternalError(envelope),
            _ => Self::BadRequest(envelope),
        }
    }
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> MemberResponse<T> {
    /// The success with `data` and the message `msg`, or the failure.
    pub fn of(result: Result<T, ApiError>, msg: Msg) -> Self {
        match result {
            Ok(data) => Self::Ok(Json(Envelope::ok_with(data, msg))),
            Err(error) => error.into(),
        }
    }
}

/// Outcomes of a public read of one listed pair (kline history, prices, statistics, book, trades).
#[derive(ApiResponse)]
#[oai(bad_request_handler = "lookup_bad_request")]
pub enum LookupResponse<T: ParseFromJSON + ToJSON + Send + Sync> {
    /// The data.
    #[oai(status = 200)]
    Ok(Json<Envelope<T>>),
    /// The request could not be read, or names an unknown interval: `msg` says which field.
    #[oai(status = 400)]
    BadRequest(Json<ErrorEnvelope>),
    /// No listed pair has this symbol (or it has no market data yet).
    #[oai(status = 404)]
    NotFound(Json<ErrorEnvelope>),
    /// The body is larger than 1 MiB.
    #[oai(status = 413)]
    PayloadTooLarge(Json<ErrorEnvelope>),
    /// The body is not declared as JSON.
    #[oai(status = 415)]
    UnsupportedMediaType(Json<ErrorEnvelope>),
    /// The data could not be read.
    #[oai(status = 500)]
    InternalError(Json<ErrorEnvelope>),
}

fn lookup_bad_request<T: ParseFromJSON + ToJSON + Send + Sync>(
    error: poem::Error,
) -> LookupResponse<T> {
    ApiError::from_poem(&error).into()
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> From<ApiError> for LookupResponse<T> {
    fn from(error: ApiError) -> Self {
        use poem::http::StatusCode as S;
        let envelope = Json(error.envelope());
        match error.status {
            S::NOT_FOUND => Self::NotFound(envelope),
            S::PAYLOAD_TOO_LARGE => Self::PayloadTooLarge(envelope),
            S::UNSUPPORTED_MEDIA_TYPE => Self::UnsupportedMediaType(envelope),
            status if status.is_server_error() => Self::InternalError(envelope),
            _ => Self::BadRequest(envelope),
        }
    }
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> LookupResponse<T> {
    /// The data with the plain success message, or the failure.
    pub fn of(result: Result<T, ApiError>) -> Self {
        match result {
            Ok(data) => Self::Ok(Json(Envelope::ok(data))),
            Err(error) => error.into(),
        }
    }
}
