//! The rules of wallets: issuing a one-time EIP-4361 challenge, checking a signed one, linking a
//! wallet to the logged-in account, unlinking it, and signing in with it. No HTTP types; times are
//! the caller's (the shared [`crate::clock::Clock`]), so tests can move past an expiry.

use rand::RngExt;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, QueryFilter, SqlErr, TransactionTrait, sea_query::Expr,
};

use super::siwe::{self, Address, SiweMessage};
use crate::entity::{user, wallet_challenge};
use crate::i18n::{Msg, t};
use crate::notify::{Kind, Notice};
use crate::refusal::{Refusal, RefusalKind};
use crate::security::reauth;
use crate::user::CurrentUser;
use crate::user::rate_limit::{self, RateLimiter};
use crate::user::service::{log_attempt, reload, use_totp_code};
use crate::user::session::{self, Device, NewSession};

/// How long a challenge may be signed and sent back.
pub const CHALLENGE_TTL_MS: i64 = 5 * 60_000;

/// How long used and expired challenges are kept before a new one clears them.
const KEEP_MS: i64 = 24 * 3_600_000;

/// What a challenge is for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Purpose {
    /// A logged-in user links the wallet to the account.
    Link,
    /// Anyone signs in with a linked wallet.
    Login,
}

impl Purpose {
    /// The stored form.
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Link => "link",
            Purpose::Login => "login",
        }
    }
}

/// The site the messages name: `domain` (`host[:port]`) and `uri` (the origin).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Site {
    /// `host[:port]`.
    pub domain: String,
    /// `scheme://host[:port]`.
    pub uri: String,
    /// The platform's name, for the statement.
    pub name: String,
}

/// A signed challenge as the wallet answered it.
#[derive(Debug, Clone)]
pub struct Signed {
    /// The message text, exactly as issued.
    pub message: String,
    /// The `personal_sign` signature (`0x` and 130 hex digits).
    pub signature: String,
}

/// Sixteen random letters and digits.
fn new_nonce() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
    let mut rng = rand::rng();
    (0..16)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// Reads the wallet address a client sends; [`Msg::WalletAddressInvalid`] on `address` otherwise.
pub fn parse_address(text: &str) -> Result<Address, Refusal> {
    Address::parse(text).ok_or_else(|| {
        Refusal::new(RefusalKind::Invalid, Msg::WalletAddressInvalid).with_field("address")
    })
}

/// Issues and stores a challenge for `address` at `now`: the EIP-4361 message to sign (statement
/// in the request's language), valid for [`CHALLENGE_TTL_MS`] and once. `user_id` is the
/// logged-in user of a [`Purpose::Link`].
pub async fn issue(
    db: &impl ConnectionTrait,
    now: i64,
    site: &Site,
    address: &str,
    purpose: Purpose,
    user_id: Option<i64>,
) -> Result<wallet_challenge::Model, Refusal> {
    let address = parse_address(address)?;
    let statement = match purpose {
        Purpose::Link => t(Msg::WalletStatementLink, &[("site", &site.name)]),
        Purpose::Login => t(Msg::WalletStatementLogin, &[("site", &site.name)]),
    };
    let expires_at = now + CHALLENGE_TTL_MS;
    let nonce = new_nonce();
    let message = SiweMessage {
        domain: site.domain.clone(),
        address,
        statement,
        uri: site.uri.clone(),
        chain_id: siwe::CHAIN_ID,
        nonce: nonce.clone(),
        issued_at: siwe::rfc3339(now),
        expiration_time: siwe::rfc3339(expires_at),
    };
    wallet_challenge::Entity::delete_many()
        .filter(wallet_challenge::Column::ExpiresAt.lt(now - KEEP_MS))
        .exec(db)
        .await?;
    Ok(wallet_challenge::ActiveModel {
        nonce: Set(nonce),
        address: Set(address.checksummed()),
        purpose: Set(purpose.as_str().to_owned()),
        user_id: Set(user_id),
        message: Set(message.to_text()),
        created_at: Set(now),
        expires_at: Set(expires_at),
        used_at: Set(None),
        ..Default::default()
    }
    .insert(db)
    .await?)
}

