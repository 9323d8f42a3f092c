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

use super::{Envelope, ErrorEnvelope, envelope_of, refusal_from_poem, status_of};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

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
    refusal_from_poem(&error).into()
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> From<Refusal> for PublicResponse<T> {
    fn from(error: Refusal) -> Self {
        let envelope = Json(envelope_of(&error));
        match error.kind {
            RefusalKind::TooLarge => Self::PayloadTooLarge(envelope),
            RefusalKind::UnsupportedMedia => Self::UnsupportedMediaType(envelope),
            RefusalKind::RateLimited => Self::TooManyRequests(envelope),
            RefusalKind::Unavailable => Self::ServiceUnavailable(envelope),
            kind if status_of(kind).is_server_error() => Self::InternalError(envelope),
            _ => Self::BadRequest(envelope),
        }
    }
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> PublicResponse<T> {
    /// The success with `data` and the message `msg`, or the failure.
    pub fn of(result: Result<T, Refusal>, msg: Msg) -> Self {
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
    refusal_from_poem(&error).into()
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> From<Refusal> for MemberResponse<T> {
    fn from(error: Refusal) -> Self {
        let envelope = Json(envelope_of(&error));
        match error.kind {
            RefusalKind::Unauthenticated => Self::Unauthorized(envelope),
            RefusalKind::Forbidden => Self::Forbidden(envelope),
            RefusalKind::NotFound => Self::NotFound(envelope),
            RefusalKind::Conflict => Self::Conflict(envelope),
            RefusalKind::TooLarge => Self::PayloadTooLarge(envelope),
            RefusalKind::UnsupportedMedia => Self::UnsupportedMediaType(envelope),
            RefusalKind::RateLimited => Self::TooManyRequests(envelope),
            RefusalKind::Unavailable => Self::ServiceUnavailable(envelope),
            kind if status_of(kind).is_server_error() => Self::InternalError(envelope),
            _ => Self::BadRequest(envelope),
        }
    }
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> MemberResponse<T> {
    /// The success with `data` and the message `msg`, or the failure.
    pub fn of(result: Result<T, Refusal>, msg: Msg) -> Self {
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
    refusal_from_poem(&error).into()
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> From<Refusal> for LookupResponse<T> {
    fn from(error: Refusal) -> Self {
        let envelope = Json(envelope_of(&error));
        match error.kind {
            RefusalKind::NotFound => Self::NotFound(envelope),
            RefusalKind::TooLarge => Self::PayloadTooLarge(envelope),
            RefusalKind::UnsupportedMedia => Self::UnsupportedMediaType(envelope),
            kind if status_of(kind).is_server_error() => Self::InternalError(envelope),
            _ => Self::BadRequest(envelope),
        }
    }
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> LookupResponse<T> {
    /// The data with the plain success message, or the failure.
    pub fn of(result: Result<T, Refusal>) -> Self {
        match result {
            Ok(data) => Self::Ok(Json(Envelope::ok(data))),
            Err(error) => error.into(),
        }
    }
}

/// Outcomes of a public read of stored objects (announcements, pages, help entries, articles,
/// forms, dictionaries).
#[derive(ApiResponse)]
#[oai(bad_request_handler = "read_bad_request")]
pub enum ReadResponse<T: ParseFromJSON + ToJSON + Send + Sync> {
    /// The data.
    #[oai(status = 200)]
    Ok(Json<Envelope<T>>),
    /// The request could not be read or breaks a bound: `data.field` names the field.
    #[oai(status = 400)]
    BadRequest(Json<ErrorEnvelope>),
    /// No such object, form or dictionary (or nothing of it is published): `msg` names it.
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
    /// The server could not answer now (its database is saturated).
    #[oai(status = 503)]
    ServiceUnavailable(Json<ErrorEnvelope>),
}

fn read_bad_request<T: ParseFromJSON + ToJSON + Send + Sync>(
    error: poem::Error,
) -> ReadResponse<T> {
    refusal_from_poem(&error).into()
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> From<Refusal> for ReadResponse<T> {
    fn from(error: Refusal) -> Self {
        let envelope = Json(envelope_of(&error));
        match error.kind {
            RefusalKind::NotFound => Self::NotFound(envelope),
            RefusalKind::TooLarge => Self::PayloadTooLarge(envelope),
            RefusalKind::UnsupportedMedia => Self::UnsupportedMediaType(envelope),
            RefusalKind::Unavailable => Self::ServiceUnavailable(envelope),
            kind if status_of(kind).is_server_error() => Self::InternalError(envelope),
            _ => Self::BadRequest(envelope),
        }
    }
}

impl<T: ParseFromJSON + ToJSON + Send + Sync> ReadResponse<T> {
    /// The data with the plain success message, or the failure.
    pub fn of(result: Result<T, Refusal>) -> Self {
        match result {
            Ok(data) => Self::Ok(Json(Envelope::ok(data))),
            Err(error) => error.into(),
        }
    }
}
