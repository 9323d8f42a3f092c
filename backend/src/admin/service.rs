//! The operator's rules: creating an operator from the command line and reviewing identity
//! submissions (who is an operator is [`crate::user::roles`]). Plain functions over the database, no HTTP types.

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, TransactionTrait,
    sea_query::Expr,
};
use wasm_core::validate::{PasswordRule, validate_password};

use crate::clock::now_ms;
use crate::entity::{kyc_submission, user};
use crate::i18n::Msg;
use crate::kyc::service::{Level, Status, lock_user};
use crate::refusal::{Refusal, RefusalKind};
use crate::user::roles::{OPERATOR_ROLE, require_operator};
use crate::user::{
    password,
    service::{Account, NewAccount, insert_account, parse_account},
};

/// What `create_operator` did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum OperatorOutcome {
    /// A new account was created with the operator role and the given password.
    Created(user::Model),
    /// An existing account was given the operator role; its password is unchanged.
    Promoted(user::Model),
    /// The account was an operator already; nothing changed.
    AlreadyOperator(user::Model),
}

impl OperatorOutcome {
    /// The operator's account.
    pub fn user(&self) -> &user::Model {
        match self {
            Self::Created(user) | Self::Promoted(user) | Self::AlreadyOperator(user) => user,
        }
    }
}

/// Creates an operator account for `email` with `password` (rule A), or gives the existing account
/// of `email` the operator role (keeping its password, which only its owner knows). The password
/// is checked in both cases so that a mistyped command never half-succeeds.
pub async fn create_operator(
    db: &DatabaseConnection,
    email: &str,
    new_password: &str,
) -> Result<OperatorOutcome, Refusal> {
    let account = parse_account(email, "email")?;
    let Account::Email(email) = account else {
        return Err(Refusal::rule(
            "email",
            &wasm_core::validate::Violation::EmailFormat,
        ));
    };
    validate_password(new_password, PasswordRule::A)
        .map_err(|violation| Refusal::rule("password", &violation))?;
    let account = Account::Email(email.clone());
    if let Some(existing) = account.find(db).await? {
        if existing.role == OPERATOR_ROLE {
            return Ok(OperatorOutcome::AlreadyOperator(existing));
        }
        let mut row: user::ActiveModel = existing.into();
        row.role = Set(OPERATOR_ROLE.to_owned());
        row.updated_at = Set(now_ms());
        return Ok(OperatorOutcome::Promoted(row.update(db).await?));
    }
    let password_hash = password::hash_blocking(new_password.to_owned()).await?;
    match insert_account(db, &account, &password_hash, None, OPERATOR_ROLE).await? {
        NewAccount::Created(user) => Ok(OperatorOutcome::Created(*user)),
        NewAccount::Taken => Err(Refusal::internal(format!(
            "{email} was registered while the operator was being created"
        ))),
    }
}

/// A page of submissions for review, newest first, each with its user.
pub struct SubmissionPage {
    /// Submissions matching the filter, over all pages.
    pub total: u64,
    /// This page's submissions and their users.
    pub records: Vec<(kyc_submission::Model, Option<user::Model>)>,
}

pub use crate::paging::MAX_PAGE_SIZE;

/// Page `page` (from 1) of `page_size` submissions (1 to [`MAX_PAGE_SIZE`]) with `status`, or of
/// every status, newest first.
pub async fn list_submissions(
    db: &impl ConnectionTrait,
    status: Option<Status>,
    page: u64,
    page_size: u64,
) -> Result<SubmissionPage, Refusal> {
    let page_size = page_size.clamp(1, MAX_PAGE_SIZE);
    let page = page.max(1);
    let mut select = kyc_submission::Entity::find();
    if let Some(status) = status {
        select = select.filter(kyc_submission::Column::Status.eq(status.as_str()));
    }
    let total = select.clone().count(db).await?;
    let rows = select
        .order_by_desc(kyc_submission::Column::Id)
        .offset((page - 1).saturating_mul(page_size))
        .limit(page_size)
        .all(db)
        .await?;
    let mut user_ids: Vec<i64> = rows.iter().map(|row| row.user_id).collect();
    user_ids.sort_unstable();
    user_ids.dedup();
    let users = user::Entity::find()
        .filter(user::Column::Id.is_in(user_ids))
        .all(db)
        .await?;
    let records = rows
        .into_iter()
        .map(|row| {
            let owner = users.iter().find(|u| u.id == row.user_id).cloned();
            (row, owner)
        })
        .collect();
    Ok(SubmissionPage { total, records })
}

