//! Repayments: what one costs now ([`figures`], from wasm-core's `early_repayment` and
//! `overdue_penalty` — never computed here) and paying it ([`pay`]): one journal entry from the
//! borrower's funding bucket — the principal back to the lending pool, the interest and the
//! penalty to the platform's fee income as lines of their own — in whose transaction the loan
//! (conditionally on its version, so a repayment and the sweep never both pay an instalment) and
//! its instalments are updated and the history written. The user's repayment ([`repay`]) must
//! name exactly the amount it costs (the figure the preview showed): more is `loan_repay_above_owed`,
//! less `loan_repay_amount_changed`; it is idempotent by its `Idempotency-Key`.

use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, DatabaseConnection, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder,
    TransactionTrait, sea_query::Expr,
};
use wasm_core::loan::{OverdueInput, early_repayment, overdue_penalty};

use super::review::{LoanMessage, POOL};
use super::sweep::next_action;
use super::{
    LoanEvents, LoanStatus, PAID, REPAY_KIND, Transition, UNPAID, decimal, record, terms_of,
};
use crate::clock::DAY_MS;
use crate::config::LoansConfig;
use crate::entity::{idempotency_record, loan, loan_instalment};
use crate::funds::bill_detail::{self, LoanRepayment};
use crate::funds::ledger::{
    self, AccountRef, House, Idempotency, LedgerError, NewEntry, Outcome, Posting,
};
use crate::i18n::Msg;
use crate::refusal::Refusal;

/// What to repay.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Mode {
    /// Everything, now: what is due with its penalty, and the rest at `early_repayment`'s figure.
    Full,
    /// The next `n` unpaid instalments with their penalties (all the rest: as [`Mode::Full`]).
    Next(u32),
}

/// One instalment's part of a repayment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Share {
    /// The instalment's row.
    pub instalment_id: i64,
    /// Its number.
    pub number: i32,
    /// The principal it repays.
    pub principal: Decimal,
    /// The interest it pays (an early repayment's interest is on the first remaining one).
    pub interest: Decimal,
    /// Its penalty now.
    pub penalty: Decimal,
    /// Its overdue days begun.
    pub days_overdue: u32,
}

/// What a repayment costs at a moment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Figures {
    /// The moment, Unix milliseconds.
    pub at: i64,
    /// `early` (in full before the end), else `instalments`.
    pub stage: &'static str,
    /// Principal repaid.
    pub principal: Decimal,
    /// Interest paid.
    pub interest: Decimal,
    /// Penalty paid.
    pub penalty: Decimal,
    /// The total: what it takes from funding.
    pub amount: Decimal,
    /// The schedule's interest an early repayment does not pay.
    pub interest_saved: Decimal,
    /// Whether the loan is settled by it.
    pub settles: bool,
    /// Each instalment's part, in order.
    pub shares: Vec<Share>,
}

/// The loan's unpaid instalments in order.
pub async fn unpaid(
    db: &impl sea_orm::ConnectionTrait,
    loan_id: i64,
) -> Result<Vec<loan_instalment::Model>, Refusal> {
    Ok(loan_instalment::Entity::find()
        .filter(loan_instalment::Column::LoanId.eq(loan_id))
        .filter(loan_instalment::Column::Status.eq(UNPAID))
        .order_by_asc(loan_instalment::Column::Number)
        .all(db)
        .await?)
}

/// The penalty of `row` of `loan` at `now` (wasm-core's `overdue_penalty`).
pub fn penalty_of(
    loan: &loan::Model,
    row: &loan_instalment::Model,
    now: i64,
) -> Result<wasm_core::loan::OverduePenalty, Refusal> {
    overdue_penalty(&OverdueInput {
        amount: decimal(&row.amount)?,
        penalty_day_rate: decimal(&loan.penalty_day_rate)?,
        grace_days: u32::try_from(loan.grace_days).map_err(Refusal::internal)?,
        due_time: row.due_time,
        at_time: now,
        scale: u32::try_from(loan.scale).map_err(Refusal::internal)?,
    })
    .map_err(Refusal::internal)
}

fn scheduled(loan: &loan::Model, row: &loan_instalment::Model, now: i64) -> Result<Share, Refusal> {
    let penalty = penalty_of(loan, row, now)?;
    Ok(Share {
        instalment_id: row.id,
        number: row.number,
        principal: decimal(&row.principal)?,
        interest: decimal(&row.interest)?,
        penalty: penalty.penalty,
        days_overdue: penalty.days_overdue,
    })
}

fn settled() -> Refusal {
    Refusal::conflict(Msg::LoanSettled)
}

