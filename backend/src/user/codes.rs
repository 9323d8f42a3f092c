//! One-time verification codes: six random digits, valid for ten minutes, at most five wrong
//! guesses, one use. Only a SHA-256 of (target, purpose, code) is stored; a new code for the same
//! target and purpose voids the older ones.

use rand::RngExt;
use sea_orm::{
    ActiveModelTrait,
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, QueryOrder,
    sea_query::{Expr, ExprTrait},
};

use super::sha256_hex;
use crate::clock::now_ms;
use crate::entity::verification_code::{self, Column, Entity as Code};
use crate::refusal::{Refusal, RefusalKind};

use crate::i18n::Msg;

/// Minutes a code stays valid.
pub const CODE_TTL_MINUTES: i64 = 10;
/// Wrong guesses before a code is void.
pub const MAX_ATTEMPTS: i32 = 5;

/// What a code may be used for; a code of one purpose never serves another.
#[derive(Debug, Clone, Copy, PartialEq, Eq, poem_openapi::Enum, serde::Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum Purpose {
    /// Registering a new account.
    Register,
    /// Resetting a forgotten login password.
    Reset,
    /// Binding a new e-mail address or phone to the account.
    Bind,
    /// Confirming a sensitive change (re-authentication by the current e-mail or phone).
    Security,
    /// Signing in to an account that had too many failed sign-ins.
    Login,
}

impl Purpose {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            Purpose::Register => "register",
            Purpose::Reset => "reset",
            Purpose::Bind => "bind",
            Purpose::Security => "security",
            Purpose::Login => "login",
        }
    }
}

fn code_hash(target: &str, purpose: Purpose, code: &str) -> String {
    sha256_hex(&[
        target.as_bytes(),
        purpose.as_str().as_bytes(),
        code.as_bytes(),
    ])
}

/// Issues a new code for `target` and `purpose`, voiding older ones; returns the code to send.
pub async fn issue(
    db: &impl ConnectionTrait,
    target: &str,
    purpose: Purpose,
) -> Result<String, Refusal> {
    let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
    let now = now_ms();
    Code::update_many()
        .col_expr(Column::ConsumedAt, Expr::value(now))
        .filter(Column::Target.eq(target))
        .filter(Column::Purpose.eq(purpose.as_str()))
        .filter(Column::ConsumedAt.is_null())
        .exec(db)
        .await?;
    verification_code::ActiveModel {
        target: Set(target.to_owned()),
        purpose: Set(purpose.as_str().to_owned()),
        code_hash: Set(code_hash(target, purpose, &code)),
        attempts: Set(0),
        created_at: Set(now),
        expires_at: Set(now + CODE_TTL_MINUTES * 60_000),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(code)
}

/// Checks and uses up `code` for `target` and `purpose`: [`Msg::InvalidCode`] when it is wrong,
/// used, expired or guessed wrongly too often.
pub async fn consume(
    db: &impl ConnectionTrait,
    target: &str,
    purpose: Purpose,
    code: &str,
) -> Result<(), Refusal> {
    let invalid = || Refusal::new(RefusalKind::Invalid, Msg::InvalidCode).with_field("code");
    let now = now_ms();
    let Some(current) = Code::find()
        .filter(Column::Target.eq(target))
        .filter(Column::Purpose.eq(purpose.as_str()))
        .filter(Column::ConsumedAt.is_null())
        .filter(Column::ExpiresAt.gt(now))
        .filter(Column::Attempts.lt(MAX_ATTEMPTS))
        .order_by_desc(Column::Id)
        .one(db)
        .await?
    else {
        return Err(invalid());
    };
    // The guess is counted before it is compared, in one conditional update: of parallel guesses
    // at most the attempts left are compared at all.
    let reserved = Code::update_many()
        .col_expr(Column::Attempts, Expr::col(Column::Attempts).add(1))
        .filter(Column::Id.eq(current.id))
        .filter(Column::Attempts.lt(MAX_ATTEMPTS))
        .filter(Column::ConsumedAt.is_null())
        .exec(db)
        .await?;
    if reserved.rows_affected != 1 || current.code_hash != code_hash(target, purpose, code.trim()) {
        return Err(invalid());
    }
    // Conditional update: of two concurrent uses only one finds the code unconsumed.
    let used = Code::update_many()
        .col_expr(Column::ConsumedAt, Expr::value(now))
        .filter(Column::Id.eq(current.id))
        .filter(Column::ConsumedAt.is_null())
        .exec(db)
        .await?;
    if used.rows_affected == 1 {
        Ok(())
    } else {
        Err(invalid())
    }
}
