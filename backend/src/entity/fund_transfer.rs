//! A transfer from one user to another (its money moved by journal entry `entry_id`).

use sea_orm::entity::prelude::*;

/// One `fund_transfer` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "fund_transfer")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Sender.
    pub from_user_id: i64,
    /// Recipient.
    pub to_user_id: i64,
    /// Asset.
    pub coin: String,
    /// Amount (decimal text).
    pub amount: String,
    /// The journal entry.
    pub entry_id: i64,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
