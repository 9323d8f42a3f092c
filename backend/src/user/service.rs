//! The rules of accounts: who may register, log in, receive a code; what `getInfo` shows. Plain
//! functions over the database and the shared limiter and mailer: no HTTP types.

use rand::RngExt;
use sea_orm::{
    ActiveModelTrait,
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, SqlErr,
    sea_query::{Expr, ExprTrait},
};
use wasm_core::validate::{PasswordChange, PasswordRule, Violation, validate_email};

use super::codes::{self, Purpose};
use super::mailer::{Channel, Mailer, Outgoing};
use super::rate_limit::{self, Guard, RateLimiter};
use super::session::{self, Device, NewSession};
use super::{password, totp};
use crate::clock::now_ms;
use crate::entity::{login_log, user};
use crate::refusal::{Refusal, RefusalKind};

use crate::i18n::{Msg, t};

/// The avatar every account starts with (spec: a stock image).
pub const DEFAULT_AVATAR: &str = "/avatar-default.svg";

/// A login identifier: an e-mail address (lower case) or a phone number (`+` and digits).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Account {
    /// E-mail address.
    Email(String),
    /// Phone number in E.164 form.
    Phone(String),
}

impl Account {
    /// The normalised text (what codes are sent to and keyed by).
    pub fn as_str(&self) -> &str {
        match self {
            Account::Email(text) | Account::Phone(text) => text,
        }
    }

    /// E-mail or SMS.
    pub fn channel(&self) -> Channel {
        match self {
            Account::Email(_) => Channel::Email,
            Account::Phone(_) => Channel::Sms,
        }
    }

    /// The account with this identifier, if any.
    pub async fn find(&self, db: &impl ConnectionTrait) -> Result<Option<user::Model>, DbErr> {
        let column = match self {
            Account::Email(_) => user::Column::Email,
            Account::Phone(_) => user::Column::Phone,
        };
        user::Entity::find()
            .filter(column.eq(self.as_str()))
            .one(db)
            .await
    }
}

/// Reads an e-mail address or phone number typed by a user; `field` names it in errors.
pub fn parse_account(raw: &str, field: &str) -> Result<Account, Refusal> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::AccountRequired).with_field(field));
    }
    if raw.contains('@') {
        validate_email(raw).map_err(|violation| Refusal::rule(field, &violation))?;
        if raw.len() > 254 {
            return Err(Refusal::rule(field, &Violation::TooLong { max: 254 }));
        }
        return Ok(Account::Email(raw.to_lowercase()));
    }
    parse_phone(raw)
        .map(Account::Phone)
        .ok_or_else(|| Refusal::rule(field, &Violation::PhoneFormat))
}

/// `+` and 5 to 15 digits from a phone typed with spaces, dashes, dots or parentheses
/// ([`wasm_core::validate::normalize_phone`], the rule the webapp checks too).
pub fn parse_phone(raw: &str) -> Option<String> {
    wasm_core::validate::normalize_phone(raw).ok()
}

/// Checks a new password and its confirmation against rule A (spec section 5).
pub fn check_new_password(password: &str, confirm: &str, old: Option<&str>) -> Result<(), Refusal> {
    Refusal::first_of(wasm_core::validate::validate_password_change(
        &PasswordChange {
            rule: PasswordRule::A,
            old_password: old.map(str::to_owned),
            password: Some(password.to_owned()),
            confirm_password: Some(confirm.to_owned()),
        },
    ))
}

fn too_many(seconds: u64) -> Refusal {
    Refusal::new(RefusalKind::RateLimited, Msg::TooManyRequests)
        .with_param("seconds", seconds.to_string())
}

