//! Rules of the spot calls, free of HTTP: an order checked by wasm-core's `validate_spot_order`
//! (the form's own rule) and turned into decimals, the reads of orders and fills, and every open
//! order of a user cancelled at once (a frozen account's).

use std::sync::Arc;

use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, Condition, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder,
};
use wasm_core::validate::{SpotOrderForm, validate_spot_order};

use super::api::{CheckedOrder, FillQuery, SpotOrderRequest};
use super::engine::OrderSpec;
use super::registry::SpotRegistry;
use super::rules::PairRules;
use super::views::{OrderStatus, OrderType, SpotFill, SpotOrder, TimeInForce};
use crate::entity::{coin, spot_order, spot_trade};
use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::refusal::{Refusal, RefusalKind};

/// The rules of the spot pair `symbol` (lower case).
pub fn rules(exchange: &SpotRegistry, symbol: &str) -> Result<Arc<PairRules>, Refusal> {
    exchange
        .rules(symbol)
        .ok_or_else(|| super::registry::unavailable(symbol))
}

/// `body` checked against the pair's rules (tick, step, minimum order value; a market order's
/// value estimated at the last price) and read into decimals. Balances are the ledger's to check.
pub(super) fn checked_order(
    hub: &MarketHub,
    rules: &PairRules,
    body: &SpotOrderRequest,
) -> Result<CheckedOrder, Refusal> {
    let last_price = hub.ticker(&rules.symbol).map(|t| t.close.to_string());
    let form = SpotOrderForm {
        side: Some(body.side.as_str().to_owned()),
        order_type: Some(body.order_type.as_str().to_owned()),
        price: body.price.as_deref().map(str::to_owned),
        trigger_price: body.trigger_price.as_deref().map(str::to_owned),
        quantity: body.quantity.as_deref().map(str::to_owned),
        quote_amount: body.quote_amount.as_deref().map(str::to_owned),
        tick_size: rules.tick.to_string(),
        step_size: rules.step.to_string(),
        min_notional: rules.min_notional.to_string(),
        last_price,
        available_base: None,
        available_quote: None,
    };
    let errors = validate_spot_order(&form).map_err(Refusal::internal)?;
    Refusal::first_of(errors)?;
    let decimal = |text: Option<&str>, field: &str| -> Result<Decimal, Refusal> {
        let text = text.ok_or_else(|| {
            Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field(field)
        })?;
        crate::number::decimal(text, field)
    };
    let filled = |text: Option<&str>| text.is_some_and(|t| !t.trim().is_empty());
    let time_in_force = body.time_in_force.unwrap_or_default();
    let post_only = body.post_only.unwrap_or(false);
    let spec = match body.order_type {
        OrderType::Limit => OrderSpec::Limit {
            price: decimal(body.price.as_deref(), "price")?,
            quantity: decimal(body.quantity.as_deref(), "quantity")?,
        },
        OrderType::StopLimit => OrderSpec::StopLimit {
            trigger: decimal(body.trigger_price.as_deref(), "triggerPrice")?,
            price: decimal(body.price.as_deref(), "price")?,
            quantity: decimal(body.quantity.as_deref(), "quantity")?,
        },
        OrderType::Market if filled(body.quote_amount.as_deref()) => OrderSpec::MarketFunds {
            amount: decimal(body.quote_amount.as_deref(), "quoteAmount")?,
        },
        OrderType::Market => OrderSpec::Market {
            quantity: decimal(body.quantity.as_deref(), "quantity")?,
        },
    };
    // Post-only means "rest or nothing": only a good-till-cancelled limit order can.
    let resting = body.order_type != OrderType::Market && time_in_force == TimeInForce::Gtc;
    if post_only && !resting {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("postOnly"));
    }
    Ok(CheckedOrder {
        spec,
        // A market order takes what it can now and never rests.
        time_in_force: if body.order_type == OrderType::Market {
            TimeInForce::Ioc
        } else {
            time_in_force
        },
        post_only,
    })
}

/// A page of the user's open (`current`) or finished orders, newest first.
pub async fn orders(
    db: &DatabaseConnection,
    user_id: i64,
    current: bool,
    symbol: Option<&str>,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<SpotOrder>), Refusal> {
    let statuses: &[&str] = if current {
        &OrderStatus::OPEN
    } else {
        &OrderStatus::FINISHED
    };
    let mut query = spot_order::Entity::find()
        .filter(spot_order::Column::UserId.eq(user_id))
        .filter(spot_order::Column::Status.is_in(statuses.iter().copied()));
    if let Some(symbol) = symbol.map(str::trim).filter(|s| !s.is_empty()) {
        query = query.filter(spot_order::Column::Symbol.eq(symbol.to_ascii_lowercase()));
    }
    let pages = query
        .order_by_desc(spot_order::Column::Id)
        .paginate(db, page_size);
    let total = pages.num_items().await?;
    let rows = pages.fetch_page(page - 1).await?;
    Ok((total, rows.iter().map(SpotOrder::from).collect()))
}

