//! The wire shapes of seconds contracts (spec section 3's order fields for seconds contracts:
//! openPrice, closePrice, profit, countdown, status, closeTime), shared by the HTTP answers and the
//! user channel's `seconds_order` and `SETTLEMENT` messages so both read the same.

use poem_openapi::{Enum, Object};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::settle::{Direction, Outcome};
use crate::entity::seconds_order;

/// Where a seconds contract is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum SecondsStatus {
    /// Accepted; the countdown runs until the expiry.
    Open,
    /// Settled at the settlement tick; `result` says how.
    Settled,
}

/// A seconds contract as the user sees it.
#[derive(Debug, Clone, PartialEq, Eq, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct SecondsOrder {
    /// Order id.
    pub id: i64,
    /// Pair, lower case (`btcusdt`).
    pub symbol: String,
    /// The call: `up` or `down`.
    pub direction: Direction,
    /// The period in seconds.
    pub period_seconds: i32,
    /// The stake, USDT (a whole number).
    pub quantity: String,
    /// The payout rate in force at acceptance (`0.85`: a right call earns 85 % of the stake).
    pub payout_rate: String,
    /// `open` or `settled`.
    pub status: SecondsStatus,
    /// `win`, `loss` or `tie` once settled.
    pub result: Option<Outcome>,
    /// When the order was accepted, epoch ms (`commissTime`).
    pub commiss_time: i64,
    /// The expiry, epoch ms: acceptance + period, fixed at acceptance.
    pub close_time: i64,
    /// Whole seconds left until the expiry when this was answered (0 once past).
    pub countdown: i64,
    /// The opening price: the price of the opening tick.
    pub open_price: String,
    /// The opening tick's `seq` in the pair's stored series.
    pub open_tick_seq: i64,
    /// The opening tick's time, epoch ms.
    pub open_tick_time: i64,
    /// The settlement price: the price of the settlement tick, once settled.
    pub close_price: Option<String>,
    /// The settlement tick's `seq`, once settled.
    pub settle_tick_seq: Option<i64>,
    /// The settlement tick's time, epoch ms, once settled.
    pub settle_tick_time: Option<i64>,
    /// Signed profit once settled: `+stake × payoutRate` (win), `0` (tie), `−stake` (loss).
    pub profit: Option<String>,
    /// What settlement credited once settled: stake + profit (win), the stake (tie), 0 (loss).
    pub payout: Option<String>,
    /// The settlement rule (`last_tick_at_or_before_expiry`, see docs/api.md).
    pub rule: String,
    /// When it was settled, epoch ms.
    pub settled_at: Option<i64>,
}

fn normal(text: &str) -> String {
    wasm_core::money::parse_decimal(text)
        .map(|d: Decimal| d.normalize().to_string())
        .unwrap_or_else(|_| text.to_owned())
}

impl SecondsOrder {
    /// The view of a stored row at `now_ms` (for the countdown).
    pub fn of(row: &seconds_order::Model, now_ms: i64) -> Self {
        Self {
            id: row.id,
            symbol: row.symbol.clone(),
            direction: Direction::parse(&row.direction).unwrap_or(Direction::Up),
            period_seconds: row.period_seconds,
            quantity: normal(&row.stake),
            payout_rate: normal(&row.payout_rate),
            status: if row.status == "open" {
                SecondsStatus::Open
            } else {
                SecondsStatus::Settled
            },
            result: row.result.as_deref().and_then(Outcome::parse),
            commiss_time: row.accepted_ms,
            close_time: row.expiry_ms,
            // Rounded up: the last second before the expiry still reads 1.
            countdown: ((row.expiry_ms - now_ms).max(0) + 999) / 1000,
            open_price: row.open_price.clone(),
            open_tick_seq: row.open_tick_seq,
            open_tick_time: row.open_tick_ms,
            close_price: row.settle_price.clone(),
            settle_tick_seq: row.settle_tick_seq,
            settle_tick_time: row.settle_tick_ms,
            profit: row.profit.as_deref().map(normal),
            payout: row.payout.as_deref().map(normal),
            rule: row.rule.clone(),
            settled_at: row.settled_at,
        }
    }
}
