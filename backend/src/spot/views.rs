//! The wire shapes of spot orders and fills (spec section 3's order fields), shared by the HTTP
//! answers and the user channel's `order` and `fill` messages so both read the same.

use poem_openapi::{Enum, Object};
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use crate::entity::{spot_order, spot_trade};

/// Buy or sell the base asset.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum OrderSide {
    /// Pay quote, receive base.
    Buy,
    /// Pay base, receive quote.
    Sell,
}

impl OrderSide {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderSide::Buy => "buy",
            OrderSide::Sell => "sell",
        }
    }

    /// The side of a stored name (anything but `sell` is a buy).
    pub fn parse(name: &str) -> Self {
        if name == "sell" {
            OrderSide::Sell
        } else {
            OrderSide::Buy
        }
    }
}

/// How an order is priced (`commissType`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "snake_case")]
#[serde(rename_all = "snake_case")]
pub enum OrderType {
    /// At the price given or better; rests in the book.
    Limit,
    /// At the book's prices, now; never rests.
    Market,
    /// A limit order placed when the last price reaches the trigger price.
    StopLimit,
}

impl OrderType {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderType::Limit => "limit",
            OrderType::Market => "market",
            OrderType::StopLimit => "stop_limit",
        }
    }

    fn parse(name: &str) -> Self {
        match name {
            "market" => OrderType::Market,
            "stop_limit" => OrderType::StopLimit,
            _ => OrderType::Limit,
        }
    }
}

/// How long a limit order stays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum TimeInForce {
    /// Good till cancelled: the rest waits in the book.
    #[default]
    Gtc,
    /// Immediate or cancel: what cannot execute now is cancelled.
    Ioc,
    /// Fill or kill: all now, or nothing.
    Fok,
}

impl TimeInForce {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            TimeInForce::Gtc => "gtc",
            TimeInForce::Ioc => "ioc",
            TimeInForce::Fok => "fok",
        }
    }

    fn parse(name: &str) -> Self {
        match name {
            "ioc" => TimeInForce::Ioc,
            "fok" => TimeInForce::Fok,
            _ => TimeInForce::Gtc,
        }
    }
}

/// Where an order stands (spec section 4: `waitDeal` waiting, `dealTotol` fully executed).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
pub enum OrderStatus {
    /// A stop-limit order waiting for its trigger price.
    #[oai(rename = "waitTrigger")]
    #[serde(rename = "waitTrigger")]
    WaitTrigger,
    /// In the book, nothing executed yet.
    #[oai(rename = "waitDeal")]
    #[serde(rename = "waitDeal")]
    WaitDeal,
    /// In the book, partly executed.
    #[oai(rename = "partDeal")]
    #[serde(rename = "partDeal")]
    PartDeal,
    /// Fully executed.
    #[oai(rename = "dealTotol")]
    #[serde(rename = "dealTotol")]
    DealTotol,
    /// Cancelled (by the user or a rule), possibly after partial execution.
    #[oai(rename = "cancelled")]
    #[serde(rename = "cancelled")]
    Cancelled,
}

impl OrderStatus {
    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            OrderStatus::WaitTrigger => "waitTrigger",
            OrderStatus::WaitDeal => "waitDeal",
            OrderStatus::PartDeal => "partDeal",
            OrderStatus::DealTotol => "dealTotol",
            OrderStatus::Cancelled => "cancelled",
        }
    }

    /// The status of a stored name.
    pub fn parse(name: &str) -> Self {
        match name {
            "waitTrigger" => OrderStatus::WaitTrigger,
            "partDeal" => OrderStatus::PartDeal,
            "dealTotol" => OrderStatus::DealTotol,
            "cancelled" => OrderStatus::Cancelled,
            _ => OrderStatus::WaitDeal,
        }
    }

    /// Still in the book or waiting for its trigger.
    pub fn is_open(self) -> bool {
        matches!(
            self,
            OrderStatus::WaitTrigger | OrderStatus::WaitDeal | OrderStatus::PartDeal
        )
    }

    /// The stored names of open orders.
    pub const OPEN: [&'static str; 3] = ["waitTrigger", "waitDeal", "partDeal"];
    /// The stored names of finished orders.
    pub const FINISHED: [&'static str; 2] = ["dealTotol", "cancelled"];
}

/// A spot order as the user sees it.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct SpotOrder {
    /// Order id.
    pub id: i64,
    /// Pair, lower case (`btcusdt`).
    pub symbol: String,
    /// Buy or sell.
    pub side: OrderSide,
    /// Limit, market or stop-limit.
    pub commiss_type: OrderType,
    /// Time in force.
    pub time_in_force: TimeInForce,
    /// Refused if it would take liquidity.
    pub post_only: bool,
    /// Limit price (none for a market order).
    pub commiss_price: Option<Decimal>,
    /// Base quantity ordered (none for a market buy by quote amount).
    pub commiss_num: Option<Decimal>,
    /// Quote amount to spend (market buy by amount).
    pub quote_amount: Option<Decimal>,
    /// Stop-limit trigger price.
    pub trigger_price: Option<Decimal>,
    /// Base quantity executed.
    pub have_deal_num: Decimal,
    /// Quote amount executed.
    pub deal_amount: Decimal,
    /// Average execution price (none before the first fill).
    pub deal_aver_price: Option<Decimal>,
    /// Fees paid so far, in `feeCoin`.
    pub service_charge: Decimal,
    /// The asset fees are charged in: the one received.
    pub fee_coin: String,
    /// Order value: price × quantity, or the quote amount (none for a market order by quantity).
    pub entrusted_value: Option<Decimal>,
    /// Where the order stands.
    pub status: OrderStatus,
    /// Why it was cancelled: `user`, `self_trade`, `immediate_remainder`, `no_liquidity`,
    /// `post_only`.
    pub cancel_reason: Option<String>,
    /// Placed at (unix ms).
    pub commiss_time: i64,
    /// Last change (unix ms).
    pub update_time: i64,
}

