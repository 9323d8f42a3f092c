//! A user's leverage and margin mode for one symbol (`futures_setting` table).

use sea_orm::entity::prelude::*;

/// One `futures_setting` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "futures_setting")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Pair, lower case.
    pub symbol: String,
    /// Leverage of new orders.
    pub leverage: String,
    /// `isolated` or `cross`.
    pub margin_mode: String,
    /// Unix milliseconds.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
