//! The operators' decision on a pending application. Approval pays the principal from the house
//! lending pool to the borrower's funding bucket in one journal entry, in whose transaction the
//! application turns `approved` by a conditional update (so of two operators approving at once
//! one pays out and the other is refused `loan_already_reviewed`), the loan is created with the
//! product's current terms frozen and its instalments from wasm-core's `loan_schedule`, the status
//! history and the notice are written. The loan's id is its application's. Rejection needs a
//! reason, which the user sees.

use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseConnection, DatabaseTransaction, EntityTrait,
    QueryFilter, TransactionTrait, sea_query::Expr,
};
use wasm_core::loan::{LoanSchedule, LoanTerms, RepayWay, loan_schedule};

use super::sweep::next_action;
use super::{
    ApplicationStatus, DISBURSE_KIND, LoanEvents, LoanStatus, Transition, UNPAID, credit, decimal,
    products, record,
};
use crate::config::LoansConfig;
use crate::entity::{loan, loan_application, loan_instalment, user};
use crate::funds::bill_detail;
use crate::funds::ledger::{self, AccountRef, House, LedgerError, NewEntry, Posting};
use crate::i18n::Msg;
use crate::notify::{LoanFacts, Notice, enqueue};
use crate::refusal::Refusal;
use crate::user::roles::require_operator;

/// The house lending pool.
pub const POOL: AccountRef = AccountRef::House(House::Lending);

/// An operator's decision.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Decision {
    /// The application.
    pub id: i64,
    /// Approve (pay out) or reject.
    pub approve: bool,
    /// Why it is rejected (required then, at most 500 characters).
    pub reason: Option<String>,
}

fn already_reviewed() -> Refusal {
    Refusal::conflict(Msg::LoanAlreadyReviewed)
}

/// The message on the borrower's channel when an application or loan changes.
#[derive(Debug, Clone, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct LoanMessage {
    /// The application (and loan: the ids are the same).
    pub application_id: i64,
    /// The application's or loan's new status.
    pub status: &'static str,
}

/// Records `operator`'s `decision` at `now` (the injectable clock's time) and answers the
/// application as decided. Operators only; an operator's own application is someone else's to
/// decide; a decided one is 409 (`loan_already_reviewed`); a pool without the principal is
/// `loan_pool_insufficient`.
pub async fn review(
    db: &DatabaseConnection,
    events: &LoanEvents,
    config: &LoansConfig,
    operator: &user::Model,
    decision: &Decision,
    now: i64,
) -> Result<loan_application::Model, Refusal> {
    require_operator(operator)?;
    let reason = decision
        .reason
        .as_deref()
        .map(str::trim)
        .filter(|text| !text.is_empty())
        .map(str::to_owned);
    if !decision.approve && reason.is_none() {
        return Err(Refusal::invalid(Msg::LoanReasonRequired).with_field("reason"));
    }
    if reason.as_ref().is_some_and(|r| r.chars().count() > 500) {
        return Err(Refusal::rule(
            "reason",
            &wasm_core::validate::Violation::TooLong { max: 500 },
        ));
    }
    let application = loan_application::Entity::find_by_id(decision.id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::NotFound).with_field("id"))?;
    if application.user_id == operator.id {
        return Err(Refusal::forbidden(Msg::Forbidden));
    }
    if application.status != ApplicationStatus::Pending.as_str() {
        return Err(already_reviewed());
    }
    if decision.approve {
        approve(db, config, operator, &application, now).await?;
    } else {
        reject(db, operator, &application, reason.unwrap_or_default(), now).await?;
    }
    credit::refresh_by_id(db, application.user_id, now).await?;
    let decided = loan_application::Entity::find_by_id(application.id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::NotFound).with_field("id"))?;
    events.publish(
        decided.user_id,
        "loan",
        &LoanMessage {
            application_id: decided.id,
            status: if decision.approve {
                LoanStatus::Active.as_str()
            } else {
                ApplicationStatus::Rejected.as_str()
            },
        },
    );
    Ok(decided)
}

