//! A futures order (`futures_order` table): what was ordered, what executed, what is still held.
//! Written and updated by its symbol's engine task with the journal entries it causes.

use sea_orm::entity::prelude::*;

/// One `futures_order` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "futures_order")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Pair, lower case (`btcusdt`).
    pub symbol: String,
    /// `buy` or `sell`.
    pub side: String,
    /// `market` or `limit`.
    pub order_type: String,
    /// `user`, `stop` (a stop order), `take_profit`, `stop_loss` or `liquidation`.
    pub source: String,
    /// Limit price; none for a market order.
    pub price: Option<String>,
    /// Quantity ordered (base asset).
    pub quantity: String,
    /// Leverage of what the order opens.
    pub leverage: String,
    /// `isolated` or `cross`.
    pub margin_mode: String,
    /// Only reduces the position.
    pub reduce_only: bool,
    /// Closes the whole position.
    pub close_position: bool,
    /// Quantity executed.
    pub filled_quantity: String,
    /// `Σ quantity × price` executed.
    pub filled_value: String,
    /// Fees paid (USDT).
    pub fee: String,
    /// PnL the order realised (USDT).
    pub realised_pnl: String,
    /// Still held in the futures margin bucket for the order.
    pub hold_remaining: String,
    /// `waitDeal`, `partDeal`, `dealTotol` or `cancelled`.
    pub status: String,
    /// `user`, `no_liquidity`, `position_closed`, `reduce_only`.
    pub cancel_reason: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
