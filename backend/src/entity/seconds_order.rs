//! A seconds (flash) contract (`seconds_order` table): the call, its stake and payout rate, the
//! opening tick it was accepted at and its fixed expiry; once settled, the settlement tick, the
//! result, the payout and the entries that moved the money.

use sea_orm::entity::prelude::*;

/// One `seconds_order` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "seconds_order")]
pub struct Model {
    /// Order id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Pair, lower case (`btcusdt`).
    pub symbol: String,
    /// `up` or `down`.
    pub direction: String,
    /// The period: seconds from acceptance to expiry.
    pub period_seconds: i32,
    /// The stake, USDT (decimal text, a whole number).
    pub stake: String,
    /// The payout rate in force at acceptance (decimal text).
    pub payout_rate: String,
    /// `open` or `settled`.
    pub status: String,
    /// `win`, `loss` or `tie` once settled.
    pub result: Option<String>,
    /// When the order was accepted, epoch ms.
    pub accepted_ms: i64,
    /// `accepted_ms + period × 1000`, fixed at acceptance.
    pub expiry_ms: i64,
    /// The opening tick: its `seq` in the pair's stored series.
    pub open_tick_seq: i64,
    /// The opening tick's price (decimal text).
    pub open_price: String,
    /// The opening tick's time, epoch ms.
    pub open_tick_ms: i64,
    /// The settlement tick's `seq`, once settled.
    pub settle_tick_seq: Option<i64>,
    /// The settlement tick's price, once settled.
    pub settle_price: Option<String>,
    /// The settlement tick's time, once settled.
    pub settle_tick_ms: Option<i64>,
    /// What settlement credited: stake + profit, the stake, or 0.
    pub payout: Option<String>,
    /// Signed result: `+stake × rate`, `0` or `−stake`.
    pub profit: Option<String>,
    /// The name of the settlement rule.
    pub rule: String,
    /// The entry that moved the stake to the seconds book.
    pub open_entry_id: i64,
    /// The entry that paid the payout (none for a loss).
    pub settle_entry_id: Option<i64>,
    /// When it was settled, epoch ms.
    pub settled_at: Option<i64>,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
