//! Login sessions, one per device: a 256-bit random token is handed out once and only its SHA-256
//! is stored. A session ends when it expires (604800 s by default), is logged out, or is revoked
//! from the device list; after that its token answers 401.

use std::collections::HashSet;
use std::sync::{LazyLock, Mutex};

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, QueryFilter, QueryOrder, sea_query::Expr,
};

use super::session_cache::{self, SessionIdentity};
use super::{random_token, sha256_hex};
use crate::clock::now_ms;
use crate::entity::{
    user,
    user_session::{self, Column, Entity as Session},
};
use crate::refusal::Refusal;

/// How often `last_seen_at` is refreshed at most (it is a write per request otherwise).
const TOUCH_INTERVAL_MS: i64 = 60_000;

/// Sessions whose `last_seen_at` is being written, so that a session's concurrent requests start
/// one write, not one each.
static TOUCHING: LazyLock<Mutex<HashSet<i64>>> = LazyLock::new(Mutex::default);

/// Where a login comes from.
#[derive(Debug, Clone, Default)]
pub struct Device {
    /// The user agent.
    pub user_agent: String,
    /// The remote IP address.
    pub ip: String,
    /// A name the user gave the device, if any.
    pub name: Option<String>,
}

/// A new session's token (given to the client once) and row.
pub struct NewSession {
    /// The `satoken`.
    pub token: String,
    /// The stored row.
    pub session: user_session::Model,
}

/// The SHA-256 a token is stored as.
fn token_hash(token: &str) -> String {
    sha256_hex(&[token.as_bytes()])
}

/// Starts a session of `user_id` on `device`, valid for `ttl_secs`.
pub async fn create(
    db: &impl ConnectionTrait,
    user_id: i64,
    device: &Device,
    ttl_secs: i64,
) -> Result<NewSession, Refusal> {
    let token = random_token(32);
    let now = now_ms();
    let name = device
        .name
        .clone()
        .filter(|name| !name.trim().is_empty())
        .unwrap_or_else(|| device_name(&device.user_agent));
    let session = user_session::ActiveModel {
        user_id: Set(user_id),
        token_hash: Set(token_hash(&token)),
        device_name: Set(truncate(&name, 100)),
        user_agent: Set(truncate(&device.user_agent, 512)),
        ip: Set(truncate(&device.ip, 64)),
        created_at: Set(now),
        last_seen_at: Set(now),
        expires_at: Set(now + ttl_secs * 1000),
        reauth_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(NewSession { token, session })
}

/// The live session of `token` and its user, refreshing `last_seen_at` now and then; `None` when
/// the token is unknown, expired or revoked. Always read from the database.
pub async fn authenticate(
    db: &DatabaseConnection,
    token: &str,
) -> Result<Option<(user_session::Model, user::Model)>, Refusal> {
    let token = token.trim();
    if token.is_empty() || token.len() > 128 {
        return Ok(None);
    }
    let hash = token_hash(token);
    let epoch = session_cache::epoch();
    let found = read_live(db, &hash, now_ms()).await?;
    if let Some((session, _)) = &found {
        session_cache::remember(hash, identity_of(session), session.expires_at, epoch);
    }
    Ok(found)
}

/// Who the live session of `token` belongs to, from [`session_cache`] when it was read less than
/// its TTL ago, else as [`authenticate`] reads it; `None` when the token is unknown, expired or
/// revoked. Only for calls that need nothing but the identity.
pub async fn authenticate_cached(
    db: &DatabaseConnection,
    token: &str,
) -> Result<Option<SessionIdentity>, Refusal> {
    let token = token.trim();
    if token.is_empty() || token.len() > 128 {
        return Ok(None);
    }
    let hash = token_hash(token);
    let now = now_ms();
    if let Some(found) = session_cache::lookup(&hash, now) {
        return Ok(Some(found));
    }
    let epoch = session_cache::epoch();
    let Some((session, _)) = read_live(db, &hash, now).await? else {
        return Ok(None);
    };
    let identity = identity_of(&session);
    session_cache::remember(hash, identity, session.expires_at, epoch);
    Ok(Some(identity))
}

fn identity_of(session: &user_session::Model) -> SessionIdentity {
    SessionIdentity {
        user_id: session.user_id,
        session_id: session.id,
    }
}

/// The live session of `hash` and its user at `now`, touching `last_seen_at` when it is stale
/// ([`touch_soon`]).
async fn read_live(
    db: &DatabaseConnection,
    hash: &str,
    now: i64,
) -> Result<Option<(user_session::Model, user::Model)>, Refusal> {
    // The session and its user in one statement: this runs before every member call.
    let found = Session::find()
        .filter(Column::TokenHash.eq(hash))
        .filter(Column::RevokedAt.is_null())
        .filter(Column::ExpiresAt.gt(now))
        .find_also_related(user::Entity)
        .one(db)
        .await?;
    let Some((session, Some(user))) = found else {
        return Ok(None);
    };
    // Freezing ends the account's sessions; a login racing the freeze must not outlive it.
    if user.frozen_at.is_some() {
        return Ok(None);
    }
    if now - session.last_seen_at > TOUCH_INTERVAL_MS {
        touch_soon(db, session.id, now);
    }
    Ok(Some((session, user)))
}

/// Writes `now` as session `session_id`'s `last_seen_at` in a task of its own: the request does
/// not wait for it. On SQLite a write outside the spot markets' writer waits in SQLite's busy
/// handler while the markets write back to back, which under a heavy order flow took seconds;
/// a request authenticated at that moment would have waited with it. What is shown from it ("last
/// active" in the device list) is a minute coarse anyway.
fn touch_soon(
    db: &DatabaseConnection,
    session_id: i64,
    now: i64,
) -> Option<tokio::task::JoinHandle<()>> {
    let touching = || TOUCHING.lock().unwrap_or_else(|e| e.into_inner());
    if !touching().insert(session_id) {
        return None;
    }
    let db = db.clone();
    Some(tokio::spawn(async move {
        let written = Session::update_many()
            .col_expr(Column::LastSeenAt, Expr::value(now))
            .filter(Column::Id.eq(session_id))
            .filter(Column::LastSeenAt.lt(now))
            .exec(&db)
            .await;
        touching().remove(&session_id);
        if let Err(error) = written {
            tracing::warn!(%error, session_id, "a session's last activity was not written");
        }
    }))
}

/// Why the session of a token is no longer live (the `USER_STATUS` message of the user channel).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    /// An operator froze the account.
    Frozen,
    /// Logged out, or revoked from the device list or by a password change.
    Revoked,
    /// Expired, or no such token.
    Expired,
}

