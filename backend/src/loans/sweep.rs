//! The due sweep: a periodic job on the injectable clock that looks only at the loans whose
//! `next_action_at` has come (an index on it), so its cost follows the loans due, not the loans
//! open. For each such loan, at the sweep's moment:
//!
//! 1. **Deduction**: the instalments due are paid from the borrower's funding bucket, as many (in
//!    order) as the balance covers, in one repayment entry (`loan_repay`, stage `auto`); the loan
//!    is settled when the last is paid.
//! 2. **Overdue**: an instalment still unpaid past its due time makes the loan `overdue`; its
//!    penalty (wasm-core's `overdue_penalty`: nothing for the grace days, then the published daily
//!    rate for each day begun) is brought up to date, and the loan is looked at again when the next
//!    day begins — so the penalty grows day by day, and a deduction is retried daily.
//! 3. **Notices**, each sent once per instalment (a flag on its row, set in the same transaction
//!    as the notice's row): a reminder `remind_days_before` days before the due time, and an
//!    overdue notice with the grace days and the penalty rate — by e-mail and on the user channel.
//!
//! Deductions commit one loan at a time (each is a journal entry); the bookkeeping of steps 2 and
//! 3 commits for up to 100 loans at once (one transaction, one sync to disk), its channel messages
//! published after the commit. Every change is conditional on the loan's version, so a user's
//! repayment and the sweep never both act on one instalment, and a sweep that stops half-way leaves every loan consistent: the
//! next one takes up what is left. Penalties are computed from the due time, not accumulated, so
//! a sweep after downtime charges exactly what a sweep every day would have. [`run`] repeats the
//! sweep on the instance that holds the `loan_sweep` lease.

use std::sync::Arc;
use std::time::Duration;

use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, DatabaseConnection, DatabaseTransaction, EntityTrait, QueryFilter, QueryOrder,
    QuerySelect, TransactionTrait, sea_query::Expr,
};
use tokio::sync::watch;

use super::repay::{Figures, Mode, Paid, Payment, figures, pay, penalty_of, unpaid};
use super::review::LoanMessage;
use super::{LoanEvents, LoanStatus, Transition, credit, record};
use crate::clock::{Clock, DAY_MS};
use crate::config::LoansConfig;
use crate::entity::{loan, loan_instalment};
use crate::funds::ledger::{self, AccountRef};
use crate::lease::Lease;
use crate::notify::{LoanFacts, Notice, enqueue};
use crate::refusal::Refusal;

/// The lease's name.
pub const LEASE: &str = "loan_sweep";

/// When the sweep next has something to do for a loan whose unpaid instalments (in order) are
/// `rows`, seen at `now`: an overdue instalment's next day, the first coming instalment's
/// reminder (if not sent) or due time. `None` when nothing is left.
pub fn next_action(rows: &[loan_instalment::Model], now: i64, remind_ms: i64) -> Option<i64> {
    let mut next: Option<i64> = None;
    let mut take = |at: i64| next = Some(next.map_or(at, |n: i64| n.min(at)));
    for row in rows {
        if row.due_time <= now {
            take(row.due_time + ((now - row.due_time) / DAY_MS + 1) * DAY_MS);
        } else {
            take(if row.reminded {
                row.due_time
            } else {
                row.due_time - remind_ms
            });
            break;
        }
    }
    next
}

/// What one sweep did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct SweepReport {
    /// Loans looked at.
    pub looked: usize,
    /// Automatic deductions made.
    pub deducted: usize,
    /// Loans settled.
    pub settled: usize,
    /// Overdue notices sent.
    pub overdue_notices: usize,
    /// Reminders sent.
    pub reminders: usize,
}