/// Sends `purpose`'s code to `account` in the request's language, within the rate limits. For
/// registration of a taken address the owner gets a notice instead of a code, and a reset for an
/// unknown account sends nothing: the answer is the same either way (no account enumeration).
#[allow(clippy::too_many_arguments)]
pub async fn send_code(
    db: &DatabaseConnection,
    mailer: &Mailer,
    limiter: &RateLimiter,
    site: &str,
    account: &Account,
    purpose: Purpose,
    ip: &str,
    anti_code: Option<String>,
) -> Result<(), Refusal> {
    let target = account.as_str();
    let limits = limiter.code_limits();
    let (ip_key, target_key, target_hour_key) = (
        format!("code:ip:{ip}"),
        format!("code:target:{target}"),
        format!("code:target-hour:{target}"),
    );
    limiter
        .hit(&[
            (&ip_key, limits.per_ip_hour),
            (&target_key, limits.per_target),
            (&target_hour_key, limits.per_target_hour),
        ])
        .await
        .map_err(too_many)?;

    let existing = account.find(db).await?;
    let anti_code = anti_code.or_else(|| existing.as_ref().and_then(|u| u.anti_code.clone()));
    let message = match (purpose, &existing) {
        (Purpose::Register, Some(_)) => Some((
            t(Msg::MailAlreadyRegisteredSubject, &[("site", site)]),
            t(Msg::MailAlreadyRegisteredBody, &[]),
        )),
        (Purpose::Reset | Purpose::Login, None) => None,
        _ => {
            let code = codes::issue(db, target, purpose).await?;
            let minutes = codes::CODE_TTL_MINUTES.to_string();
            Some((
                t(Msg::MailCodeSubject, &[("site", site)]),
                t(Msg::MailCodeBody, &[("code", &code), ("minutes", &minutes)]),
            ))
        }
    };
    if let Some((subject, body)) = message {
        mailer
            .send(
                db,
                Outgoing {
                    channel: account.channel(),
                    recipient: target.to_owned(),
                    subject,
                    body,
                    anti_code,
                },
            )
            .await?;
    }
    Ok(())
}

/// What registration needs.
pub struct Registration {
    /// E-mail or phone.
    pub account: Account,
    /// Login password (rule A).
    pub password: String,
    /// The password again.
    pub confirm_password: String,
    /// The code sent to the account.
    pub code: String,
    /// Someone's invitation code, optional.
    pub invite_code: Option<String>,
}

/// Creates the account after checking the password, the invitation code and the sent code.
pub async fn register(db: &DatabaseConnection, form: Registration) -> Result<user::Model, Refusal> {
    check_new_password(&form.password, &form.confirm_password, None)?;
    let inviter = match form
        .invite_code
        .as_deref()
        .map(str::trim)
        .filter(|c| !c.is_empty())
    {
        Some(code) => Some(
            user::Entity::find()
                .filter(user::Column::InviteCode.eq(code.to_ascii_uppercase()))
                .one(db)
                .await?
                .ok_or_else(|| {
                    Refusal::new(RefusalKind::Invalid, Msg::InvalidInviteCode)
                        .with_field("inviteCode")
                })?,
        ),
        None => None,
    };
    // A taken address is told plainly, before the code: its owner was e-mailed a notice instead
    // of a code, so "incorrect code" would send them looking for a code that never comes.
    if form.account.find(db).await?.is_some() {
        return Err(already_registered());
    }
    codes::consume(db, form.account.as_str(), Purpose::Register, &form.code).await?;
    let password_hash = password::hash_blocking(form.password).await?;
    match insert_account(
        db,
        &form.account,
        &password_hash,
        inviter.map(|u| u.id),
        "user",
    )
    .await?
    {
        NewAccount::Created(user) => {
            super::invitation::after_registration(db, &user).await?;
            Ok(*user)
        }
        // The account was registered meanwhile (a race of two sign-ups with one code).
        NewAccount::Taken => Err(already_registered()),
    }
}

/// The refusal of a registration whose e-mail or phone has an account already.
fn already_registered() -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::AccountAlreadyRegistered).with_field("account")
}

/// What [`insert_account`] did.
pub enum NewAccount {
    /// The account was created.
    Created(Box<user::Model>),
    /// Another account has this e-mail or phone.
    Taken,
}

