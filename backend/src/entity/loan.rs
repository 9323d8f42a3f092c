//! A loan (`loan` table), created when its application is approved, with the product's terms
//! frozen at that moment; what has been repaid; when the due sweep next has to look at it.

use sea_orm::entity::prelude::*;

/// One `loan` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "loan")]
pub struct Model {
    /// Loan id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The approved application (one loan each).
    pub application_id: i64,
    /// The borrower.
    pub user_id: i64,
    /// The product it was taken from.
    pub product_id: i64,
    /// The coin lent.
    pub coin: String,
    /// The decimals of its amounts.
    pub scale: i32,
    /// The amount lent (decimal text).
    pub principal: String,
    /// Interest per loan day, frozen at approval.
    pub day_rate: String,
    /// The cycle in days.
    pub cycle_days: i32,
    /// The repayment way.
    pub repay_way: String,
    /// Penalty per day begun after the grace days, frozen at approval.
    pub penalty_day_rate: String,
    /// Grace days, frozen at approval.
    pub grace_days: i32,
    /// The lending institution, as shown when approved.
    pub institution: String,
    /// The moment of borrowing (the disbursement), Unix milliseconds.
    pub start_time: i64,
    /// When the last instalment falls due.
    pub end_time: i64,
    /// The schedule's total interest.
    pub total_interest: String,
    /// `active`, `overdue` or `settled`.
    pub status: String,
    /// Principal repaid so far.
    pub principal_paid: String,
    /// Interest paid so far.
    pub interest_paid: String,
    /// Penalties paid so far.
    pub penalty_paid: String,
    /// When the due sweep has something to do (a reminder, a due time, a penalty day); NULL once
    /// settled.
    pub next_action_at: Option<i64>,
    /// Bumped by every change (repayments and the sweep update it conditionally).
    pub version: i32,
    /// The entry that paid the principal out.
    pub disburse_entry_id: i64,
    /// Created, Unix milliseconds.
    pub created_at: i64,
    /// Settled, Unix milliseconds.
    pub settled_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
