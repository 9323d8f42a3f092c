//! One posting of a journal entry: a signed amount on one account (append-only).

use sea_orm::entity::prelude::*;

/// One `journal_posting` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "journal_posting")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The entry.
    pub entry_id: i64,
    /// The account.
    pub account_id: i64,
    /// The account's asset (the entry sums to zero per asset).
    pub asset: String,
    /// Signed amount (decimal text): positive credits the account.
    pub amount: String,
    /// The account's balance after this posting.
    pub balance_after: String,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
