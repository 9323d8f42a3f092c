//! A spot order (`spot_order` table): what the user asked for, what has executed so far and what is
//! still held for it. Written with the entry that freezes its funds; updated by its market's engine
//! task with every fill, and when it leaves the book.

use sea_orm::entity::prelude::*;

/// One `spot_order` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "spot_order")]
pub struct Model {
    /// Order id (also its id in the engine).
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Pair, lower case (`btcusdt`).
    pub symbol: String,
    /// `buy` or `sell`.
    pub side: String,
    /// `limit`, `market` or `stop_limit`.
    pub order_type: String,
    /// `gtc`, `ioc` or `fok`.
    pub time_in_force: String,
    /// Refused if it would take liquidity.
    pub post_only: bool,
    /// Limit price (decimal text); none for a market order.
    pub price: Option<String>,
    /// Base quantity ordered; none for a market buy by quote amount.
    pub quantity: Option<String>,
    /// Quote amount to spend (market buy by amount).
    pub quote_amount: Option<String>,
    /// Stop-limit trigger price.
    pub trigger_price: Option<String>,
    /// Stop-limit: `above` (last price at or above the trigger) or `below`.
    pub trigger_condition: Option<String>,
    /// Base quantity executed.
    pub filled_quantity: String,
    /// Quote amount executed.
    pub filled_amount: String,
    /// Fees paid so far, in `fee_coin`.
    pub fee: String,
    /// The asset fees are charged in: the one received.
    pub fee_coin: String,
    /// The asset held for the order: quote for a buy, base for a sell.
    pub frozen_coin: String,
    /// What is still held (released when the order leaves the book).
    pub frozen_remaining: String,
    /// `waitTrigger`, `waitDeal`, `partDeal`, `dealTotol` or `cancelled`.
    pub status: String,
    /// Why it was cancelled: `user`, `self_trade`, `immediate_remainder`, `no_liquidity`.
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
