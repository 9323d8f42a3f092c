//! The `satoken` security scheme: every member call declares it, and poem-openapi answers 401
//! (as the envelope) when the header is missing or names no live session. [`Satoken`] reads the
//! session and its user from the database on every request; [`SatokenCached`], the same scheme in
//! the API description, serves only the identity, from [`super::session_cache`], for the hot
//! trading calls.

use poem::Request;
use poem::http::StatusCode;
use poem_openapi::{SecurityScheme, auth::ApiKey};
use sea_orm::DatabaseConnection;

use super::session_cache::SessionIdentity;
use crate::entity::{user, user_session};

/// The logged-in user of a request and the session it came with.
#[derive(Debug, Clone)]
pub struct CurrentUser {
    /// The account.
    pub user: user::Model,
    /// The session (device) the request came with.
    pub session: user_session::Model,
}

impl CurrentUser {
    /// The user's id.
    pub fn id(&self) -> i64 {
        self.user.id
    }
}

/// The session token from the login answer (`data.satoken`), sent in the `satoken` header.
#[derive(SecurityScheme)]
#[oai(
    ty = "api_key",
    key_name = "satoken",
    key_in = "header",
    checker = "check_session"
)]
pub struct Satoken(pub CurrentUser);

/// The session of the `satoken` header: 401 when there is none, 503 when it cannot be read now
/// (a saturated database must not log the user out).
async fn check_session(req: &Request, key: ApiKey) -> poem::Result<CurrentUser> {
    let unauthorized = || poem::Error::from_status(StatusCode::UNAUTHORIZED);
    let db = req.data::<DatabaseConnection>().ok_or_else(unauthorized)?;
    match super::session::authenticate(db, &key.key).await {
        Ok(found) => found
            .map(|(session, user)| CurrentUser { user, session })
            .ok_or_else(unauthorized),
        Err(error) => {
            tracing::error!(?error, "session lookup failed");
            Err(poem::Error::from_status(StatusCode::SERVICE_UNAVAILABLE))
        }
    }
}

/// The session token from the login answer (`data.satoken`), sent in the `satoken` header.
// The same scheme as `Satoken` under the same name (the description above must stay identical),
// checked against the session cache: for calls that need only who the user is.
#[derive(SecurityScheme)]
#[oai(
    rename = "Satoken",
    ty = "api_key",
    key_name = "satoken",
    key_in = "header",
    checker = "check_session_cached"
)]
pub struct SatokenCached(pub SessionIdentity);

impl SessionIdentity {
    /// The user's id.
    pub fn id(&self) -> i64 {
        self.user_id
    }
}

/// As [`check_session`], from the session cache when it holds the token.
async fn check_session_cached(req: &Request, key: ApiKey) -> poem::Result<SessionIdentity> {
    let unauthorized = || poem::Error::from_status(StatusCode::UNAUTHORIZED);
    let db = req.data::<DatabaseConnection>().ok_or_else(unauthorized)?;
    match super::session::authenticate_cached(db, &key.key).await {
        Ok(found) => found.ok_or_else(unauthorized),
        Err(error) => {
            tracing::error!(?error, "session lookup failed");
            Err(poem::Error::from_status(StatusCode::SERVICE_UNAVAILABLE))
        }
    }
}
