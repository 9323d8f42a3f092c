//! The rules of the security settings: codes to bind a new e-mail address or phone and to confirm
//! changes, binding them, the login log, the device list, the authenticator (TOTP) and the
//! anti-phishing code. Plain functions over the database, the mailer and the limiter: no HTTP
//! types. Passwords are in [`super::passwords`], API keys in [`super::api_keys`].

use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, SqlErr, TransactionTrait, sea_query::Expr,
};
use wasm_core::validate::Violation;

use super::reauth;
use crate::entity::{login_log, user, user_session};
use crate::refusal::{Refusal, RefusalKind};

use crate::clock::now_ms;
use crate::i18n::Msg;
use crate::notify::{Kind, Notice};
use crate::user::codes::{self, Purpose};
use crate::user::mailer::{Channel, Mailer};
use crate::user::rate_limit::RateLimiter;
use crate::user::service::{self as accounts, Account};
use crate::user::{CurrentUser, session, totp};

pub use crate::paging::MAX_PAGE_SIZE;
/// Longest device name, in characters.
pub const MAX_DEVICE_NAME_CHARS: usize = 100;

/// An e-mail address typed into `field`, lower case; a phone number there is an e-mail format error.
pub fn parse_email(raw: &str, field: &str) -> Result<Account, Refusal> {
    if raw.trim().is_empty() {
        return Err(Refusal::rule(field, &Violation::Required));
    }
    match accounts::parse_account(raw, field) {
        Ok(account @ Account::Email(_)) => Ok(account),
        _ => Err(Refusal::rule(field, &Violation::EmailFormat)),
    }
}

/// A phone number typed into `field`, in E.164 form.
pub fn parse_phone(raw: &str, field: &str) -> Result<Account, Refusal> {
    if raw.trim().is_empty() {
        return Err(Refusal::rule(field, &Violation::Required));
    }
    accounts::parse_phone(raw)
        .map(Account::Phone)
        .ok_or_else(|| Refusal::rule(field, &Violation::PhoneFormat))
}

/// [`Msg::ContactTaken`] when `account` belongs to a user other than `user_id`.
async fn ensure_free(
    db: &impl ConnectionTrait,
    account: &Account,
    user_id: i64,
    field: &str,
) -> Result<(), Refusal> {
    match account.find(db).await? {
        Some(owner) if owner.id != user_id => {
            Err(Refusal::new(RefusalKind::Invalid, Msg::ContactTaken).with_field(field))
        }
        _ => Ok(()),
    }
}

/// Where a member's code goes and why.
pub struct MemberCode<'a> {
    /// The database.
    pub db: &'a DatabaseConnection,
    /// The sender.
    pub mailer: &'a Mailer,
    /// The code-sending limits.
    pub limiter: &'a RateLimiter,
    /// The site name for the subject.
    pub site: &'a str,
    /// The requesting IP address.
    pub ip: &'a str,
}

impl MemberCode<'_> {
    /// Sends a [`Purpose::Bind`] code to the new address or phone `account` of `user` (with the
    /// user's anti-phishing code); [`Msg::ContactTaken`] when another account has it.
    pub async fn send_bind(
        &self,
        user: &user::Model,
        account: &Account,
        field: &str,
    ) -> Result<(), Refusal> {
        ensure_free(self.db, account, user.id, field).await?;
        self.send(user, account, Purpose::Bind).await
    }

    /// Sends a [`Purpose::Security`] code to `user`'s own e-mail address or phone (`channel`);
    /// [`Msg::EmailNotBound`] / [`Msg::PhoneNotBound`] when there is none. Returns where it went.
    pub async fn send_security(
        &self,
        user: &user::Model,
        channel: Channel,
    ) -> Result<Account, Refusal> {
        let account = contact_of(user, channel)?;
        self.send(user, &account, Purpose::Security).await?;
        Ok(account)
    }

    async fn send(
        &self,
        user: &user::Model,
        account: &Account,
        purpose: Purpose,
    ) -> Result<(), Refusal> {
        accounts::send_code(
            self.db,
            self.mailer,
            self.limiter,
            self.site,
            account,
            purpose,
            self.ip,
            user.anti_code.clone(),
        )
        .await
    }
}

/// `user`'s bound e-mail address or phone.
pub fn contact_of(user: &user::Model, channel: Channel) -> Result<Account, Refusal> {
    match channel {
        Channel::Email => user
            .email
            .clone()
            .map(Account::Email)
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, Msg::EmailNotBound)),
        Channel::Sms => user
            .phone
            .clone()
            .map(Account::Phone)
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, Msg::PhoneNotBound)),
    }
}