/// One sweep at `now` (the injectable clock's time) over at most `config.sweep_batch` loans due.
pub async fn sweep(
    db: &DatabaseConnection,
    events: &LoanEvents,
    config: &LoansConfig,
    now: i64,
) -> Result<SweepReport, Refusal> {
    let due = loan::Entity::find()
        .filter(loan::Column::NextActionAt.lte(now))
        .order_by_asc(loan::Column::NextActionAt)
        .limit(config.sweep_batch.max(1))
        .all(db)
        .await?;
    let remind_ms = i64::from(config.remind_days_before) * DAY_MS;
    let mut report = SweepReport::default();
    let mut upkeep = Vec::new();
    for row in due {
        report.looked += 1;
        match look_at(db, events, config, row, now, &mut report).await {
            Ok(Some(left)) => upkeep.push(left),
            Ok(None) => {}
            Err(error) => tracing::warn!(?error, "loan sweep: a loan is left for the next sweep"),
        }
    }
    // The bookkeeping of many loans commits together: one transaction (one sync to disk) per
    // chunk instead of one per loan; a chunk short enough not to hold writers up for long.
    for chunk in upkeep.chunks_mut(UPKEEP_CHUNK) {
        let mut outbox = Vec::new();
        let mut counts = SweepReport::default();
        let txn = db.begin().await?;
        let mut failed = None;
        for (row, rows) in chunk.iter_mut() {
            if let Err(error) =
                keep_up(&txn, row, rows, now, remind_ms, &mut counts, &mut outbox).await
            {
                failed = Some(error);
                break;
            }
        }
        if let Some(error) = failed {
            txn.rollback().await.ok();
            tracing::warn!(
                ?error,
                "loan sweep: a chunk of loans is left for the next sweep"
            );
            continue;
        }
        txn.commit().await?;
        report.overdue_notices += counts.overdue_notices;
        report.reminders += counts.reminders;
        for (user_id, kind, data) in outbox {
            events.publish(user_id, kind, &data);
        }
    }
    Ok(report)
}

/// Loans whose bookkeeping commits in one transaction.
const UPKEEP_CHUNK: usize = 100;

