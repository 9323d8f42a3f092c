//! One instalment of a loan's schedule (`loan_instalment` table), as wasm-core's `loan_schedule`
//! computed it at approval, with what paying it took and the notices sent about it.

use sea_orm::entity::prelude::*;

/// One `loan_instalment` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "loan_instalment")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The loan.
    pub loan_id: i64,
    /// 1 for the first.
    pub number: i32,
    /// When it falls due, Unix milliseconds.
    pub due_time: i64,
    /// The principal it repays.
    pub principal: String,
    /// The interest it pays.
    pub interest: String,
    /// `principal + interest`.
    pub amount: String,
    /// The penalty accrued: while unpaid, as of the sweep's last look; once paid, what was charged.
    pub penalty: String,
    /// `pending` or `paid` (`paid` also when an early repayment settled the loan).
    pub status: String,
    /// What paying it took (its amount and penalty; for an early repayment, its share).
    pub paid_amount: Option<String>,
    /// Paid, Unix milliseconds.
    pub paid_at: Option<i64>,
    /// The entry that paid it.
    pub paid_entry_id: Option<i64>,
    /// Whether the reminder before its due time was sent.
    pub reminded: bool,
    /// Whether the overdue notice was sent.
    pub overdue_notified: bool,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
