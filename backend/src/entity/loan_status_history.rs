//! One transition of a loan application or loan (`loan_status_history` table): from which status
//! to which, when, by whom (none: the system), and why.

use sea_orm::entity::prelude::*;

/// One `loan_status_history` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "loan_status_history")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The application.
    pub application_id: i64,
    /// The loan, once there is one.
    pub loan_id: Option<i64>,
    /// The status before (none for the submission).
    pub from_status: Option<String>,
    /// The status after: `pending`, `approved`, `rejected`, `active`, `overdue`, `settled`.
    pub to_status: String,
    /// Who caused it: the user, an operator, or none (the due sweep).
    pub actor_id: Option<i64>,
    /// Why (a rejection's reason, `early_repayment`, `auto_deduction`, …).
    pub reason: Option<String>,
    /// When, Unix milliseconds (the injectable clock's).
    pub at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