/// A message for a user's channel, published once its transaction has committed.
type Outgoing = (i64, &'static str, serde_json::Value);

/// The most due instalments (in order) that `balance` pays, with their figures.
fn affordable(
    row: &loan::Model,
    rows: &[loan_instalment::Model],
    due: usize,
    balance: Decimal,
    now: i64,
) -> Result<Option<Figures>, Refusal> {
    let mut best = None;
    for count in 1..=due {
        let cost = figures(row, rows, Mode::Next(count as u32), now)?;
        if cost.amount > balance {
            break;
        }
        best = Some(cost);
    }
    Ok(best)
}

async fn look_at(
    db: &DatabaseConnection,
    events: &LoanEvents,
    config: &LoansConfig,
    mut row: loan::Model,
    now: i64,
    report: &mut SweepReport,
) -> Result<Option<(loan::Model, Vec<loan_instalment::Model>)>, Refusal> {
    let mut rows = unpaid(db, row.id).await?;
    let due = rows.iter().take_while(|r| r.due_time <= now).count();
    let mut deducted = false;
    if due > 0 {
        let balance = ledger::balance(db, AccountRef::funding(row.user_id), &row.coin).await?;
        if let Some(cost) = affordable(&row, &rows, due, balance, now)? {
            let noop = |_: &'static str| String::new();
            let payment = Payment {
                loan: &row,
                rows: &rows,
                figures: &cost,
                actor_id: None,
                idempotency: None,
                respond: &noop,
            };
            match pay(db, config, &payment).await {
                Ok(Paid::Now(status)) => {
                    report.deducted += 1;
                    deducted = true;
                    events.publish(
                        row.user_id,
                        "loan",
                        &LoanMessage {
                            application_id: row.application_id,
                            status,
                        },
                    );
                    credit::refresh_by_id(db, row.user_id, now).await?;
                    if status == LoanStatus::Settled.as_str() {
                        report.settled += 1;
                        return Ok(None);
                    }
                }
                // The balance moved or a repayment came first: look again from the rows.
                Ok(Paid::Replayed(_)) | Err(_) => {}
            }
            row = loan::Entity::find_by_id(row.id)
                .one(db)
                .await?
                .ok_or_else(|| Refusal::internal("a swept loan vanished"))?;
            rows = unpaid(db, row.id).await?;
        }
    }
    // A deduction moved the next look ahead; what is still overdue is brought up to date now.
    if row.status == LoanStatus::Settled.as_str()
        || (!deducted && row.next_action_at.is_none_or(|at| at > now))
    {
        return Ok(None);
    }
    Ok(Some((row, rows)))
}

/// A notice to send about one instalment.
struct Pending {
    instalment_id: i64,
    notice: Notice,
    kind: &'static str,
    number: i32,
    amount: String,
    due_time: i64,
}

/// Brings `row`'s overdue status, penalties, notices and next look up to date in `txn`,
/// conditionally on its version (a loan changed meanwhile is left as it is); what to publish
/// once `txn` commits goes to `outbox`.
async fn keep_up(
    txn: &DatabaseTransaction,
    row: &loan::Model,
    rows: &mut [loan_instalment::Model],
    now: i64,
    remind_ms: i64,
    report: &mut SweepReport,
    outbox: &mut Vec<Outgoing>,
) -> Result<(), Refusal> {
    let overdue = rows.iter().any(|r| r.due_time <= now);
    let status = if overdue {
        LoanStatus::Overdue
    } else {
        LoanStatus::Active
    };
    let mut penalties = Vec::new();
    let mut notices = Vec::new();
    let penalty_percent = (super::decimal(&row.penalty_day_rate)? * Decimal::ONE_HUNDRED)
        .normalize()
        .to_string();
    for r in rows.iter_mut() {
        let facts = LoanFacts {
            loan_id: row.id,
            amount: &r.amount,
            coin: &row.coin,
            at_ms: r.due_time,
        };
        if r.due_time <= now {
            let penalty = penalty_of(row, r, now)?.penalty.normalize().to_string();
            if penalty != r.penalty {
                penalties.push((r.id, penalty));
            }
            if !r.overdue_notified {
                r.overdue_notified = true;
                notices.push(Pending {
                    instalment_id: r.id,
                    notice: Notice::loan_overdue(facts, row.grace_days, &penalty_percent),
                    kind: "overdue",
                    number: r.number,
                    amount: r.amount.clone(),
                    due_time: r.due_time,
                });
            }
        } else {
            if !r.reminded && now >= r.due_time - remind_ms {
                r.reminded = true;
                notices.push(Pending {
                    instalment_id: r.id,
                    notice: Notice::loan_due_soon(facts),
                    kind: "due_soon",
                    number: r.number,
                    amount: r.amount.clone(),
                    due_time: r.due_time,
                });
            }
            break;
        }
    }
    let next = next_action(rows, now, remind_ms);
    // The write comes first (SQLite takes its write lock at once) and settles any race.
    let updated = loan::Entity::update_many()
        .col_expr(loan::Column::Version, Expr::value(row.version + 1))
        .col_expr(loan::Column::Status, Expr::value(status.as_str()))
        .col_expr(loan::Column::NextActionAt, Expr::value(next))
        .filter(loan::Column::Id.eq(row.id))
        .filter(loan::Column::Version.eq(row.version))
        .exec(txn)
        .await?;
    if updated.rows_affected != 1 {
        return Ok(());
    }
    for (id, penalty) in &penalties {
        loan_instalment::Entity::update_many()
            .col_expr(
                loan_instalment::Column::Penalty,
                Expr::value(penalty.clone()),
            )
            .filter(loan_instalment::Column::Id.eq(*id))
            .exec(txn)
            .await?;
    }
    for pending in &notices {
        let column = if pending.kind == "overdue" {
            loan_instalment::Column::OverdueNotified
        } else {
            loan_instalment::Column::Reminded
        };
        loan_instalment::Entity::update_many()
            .col_expr(column, Expr::value(true))
            .filter(loan_instalment::Column::Id.eq(pending.instalment_id))
            .exec(txn)
            .await?;
        enqueue(txn, row.user_id, pending.notice.clone()).await?;
    }
    if status.as_str() != row.status {
        record(
            txn,
            Transition {
                application_id: row.application_id,
                loan_id: Some(row.id),
                from: Some(if overdue { "active" } else { "overdue" }),
                to: status.as_str(),
                actor_id: None,
                reason: overdue.then(|| "due_unpaid".to_owned()),
                at: now,
            },
        )
        .await?;
    }
    for pending in notices {
        if pending.kind == "overdue" {
            report.overdue_notices += 1;
        } else {
            report.reminders += 1;
        }
        outbox.push((
            row.user_id,
            "loan_notice",
            serde_json::json!({
                "loanId": row.id,
                "kind": pending.kind,
                "instalment": pending.number,
                "amount": pending.amount,
                "coin": row.coin,
                "dueTime": pending.due_time,
            }),
        ));
    }
    if status.as_str() != row.status {
        credit::refresh_by_id(txn, row.user_id, now).await?;
        outbox.push((
            row.user_id,
            "loan",
            serde_json::json!({"applicationId": row.application_id, "status": status.as_str()}),
        ));
    }
    Ok(())
}

/// Sweeps every `config.sweep_every_ms` while this instance holds the lease, until `shutdown`.
pub async fn run(
    db: DatabaseConnection,
    events: LoanEvents,
    config: LoansConfig,
    clock: Clock,
    lease: Arc<dyn Lease>,
    mut shutdown: watch::Receiver<bool>,
) {
    let every = Duration::from_millis(config.sweep_every_ms.max(10));
    loop {
        tokio::select! {
            _ = tokio::time::sleep(every) => {}
            _ = shutdown.changed() => return,
        }
        match lease.acquire().await {
            Ok(true) => {
                if let Err(error) = sweep(&db, &events, &config, clock.now_ms()).await {
                    tracing::warn!(?error, "loan sweep failed; retrying");
                }
            }
            Ok(false) => {}
            Err(error) => tracing::warn!(%error, "loan sweep lease"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(number: i32, due_time: i64, reminded: bool) -> loan_instalment::Model {
        loan_instalment::Model {
            id: i64::from(number),
            loan_id: 1,
            number,
            due_time,
            principal: "0".into(),
            interest: "1".into(),
            amount: "1".into(),
            penalty: "0".into(),
            status: "pending".into(),
            paid_amount: None,
            paid_at: None,
            paid_entry_id: None,
            reminded,
            overdue_notified: false,
        }
    }

    #[test]
    fn the_next_look_is_the_reminder_then_the_due_time_then_each_overdue_day() {
        let remind = 3 * DAY_MS;
        let due = 30 * DAY_MS;
        assert_eq!(
            next_action(&[row(1, due, false)], 0, remind),
            Some(due - remind)
        );
        assert_eq!(next_action(&[row(1, due, true)], 0, remind), Some(due));
        // Overdue: the next day begun after the due time.
        assert_eq!(
            next_action(&[row(1, due, true)], due, remind),
            Some(due + DAY_MS)
        );
        assert_eq!(
            next_action(&[row(1, due, true)], due + DAY_MS + 5, remind),
            Some(due + 2 * DAY_MS)
        );
        // Only the first coming instalment counts; an overdue one's day may come first.
        let rows = [
            row(1, due, true),
            row(2, 2 * due, false),
            row(3, 3 * due, false),
        ];
        assert_eq!(
            next_action(&rows, due + 1, remind),
            Some((due + DAY_MS).min(2 * due - remind))
        );
        assert_eq!(next_action(&[], 0, remind), None);
    }
}