/// Inserts a new account for `account` with `password_hash` and `role`, with a fresh invitation
/// code (redrawn if it collides).
pub async fn insert_account(
    db: &impl ConnectionTrait,
    account: &Account,
    password_hash: &str,
    invited_by: Option<i64>,
    role: &str,
) -> Result<NewAccount, Refusal> {
    let now = now_ms();
    let (email, phone) = match account {
        Account::Email(email) => (Some(email.clone()), None),
        Account::Phone(phone) => (None, Some(phone.clone())),
    };
    for _ in 0..5 {
        let inserted = user::ActiveModel {
            email: Set(email.clone()),
            phone: Set(phone.clone()),
            password_hash: Set(password_hash.to_owned()),
            fund_password_hash: Set(None),
            invite_code: Set(new_invite_code()),
            invited_by: Set(invited_by),
            avatar: Set(DEFAULT_AVATAR.to_owned()),
            is_merchant: Set(1),
            user_type: Set("normal".to_owned()),
            // The credit model's base (`loans::credit::BASE`): a new account has no other factor
            // yet; the loan calls recompute and store it.
            credit_score: Set(50),
            role: Set(role.to_owned()),
            anti_code: Set(None),
            totp_secret: Set(None),
            totp_enabled: Set(false),
            totp_last_step: Set(None),
            kyc_level: Set(0),
            lang: Set(Some(crate::i18n::current_lang().code().to_owned())),
            created_at: Set(now),
            updated_at: Set(now),
            ..Default::default()
        }
        .insert(db)
        .await;
        match inserted {
            Ok(user) => return Ok(NewAccount::Created(Box::new(user))),
            Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
                // Either the account exists now or the invitation code collided: try a new code
                // unless it is the account.
                if account.find(db).await?.is_some() {
                    return Ok(NewAccount::Taken);
                }
            }
            Err(error) => return Err(error.into()),
        }
    }
    Err(Refusal::internal("no free invitation code after 5 tries"))
}

/// Eight characters from an alphabet without look-alikes (no 0/O, 1/I).
pub fn new_invite_code() -> String {
    const ALPHABET: &[u8] = b"ABCDEFGHJKLMNPQRSTUVWXYZ23456789";
    let mut rng = rand::rng();
    (0..8)
        .map(|_| ALPHABET[rng.random_range(0..ALPHABET.len())] as char)
        .collect()
}

/// What a login needs.
pub struct Login {
    /// E-mail or phone.
    pub account: Account,
    /// The login password.
    pub password: String,
    /// The authenticator code, needed when 2FA is on.
    pub totp_code: Option<String>,
    /// A [`Purpose::Login`] code sent to the account, needed while the account has had too many
    /// failed sign-ins ([`rate_limit::LOGIN_FAILURES_PER_ACCOUNT`]).
    pub email_code: Option<String>,
    /// Where it comes from.
    pub device: Device,
}

