//! Crypto loans (issue 25): products operators offer, users' applications with three identity
//! images, the operator's review that pays the principal out of the house lending pool,
//! repayments (early in full at any time, or the next instalments), the due sweep that deducts
//! what falls due, marks what it cannot as overdue with the published penalty, and reminds, and
//! the explainable credit score that gates products and amounts.
//!
//! Every figure a loan charges — its schedule, what an early repayment costs at a moment, an
//! overdue instalment's penalty — is computed by `wasm_core::loan` (the screens preview the same
//! functions); this module never computes one itself. A loan's terms are copied from its product
//! when it is approved, so a later product change never rewrites a running loan.
//!
//! Files: [`products`] (the product rules and forms), [`credit`] (the score), [`apply`],
//! [`review`], [`repay`], [`sweep`], [`queries`] (what the screens read), [`views`] (the answer
//! shapes), [`api`] (the user's HTTP; the operators' is `crate::admin::loans_api`).

pub mod api;
pub mod apply;
pub mod credit;
pub mod products;
pub mod queries;
pub mod repay;
pub mod review;
pub mod sweep;
pub mod views;

use std::sync::Arc;

use rust_decimal::Decimal;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ConnectionTrait, DbErr};
use tokio::sync::broadcast;
use wasm_core::loan::{LoanTerms, RepayWay};

use crate::entity::{loan, loan_status_history};
use crate::refusal::Refusal;
use crate::user::events::UserEvent;

/// Where an application stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ApplicationStatus {
    /// Waiting for an operator.
    Pending,
    /// Approved: a loan was created and paid out.
    Approved,
    /// Rejected, with a reason the user sees.
    Rejected,
}

impl ApplicationStatus {
    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Pending => "pending",
            Self::Approved => "approved",
            Self::Rejected => "rejected",
        }
    }
}

/// Where a loan stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LoanStatus {
    /// Running; nothing overdue.
    Active,
    /// An instalment is past its due time and unpaid.
    Overdue,
    /// Everything was paid.
    Settled,
}

impl LoanStatus {
    /// The stored value.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Active => "active",
            Self::Overdue => "overdue",
            Self::Settled => "settled",
        }
    }
}

/// The instalment status of one not yet paid.
pub const UNPAID: &str = "pending";
/// The instalment status of one paid.
pub const PAID: &str = "paid";

/// The entry kind of a loan paid out (lending pool → the borrower's funding).
pub const DISBURSE_KIND: &str = "loan_disburse";
/// The entry kind of a repayment (funding → the lending pool, interest and penalty → fees).
pub const REPAY_KIND: &str = "loan_repay";
/// The entry kind of money an operator puts into the lending pool.
pub const POOL_FUNDING_KIND: &str = "loan_pool_funding";

/// A stored decimal (written by this module only).
pub fn decimal(text: &str) -> Result<Decimal, Refusal> {
    wasm_core::money::parse_decimal(text).map_err(Refusal::internal)
}

/// The frozen terms of `row` as wasm-core reads them.
pub fn terms_of(row: &loan::Model) -> Result<LoanTerms, Refusal> {
    Ok(LoanTerms {
        principal: decimal(&row.principal)?,
        day_rate: decimal(&row.day_rate)?,
        cycle_days: u32::try_from(row.cycle_days).map_err(Refusal::internal)?,
        repay_way: row
            .repay_way
            .parse::<RepayWay>()
            .map_err(Refusal::internal)?,
        start_time: row.start_time,
        scale: u32::try_from(row.scale).map_err(Refusal::internal)?,
    })
}

/// One transition to record.
#[derive(Debug, Clone)]
pub struct Transition {
    /// The application.
    pub application_id: i64,
    /// The loan, once there is one.
    pub loan_id: Option<i64>,
    /// The status before (none for a submission).
    pub from: Option<&'static str>,
    /// The status after.
    pub to: &'static str,
    /// Who: the user, an operator, or none (the sweep).
    pub actor_id: Option<i64>,
    /// Why.
    pub reason: Option<String>,
    /// When (the injectable clock's time).
    pub at: i64,
}

/// Records `transition` on `db` (the transaction of the change it records).
pub async fn record(db: &impl ConnectionTrait, transition: Transition) -> Result<(), DbErr> {
    loan_status_history::ActiveModel {
        application_id: Set(transition.application_id),
        loan_id: Set(transition.loan_id),
        from_status: Set(transition.from.map(str::to_owned)),
        to_status: Set(transition.to.to_owned()),
        actor_id: Set(transition.actor_id),
        reason: Set(transition.reason),
        at: Set(transition.at),
        ..Default::default()
    }
    .insert(db)
    .await?;
    Ok(())
}

/// The loan messages of users' private channels (`loan` with the loan or application changed);
/// the user channel subscribes, the review, repayments and the sweep publish after committing.
#[derive(Debug, Clone)]
pub struct LoanEvents {
    sender: broadcast::Sender<Arc<UserEvent>>,
}

impl Default for LoanEvents {
    fn default() -> Self {
        Self {
            sender: broadcast::channel(1024).0,
        }
    }
}

impl LoanEvents {
    /// Publishes `{"type": kind, "data": data}` to `user_id`'s channel (nobody listening is fine).
    pub fn publish<T: serde::Serialize>(&self, user_id: i64, kind: &str, data: &T) {
        let _ = self
            .sender
            .send(Arc::new(UserEvent::new(user_id, kind, data)));
    }

    /// A receiver of every loan message.
    pub fn subscribe(&self) -> broadcast::Receiver<Arc<UserEvent>> {
        self.sender.subscribe()
    }
}