/// What repaying `loan` (whose unpaid instalments are `rows`, in order) by `mode` costs at `now`.
pub fn figures(
    loan: &loan::Model,
    rows: &[loan_instalment::Model],
    mode: Mode,
    now: i64,
) -> Result<Figures, Refusal> {
    if loan.status == LoanStatus::Settled.as_str() || rows.is_empty() {
        return Err(settled());
    }
    let count = match mode {
        Mode::Full => rows.len(),
        Mode::Next(0) => return Err(Refusal::invalid(Msg::InvalidField).with_field("count")),
        Mode::Next(n) if n as usize > rows.len() => {
            let owed = figures(loan, rows, Mode::Full, now)?.amount;
            return Err(Refusal::invalid(Msg::LoanRepayAboveOwed)
                .with_field("count")
                .with_param("owed", owed.to_string()));
        }
        Mode::Next(n) => n as usize,
    };
    let due = rows.iter().take_while(|r| r.due_time <= now).count();
    let mut shares = Vec::with_capacity(count);
    let mut interest_saved = Decimal::ZERO;
    let stage;
    if count == rows.len() && due < rows.len() {
        // Everything before the end: the instalments due now with their penalties, the rest at
        // what an early repayment costs (no penalty, the interest of the days begun only).
        for row in &rows[..due] {
            shares.push(scheduled(loan, row, now)?);
        }
        let early = early_repayment(&terms_of(loan)?, now).map_err(Refusal::internal)?;
        for (i, row) in rows[due..].iter().enumerate() {
            shares.push(Share {
                instalment_id: row.id,
                number: row.number,
                principal: decimal(&row.principal)?,
                interest: if i == 0 {
                    early.interest
                } else {
                    Decimal::ZERO
                },
                penalty: Decimal::ZERO,
                days_overdue: 0,
            });
        }
        interest_saved = early.interest_saved;
        stage = "early";
    } else {
        for row in &rows[..count] {
            shares.push(scheduled(loan, row, now)?);
        }
        stage = "instalments";
    }
    let principal: Decimal = shares.iter().map(|s| s.principal).sum();
    let interest: Decimal = shares.iter().map(|s| s.interest).sum();
    let penalty: Decimal = shares.iter().map(|s| s.penalty).sum();
    Ok(Figures {
        at: now,
        stage,
        principal: principal.normalize(),
        interest: interest.normalize(),
        penalty: penalty.normalize(),
        amount: (principal + interest + penalty).normalize(),
        interest_saved: interest_saved.normalize(),
        settles: count == rows.len(),
        shares,
    })
}

/// What [`pay`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Paid {
    /// Paid now; the loan's status after it.
    Now(&'static str),
    /// The key was seen with the same request: the first answer (JSON).
    Replayed(String),
}

/// A repayment to make.
#[derive(Clone)]
pub struct Payment<'a> {
    /// The loan as read (its version is the one the figures were computed on).
    pub loan: &'a loan::Model,
    /// Its unpaid instalments as read.
    pub rows: &'a [loan_instalment::Model],
    /// What it costs.
    pub figures: &'a Figures,
    /// Who pays: the borrower, or none (the sweep's automatic deduction).
    pub actor_id: Option<i64>,
    /// The caller's key (the user's repayment).
    pub idempotency: Option<&'a Idempotency>,
    /// The answer stored for replays, given the loan's status after the repayment.
    pub respond: &'a (dyn Fn(&'static str) -> String + Sync),
}

/// The loan's status after paying `figures` of `rows` at `now`, and the sweep's next look.
fn after(
    rows: &[loan_instalment::Model],
    figures: &Figures,
    now: i64,
    remind_ms: i64,
) -> (LoanStatus, Option<i64>) {
    let paid: Vec<i64> = figures.shares.iter().map(|s| s.instalment_id).collect();
    let left: Vec<loan_instalment::Model> = rows
        .iter()
        .filter(|r| !paid.contains(&r.id))
        .cloned()
        .collect();
    let status = if left.is_empty() {
        LoanStatus::Settled
    } else if left.iter().any(|r| r.due_time <= now) {
        LoanStatus::Overdue
    } else {
        LoanStatus::Active
    };
    (status, next_action(&left, now, remind_ms))
}

