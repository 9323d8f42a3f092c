//! The password rules of the security settings: the fund (trade / withdrawal) password under
//! rule B, and the login password (rule A) changed with the old password, with a security code,
//! or reset with a code after it was forgotten. A changed login password ends the user's other
//! sessions; a reset ends all of them.

use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter, TransactionTrait,
    sea_query::Expr,
};
use wasm_core::validate::{PasswordChange, PasswordRule, Violation, validate_password_change};

use super::second_factor::{self, Codes, Factor};
use super::{reauth, service::consume_security_code};
use crate::entity::user;
use crate::refusal::{Refusal, RefusalKind};

use crate::clock::now_ms;
use crate::i18n::Msg;
use crate::notify::{Kind, Notice};
use crate::user::codes::{self, Purpose};
use crate::user::rate_limit::RateLimiter;
use crate::user::service::{Account, check_new_password};
use crate::user::{CurrentUser, password, session};

/// A fund password form.
#[derive(Debug)]
pub struct FundPasswordForm {
    /// The new fund password (rule B).
    pub password: String,
    /// The new fund password again.
    pub confirm_password: String,
    /// The current fund password; required once one is set.
    pub old_password: Option<String>,
}

/// Checks a fund password form against rule B; `old` is the current fund password when one is set.
pub fn check_fund_password(form: &FundPasswordForm, old: Option<&str>) -> Result<(), Refusal> {
    Refusal::first_of(validate_password_change(&PasswordChange {
        rule: PasswordRule::B,
        old_password: old.map(str::to_owned),
        password: Some(form.password.clone()),
        confirm_password: Some(form.confirm_password.clone()),
    }))
}

/// Sets or changes the fund password. Needs a recent re-authentication. The first time no old
/// password is needed; after that the current one is ([`Msg::FundPasswordAlreadySet`] when it is
/// missing, [`Msg::WrongFundPassword`] when it is wrong; wrong ones count against the user's
/// confirmation limit).
pub async fn set_fund_password(
    db: &DatabaseConnection,
    limiter: &RateLimiter,
    current: &CurrentUser,
    form: FundPasswordForm,
) -> Result<(), Refusal> {
    reauth::require(&current.session)?;
    let user = &current.user;
    let old = form.old_password.clone().filter(|old| !old.is_empty());
    match (&user.fund_password_hash, old) {
        (None, _) => check_fund_password(&form, None)?,
        (Some(_), None) => {
            return Err(
                Refusal::new(RefusalKind::Invalid, Msg::FundPasswordAlreadySet)
                    .with_field("oldPassword"),
            );
        }
        (Some(stored), Some(old)) => {
            check_fund_password(&form, Some(&old))?;
            let attempt = reauth::reserve_check(limiter, user).await?;
            if !password::verify_blocking(old, stored.clone()).await {
                return Err(Refusal::new(RefusalKind::Invalid, Msg::WrongFundPassword)
                    .with_field("oldPassword"));
            }
            attempt.succeeded();
        }
    }
    // Checked last, once the caller proved who they are: the answer tells whether the two match.
    if password::verify_blocking(form.password.clone(), user.password_hash.clone()).await {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::FundPasswordSameAsLogin).with_field("password"),
        );
    }
    let hash = password::hash_blocking(form.password).await?;
    // Conditional on the hash the check saw: of two concurrent changes only one applies. The
    // notice commits with the change, so neither is ever without the other.
    let stored = match &user.fund_password_hash {
        Some(stored) => user::Column::FundPasswordHash.eq(stored.clone()),
        None => user::Column::FundPasswordHash.is_null(),
    };
    let txn = db.begin().await?;
    let updated = user::Entity::update_many()
        .col_expr(user::Column::FundPasswordHash, Expr::value(hash))
        .col_expr(user::Column::UpdatedAt, Expr::value(now_ms()))
        .filter(user::Column::Id.eq(user.id))
        .filter(stored)
        .exec(&txn)
        .await?;
    if updated.rows_affected != 1 {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::FundPasswordAlreadySet)
                .with_field("oldPassword"),
        );
    }
    let kind = if user.fund_password_hash.is_none() {
        Kind::FundPasswordSet
    } else {
        Kind::FundPasswordChanged
    };
    crate::notify::enqueue(&txn, user.id, Notice::at(kind, now_ms())).await?;
    txn.commit().await?;
    Ok(())
}

/// A new login password and its confirmation.
#[derive(Debug)]
pub struct NewPassword {
    /// The new login password (rule A).
    pub password: String,
    /// The same again.
    pub confirm_password: String,
}

/// Changes the login password of `current`'s user after checking the old one
/// ([`Msg::WrongPassword`]; wrong ones count against the user's confirmation limit), and ends
/// every other session of the user; this one stays. Like every security change it needs a recent
/// re-authentication (so the second factor too).
pub async fn change_with_old(
    db: &DatabaseConnection,
    limiter: &RateLimiter,
    current: &CurrentUser,
    old_password: &str,
    new: NewPassword,
) -> Result<(), Refusal> {
    reauth::require(&current.session)?;
    check_new_password(&new.password, &new.confirm_password, Some(old_password))?;
    let user = &current.user;
    let attempt = reauth::reserve_check(limiter, user).await?;
    if !password::verify_blocking(old_password.to_owned(), user.password_hash.clone()).await {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::WrongPassword).with_field("oldPassword")
        );
    }
    attempt.succeeded();
    differs_from_fund_password(user, &new.password).await?;
    store(db, user.id, new.password, Some(current.session.id)).await
}