/// Uses up a [`Purpose::Security`] code sent to `user`'s e-mail address or phone, whichever it
/// was sent to; [`Msg::InvalidCode`] otherwise.
pub async fn consume_security_code(
    db: &impl ConnectionTrait,
    user: &user::Model,
    code: &str,
) -> Result<(), Refusal> {
    let mut result = Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidCode).with_field("code"));
    for target in [user.email.as_deref(), user.phone.as_deref()]
        .into_iter()
        .flatten()
    {
        result = codes::consume(db, target, Purpose::Security, code).await;
        if result.is_ok() {
            break;
        }
    }
    result
}

/// Binds `account` (a new or changed e-mail address or phone) to the current user with the
/// [`Purpose::Bind`] code sent to it; needs a recent re-authentication. Returns the updated user.
pub async fn bind_contact(
    db: &DatabaseConnection,
    current: &CurrentUser,
    account: &Account,
    code: &str,
) -> Result<user::Model, Refusal> {
    reauth::require(&current.session)?;
    let user_id = current.id();
    ensure_free(db, account, user_id, "account").await?;
    codes::consume(db, account.as_str(), Purpose::Bind, code).await?;
    let column = match account {
        Account::Email(_) => user::Column::Email,
        Account::Phone(_) => user::Column::Phone,
    };
    let updated = user::Entity::update_many()
        .col_expr(column, Expr::value(account.as_str()))
        .col_expr(user::Column::UpdatedAt, Expr::value(now_ms()))
        .filter(user::Column::Id.eq(user_id))
        .exec(db)
        .await;
    match updated {
        Ok(_) => accounts::reload(db, user_id).await,
        Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            // Someone bound the same address between the check and the update.
            Err(Refusal::new(RefusalKind::Invalid, Msg::ContactTaken).with_field("account"))
        }
        Err(error) => Err(error.into()),
    }
}

/// One page of login attempts.
#[derive(Debug)]
pub struct LoginLogPage {
    /// Attempts in all.
    pub total: u64,
    /// This page's attempts, newest first.
    pub records: Vec<login_log::Model>,
}

/// Page `page` (from 1) of `user_id`'s login attempts, `page_size` (1 to [`MAX_PAGE_SIZE`]) per
/// page, newest first.
pub async fn login_log(
    db: &impl ConnectionTrait,
    user_id: i64,
    page: u64,
    page_size: u64,
) -> Result<LoginLogPage, Refusal> {
    if page == 0 {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("page"));
    }
    if !(1..=MAX_PAGE_SIZE).contains(&page_size) {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("pageSize"));
    }
    let select = login_log::Entity::find().filter(login_log::Column::UserId.eq(user_id));
    let total = select.clone().count(db).await?;
    let records = select
        .order_by_desc(login_log::Column::CreatedAt)
        .order_by_desc(login_log::Column::Id)
        .offset((page - 1).saturating_mul(page_size))
        .limit(page_size)
        .all(db)
        .await?;
    Ok(LoginLogPage { total, records })
}

/// The live sessions (devices) of `user_id`, most recently used first.
pub async fn devices(
    db: &impl ConnectionTrait,
    user_id: i64,
) -> Result<Vec<user_session::Model>, Refusal> {
    session::list(db, user_id).await
}

/// Ends device (session) `id` of `user_id`; [`Msg::NotFound`] (404) when the user has no such
/// live session. Ending the current session is a logout.
pub async fn revoke_device(
    db: &impl ConnectionTrait,
    user_id: i64,
    id: i64,
) -> Result<(), Refusal> {
    if session::revoke(db, user_id, id).await? {
        Ok(())
    } else {
        Err(not_found())
    }
}

/// A device name as typed: trimmed, 1 to [`MAX_DEVICE_NAME_CHARS`] characters.
pub fn check_device_name(raw: &str) -> Result<&str, Refusal> {
    let name = raw.trim();
    if name.is_empty() {
        return Err(Refusal::rule("deviceName", &Violation::Required));
    }
    if name.chars().count() > MAX_DEVICE_NAME_CHARS {
        return Err(Refusal::rule(
            "deviceName",
            &Violation::TooLong {
                max: MAX_DEVICE_NAME_CHARS as u32,
            },
        ));
    }
    Ok(name)
}

/// Renames device (session) `id` of `user_id`; [`Msg::NotFound`] (404) when it has no such live
/// session.
pub async fn rename_device(
    db: &impl ConnectionTrait,
    user_id: i64,
    id: i64,
    raw_name: &str,
) -> Result<(), Refusal> {
    let name = check_device_name(raw_name)?;
    if session::rename(db, user_id, id, name).await? {
        Ok(())
    } else {
        Err(not_found())
    }
}

