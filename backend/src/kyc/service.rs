//! The rules of identity verification and the bank card: plain functions over the database, no
//! HTTP types.
//!
//! Identity has two levels. Basic (name, document number, country, document type) may be submitted
//! when no basic submission is under review or passed; advanced (photos of the document's front and
//! back and a selfie holding it, all the user's own uploads) only after basic passed, and when no
//! advanced submission is under review or passed. Operators review them (`crate::admin`); a
//! passed level raises `user.kyc_level` to 1 (basic) or 2 (advanced).
//!
//! A user's submissions are serialised by first writing the user's row inside the transaction:
//! PostgreSQL then holds that row's lock and SQLite its write lock until the commit, so two
//! simultaneous submissions cannot both see "nothing under review".

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, QueryFilter, QueryOrder, SqlErr, TransactionTrait, sea_query::Expr,
};
use wasm_core::validate::{BankCardForm, IdentityForm};

use crate::entity::{bank_card, kyc_submission, uploaded_file, user};
use crate::refusal::{Refusal, RefusalKind};

use crate::clock::now_ms;
use crate::i18n::Msg;

/// The two levels of identity verification.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Level {
    /// Name, document number, country and document type.
    Basic,
    /// Photos of the document and a selfie holding it (real-name).
    Advanced,
}

impl Level {
    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            Level::Basic => "basic",
            Level::Advanced => "advanced",
        }
    }

    /// The `user.kyc_level` a passed submission of this level gives.
    pub fn kyc_level(self) -> i32 {
        match self {
            Level::Basic => 1,
            Level::Advanced => 2,
        }
    }

    /// Reads a stored value.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "basic" => Some(Level::Basic),
            "advanced" => Some(Level::Advanced),
            _ => None,
        }
    }
}

/// Where a submission stands (spec section 4: under review, passed, failed).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Status {
    /// Waiting for an operator.
    Review,
    /// Approved.
    Passed,
    /// Rejected, with a reason.
    Failed,
}

impl Status {
    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            Status::Review => "review",
            Status::Passed => "passed",
            Status::Failed => "failed",
        }
    }

    /// Reads a stored value.
    pub fn parse(text: &str) -> Option<Self> {
        match text {
            "review" => Some(Status::Review),
            "passed" => Some(Status::Passed),
            "failed" => Some(Status::Failed),
            _ => None,
        }
    }
}

/// Takes `user_id`'s row lock for the rest of transaction `txn` (see the module documentation).
pub async fn lock_user(txn: &impl ConnectionTrait, user_id: i64) -> Result<(), Refusal> {
    let result = user::Entity::update_many()
        .col_expr(user::Column::KycLevel, Expr::col(user::Column::KycLevel))
        .filter(user::Column::Id.eq(user_id))
        .exec(txn)
        .await?;
    if result.rows_affected == 0 {
        return Err(Refusal::new(RefusalKind::NotFound, Msg::NotFound));
    }
    Ok(())
}

/// The newest submission of `user_id` at `level`.
pub async fn latest(
    db: &impl ConnectionTrait,
    user_id: i64,
    level: Level,
) -> Result<Option<kyc_submission::Model>, Refusal> {
    Ok(kyc_submission::Entity::find()
        .filter(kyc_submission::Column::UserId.eq(user_id))
        .filter(kyc_submission::Column::Level.eq(level.as_str()))
        .order_by_desc(kyc_submission::Column::Id)
        .one(db)
        .await?)
}

