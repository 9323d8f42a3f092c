//! One price tick of the market source (`market_tick` table), appended in order per symbol.

use sea_orm::entity::prelude::*;

/// One tick.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "market_tick")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Pair id (`btcusdt`).
    pub symbol: String,
    /// Position of the tick in its symbol's series, from 1.
    pub seq: i64,
    /// Last price at this tick (decimal string).
    pub price: String,
    /// Base volume traded during the tick (decimal string).
    pub volume: String,
    /// Number of trades during the tick.
    pub trade_count: i32,
    /// Time of the tick, epoch milliseconds.
    pub ts_ms: i64,
}

/// No relations yet.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