impl Ended {
    /// The `status` of the `USER_STATUS` message.
    pub fn status(self) -> &'static str {
        match self {
            Ended::Frozen => "frozen",
            Ended::Revoked => "session_revoked",
            Ended::Expired => "session_expired",
        }
    }
}

/// Why the session of `token` ended (call it once [`authenticate`] found none): the account was
/// frozen, else the session was revoked, else it expired (or never existed).
pub async fn ended(db: &DatabaseConnection, token: &str) -> Result<Ended, Refusal> {
    let found = Session::find()
        .filter(Column::TokenHash.eq(token_hash(token.trim())))
        .find_also_related(user::Entity)
        .one(db)
        .await?;
    Ok(match found {
        Some((_, Some(user))) if user.frozen_at.is_some() => Ended::Frozen,
        Some((session, _)) if session.revoked_at.is_some() => Ended::Revoked,
        _ => Ended::Expired,
    })
}

/// The live sessions of `user_id`, newest first.
pub async fn list(
    db: &impl ConnectionTrait,
    user_id: i64,
) -> Result<Vec<user_session::Model>, Refusal> {
    Ok(Session::find()
        .filter(Column::UserId.eq(user_id))
        .filter(Column::RevokedAt.is_null())
        .filter(Column::ExpiresAt.gt(now_ms()))
        .order_by_desc(Column::LastSeenAt)
        .all(db)
        .await?)
}

