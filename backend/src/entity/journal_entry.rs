//! One balanced journal entry (append-only).

use sea_orm::entity::prelude::*;

/// One `journal_entry` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "journal_entry")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// What happened (`deposit`, `withdrawal`, `transfer`, `conversion`, `fee`, …).
    pub kind: String,
    /// The business object it belongs to (`deposit:12`).
    pub reference: String,
    /// The user it concerns, for their bills.
    pub user_id: Option<i64>,
    /// Who caused it (the user, or the operator who reviewed).
    pub actor_id: Option<i64>,
    /// Free text.
    pub memo: String,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