/// An operator's decision on a submission.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Review {
    /// The submission.
    pub id: i64,
    /// Pass it (`true`) or fail it.
    pub approve: bool,
    /// Why it failed; required (non-blank) to fail it, at most 500 characters.
    pub reason: Option<String>,
}

/// Records `operator`'s decision on a submission under review, in one transaction: the
/// submission's status, reason, reviewer and time and, when a submission passes, the user's
/// `kyc_level` (at least 1 for basic, 2 for advanced). Operators do not review their own
/// submissions (403). Answers the reviewed submission and its user.
pub async fn review(
    db: &DatabaseConnection,
    operator: &user::Model,
    decision: Review,
) -> Result<(kyc_submission::Model, Option<user::Model>), Refusal> {
    require_operator(operator)?;
    let reason = decision
        .reason
        .map(|text| text.trim().to_owned())
        .filter(|text| !text.is_empty());
    if !decision.approve && reason.is_none() {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::KycReasonRequired).with_field("reason"));
    }
    if let Some(text) = &reason
        && text.chars().count() > 500
    {
        return Err(Refusal::rule(
            "reason",
            &wasm_core::validate::Violation::TooLong { max: 500 },
        ));
    }
    let not_found = || Refusal::new(RefusalKind::NotFound, Msg::NotFound).with_field("id");
    // Read before the transaction (owner and level never change): on SQLite a transaction that
    // reads first and then writes cannot wait for the write lock (SQLITE_BUSY at once under
    // load), so the transaction starts with its write, as the ledger's do; the conditional
    // update below decides on the current status.
    let submission = kyc_submission::Entity::find_by_id(decision.id)
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    if submission.user_id == operator.id {
        return Err(Refusal::new(RefusalKind::Forbidden, Msg::Forbidden));
    }
    let txn = db.begin().await?;
    lock_user(&txn, submission.user_id).await?;
    let status = if decision.approve {
        Status::Passed
    } else {
        Status::Failed
    };
    let now = now_ms();
    // Conditional on `review`, so two operators deciding at once cannot both succeed.
    let updated = kyc_submission::Entity::update_many()
        .col_expr(kyc_submission::Column::Status, Expr::value(status.as_str()))
        .col_expr(
            kyc_submission::Column::Reason,
            Expr::value(if decision.approve { None } else { reason }),
        )
        .col_expr(kyc_submission::Column::ReviewedBy, Expr::value(operator.id))
        .col_expr(kyc_submission::Column::ReviewedAt, Expr::value(now))
        .filter(kyc_submission::Column::Id.eq(submission.id))
        .filter(kyc_submission::Column::Status.eq(Status::Review.as_str()))
        .exec(&txn)
        .await?;
    if updated.rows_affected != 1 {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::KycAlreadyReviewed));
    }
    if decision.approve {
        let level = Level::parse(&submission.level)
            .ok_or_else(|| Refusal::internal(format!("unknown level {}", submission.level)))?
            .kyc_level();
        user::Entity::update_many()
            .col_expr(user::Column::KycLevel, Expr::value(level))
            .col_expr(user::Column::UpdatedAt, Expr::value(now))
            .filter(user::Column::Id.eq(submission.user_id))
            .filter(user::Column::KycLevel.lt(level))
            .exec(&txn)
            .await?;
    }
    let reviewed = kyc_submission::Entity::find_by_id(submission.id)
        .one(&txn)
        .await?
        .ok_or_else(not_found)?;
    let notice = crate::notify::Notice::kyc(decision.approve, reviewed.reason.as_deref());
    crate::notify::enqueue(&txn, reviewed.user_id, notice).await?;
    let owner = user::Entity::find_by_id(reviewed.user_id).one(&txn).await?;
    txn.commit().await?;
    Ok((reviewed, owner))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_operators_pass() {
        let mut user = user::Model {
            id: 1,
            email: None,
            phone: None,
            password_hash: String::new(),
            fund_password_hash: None,
            invite_code: String::new(),
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
            require_operator(&user).unwrap_err().kind,
            RefusalKind::Forbidden
        );
        user.role = OPERATOR_ROLE.into();
        assert!(require_operator(&user).is_ok());
    }
}