/// Writes a repayment's rows in `txn` (the entry's, when money moves): the loan conditionally on
/// its version (else [`LedgerError::Refused`] `loan_changed`), the instalments paid, the history.
async fn write_rows(
    txn: &DatabaseTransaction,
    payment: &Payment<'_>,
    entry_id: Option<i64>,
    remind_ms: i64,
) -> Result<LoanStatus, LedgerError> {
    let (loan, figures) = (payment.loan, payment.figures);
    let now = figures.at;
    let (status, next) = after(payment.rows, figures, now, remind_ms);
    let plus = |stored: &str, more: Decimal| -> Result<String, LedgerError> {
        let before = decimal(stored).map_err(LedgerError::Refused)?;
        Ok((before + more).normalize().to_string())
    };
    let updated = loan::Entity::update_many()
        .col_expr(loan::Column::Version, Expr::value(loan.version + 1))
        .col_expr(loan::Column::Status, Expr::value(status.as_str()))
        .col_expr(
            loan::Column::PrincipalPaid,
            Expr::value(plus(&loan.principal_paid, figures.principal)?),
        )
        .col_expr(
            loan::Column::InterestPaid,
            Expr::value(plus(&loan.interest_paid, figures.interest)?),
        )
        .col_expr(
            loan::Column::PenaltyPaid,
            Expr::value(plus(&loan.penalty_paid, figures.penalty)?),
        )
        .col_expr(loan::Column::NextActionAt, Expr::value(next))
        .col_expr(
            loan::Column::SettledAt,
            Expr::value((status == LoanStatus::Settled).then_some(now)),
        )
        .filter(loan::Column::Id.eq(loan.id))
        .filter(loan::Column::Version.eq(loan.version))
        .exec(txn)
        .await?;
    if updated.rows_affected != 1 {
        return Err(LedgerError::Refused(Refusal::conflict(Msg::LoanChanged)));
    }
    for share in &figures.shares {
        loan_instalment::Entity::update_many()
            .col_expr(loan_instalment::Column::Status, Expr::value(PAID))
            .col_expr(
                loan_instalment::Column::Penalty,
                Expr::value(share.penalty.normalize().to_string()),
            )
            .col_expr(
                loan_instalment::Column::PaidAmount,
                Expr::value(
                    (share.principal + share.interest + share.penalty)
                        .normalize()
                        .to_string(),
                ),
            )
            .col_expr(loan_instalment::Column::PaidAt, Expr::value(now))
            .col_expr(loan_instalment::Column::PaidEntryId, Expr::value(entry_id))
            .filter(loan_instalment::Column::Id.eq(share.instalment_id))
            .exec(txn)
            .await?;
    }
    if status.as_str() != loan.status {
        let from = [LoanStatus::Active, LoanStatus::Overdue]
            .into_iter()
            .find(|s| s.as_str() == loan.status)
            .map(LoanStatus::as_str);
        record(
            txn,
            Transition {
                application_id: loan.application_id,
                loan_id: Some(loan.id),
                from,
                to: status.as_str(),
                actor_id: payment.actor_id,
                reason: Some(
                    if payment.actor_id.is_none() {
                        "auto"
                    } else {
                        figures.stage
                    }
                    .to_owned(),
                ),
                at: now,
            },
        )
        .await?;
    }
    Ok(status)
}

/// Pays `payment`: one entry (none when it costs nothing: an instalment whose interest rounded
/// to zero) with the loan's rows in its transaction. A balance short of the amount is the
/// ledger's `insufficient_balance`, and nothing changes.
pub async fn pay(
    db: &DatabaseConnection,
    config: &LoansConfig,
    payment: &Payment<'_>,
) -> Result<Paid, LedgerError> {
    let remind_ms = i64::from(config.remind_days_before) * DAY_MS;
    let (loan, figures) = (payment.loan, payment.figures);
    if figures.amount.is_zero() {
        let txn = db.begin().await?;
        let status = match write_rows(&txn, payment, None, remind_ms).await {
            Ok(status) => status,
            Err(error) => {
                txn.rollback().await.ok();
                return Err(error);
            }
        };
        txn.commit().await?;
        return Ok(Paid::Now(status.as_str()));
    }
    let fees = AccountRef::House(House::Fees);
    let mut postings = vec![Posting {
        account: AccountRef::funding(loan.user_id),
        asset: loan.coin.clone(),
        amount: -figures.amount,
    }];
    for (account, amount) in [
        (POOL, figures.principal),
        (fees, figures.interest),
        (fees, figures.penalty),
    ] {
        if !amount.is_zero() {
            postings.push(Posting {
                account,
                asset: loan.coin.clone(),
                amount,
            });
        }
    }
    let shares = &figures.shares;
    let stage = if payment.actor_id.is_none() {
        "auto"
    } else {
        figures.stage
    };
    let entry = NewEntry {
        kind: REPAY_KIND.into(),
        reference: format!("loan:{}", loan.id),
        user_id: Some(loan.user_id),
        actor_id: payment.actor_id,
        memo: bill_detail::loan_repay_memo(LoanRepayment {
            loan_id: loan.id,
            stage,
            principal: figures.principal,
            interest: figures.interest,
            penalty: figures.penalty,
            first: shares.first().map_or(0, |s| s.number as u32),
            last: shares.last().map_or(0, |s| s.number as u32),
        }),
        postings,
    };
    let status_slot = std::sync::Arc::new(std::sync::Mutex::new(LoanStatus::Active));
    let slot = status_slot.clone();
    let payment_owned = (
        payment.loan.clone(),
        payment.rows.to_vec(),
        payment.figures.clone(),
        payment.actor_id,
    );
    let outcome = ledger::post_once(
        db,
        &entry,
        payment.idempotency,
        |_| {
            let status = status_slot.lock().map(|s| *s).unwrap_or(LoanStatus::Active);
            (payment.respond)(status.as_str())
        },
        move |txn, entry_id, _| {
            let (loan, rows, figures, actor_id) = payment_owned.clone();
            let slot = slot.clone();
            Box::pin(async move {
                let noop = |_: &'static str| String::new();
                let payment = Payment {
                    loan: &loan,
                    rows: &rows,
                    figures: &figures,
                    actor_id,
                    idempotency: None,
                    respond: &noop,
                };
                let status = write_rows(txn, &payment, Some(entry_id), remind_ms).await?;
                if let Ok(mut stored) = slot.lock() {
                    *stored = status;
                }
                Ok(())
            })
        },
    )
    .await?;
    match outcome {
        Outcome::Posted(_) => Ok(Paid::Now(
            status_slot
                .lock()
                .map(|s| s.as_str())
                .unwrap_or(LoanStatus::Active.as_str()),
        )),
        Outcome::Replayed { response, .. } => Ok(Paid::Replayed(response)),
    }
}

