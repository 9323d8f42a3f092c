//! The second factor a sensitive act needs beside a password: the current authenticator code when
//! the user has turned 2FA on, else a security code sent to the user's own e-mail address (or
//! phone, for an account without one) by `sendMemberEmailCode` / `sendMemberSmsCode` with purpose
//! `security`. Re-authentication (the five-minute confirmation of security changes and API-key
//! creation) and every withdrawal ask for it; a stolen session token plus a guessed or phished
//! password is not enough to move money or change the account's protection.
//!
//! Using a factor is a conditional update (the authenticator's last step, the code's consumed
//! time), so it can run inside the transaction of what it authorises: a withdrawal that fails on
//! its balance leaves the code usable, and of two requests with one code only one passes.

use sea_orm::ConnectionTrait;

use super::reauth;
use super::service::consume_security_code;
use crate::entity::user;
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};
use crate::user::rate_limit::RateLimiter;
use crate::user::service::use_totp_code;

/// The request field of the authenticator code.
pub const TOTP_FIELD: &str = "totpCode";
/// The request field of the security code sent to the user's e-mail address or phone.
pub const SECURITY_CODE_FIELD: &str = "securityCode";

/// Which second factor a user proves acts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Factor {
    /// The authenticator code (2FA is on).
    Totp,
    /// A security code sent to the bound e-mail address or phone.
    SecurityCode,
}

impl Factor {
    /// The factor `user` has: the authenticator once bound, else a security code.
    pub fn of(user: &user::Model) -> Self {
        if user.totp_enabled {
            Factor::Totp
        } else {
            Factor::SecurityCode
        }
    }

    /// The request field that carries it.
    pub fn field(self) -> &'static str {
        match self {
            Factor::Totp => TOTP_FIELD,
            Factor::SecurityCode => SECURITY_CODE_FIELD,
        }
    }
}

/// The codes a request brings; only the one of the user's [`Factor`] is read.
#[derive(Debug, Clone, Default)]
pub struct Codes {
    /// The current 6-digit authenticator code.
    pub totp_code: Option<String>,
    /// The 6-digit security code from the e-mail or SMS.
    pub security_code: Option<String>,
}

impl Codes {
    /// The code of `factor`, trimmed; [`Msg::TotpRequired`] or [`Msg::SecurityCodeRequired`]
    /// naming its field when it is absent.
    pub fn required(&self, factor: Factor) -> Result<&str, Refusal> {
        let (given, missing) = match factor {
            Factor::Totp => (self.totp_code.as_deref(), Msg::TotpRequired),
            Factor::SecurityCode => (self.security_code.as_deref(), Msg::SecurityCodeRequired),
        };
        given
            .map(str::trim)
            .filter(|code| !code.is_empty())
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, missing).with_field(factor.field()))
    }
}

/// Checks and uses up `user`'s second factor from `codes` on `db` (a transaction when the act has
/// one): [`Msg::InvalidTotp`] or [`Msg::InvalidCode`] naming the field when it is wrong, used or
/// expired. The caller limits guesses ([`prove_limited`] does).
pub async fn prove(
    db: &impl ConnectionTrait,
    user: &user::Model,
    codes: &Codes,
) -> Result<(), Refusal> {
    let factor = Factor::of(user);
    let code = codes.required(factor)?;
    match factor {
        Factor::Totp => {
            if use_totp_code(db, user, code).await? {
                Ok(())
            } else {
                Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidTotp).with_field(TOTP_FIELD))
            }
        }
        Factor::SecurityCode => consume_security_code(db, user, code)
            .await
            .map_err(|refusal| refusal.with_field(SECURITY_CODE_FIELD)),
    }
}

/// [`prove`] within the user's confirmation limit ([`reauth::REAUTH_FAILURES`]): 429 when it is
/// used up; a wrong code stays counted, a right one does not.
pub async fn prove_limited(
    db: &impl ConnectionTrait,
    limiter: &RateLimiter,
    user: &user::Model,
    codes: &Codes,
) -> Result<(), Refusal> {
    codes.required(Factor::of(user))?;
    let attempt = reauth::reserve_check(limiter, user).await?;
    prove(db, user, codes).await?;
    attempt.succeeded();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_required_code_is_the_factors_and_must_not_be_blank() {
        let codes = Codes {
            totp_code: Some(" 123456 ".into()),
            security_code: Some("  ".into()),
        };
        assert_eq!(codes.required(Factor::Totp).unwrap(), "123456");
        let refusal = codes.required(Factor::SecurityCode).unwrap_err();
        assert_eq!(refusal.field.as_deref(), Some(SECURITY_CODE_FIELD));
        assert_eq!(refusal.msg, Msg::SecurityCodeRequired);
        let refusal = Codes::default().required(Factor::Totp).unwrap_err();
        assert_eq!(refusal.field.as_deref(), Some(TOTP_FIELD));
        assert_eq!(refusal.msg, Msg::TotpRequired);
    }
}