/// [`issue`] of a [`Purpose::Link`] challenge to `current`, after a recent re-authentication
/// (asked before the wallet signs anything, so the user signs once).
pub async fn issue_link(
    db: &impl ConnectionTrait,
    now: i64,
    site: &Site,
    address: &str,
    current: &CurrentUser,
) -> Result<wallet_challenge::Model, Refusal> {
    reauth::require(&current.session)?;
    issue(db, now, site, address, Purpose::Link, Some(current.id())).await
}

fn expired() -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::WalletChallengeExpired).with_field("message")
}

/// The stored challenge `signed` answers, checked at `now`: issued by this server for `purpose`
/// (and, for a link, to `user_id`), unused, unexpired, the text unchanged, and signed by the
/// address it names. Nothing is used up: see [`consume`].
pub async fn verify(
    db: &impl ConnectionTrait,
    now: i64,
    purpose: Purpose,
    user_id: Option<i64>,
    signed: &Signed,
) -> Result<wallet_challenge::Model, Refusal> {
    let nonce = siwe::nonce_of(&signed.message).ok_or_else(|| {
        Refusal::new(RefusalKind::Invalid, Msg::WalletMessageAltered).with_field("message")
    })?;
    let challenge = wallet_challenge::Entity::find()
        .filter(wallet_challenge::Column::Nonce.eq(nonce))
        .filter(wallet_challenge::Column::Purpose.eq(purpose.as_str()))
        .one(db)
        .await?
        .filter(|challenge| purpose == Purpose::Login || challenge.user_id == user_id)
        .ok_or_else(expired)?;
    if challenge.used_at.is_some() || challenge.expires_at <= now {
        return Err(expired());
    }
    // The whole text, so domain, URI, chain, times and statement are the ones this server wrote.
    if signed.message != challenge.message {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::WalletMessageAltered).with_field("message"),
        );
    }
    let signer = siwe::recover(&signed.message, &signed.signature).map(|a| a.checksummed());
    if signer.as_deref() != Some(challenge.address.as_str()) {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::WalletSignatureInvalid).with_field("signature"),
        );
    }
    Ok(challenge)
}

/// Uses up `challenge` at `now` (a conditional update: of two requests with one signature only
/// one passes); [`Msg::WalletChallengeExpired`] when it was used or expired meanwhile.
pub async fn consume(
    db: &impl ConnectionTrait,
    now: i64,
    challenge: &wallet_challenge::Model,
) -> Result<(), Refusal> {
    let updated = wallet_challenge::Entity::update_many()
        .col_expr(wallet_challenge::Column::UsedAt, Expr::value(now))
        .filter(wallet_challenge::Column::Id.eq(challenge.id))
        .filter(wallet_challenge::Column::UsedAt.is_null())
        .filter(wallet_challenge::Column::ExpiresAt.gt(now))
        .exec(db)
        .await?;
    if updated.rows_affected == 1 {
        Ok(())
    } else {
        Err(expired())
    }
}

fn taken() -> Refusal {
    Refusal::new(RefusalKind::Conflict, Msg::WalletTaken).with_field("address")
}

/// Links the wallet that signed `signed` (a [`Purpose::Link`] challenge issued to `current`) to
/// `current`'s account, replacing a linked one; needs a recent re-authentication. A wallet linked
/// to another account is refused ([`Msg::WalletTaken`]).
pub async fn link(
    db: &DatabaseConnection,
    now: i64,
    current: &CurrentUser,
    signed: &Signed,
) -> Result<user::Model, Refusal> {
    reauth::require(&current.session)?;
    let challenge = verify(db, now, Purpose::Link, Some(current.id()), signed).await?;
    let holder = user::Entity::find()
        .filter(user::Column::WalletAddress.eq(challenge.address.as_str()))
        .one(db)
        .await?;
    if holder.is_some_and(|holder| holder.id != current.id()) {
        return Err(taken());
    }
    // The challenge used up, the link and its security e-mail commit together.
    let txn = db.begin().await?;
    consume(&txn, now, &challenge).await?;
    let written = user::Entity::update_many()
        .col_expr(
            user::Column::WalletAddress,
            Expr::value(challenge.address.clone()),
        )
        .col_expr(user::Column::UpdatedAt, Expr::value(now))
        .filter(user::Column::Id.eq(current.id()))
        .exec(&txn)
        .await;
    match written {
        Ok(_) => {}
        // Linked to another account meanwhile: the unique index decides.
        Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            return Err(taken());
        }
        Err(error) => return Err(error.into()),
    }
    if current.user.wallet_address.as_deref() != Some(challenge.address.as_str()) {
        let notice = Notice::wallet(Kind::WalletLinked, &challenge.address, now);
        crate::notify::enqueue(&txn, current.id(), notice).await?;
    }
    txn.commit().await?;
    reload(db, current.id()).await
}