fn not_found() -> Refusal {
    Refusal::new(RefusalKind::NotFound, Msg::NotFound)
}

/// A new authenticator secret waiting for its first code.
#[derive(Debug)]
pub struct TotpSetup {
    /// Base32 secret, for typing into the app.
    pub secret: String,
    /// The `otpauth://` URI.
    pub otpauth_uri: String,
    /// The URI's QR code as an SVG document.
    pub qr_svg: String,
}

/// Starts binding an authenticator: stores a new pending secret (replacing an earlier pending
/// one) and returns it with its URI and QR code for `issuer`. Needs a recent re-authentication;
/// [`Msg::TotpAlreadyBound`] when 2FA is on already.
pub async fn start_totp(
    db: &impl ConnectionTrait,
    current: &CurrentUser,
    issuer: &str,
) -> Result<TotpSetup, Refusal> {
    reauth::require(&current.session)?;
    let user = &current.user;
    if user.totp_enabled {
        return Err(already_bound());
    }
    let secret = totp::generate_secret();
    let label = user
        .email
        .clone()
        .or_else(|| user.phone.clone())
        .unwrap_or_else(|| user.id.to_string());
    let otpauth_uri = totp::otpauth_uri(issuer, &label, &secret);
    let qr_svg = totp::qr_svg(&otpauth_uri).ok_or_else(|| Refusal::internal("QR code"))?;
    let updated = user::Entity::update_many()
        .col_expr(user::Column::TotpSecret, Expr::value(secret.clone()))
        .col_expr(user::Column::TotpLastStep, Expr::value(Option::<i64>::None))
        .col_expr(user::Column::UpdatedAt, Expr::value(now_ms()))
        .filter(user::Column::Id.eq(user.id))
        .filter(user::Column::TotpEnabled.eq(false))
        .exec(db)
        .await?;
    if updated.rows_affected != 1 {
        return Err(already_bound());
    }
    Ok(TotpSetup {
        secret,
        otpauth_uri,
        qr_svg,
    })
}

/// Turns 2FA on with the first code of the pending secret. Needs a recent re-authentication;
/// [`Msg::TotpAlreadyBound`] when it is on, [`Msg::InvalidTotp`] for a wrong or used code (or no
/// pending secret).
pub async fn bind_totp(
    db: &DatabaseConnection,
    current: &CurrentUser,
    code: &str,
) -> Result<(), Refusal> {
    reauth::require(&current.session)?;
    let user = &current.user;
    if user.totp_enabled {
        return Err(already_bound());
    }
    let Some(secret) = user.totp_secret.clone() else {
        return Err(invalid_totp());
    };
    // The code, the change and its notice commit together.
    let txn = db.begin().await?;
    if !accounts::use_totp_code(&txn, user, code).await? {
        return Err(invalid_totp());
    }
    // Only the secret the code was checked against, and only once.
    let updated = user::Entity::update_many()
        .col_expr(user::Column::TotpEnabled, Expr::value(true))
        .col_expr(user::Column::UpdatedAt, Expr::value(now_ms()))
        .filter(user::Column::Id.eq(user.id))
        .filter(user::Column::TotpEnabled.eq(false))
        .filter(user::Column::TotpSecret.eq(secret))
        .exec(&txn)
        .await?;
    if updated.rows_affected != 1 {
        return Err(invalid_totp());
    }
    let notice = Notice::at(Kind::TotpEnabled, now_ms());
    crate::notify::enqueue(&txn, user.id, notice).await?;
    txn.commit().await?;
    Ok(())
}

/// Turns 2FA off with a current code. Needs a recent re-authentication; [`Msg::TotpNotBound`]
/// when it is off, [`Msg::InvalidTotp`] for a wrong or used code.
pub async fn unbind_totp(
    db: &DatabaseConnection,
    current: &CurrentUser,
    code: &str,
) -> Result<(), Refusal> {
    reauth::require(&current.session)?;
    let user = &current.user;
    if !user.totp_enabled {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::TotpNotBound));
    }
    // The code, the change and its notice commit together.
    let txn = db.begin().await?;
    if !accounts::use_totp_code(&txn, user, code).await? {
        return Err(invalid_totp());
    }
    let updated = user::Entity::update_many()
        .col_expr(user::Column::TotpEnabled, Expr::value(false))
        .col_expr(
            user::Column::TotpSecret,
            Expr::value(Option::<String>::None),
        )
        .col_expr(user::Column::TotpLastStep, Expr::value(Option::<i64>::None))
        .col_expr(user::Column::UpdatedAt, Expr::value(now_ms()))
        .filter(user::Column::Id.eq(user.id))
        .filter(user::Column::TotpEnabled.eq(true))
        .exec(&txn)
        .await?;
    if updated.rows_affected != 1 {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::TotpNotBound));
    }
    let notice = Notice::at(Kind::TotpDisabled, now_ms());
    crate::notify::enqueue(&txn, user.id, notice).await?;
    txn.commit().await?;
    Ok(())
}