/// Refuses a new submission at `level` while one is under review or has passed.
async fn check_open(db: &impl ConnectionTrait, user_id: i64, level: Level) -> Result<(), Refusal> {
    let blocking = kyc_submission::Entity::find()
        .filter(kyc_submission::Column::UserId.eq(user_id))
        .filter(kyc_submission::Column::Level.eq(level.as_str()))
        .filter(
            kyc_submission::Column::Status
                .is_in([Status::Review.as_str(), Status::Passed.as_str()]),
        )
        .order_by_desc(kyc_submission::Column::Id)
        .one(db)
        .await?;
    match blocking.as_ref().and_then(|s| Status::parse(&s.status)) {
        Some(Status::Review) => Err(Refusal::new(RefusalKind::Invalid, Msg::KycUnderReview)),
        Some(Status::Passed) => Err(Refusal::new(RefusalKind::Invalid, Msg::KycAlreadyPassed)),
        _ => Ok(()),
    }
}

/// Submits `user_id`'s basic identity for review after checking the form (wasm-core's rules).
pub async fn submit_basic(
    db: &DatabaseConnection,
    user_id: i64,
    form: IdentityForm,
) -> Result<kyc_submission::Model, Refusal> {
    Refusal::first_of(wasm_core::validate::validate_identity_form(&form))?;
    let text = |value: Option<String>| value.unwrap_or_default();
    let txn = db.begin().await?;
    lock_user(&txn, user_id).await?;
    check_open(&txn, user_id, Level::Basic).await?;
    let submission = kyc_submission::ActiveModel {
        user_id: Set(user_id),
        level: Set(Level::Basic.as_str().to_owned()),
        name: Set(text(form.name)),
        id_card: Set(text(form.id_card)),
        country: Set(text(form.country)),
        card_type: Set(text(form.card_type)),
        front_file_id: Set(None),
        back_file_id: Set(None),
        hold_file_id: Set(None),
        status: Set(Status::Review.as_str().to_owned()),
        reason: Set(None),
        reviewed_by: Set(None),
        created_at: Set(now_ms()),
        reviewed_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(submission)
}

/// The three photos of an advanced submission, by uploaded-file id.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct AdvancedFiles {
    /// The document's front.
    pub front: i64,
    /// The document's back.
    pub back: i64,
    /// A selfie holding the document.
    pub hold: i64,
}

