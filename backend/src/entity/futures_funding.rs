//! A funding payment of one position (`futures_funding` table).

use sea_orm::entity::prelude::*;

/// One `futures_funding` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "futures_funding")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Pair, lower case.
    pub symbol: String,
    /// The position.
    pub position_id: i64,
    /// `long` or `short`.
    pub side: String,
    /// Size at the funding.
    pub size: String,
    /// Mark price at the funding.
    pub mark_price: String,
    /// Funding rate (fraction).
    pub rate: String,
    /// Paid (positive) or received (negative), USDT.
    pub payment: String,
    /// Journal entry.
    pub entry_id: i64,
    /// Unix milliseconds.
    pub funding_time: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