/// The pair of the user's order `order_id`, for a cancellation the in-memory index of open orders
/// did not place: "not found" for an unknown or someone else's order, and "not open" at once for
/// a filled or cancelled one (a finished status is final, so its market need not be asked).
pub async fn symbol_of(
    db: &DatabaseConnection,
    user_id: i64,
    order_id: i64,
) -> Result<String, Refusal> {
    let order = spot_order::Entity::find_by_id(order_id)
        .filter(spot_order::Column::UserId.eq(user_id))
        .one(db)
        .await?
        .ok_or_else(|| Refusal::new(RefusalKind::Invalid, Msg::OrderNotFound).with_field("id"))?;
    let finished = [OrderStatus::DealTotol, OrderStatus::Cancelled]
        .iter()
        .any(|status| status.as_str() == order.status);
    if finished {
        return Err(Refusal::new(RefusalKind::Invalid, Msg::OrderNotOpen).with_field("id"));
    }
    Ok(order.symbol)
}

/// Cancels every open order of `user_id` — resting in a book or waiting for its trigger — each
/// through its market's own cancel, as the user's cancel does (the hold released by the market's
/// entry, the `order` message on the user's channel): what freezing an account does. An order
/// that finished meanwhile is passed over, and so is one on a pair with no market running (nothing
/// can trade it). Running it again finds nothing left. How many were cancelled.
pub async fn cancel_all_of(
    db: &DatabaseConnection,
    exchange: &SpotRegistry,
    user_id: i64,
) -> Result<usize, Refusal> {
    let open = spot_order::Entity::find()
        .filter(spot_order::Column::UserId.eq(user_id))
        .filter(spot_order::Column::Status.is_in(OrderStatus::OPEN))
        .order_by_asc(spot_order::Column::Id)
        .all(db)
        .await?;
    let mut cancelled = 0;
    for order in open {
        if exchange.rules(&order.symbol).is_none() {
            tracing::warn!(order = order.id, symbol = %order.symbol, "an open spot order on a pair without a market was left");
            continue;
        }
        match exchange.cancel(&order.symbol, user_id, order.id).await {
            Ok(_) => cancelled += 1,
            Err(refusal) if matches!(refusal.msg, Msg::OrderNotOpen | Msg::OrderNotFound) => {}
            Err(refusal) => return Err(refusal),
        }
    }
    Ok(cancelled)
}

/// A page of the user's fills, newest first.
pub async fn fills(
    db: &DatabaseConnection,
    user_id: i64,
    query: &FillQuery,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<SpotFill>), Refusal> {
    let mine = Condition::any()
        .add(spot_trade::Column::TakerUserId.eq(user_id))
        .add(spot_trade::Column::MakerUserId.eq(user_id));
    let mut select = spot_trade::Entity::find().filter(mine);
    if let Some(symbol) = query
        .symbol
        .as_deref()
        .map(str::trim)
        .filter(|s| !s.is_empty())
    {
        select = select.filter(spot_trade::Column::Symbol.eq(symbol.to_ascii_lowercase()));
    }
    if let Some(side) = query.side {
        // The user bought as a buying taker or as the maker against a selling taker.
        let opposite = match side {
            super::views::OrderSide::Buy => "sell",
            super::views::OrderSide::Sell => "buy",
        };
        select = select.filter(
            Condition::any()
                .add(
                    Condition::all()
                        .add(spot_trade::Column::TakerUserId.eq(user_id))
                        .add(spot_trade::Column::TakerSide.eq(side.as_str())),
                )
                .add(
                    Condition::all()
                        .add(spot_trade::Column::MakerUserId.eq(user_id))
                        .add(spot_trade::Column::TakerSide.eq(opposite)),
                ),
        );
    }
    if let Some(start) = query.start_time {
        select = select.filter(spot_trade::Column::CreatedAt.gte(start));
    }
    if let Some(end) = query.end_time {
        select = select.filter(spot_trade::Column::CreatedAt.lt(end));
    }
    let pages = select
        .order_by_desc(spot_trade::Column::Id)
        .paginate(db, page_size);
    let total = pages.num_items().await?;
    let rows = pages.fetch_page(page - 1).await?;
    let coins = coin::Entity::find().all(db).await?;
    let assets = |symbol: &str| {
        coins
            .iter()
            .find(|c| c.symbol == symbol)
            .map(|c| (c.coin.clone(), c.base_coin.clone()))
            .unwrap_or_default()
    };
    Ok((
        total,
        rows.iter()
            .filter_map(|trade| {
                let (base, quote) = assets(&trade.symbol);
                SpotFill::of(trade, user_id, &base, &quote)
            })
            .collect(),
    ))
}
