//! A user's favourite market (`favourite` table): a market kind and a listed pair.

use sea_orm::entity::prelude::*;

/// One `favourite` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "favourite")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// `spot`, `contract` or `flash`.
    pub market: String,
    /// Pair id, lower case (`btcusdt`).
    pub symbol: String,
    /// When it was added, epoch milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
