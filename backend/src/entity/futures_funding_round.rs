//! A settled funding time of one contract (`futures_funding_round` table).

use sea_orm::entity::prelude::*;

/// One `futures_funding_round` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "futures_funding_round")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Pair, lower case.
    pub symbol: String,
    /// The funding time settled, Unix milliseconds (a multiple of the interval).
    pub funding_time: i64,
    /// The rate applied (fraction).
    pub rate: String,
    /// The mark price the payments were computed at.
    pub mark_price: String,
    /// How many positions paid or received.
    pub positions: i64,
    /// Settled after a restart, for a time that passed while the server was down.
    pub caught_up: bool,
    /// When it was settled, Unix milliseconds.
    pub settled_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