/// Submits `user_id`'s advanced identity for review: basic must have passed (its name, document
/// and country are carried over), and each file must be one of the user's own uploads (another
/// user's file is 404 like a missing one).
pub async fn submit_advanced(
    db: &DatabaseConnection,
    user_id: i64,
    files: AdvancedFiles,
) -> Result<kyc_submission::Model, Refusal> {
    let txn = db.begin().await?;
    lock_user(&txn, user_id).await?;
    let basic = kyc_submission::Entity::find()
        .filter(kyc_submission::Column::UserId.eq(user_id))
        .filter(kyc_submission::Column::Level.eq(Level::Basic.as_str()))
        .filter(kyc_submission::Column::Status.eq(Status::Passed.as_str()))
        .order_by_desc(kyc_submission::Column::Id)
        .one(&txn)
        .await?
        .ok_or_else(|| Refusal::new(RefusalKind::Invalid, Msg::KycBasicRequired))?;
    check_open(&txn, user_id, Level::Advanced).await?;
    for (field, file_id) in [
        ("frontFileId", files.front),
        ("backFileId", files.back),
        ("holdFileId", files.hold),
    ] {
        let owned = uploaded_file::Entity::find_by_id(file_id)
            .filter(uploaded_file::Column::UserId.eq(user_id))
            .one(&txn)
            .await?
            .is_some();
        if !owned {
            return Err(Refusal::new(RefusalKind::NotFound, Msg::NotFound).with_field(field));
        }
    }
    let submission = kyc_submission::ActiveModel {
        user_id: Set(user_id),
        level: Set(Level::Advanced.as_str().to_owned()),
        name: Set(basic.name),
        id_card: Set(basic.id_card),
        country: Set(basic.country),
        card_type: Set(basic.card_type),
        front_file_id: Set(Some(files.front)),
        back_file_id: Set(Some(files.back)),
        hold_file_id: Set(Some(files.hold)),
        status: Set(Status::Review.as_str().to_owned()),
        reason: Set(None),
        reviewed_by: Set(None),
        created_at: Set(now_ms()),
        reviewed_at: Set(None),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    txn.commit().await?;
    Ok(submission)
}

/// A document number with all but its last four characters masked (`**************002X`); a
/// number of four characters or fewer is masked entirely.
pub fn mask_id_card(id_card: &str) -> String {
    let chars: Vec<char> = id_card.chars().collect();
    if chars.len() <= 4 {
        return "*".repeat(chars.len());
    }
    let shown: String = chars[chars.len() - 4..].iter().collect();
    format!("{}{shown}", "*".repeat(chars.len() - 4))
}

/// Binds `user_id`'s bank card after checking the form (wasm-core's rules). Once bound it cannot
/// be changed: a second bind, even a simultaneous one (the `user_id` column is unique), is
/// refused with `BankCardBound`. The card number is stored as digits only, the SWIFT code in
/// upper case, and blank optional fields as absent.
pub async fn bind_bank_card(
    db: &impl ConnectionTrait,
    user_id: i64,
    form: BankCardForm,
) -> Result<bank_card::Model, Refusal> {
    Refusal::first_of(wasm_core::validate::validate_bank_card_form(&form))?;
    let bound = || Refusal::new(RefusalKind::Invalid, Msg::BankCardBound);
    if bank_card(db, user_id).await?.is_some() {
        return Err(bound());
    }
    let optional = |value: Option<String>| value.filter(|text| !text.trim().is_empty());
    let inserted = bank_card::ActiveModel {
        user_id: Set(user_id),
        card_number: Set(form
            .card_number
            .unwrap_or_default()
            .chars()
            .filter(char::is_ascii_digit)
            .collect()),
        bank_name: Set(form.bank_name.unwrap_or_default()),
        bank_address: Set(optional(form.bank_address)),
        bank_phone: Set(optional(form.bank_phone)),
        swift_code: Set(optional(form.swift_code).map(|code| code.to_ascii_uppercase())),
        branch: Set(optional(form.branch)),
        home_address: Set(optional(form.home_address)),
        created_at: Set(now_ms()),
        ..Default::default()
    }
    .insert(db)
    .await;
    match inserted {
        Ok(card) => Ok(card),
        Err(error) if matches!(error.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) => {
            Err(bound())
        }
        Err(error) => Err(error.into()),
    }
}

/// `user_id`'s bank card, if bound.
pub async fn bank_card(
    db: &impl ConnectionTrait,
    user_id: i64,
) -> Result<Option<bank_card::Model>, Refusal> {
    Ok(bank_card::Entity::find()
        .filter(bank_card::Column::UserId.eq(user_id))
        .one(db)
        .await?)
}

/// A card number as shown back: `**** **** **** 1234`.
pub fn mask_card_number(number: &str) -> String {
    let digits: Vec<char> = number.chars().filter(char::is_ascii_digit).collect();
    let last: String = digits[digits.len().saturating_sub(4)..].iter().collect();
    format!("**** **** **** {last}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn document_numbers_show_only_the_last_four() {
        assert_eq!(mask_id_card("11010519491231002X"), "**************002X");
        assert_eq!(mask_id_card("AB12345"), "***2345");
        assert_eq!(mask_id_card("A123"), "****");
    }

    #[test]
    fn card_numbers_show_only_the_last_four() {
        assert_eq!(
            mask_card_number("6222021234567890128"),
            "**** **** **** 0128"
        );
        assert_eq!(
            mask_card_number("4111 1111 1111 1234"),
            "**** **** **** 1234"
        );
    }

    #[test]
    fn stored_values_read_back() {
        for level in [Level::Basic, Level::Advanced] {
            assert_eq!(Level::parse(level.as_str()), Some(level));
        }
        for status in [Status::Review, Status::Passed, Status::Failed] {
            assert_eq!(Status::parse(status.as_str()), Some(status));
        }
        assert_eq!(Level::Advanced.kyc_level(), 2);
    }
}