/// The conditional `pending → status` update; refused when decided meanwhile.
async fn decide(
    txn: &DatabaseTransaction,
    application: &loan_application::Model,
    status: ApplicationStatus,
    operator_id: i64,
    reason: Option<String>,
    now: i64,
) -> Result<(), LedgerError> {
    let updated = loan_application::Entity::update_many()
        .col_expr(
            loan_application::Column::Status,
            Expr::value(status.as_str()),
        )
        .col_expr(
            loan_application::Column::ReviewerId,
            Expr::value(operator_id),
        )
        .col_expr(
            loan_application::Column::Reason,
            Expr::value(reason.clone()),
        )
        .col_expr(loan_application::Column::ReviewedAt, Expr::value(now))
        .col_expr(
            loan_application::Column::LoanId,
            Expr::value((status == ApplicationStatus::Approved).then_some(application.id)),
        )
        .filter(loan_application::Column::Id.eq(application.id))
        .filter(loan_application::Column::Status.eq(ApplicationStatus::Pending.as_str()))
        .exec(txn)
        .await?;
    if updated.rows_affected != 1 {
        return Err(LedgerError::Refused(already_reviewed()));
    }
    record(
        txn,
        Transition {
            application_id: application.id,
            loan_id: None,
            from: Some(ApplicationStatus::Pending.as_str()),
            to: status.as_str(),
            actor_id: Some(operator_id),
            reason,
            at: now,
        },
    )
    .await?;
    Ok(())
}

async fn reject(
    db: &DatabaseConnection,
    operator: &user::Model,
    application: &loan_application::Model,
    reason: String,
    now: i64,
) -> Result<(), Refusal> {
    let txn = db.begin().await?;
    match decide(
        &txn,
        application,
        ApplicationStatus::Rejected,
        operator.id,
        Some(reason.clone()),
        now,
    )
    .await
    {
        Ok(()) => {}
        Err(LedgerError::Refused(refusal)) => return Err(refusal),
        Err(error) => return Err(Refusal::internal(error)),
    }
    let facts = LoanFacts {
        loan_id: application.id,
        amount: &application.amount,
        coin: &application.coin,
        at_ms: now,
    };
    enqueue(
        &txn,
        application.user_id,
        Notice::loan_rejected(facts, &reason),
    )
    .await?;
    txn.commit().await?;
    Ok(())
}

/// The terms of `application` with its product's settings now, borrowed at `now`.
fn frozen_terms(
    application: &loan_application::Model,
    product: &crate::entity::loan_product::Model,
    now: i64,
) -> Result<(LoanTerms, LoanSchedule), Refusal> {
    let terms = LoanTerms {
        principal: decimal(&application.amount)?,
        day_rate: decimal(&product.day_rate)?,
        cycle_days: u32::try_from(application.cycle_days).map_err(Refusal::internal)?,
        repay_way: application
            .repay_way
            .parse::<RepayWay>()
            .map_err(Refusal::internal)?,
        start_time: now,
        scale: u32::try_from(product.scale).map_err(Refusal::internal)?,
    };
    let schedule = loan_schedule(&terms).map_err(Refusal::internal)?;
    Ok((terms, schedule))
}

