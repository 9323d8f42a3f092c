//! A stop order on the mark price (`futures_stop` table, `contract/loss/*`): closes (part of) a position
//! at market when the mark reaches its trigger.

use sea_orm::entity::prelude::*;

/// One `futures_stop` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "futures_stop")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Pair, lower case.
    pub symbol: String,
    /// The side of the position it closes: `long` or `short`.
    pub position_side: String,
    /// Trigger (mark price).
    pub trigger_price: String,
    /// `above` (fires at or above) or `below`.
    pub direction: String,
    /// Quantity to close; none closes the whole position.
    pub quantity: Option<String>,
    /// `waiting`, `triggered` or `cancelled`.
    pub status: String,
    /// The market order it placed.
    pub order_id: Option<i64>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
