//! Step-up re-authentication: a sensitive change (binding a contact, 2FA, fund password,
//! anti-phishing code, API keys) needs the login password and the user's second factor (the
//! authenticator code when 2FA is on, else a security code sent to the user) confirmed on the
//! same session within the last five minutes. The confirmation is stored per session
//! (`user_session.reauth_at`), so a stolen token alone cannot make such changes.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, sea_query::Expr};

use crate::entity::{user, user_session};
use crate::refusal::{Refusal, RefusalKind};

use super::second_factor::{self, Codes, Factor};
use crate::clock::now_ms;
use crate::i18n::Msg;
use crate::user::rate_limit::{Attempt, Limit, RateLimiter};
use crate::user::{CurrentUser, password};

/// How long a confirmation covers sensitive changes on its session.
pub const REAUTH_WINDOW_MS: i64 = 5 * 60_000;

/// Wrong confirmations (passwords, codes) per user in 15 minutes before the user must wait.
pub const REAUTH_FAILURES: Limit = Limit::per_secs(5, 900);

/// The rate-limiter key of `user_id`'s failed confirmations.
pub fn failure_key(user_id: i64) -> String {
    format!("reauth:{user_id}")
}

/// Whether a confirmation at `reauth_at` still covers a change at `now` (Unix milliseconds).
pub fn is_fresh(reauth_at: Option<i64>, now: i64) -> bool {
    reauth_at.is_some_and(|at| now - at <= REAUTH_WINDOW_MS)
}

/// [`Msg::ReauthRequired`] (400) unless `session` was confirmed within [`REAUTH_WINDOW_MS`].
pub fn require(session: &user_session::Model) -> Result<(), Refusal> {
    if is_fresh(session.reauth_at, now_ms()) {
        Ok(())
    } else {
        Err(Refusal::new(RefusalKind::Invalid, Msg::ReauthRequired))
    }
}

/// The 429 failure with the seconds to wait.
pub fn too_many(seconds: u64) -> Refusal {
    Refusal::new(RefusalKind::RateLimited, Msg::TooManyRequests)
        .with_param("seconds", seconds.to_string())
}

/// What the user confirms with: the login password and the second factor the user has (see
/// [`second_factor`]): both must be right.
#[derive(Debug, Default)]
pub struct Proof {
    /// The login password.
    pub password: Option<String>,
    /// The authenticator code (2FA on) or the security code sent to the user.
    pub codes: Codes,
}

/// Checks `proof` for `current`'s user within [`REAUTH_FAILURES`] and marks the session confirmed;
/// returns when the confirmation ends (Unix milliseconds). The password is checked first, so a
/// wrong one never uses up the code that came with it.
pub async fn confirm(
    db: &impl ConnectionTrait,
    limiter: &RateLimiter,
    current: &CurrentUser,
    proof: Proof,
) -> Result<i64, Refusal> {
    let user = &current.user;
    let key = failure_key(user.id);
    let Some(password) = proof.password.filter(|p| !p.is_empty()) else {
        return Err(Refusal::rule(
            "password",
            &wasm_core::validate::Violation::Required,
        ));
    };
    proof.codes.required(Factor::of(user))?;
    // Counted before the hash: parallel guesses cannot pass the limit between check and record.
    let attempt = limiter
        .reserve(&[(&key, REAUTH_FAILURES)])
        .await
        .map_err(too_many)?;
    if !password::verify_blocking(password, user.password_hash.clone()).await {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::WrongPassword).with_field("password"));
    }
    second_factor::prove(db, user, &proof.codes).await?;
    attempt.succeeded_clearing(&key);
    let now = now_ms();
    let updated = user_session::Entity::update_many()
        .col_expr(user_session::Column::ReauthAt, Expr::value(now))
        .filter(user_session::Column::Id.eq(current.session.id))
        .filter(user_session::Column::UserId.eq(user.id))
        .filter(user_session::Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    crate::user::session_cache::forget_user(user.id);
    if updated.rows_affected != 1 {
        return Err(Refusal::new(
            RefusalKind::Unauthenticated,
            Msg::Unauthorized,
        ));
    }
    Ok(now + REAUTH_WINDOW_MS)
}

/// Reserves one check of a secret of `user` (old password, fund password) under the same limit as
/// confirmations, or answers 429 when the limit is used up already; the caller declares a right
/// secret a success ([`Attempt::succeeded`]), a wrong one stays counted.
pub async fn reserve_check<'a>(
    limiter: &'a RateLimiter,
    user: &user::Model,
) -> Result<Attempt<'a>, Refusal> {
    limiter
        .reserve(&[(&failure_key(user.id), REAUTH_FAILURES)])
        .await
        .map_err(too_many)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_confirmation_lasts_five_minutes() {
        let now = 1_700_000_000_000;
        assert!(!is_fresh(None, now));
        assert!(is_fresh(Some(now), now));
        assert!(is_fresh(Some(now - REAUTH_WINDOW_MS), now));
        assert!(!is_fresh(Some(now - REAUTH_WINDOW_MS - 1), now));
    }

    #[test]
    fn a_stale_session_is_refused_with_reauth_required() {
        let session = user_session::Model {
            id: 1,
            user_id: 1,
            token_hash: String::new(),
            device_name: String::new(),
            user_agent: String::new(),
            ip: String::new(),
            created_at: 0,
            last_seen_at: 0,
            expires_at: i64::MAX,
            revoked_at: None,
            reauth_at: Some(now_ms() - REAUTH_WINDOW_MS - 1_000),
        };
        let error = require(&session).unwrap_err();
        assert_eq!(error.kind, RefusalKind::Invalid);
        assert_eq!(error.msg, Msg::ReauthRequired);
        let fresh = user_session::Model {
            reauth_at: Some(now_ms()),
            ..session
        };
        assert!(require(&fresh).is_ok());
    }
}
