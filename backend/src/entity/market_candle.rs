//! One closed 1-minute candle of a pair (`market_candle` table); decimals as strings.

use sea_orm::entity::prelude::*;

/// One candle.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "market_candle")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Pair id (`btcusdt`).
    pub symbol: String,
    /// First millisecond of the minute.
    pub open_time: i64,
    /// First price of the minute.
    pub open: String,
    /// Highest price.
    pub high: String,
    /// Lowest price.
    pub low: String,
    /// Last price.
    pub close: String,
    /// Base volume.
    pub base_volume: String,
    /// Quote volume.
    pub quote_volume: String,
    /// Number of trades.
    pub trade_count: i64,
}

/// No relations yet.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