/// The loan `loan_id` of `user_id` (another user's is 404) with its unpaid instalments.
pub async fn owned(
    db: &impl sea_orm::ConnectionTrait,
    user_id: i64,
    loan_id: i64,
) -> Result<(loan::Model, Vec<loan_instalment::Model>), Refusal> {
    let row = loan::Entity::find_by_id(loan_id)
        .filter(loan::Column::UserId.eq(user_id))
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::NotFound).with_field("id"))?;
    let rows = unpaid(db, row.id).await?;
    Ok((row, rows))
}

/// The stored first answer of `idempotency`'s key, if it was used for the same request
/// (`idempotency_key_reused` for another).
async fn seen(
    db: &DatabaseConnection,
    idempotency: Option<&Idempotency>,
) -> Result<Option<String>, Refusal> {
    let Some(idempotency) = idempotency else {
        return Ok(None);
    };
    let Some(row) = idempotency_record::Entity::find()
        .filter(idempotency_record::Column::UserId.eq(idempotency.user_id))
        .filter(idempotency_record::Column::Key.eq(&idempotency.key))
        .one(db)
        .await?
    else {
        return Ok(None);
    };
    if row.request_hash != idempotency.request_hash {
        return Err(crate::funds::service::ledger_error(
            LedgerError::KeyReused,
            "amount",
        ));
    }
    Ok(Some(row.response))
}

/// The user's repayment of loan `loan_id` by `mode`, naming `amount` (what the preview showed),
/// at `now`; `respond` makes the answer (stored for replays) from the figures and the status.
/// Answers it, or a replay's first answer.
#[allow(clippy::too_many_arguments)]
pub async fn repay(
    db: &DatabaseConnection,
    events: &LoanEvents,
    config: &LoansConfig,
    user_id: i64,
    loan_id: i64,
    mode: Mode,
    amount: Decimal,
    idempotency: Option<&Idempotency>,
    now: i64,
    respond: &(dyn Fn(&Figures, &'static str) -> String + Sync),
) -> Result<String, Refusal> {
    if let Some(first) = seen(db, idempotency).await? {
        return Ok(first);
    }
    let (row, rows) = owned(db, user_id, loan_id).await?;
    let figures = figures(&row, &rows, mode, now)?;
    if amount > figures.amount {
        return Err(Refusal::invalid(Msg::LoanRepayAboveOwed)
            .with_field("amount")
            .with_param("owed", figures.amount.to_string()));
    }
    if amount < figures.amount {
        return Err(Refusal::invalid(Msg::LoanRepayAmountChanged)
            .with_field("amount")
            .with_param("owed", figures.amount.to_string()));
    }
    let answer = |status: &'static str| respond(&figures, status);
    let paid = pay(
        db,
        config,
        &Payment {
            loan: &row,
            rows: &rows,
            figures: &figures,
            actor_id: Some(user_id),
            idempotency,
            respond: &answer,
        },
    )
    .await
    .map_err(|error| crate::funds::service::ledger_error(error, "amount"))?;
    match paid {
        Paid::Now(status) => {
            super::credit::refresh_by_id(db, user_id, now).await?;
            events.publish(
                user_id,
                "loan",
                &LoanMessage {
                    application_id: row.application_id,
                    status,
                },
            );
            Ok(respond(&figures, status))
        }
        Paid::Replayed(first) => Ok(first),
    }
}
