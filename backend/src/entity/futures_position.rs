//! A futures position (`futures_position` table) from opening to closing or liquidation.

use sea_orm::entity::prelude::*;

/// One `futures_position` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "futures_position")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Pair, lower case.
    pub symbol: String,
    /// `long` or `short`.
    pub side: String,
    /// Open size (base asset); 0 once closed.
    pub size: String,
    /// Average entry price.
    pub entry_price: String,
    /// Leverage.
    pub leverage: String,
    /// `isolated` or `cross`.
    pub margin_mode: String,
    /// Isolated margin (0 for cross).
    pub margin: String,
    /// Take-profit trigger (mark price).
    pub take_profit: Option<String>,
    /// Stop-loss trigger (mark price).
    pub stop_loss: Option<String>,
    /// PnL realised so far.
    pub realised_pnl: String,
    /// Size closed so far.
    pub closed_size: String,
    /// `Σ closed quantity × price`.
    pub closed_value: String,
    /// Trading fees paid.
    pub fees: String,
    /// Funding paid (positive) or received (negative).
    pub funding: String,
    /// The liquidation price wasm-core gave at the last change.
    pub liquidation_price: Option<String>,
    /// `open`, `closed` or `liquidated`.
    pub status: String,
    /// What a liquidation paid the security fund.
    pub liquidation_fee: String,
    /// A loss beyond the margin that the security fund covered.
    pub fund_cover: String,
    /// Unix milliseconds.
    pub opened_at: i64,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
    /// Unix milliseconds.
    pub closed_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
