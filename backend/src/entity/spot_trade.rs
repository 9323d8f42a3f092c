//! A spot fill (`spot_trade` table): one match between a taker and a maker order at the maker's
//! price, settled by journal entry `entry_id`. The house market maker's side has no order or user.

use sea_orm::entity::prelude::*;

/// One `spot_trade` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "spot_trade")]
pub struct Model {
    /// Fill id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Pair, lower case.
    pub symbol: String,
    /// The taker's side: `buy` or `sell`.
    pub taker_side: String,
    /// The taker's order (none: the house).
    pub taker_order_id: Option<i64>,
    /// The taker (none: the house).
    pub taker_user_id: Option<i64>,
    /// The maker's order (none: the house).
    pub maker_order_id: Option<i64>,
    /// The maker (none: the house).
    pub maker_user_id: Option<i64>,
    /// Price (the maker's).
    pub price: String,
    /// Base quantity.
    pub quantity: String,
    /// Quote amount: price × quantity.
    pub amount: String,
    /// The taker's fee, in the asset the taker received.
    pub taker_fee: String,
    /// The maker's fee, in the asset the maker received.
    pub maker_fee: String,
    /// The settling journal entry.
    pub entry_id: i64,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