/// Ends session `session_id` of `user_id`; `false` when the user has no such live session (another
/// user's session id is indistinguishable from an unknown one).
pub async fn revoke(
    db: &impl ConnectionTrait,
    user_id: i64,
    session_id: i64,
) -> Result<bool, Refusal> {
    let result = Session::update_many()
        .col_expr(Column::RevokedAt, Expr::value(now_ms()))
        .filter(Column::Id.eq(session_id))
        .filter(Column::UserId.eq(user_id))
        .filter(Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    session_cache::forget_user(user_id);
    Ok(result.rows_affected == 1)
}

/// Ends every live session of `user_id` except `keep` (after a password change or reset). In a
/// transaction, call [`session_cache::forget_user`] again after the commit.
pub async fn revoke_all_except(
    db: &impl ConnectionTrait,
    user_id: i64,
    keep: Option<i64>,
) -> Result<u64, Refusal> {
    let mut update = Session::update_many()
        .col_expr(Column::RevokedAt, Expr::value(now_ms()))
        .filter(Column::UserId.eq(user_id))
        .filter(Column::RevokedAt.is_null());
    if let Some(keep) = keep {
        update = update.filter(Column::Id.ne(keep));
    }
    let ended = update.exec(db).await?.rows_affected;
    session_cache::forget_user(user_id);
    Ok(ended)
}

/// Renames session `session_id` of `user_id`; `false` when there is no such live session.
pub async fn rename(
    db: &impl ConnectionTrait,
    user_id: i64,
    session_id: i64,
    name: &str,
) -> Result<bool, Refusal> {
    let result = Session::update_many()
        .col_expr(Column::DeviceName, Expr::value(truncate(name.trim(), 100)))
        .filter(Column::Id.eq(session_id))
        .filter(Column::UserId.eq(user_id))
        .filter(Column::RevokedAt.is_null())
        .exec(db)
        .await?;
    Ok(result.rows_affected == 1)
}

/// A readable device name from a user agent: "Chrome on Windows", "Safari on iOS", …
pub fn device_name(user_agent: &str) -> String {
    let ua = user_agent.to_ascii_lowercase();
    let browser = [
        ("edg/", "Edge"),
        ("opr/", "Opera"),
        ("firefox/", "Firefox"),
        ("chromium/", "Chromium"),
        ("chrome/", "Chrome"),
        ("safari/", "Safari"),
        ("curl/", "curl"),
    ]
    .iter()
    .find(|(needle, _)| ua.contains(needle))
    .map_or("Browser", |(_, name)| name);
    let os = [
        ("iphone", "iOS"),
        ("ipad", "iPadOS"),
        ("android", "Android"),
        ("windows", "Windows"),
        ("mac os", "macOS"),
        ("cros", "ChromeOS"),
        ("linux", "Linux"),
    ]
    .iter()
    .find(|(needle, _)| ua.contains(needle))
    .map(|(_, name)| *name);
    match os {
        Some(os) => format!("{browser} on {os}"),
        None => browser.to_owned(),
    }
}

fn truncate(text: &str, max_chars: usize) -> String {
    text.chars().take(max_chars).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn a_stale_last_activity_is_written_beside_the_request_once() {
        let (_dir, _, db) = crate::db::temp_database().await;
        let account = crate::user::service::Account::Email("touch@example.test".to_owned());
        let crate::user::service::NewAccount::Created(user) =
            crate::user::service::insert_account(&db, &account, "hash", None, "user")
                .await
                .unwrap()
        else {
            panic!("the account exists");
        };
        let new = create(&db, user.id, &Device::default(), 3600)
            .await
            .unwrap();
        let stale = now_ms() - TOUCH_INTERVAL_MS - 1;
        Session::update_many()
            .col_expr(Column::LastSeenAt, Expr::value(stale))
            .filter(Column::Id.eq(new.session.id))
            .exec(&db)
            .await
            .unwrap();
        let last_seen = || async {
            Session::find_by_id(new.session.id)
                .one(&db)
                .await
                .unwrap()
                .unwrap()
                .last_seen_at
        };

        // The request is answered with the session as it was read ...
        let (session, _) = authenticate(&db, &new.token).await.unwrap().unwrap();
        assert_eq!(session.last_seen_at, stale);
        // ... and the write started beside it is the only one for the session until it lands.
        let now = now_ms();
        assert!(touch_soon(&db, new.session.id, now).is_none());
        TOUCHING.lock().unwrap().remove(&new.session.id);
        touch_soon(&db, new.session.id, now).unwrap().await.unwrap();
        assert!(last_seen().await >= now);
        // An older time never overwrites a newer one.
        touch_soon(&db, new.session.id, stale)
            .unwrap()
            .await
            .unwrap();
        assert!(last_seen().await >= now);
    }

    #[test]
    fn device_names_read_browser_and_system() {
        assert_eq!(
            device_name(
                "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/130.0 Safari/537.36"
            ),
            "Chrome on Linux"
        );
        assert_eq!(
            device_name(
                "Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 Version/17.0 Mobile/15E148 Safari/604.1"
            ),
            "Safari on iOS"
        );
        assert_eq!(device_name(""), "Browser");
    }

    #[test]
    fn tokens_are_256_bits_and_stored_hashed() {
        let token = random_token(32);
        assert_eq!(
            data_encoding::BASE64URL_NOPAD
                .decode(token.as_bytes())
                .unwrap()
                .len(),
            32
        );
        assert_eq!(token_hash(&token).len(), 64);
        assert_ne!(token_hash(&token), token);
    }
}