/// Refuses a new login password equal to `user`'s fund password. Called only once the caller
/// proved who they are (old password checked, code consumed): the answer tells whether they match.
async fn differs_from_fund_password(user: &user::Model, new: &str) -> Result<(), Refusal> {
    if let Some(fund) = &user.fund_password_hash
        && password::verify_blocking(new.to_owned(), fund.clone()).await
    {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::LoginPasswordSameAsFund).with_field("password"),
        );
    }
    Ok(())
}

/// Changes the login password of `current`'s user with a [`Purpose::Security`] code sent to the
/// user's e-mail address or phone — and, once 2FA is on, the authenticator's `totp_code` too (its
/// wrong guesses count against the confirmation limit) — and ends every other session of the
/// user; this one stays.
pub async fn change_with_code(
    db: &DatabaseConnection,
    limiter: &RateLimiter,
    current: &CurrentUser,
    code: &str,
    totp_code: Option<String>,
    new: NewPassword,
) -> Result<(), Refusal> {
    check_new_password(&new.password, &new.confirm_password, None)?;
    let user = &current.user;
    let authenticator = Codes {
        totp_code,
        security_code: None,
    };
    if Factor::of(user) == Factor::Totp {
        authenticator.required(Factor::Totp)?;
    }
    if password::verify_blocking(new.password.clone(), user.password_hash.clone()).await {
        return Err(Refusal::rule("password", &Violation::PasswordUnchanged));
    }
    consume_security_code(db, user, code).await?;
    if Factor::of(user) == Factor::Totp {
        second_factor::prove_limited(db, limiter, user, &authenticator).await?;
    }
    differs_from_fund_password(user, &new.password).await?;
    store(db, user.id, new.password, Some(current.session.id)).await
}

/// Resets a forgotten login password with the [`Purpose::Reset`] code sent to `account`, and
/// ends every session of the user. An unknown account fails exactly like a wrong code.
pub async fn reset(
    db: &DatabaseConnection,
    account: &Account,
    code: &str,
    new: NewPassword,
) -> Result<(), Refusal> {
    check_new_password(&new.password, &new.confirm_password, None)?;
    // No code is ever sent for an unknown account, so this fails for it with `invalid_code`.
    codes::consume(db, account.as_str(), Purpose::Reset, code).await?;
    let Some(user) = account.find(db).await? else {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidCode).with_field("code"));
    };
    differs_from_fund_password(&user, &new.password).await?;
    store(db, user.id, new.password, None).await
}

/// Stores `new` as `user_id`'s login password and ends the user's sessions except `keep`, in one
/// transaction.
async fn store(
    db: &DatabaseConnection,
    user_id: i64,
    new: String,
    keep: Option<i64>,
) -> Result<(), Refusal> {
    let hash = password::hash_blocking(new).await?;
    let txn = db.begin().await?;
    set_password_hash(&txn, user_id, hash).await?;
    session::revoke_all_except(&txn, user_id, keep).await?;
    let notice = Notice::at(Kind::LoginPasswordChanged, now_ms());
    crate::notify::enqueue(&txn, user_id, notice).await?;
    txn.commit().await?;
    // Again after the commit: a read between the first forget and the commit saw the old rows.
    crate::user::session_cache::forget_user(user_id);
    Ok(())
}

async fn set_password_hash(
    db: &impl ConnectionTrait,
    user_id: i64,
    hash: String,
) -> Result<(), Refusal> {
    user::Entity::update_many()
        .col_expr(user::Column::PasswordHash, Expr::value(hash))
        .col_expr(user::Column::UpdatedAt, Expr::value(now_ms()))
        .filter(user::Column::Id.eq(user_id))
        .exec(db)
        .await?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form(password: &str, confirm: &str) -> FundPasswordForm {
        FundPasswordForm {
            password: password.into(),
            confirm_password: confirm.into(),
            old_password: None,
        }
    }

    #[test]
    fn fund_passwords_follow_rule_b() {
        assert!(check_fund_password(&form("trade#1", "trade#1"), None).is_ok());
        assert!(check_fund_password(&form("123456", "123456"), None).is_ok());
        let short = check_fund_password(&form("12345", "12345"), None).unwrap_err();
        assert_eq!(short.msg, Msg::Rule("password_format"));
        assert_eq!(short.field.as_deref(), Some("password"));
        let long = "a".repeat(21);
        assert_eq!(
            check_fund_password(&form(&long, &long), None)
                .unwrap_err()
                .msg,
            Msg::Rule("password_format")
        );
        let mismatch = check_fund_password(&form("123456", "123457"), None).unwrap_err();
        assert_eq!(mismatch.msg, Msg::Rule("password_mismatch"));
        assert_eq!(mismatch.field.as_deref(), Some("confirmPassword"));
    }

    #[test]
    fn a_changed_fund_password_must_differ() {
        let error = check_fund_password(&form("123456", "123456"), Some("123456")).unwrap_err();
        assert_eq!(error.msg, Msg::Rule("password_unchanged"));
        assert!(check_fund_password(&form("654321", "654321"), Some("123456")).is_ok());
    }
}