async fn approve(
    db: &DatabaseConnection,
    config: &LoansConfig,
    operator: &user::Model,
    application: &loan_application::Model,
    now: i64,
) -> Result<(), Refusal> {
    let product = products::find(db, application.product_id).await?;
    let (terms, schedule) = frozen_terms(application, &product, now)?;
    let id = application.id;
    let entry = NewEntry {
        kind: DISBURSE_KIND.into(),
        reference: format!("loan:{id}"),
        user_id: Some(application.user_id),
        actor_id: Some(operator.id),
        memo: bill_detail::loan_disburse_memo(id, terms.principal, &application.coin),
        postings: Posting::transfer(
            POOL,
            AccountRef::funding(application.user_id),
            &application.coin,
            terms.principal,
        )
        .to_vec(),
    };
    let remind_ms = i64::from(config.remind_days_before) * crate::clock::DAY_MS;
    let loan_row = loan::Model {
        id,
        application_id: id,
        user_id: application.user_id,
        product_id: product.id,
        coin: application.coin.clone(),
        scale: product.scale,
        principal: terms.principal.normalize().to_string(),
        day_rate: product.day_rate.clone(),
        cycle_days: application.cycle_days,
        repay_way: application.repay_way.clone(),
        penalty_day_rate: product.penalty_day_rate.clone(),
        grace_days: product.grace_days,
        institution: product.institution.clone(),
        start_time: now,
        end_time: schedule.end_time,
        total_interest: schedule.total_interest.to_string(),
        status: LoanStatus::Active.as_str().to_owned(),
        principal_paid: "0".into(),
        interest_paid: "0".into(),
        penalty_paid: "0".into(),
        next_action_at: None,
        version: 0,
        disburse_entry_id: 0,
        created_at: now,
        settled_at: None,
    };
    let instalments: Vec<loan_instalment::Model> = schedule
        .instalments
        .iter()
        .map(|i| loan_instalment::Model {
            id: 0,
            loan_id: id,
            number: i.index as i32,
            due_time: i.due_time,
            principal: i.principal.to_string(),
            interest: i.interest.to_string(),
            amount: i.amount.to_string(),
            penalty: "0".into(),
            status: UNPAID.into(),
            paid_amount: None,
            paid_at: None,
            paid_entry_id: None,
            reminded: false,
            overdue_notified: false,
        })
        .collect();
    let next = next_action(&instalments, now, remind_ms);
    let (application, operator_id) = (application.clone(), operator.id);
    let result = ledger::post_once(
        db,
        &entry,
        None,
        |_| String::new(),
        move |txn, entry_id, _| {
            let (application, mut loan_row, instalments) =
                (application.clone(), loan_row.clone(), instalments.clone());
            Box::pin(async move {
                decide(
                    txn,
                    &application,
                    ApplicationStatus::Approved,
                    operator_id,
                    None,
                    now,
                )
                .await?;
                loan_row.disburse_entry_id = entry_id;
                loan_row.next_action_at = next;
                let end_time = loan_row.end_time;
                loan::ActiveModel::from(loan_row).insert(txn).await?;
                loan_instalment::Entity::insert_many(instalments.into_iter().map(|row| {
                    let mut active = loan_instalment::ActiveModel::from(row);
                    active.id = sea_orm::ActiveValue::NotSet;
                    active
                }))
                .exec(txn)
                .await?;
                record(
                    txn,
                    Transition {
                        application_id: application.id,
                        loan_id: Some(application.id),
                        from: None,
                        to: LoanStatus::Active.as_str(),
                        actor_id: Some(operator_id),
                        reason: None,
                        at: now,
                    },
                )
                .await?;
                let facts = LoanFacts {
                    loan_id: application.id,
                    amount: &application.amount,
                    coin: &application.coin,
                    at_ms: end_time,
                };
                enqueue(txn, application.user_id, Notice::loan_approved(facts)).await?;
                Ok(())
            })
        },
    )
    .await;
    match result {
        Ok(_) => Ok(()),
        Err(LedgerError::InsufficientBalance {
            account, available, ..
        }) if account == POOL => Err(Refusal::conflict(Msg::LoanPoolInsufficient)
            .with_param("available", available.normalize().to_string())
            .with_param("coin", entry_coin(&entry))),
        Err(error) => Err(crate::funds::service::ledger_error(error, "amount")),
    }
}

fn entry_coin(entry: &NewEntry) -> String {
    entry
        .postings
        .first()
        .map(|p| p.asset.to_ascii_uppercase())
        .unwrap_or_default()
}

/// Puts `amount` of `coin` into the lending pool from outside (deposits in transit: money the
/// platform brings in), one entry `loan_pool_funding` by `operator`. Answers the pool's balance.
pub async fn fund_pool(
    db: &DatabaseConnection,
    operator: &user::Model,
    coin: &str,
    amount: rust_decimal::Decimal,
) -> Result<rust_decimal::Decimal, Refusal> {
    require_operator(operator)?;
    let coin = coin.trim().to_ascii_lowercase();
    if amount <= rust_decimal::Decimal::ZERO || amount.normalize().scale() > ledger::MAX_SCALE {
        return Err(Refusal::invalid(Msg::InvalidField).with_field("amount"));
    }
    let entry = NewEntry {
        kind: super::POOL_FUNDING_KIND.into(),
        reference: format!("loan_pool:{coin}"),
        user_id: None,
        actor_id: Some(operator.id),
        memo: bill_detail::loan_pool_funding_memo(amount, &coin),
        postings: Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            POOL,
            &coin,
            amount,
        )
        .to_vec(),
    };
    let posted = ledger::post(db, &entry)
        .await
        .map_err(|error| match error {
            LedgerError::InvalidAsset(_) => Refusal::invalid(Msg::InvalidField).with_field("coin"),
            other => crate::funds::service::ledger_error(other, "amount"),
        })?;
    Ok(posted
        .balances
        .get(&(POOL, coin))
        .copied()
        .unwrap_or_default())
}

/// The pool's balance of every coin it has held.
pub async fn pool_balances(
    db: &DatabaseConnection,
) -> Result<Vec<(String, rust_decimal::Decimal)>, Refusal> {
    use crate::entity::ledger_account;
    Ok(ledger_account::Entity::find()
        .filter(ledger_account::Column::Owner.eq("house"))
        .filter(ledger_account::Column::Bucket.eq(House::Lending.as_str()))
        .all(db)
        .await?
        .into_iter()
        .map(|row| {
            let balance = decimal(&row.balance).unwrap_or_default();
            (row.asset, balance)
        })
        .collect())
}