/// Checks the credentials (and the TOTP code when 2FA is on) within the failure limits, logs the
/// attempt, and starts a session for the device.
///
/// Too many failures from one IP refuse it for a while (429). Too many failures on one account
/// never lock the account out: from then on a sign-in must also bring a [`Purpose::Login`] code
/// sent to the account (`login_verification_required`, asked before any password is checked, so
/// the answer says nothing about the password); the owner passes with the password and the code,
/// and their success clears the account's failures.
pub async fn login(
    db: &DatabaseConnection,
    limiter: &RateLimiter,
    form: Login,
    ttl_secs: i64,
) -> Result<(NewSession, user::Model), Refusal> {
    let account_key = format!("login:account:{}", form.account.as_str());
    let ip_key = format!("login:ip:{}", form.device.ip);
    // Counted before the hash: parallel guesses cannot pass the limits between check and record.
    let (attempt, guard) = limiter
        .reserve_guarded(
            &[(&ip_key, rate_limit::LOGIN_FAILURES_PER_IP)],
            (&account_key, rate_limit::LOGIN_FAILURES_PER_ACCOUNT),
        )
        .await
        .map_err(too_many)?;
    if guard == Guard::Raised {
        let Some(code) = form.email_code.as_deref().filter(|c| !c.trim().is_empty()) else {
            // Nothing was checked: not a failure.
            attempt.succeeded();
            return Err(
                Refusal::new(RefusalKind::Invalid, Msg::LoginVerificationRequired)
                    .with_field("emailCode"),
            );
        };
        // The code first, its guesses limited by the code itself. No code is ever sent for an
        // unknown account, so it fails there exactly like a wrong code.
        codes::consume(db, form.account.as_str(), Purpose::Login, code.trim())
            .await
            .map_err(|refusal| refusal.with_field("emailCode"))?;
    }
    let found = form.account.find(db).await?;
    let stored = found.as_ref().map_or_else(
        || password::dummy_hash().to_owned(),
        |u| u.password_hash.clone(),
    );
    let matches = password::verify_blocking(form.password, stored).await && found.is_some();
    // A wrong password or code leaves the attempt counted (dropped); a right one gives it back.
    let fail = || Refusal::new(RefusalKind::Invalid, Msg::InvalidCredentials);
    let Some(user) = found else {
        return Err(fail());
    };
    if !matches {
        log_attempt(db, user.id, &form.device, false).await?;
        return Err(fail());
    }
    // Told only to whoever knows the password, like every other state of the account.
    if user.frozen_at.is_some() {
        return Err(Refusal::forbidden(Msg::AccountFrozen));
    }
    if user.totp_enabled {
        let Some(code) = form.totp_code.as_deref().filter(|c| !c.trim().is_empty()) else {
            // The password is right; with the account's code too, the account is its owner's
            // again, and the authenticator step that follows needs no second code.
            if guard == Guard::Raised {
                attempt.succeeded_clearing(&account_key);
            } else {
                attempt.succeeded();
            }
            return Err(
                Refusal::new(RefusalKind::Invalid, Msg::TotpRequired).with_field("totpCode")
            );
        };
        if !use_totp_code(db, &user, code).await? {
            log_attempt(db, user.id, &form.device, false).await?;
            return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidTotp).with_field("totpCode"));
        }
    }
    attempt.succeeded_clearing(&account_key);
    log_attempt(db, user.id, &form.device, true).await?;
    let session = session::create(db, user.id, &form.device, ttl_secs).await?;
    Ok((session, user))
}

/// Whether `code` is the user's current TOTP code not used before; marks its step used (a
/// conditional update, so two requests with the same code cannot both pass).
pub async fn use_totp_code(
    db: &impl ConnectionTrait,
    user: &user::Model,
    code: &str,
) -> Result<bool, Refusal> {
    let Some(secret) = user.totp_secret.as_deref() else {
        return Ok(false);
    };
    let Some(step) = totp::matching_step(secret, code, now_ms() / 1000, user.totp_last_step) else {
        return Ok(false);
    };
    let updated = user::Entity::update_many()
        .col_expr(user::Column::TotpLastStep, Expr::value(step))
        .filter(user::Column::Id.eq(user.id))
        .filter(
            user::Column::TotpLastStep
                .is_null()
                .or(user::Column::TotpLastStep.lt(step)),
        )
        .exec(db)
        .await?;
    Ok(updated.rows_affected == 1)
}

/// Records a login attempt of `user_id` from `device` in the login log.
pub async fn log_attempt(
    db: &impl ConnectionTrait,
    user_id: i64,
    device: &Device,
    success: bool,
) -> Result<(), Refusal> {
    login_log::ActiveModel {
        user_id: Set(user_id),
        ip: Set(device.ip.chars().take(64).collect()),
        user_agent: Set(device.user_agent.chars().take(512).collect()),
        success: Set(success),
        created_at: Set(now_ms()),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}

/// The identity level as shown: 0 none, 1 basic passed, 2 advanced passed.
pub async fn reload(db: &impl ConnectionTrait, user_id: i64) -> Result<user::Model, Refusal> {
    user::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::new(RefusalKind::Unauthenticated, Msg::Unauthorized))
}

#[cfg(test)]
mod tests {
    #[test]
    fn invitation_codes_avoid_look_alikes() {
        for _ in 0..100 {
            let code = super::new_invite_code();
            assert_eq!(code.len(), 8);
            assert!(!code.contains(['0', 'O', '1', 'I']), "{code}");
        }
    }
}