fn decimal(text: &str) -> Decimal {
    // Written by the engine only, always as decimals.
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

fn optional(text: &Option<String>) -> Option<Decimal> {
    text.as_deref().map(decimal)
}

impl From<&spot_order::Model> for SpotOrder {
    fn from(row: &spot_order::Model) -> Self {
        let price = optional(&row.price);
        let quantity = optional(&row.quantity);
        let quote_amount = optional(&row.quote_amount);
        let have_deal_num = decimal(&row.filled_quantity);
        let deal_amount = decimal(&row.filled_amount);
        let deal_aver_price = (!have_deal_num.is_zero())
            .then(|| deal_amount.checked_div(have_deal_num))
            .flatten()
            .map(|average| average.round_dp(12).normalize());
        let entrusted_value = match (price, quantity) {
            (Some(price), Some(quantity)) => Some((price * quantity).normalize()),
            _ => quote_amount,
        };
        Self {
            id: row.id,
            symbol: row.symbol.clone(),
            side: OrderSide::parse(&row.side),
            commiss_type: OrderType::parse(&row.order_type),
            time_in_force: TimeInForce::parse(&row.time_in_force),
            post_only: row.post_only,
            commiss_price: price,
            commiss_num: quantity,
            quote_amount,
            trigger_price: optional(&row.trigger_price),
            have_deal_num,
            deal_amount,
            deal_aver_price,
            service_charge: decimal(&row.fee),
            fee_coin: row.fee_coin.clone(),
            entrusted_value,
            status: OrderStatus::parse(&row.status),
            cancel_reason: row.cancel_reason.clone(),
            commiss_time: row.created_at,
            update_time: row.updated_at,
        }
    }
}

/// Whether the user made or took liquidity in a fill.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Enum, Serialize, Deserialize)]
#[oai(rename_all = "lowercase")]
#[serde(rename_all = "lowercase")]
pub enum FillRole {
    /// Their order rested in the book.
    Maker,
    /// Their order took a resting one.
    Taker,
}

/// One fill of a user's order, as that user sees it.
#[derive(Debug, Clone, Object, Serialize, Deserialize)]
#[oai(rename_all = "camelCase")]
#[serde(rename_all = "camelCase")]
pub struct SpotFill {
    /// Fill id.
    pub id: i64,
    /// The user's order.
    pub order_id: i64,
    /// Pair.
    pub symbol: String,
    /// The user's side.
    pub side: OrderSide,
    /// Maker or taker.
    pub role: FillRole,
    /// Price.
    pub price: Decimal,
    /// Base quantity.
    pub quantity: Decimal,
    /// Quote amount.
    pub amount: Decimal,
    /// The user's fee, in `feeCoin`.
    pub fee: Decimal,
    /// The asset the fee is charged in.
    pub fee_coin: String,
    /// Unix ms.
    pub time: i64,
}

impl SpotFill {
    /// The fill `trade` as `user_id` sees it (`None` when it is not theirs); `base` and `quote`
    /// name the pair's assets.
    pub fn of(trade: &spot_trade::Model, user_id: i64, base: &str, quote: &str) -> Option<Self> {
        let taker_side = OrderSide::parse(&trade.taker_side);
        let (role, order_id, side, fee) = if trade.taker_user_id == Some(user_id) {
            (
                FillRole::Taker,
                trade.taker_order_id?,
                taker_side,
                &trade.taker_fee,
            )
        } else if trade.maker_user_id == Some(user_id) {
            let side = match taker_side {
                OrderSide::Buy => OrderSide::Sell,
                OrderSide::Sell => OrderSide::Buy,
            };
            (
                FillRole::Maker,
                trade.maker_order_id?,
                side,
                &trade.maker_fee,
            )
        } else {
            return None;
        };
        Some(Self {
            id: trade.id,
            order_id,
            symbol: trade.symbol.clone(),
            side,
            role,
            price: decimal(&trade.price),
            quantity: decimal(&trade.quantity),
            amount: decimal(&trade.amount),
            fee: decimal(fee),
            fee_coin: match side {
                OrderSide::Buy => base.to_owned(),
                OrderSide::Sell => quote.to_owned(),
            },
            time: trade.created_at,
        })
    }
}