/// Unlinks `current`'s wallet (signing in with it stops working); needs a recent
/// re-authentication, like every security change. Unlinking when none is linked changes nothing.
pub async fn unlink(
    db: &DatabaseConnection,
    now: i64,
    current: &CurrentUser,
) -> Result<user::Model, Refusal> {
    reauth::require(&current.session)?;
    let txn = db.begin().await?;
    let linked = user::Entity::find_by_id(current.id())
        .one(&txn)
        .await?
        .and_then(|user| user.wallet_address);
    let cleared = user::Entity::update_many()
        .col_expr(
            user::Column::WalletAddress,
            Expr::value(Option::<String>::None),
        )
        .col_expr(user::Column::UpdatedAt, Expr::value(now))
        .filter(user::Column::Id.eq(current.id()))
        .filter(user::Column::WalletAddress.is_not_null())
        .exec(&txn)
        .await?;
    // Only a wallet that was linked is worth an e-mail (an unlink racing another sends one).
    if let (1, Some(address)) = (cleared.rows_affected, linked) {
        let notice = Notice::wallet(Kind::WalletUnlinked, &address, now);
        crate::notify::enqueue(&txn, current.id(), notice).await?;
    }
    txn.commit().await?;
    reload(db, current.id()).await
}

/// What a wallet sign-in needs.
pub struct WalletLogin {
    /// The signed [`Purpose::Login`] challenge.
    pub signed: Signed,
    /// The authenticator code, needed when the account has 2FA on.
    pub totp_code: Option<String>,
    /// Where it comes from.
    pub device: Device,
}

/// Signs in with a linked wallet: the same session as a password login, with its rules. The
/// signature is checked within the IP's failure limit (429 past it); the account linked to the
/// signing address is looked up ([`Msg::WalletNotLinked`] when none), a frozen account is refused,
/// and an account with 2FA needs its authenticator code too: without one the answer is
/// `totp_required` and the challenge stays usable, so the client sends the same signature again
/// with the code (a wrong code counts against the IP's limit, like a password login's, and the
/// challenge stays usable until it expires). Every attempt on an account is logged, and the
/// success uses the challenge up and starts the session.
pub async fn login(
    db: &DatabaseConnection,
    limiter: &RateLimiter,
    now: i64,
    form: WalletLogin,
    ttl_secs: i64,
) -> Result<(NewSession, user::Model), Refusal> {
    let ip_key = format!("login:ip:{}", form.device.ip);
    let attempt = limiter
        .reserve(&[(&ip_key, rate_limit::LOGIN_FAILURES_PER_IP)])
        .await
        .map_err(|seconds| {
            Refusal::new(RefusalKind::RateLimited, Msg::TooManyRequests)
                .with_param("seconds", seconds.to_string())
        })?;
    let challenge = verify(db, now, Purpose::Login, None, &form.signed).await?;
    let found = user::Entity::find()
        .filter(user::Column::WalletAddress.eq(challenge.address.as_str()))
        .one(db)
        .await?;
    let Some(user) = found else {
        consume(db, now, &challenge).await?;
        return Err(Refusal::new(RefusalKind::Invalid, Msg::WalletNotLinked).with_field("address"));
    };
    if user.frozen_at.is_some() {
        consume(db, now, &challenge).await?;
        attempt.succeeded();
        return Err(Refusal::forbidden(Msg::AccountFrozen));
    }
    if user.totp_enabled {
        let Some(code) = form.totp_code.as_deref().filter(|c| !c.trim().is_empty()) else {
            attempt.succeeded();
            return Err(
                Refusal::new(RefusalKind::Invalid, Msg::TotpRequired).with_field("totpCode")
            );
        };
        if !use_totp_code(db, &user, code.trim()).await? {
            log_attempt(db, user.id, &form.device, false).await?;
            return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidTotp).with_field("totpCode"));
        }
    }
    consume(db, now, &challenge).await?;
    attempt.succeeded();
    log_attempt(db, user.id, &form.device, true).await?;
    let session = session::create(db, user.id, &form.device, ttl_secs).await?;
    Ok((session, user))
}

#[cfg(test)]
mod tests;