fn already_bound() -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::TotpAlreadyBound)
}

fn invalid_totp() -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::InvalidTotp).with_field("x")
}

/// An anti-phishing code as typed: trimmed, 4 to 20 ASCII letters or digits
/// ([`wasm_core::validate::validate_anti_code`], the rule the webapp checks too); else
/// [`Msg::AntiCodeFormat`].
pub fn check_anti_code(raw: &str) -> Result<&str, Refusal> {
    match wasm_core::validate::validate_anti_code(raw) {
        Ok(()) => Ok(raw.trim()),
        Err(_) => {
            Err(Refusal::new(RefusalKind::Invalid, Msg::AntiCodeFormat).with_field("antiCode"))
        }
    }
}

/// Sets the anti-phishing code every e-mail to the user carries from now on. Needs a recent
/// re-authentication.
pub async fn set_anti_code(
    db: &impl ConnectionTrait,
    current: &CurrentUser,
    raw: &str,
) -> Result<(), Refusal> {
    reauth::require(&current.session)?;
    let code = check_anti_code(raw)?;
    user::Entity::update_many()
        .col_expr(user::Column::AntiCode, Expr::value(code))
        .col_expr(user::Column::UpdatedAt, Expr::value(now_ms()))
        .filter(user::Column::Id.eq(current.id()))
        .exec(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anti_codes_are_4_to_20_ascii_letters_or_digits() {
        assert_eq!(check_anti_code(" Kestrel42 ").unwrap(), "Kestrel42");
        assert!(check_anti_code("abcd").is_ok());
        assert!(check_anti_code(&"a".repeat(20)).is_ok());
        for bad in [
            "abc",
            "",
            &"a".repeat(21),
            "ab cd",
            "abc-d",
            "äbcd",
            "abcd!",
        ] {
            let error = check_anti_code(bad).unwrap_err();
            assert_eq!(error.msg, Msg::AntiCodeFormat, "{bad:?}");
            assert_eq!(error.field.as_deref(), Some("antiCode"));
        }
    }

    #[test]
    fn device_names_are_trimmed_and_bounded() {
        assert_eq!(check_device_name("  My laptop ").unwrap(), "My laptop");
        assert_eq!(
            check_device_name("   ").unwrap_err().msg,
            Msg::Rule("field_required")
        );
        assert!(check_device_name(&"é".repeat(100)).is_ok());
        assert_eq!(
            check_device_name(&"é".repeat(101)).unwrap_err().msg,
            Msg::Rule("too_long")
        );
    }

    #[test]
    fn e_mail_and_phone_fields_accept_only_their_kind() {
        assert_eq!(
            parse_email(" Bob@Example.COM ", "email").unwrap(),
            Account::Email("bob@example.com".into())
        );
        assert_eq!(
            parse_email("+4915112345678", "email").unwrap_err().msg,
            Msg::Rule("email_format")
        );
        assert_eq!(
            parse_email("", "email").unwrap_err().msg,
            Msg::Rule("field_required")
        );
        assert_eq!(
            parse_phone("+49 151 1234567", "phone").unwrap(),
            Account::Phone("+491511234567".into())
        );
        let error = parse_phone("bob@example.com", "phone").unwrap_err();
        assert_eq!(error.msg, Msg::Rule("phone_format"));
        assert_eq!(error.field.as_deref(), Some("phone"));
    }

    #[test]
    fn a_contact_must_be_bound_to_receive_a_security_code() {
        let user = user::Model {
            id: 7,
            email: Some("a@b.co".into()),
            phone: None,
            password_hash: String::new(),
            fund_password_hash: None,
            invite_code: "ABCDEFGH".into(),
            invited_by: None,
            avatar: String::new(),
            is_merchant: 1,
            user_type: "normal".into(),
            credit_score: 100,
            role: "user".into(),
            anti_code: None,
            totp_secret: None,
            totp_enabled: false,
            totp_last_step: None,
            kyc_level: 0,
            lang: None,
            created_at: 0,
            updated_at: 0,
            frozen_at: None,
            wallet_address: None,
        };
        assert_eq!(
            contact_of(&user, Channel::Email).unwrap(),
            Account::Email("a@b.co".into())
        );
        assert_eq!(
            contact_of(&user, Channel::Sms).unwrap_err().msg,
            Msg::PhoneNotBound
        );
    }
}
