//! Rules of the futures calls, free of HTTP: requests checked against the symbol's tick and step
//! (wasm-core's violation codes), turned into engine commands; the reads of orders, positions,
//! stop orders and funding payments; and everything a user has waiting withdrawn at once (a frozen
//! account's).

use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, Condition, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect,
};
use wasm_core::validate::Violation;

use super::engine::{Answer, Command, OrderSpec, StopSpec};
use super::position::SymbolRules;
use super::registry::FuturesRegistry;
use super::views::{ClosedPosition, FuturesOrder, FuturesPosition, FuturesStopOrder, closed_view};
use crate::entity::{futures_funding, futures_order, futures_position, futures_stop};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// The symbol of a request, lower case.
pub fn symbol(text: &str) -> String {
    text.trim().to_ascii_lowercase()
}

/// A decimal field: readable, above zero, and on `step` when given.
pub fn decimal_field(
    text: Option<&str>,
    field: &str,
    step: Option<(Decimal, bool)>,
) -> Result<Option<Decimal>, Refusal> {
    let Some(text) = text.filter(|t| !t.is_empty()) else {
        return Ok(None);
    };
    let value = crate::number::decimal(text, field)?;
    if value <= Decimal::ZERO {
        return Err(Refusal::rule(field, &Violation::NotAboveZero));
    }
    if let Some((step, is_tick)) = step
        && !(value % step).is_zero()
    {
        return Err(Refusal::rule(
            field,
            &if is_tick {
                Violation::OffTick { tick: step }
            } else {
                Violation::OffStep { step }
            },
        ));
    }
    Ok(Some(value.normalize()))
}

/// A price on the symbol's tick.
pub fn price(
    rules: &SymbolRules,
    text: Option<&str>,
    field: &str,
) -> Result<Option<Decimal>, Refusal> {
    decimal_field(text, field, Some((rules.tick, true)))
}

/// A quantity on the symbol's step.
pub fn quantity(
    rules: &SymbolRules,
    text: Option<&str>,
    field: &str,
) -> Result<Option<Decimal>, Refusal> {
    decimal_field(text, field, Some((rules.step, false)))
}

/// A required field's value.
pub fn required<T>(value: Option<T>, field: &str) -> Result<T, Refusal> {
    value.ok_or_else(|| {
        Refusal::new(RefusalKind::Invalid, Msg::MissingField)
            .with_field(field)
            .with_param("field", field)
    })
}

/// Places an order.
pub async fn submit(
    exchange: &FuturesRegistry,
    symbol: &str,
    user_id: i64,
    spec: OrderSpec,
    idempotency: Option<crate::funds::ledger::Idempotency>,
) -> Result<Answer<FuturesOrder>, Refusal> {
    exchange
        .ask(symbol, |reply| Command::Submit {
            user_id,
            spec,
            idempotency,
            reply,
        })
        .await
}

/// Places a stop order.
pub async fn set_stop(
    exchange: &FuturesRegistry,
    symbol: &str,
    user_id: i64,
    spec: StopSpec,
    idempotency: Option<crate::funds::ledger::Idempotency>,
) -> Result<Answer<FuturesStopOrder>, Refusal> {
    exchange
        .ask(symbol, |reply| Command::SetStop {
            user_id,
            spec,
            idempotency,
            reply,
        })
        .await
}

/// The symbol of the user's order `id` (404 for an order that is not the user's).
pub async fn order_symbol(
    db: &DatabaseConnection,
    user_id: i64,
    id: i64,
) -> Result<String, Refusal> {
    futures_order::Entity::find_by_id(id)
        .one(db)
        .await?
        .filter(|o| o.user_id == user_id)
        .map(|o| o.symbol)
        .ok_or_else(|| Refusal::new(RefusalKind::NotFound, Msg::OrderNotFound))
}

/// The symbol of the user's stop order `id`.
pub async fn stop_symbol(
    db: &DatabaseConnection,
    user_id: i64,
    id: i64,
) -> Result<String, Refusal> {
    futures_stop::Entity::find_by_id(id)
        .one(db)
        .await?
        .filter(|o| o.user_id == user_id)
        .map(|o| o.symbol)
        .ok_or_else(|| Refusal::new(RefusalKind::NotFound, Msg::OrderNotFound))
}

/// A page of the user's orders, newest first: open ones, or finished ones.
pub async fn orders(
    db: &DatabaseConnection,
    user_id: i64,
    current: bool,
    symbol: Option<&str>,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<FuturesOrder>), Refusal> {
    let statuses = if current {
        vec!["waitDeal", "partDeal"]
    } else {
        vec!["dealTotol", "cancelled"]
    };
    let mut query = futures_order::Entity::find()
        .filter(futures_order::Column::UserId.eq(user_id))
        .filter(futures_order::Column::Status.is_in(statuses));
    if let Some(symbol) = symbol.map(self::symbol).filter(|s| !s.is_empty()) {
        query = query.filter(futures_order::Column::Symbol.eq(symbol));
    }
    let paginator = query
        .order_by_desc(futures_order::Column::Id)
        .paginate(db, page_size);
    let total = paginator.num_items().await?;
    let rows = paginator.fetch_page(page - 1).await?;
    Ok((total, rows.iter().map(FuturesOrder::from).collect()))
}

/// The user's open positions with their figures now (from each symbol's engine), or the closed and
/// liquidated ones, newest first.
pub async fn positions(
    db: &DatabaseConnection,
    exchange: &FuturesRegistry,
    user_id: i64,
    current: bool,
    symbol: Option<&str>,
) -> Result<Vec<FuturesPosition>, Refusal> {
    let mut condition = Condition::all().add(futures_position::Column::UserId.eq(user_id));
    condition = if current {
        condition.add(futures_position::Column::Status.eq("open"))
    } else {
        condition.add(futures_position::Column::Status.ne("open"))
    };
    if let Some(symbol) = symbol.map(self::symbol).filter(|s| !s.is_empty()) {
        condition = condition.add(futures_position::Column::Symbol.eq(symbol));
    }
    let rows = futures_position::Entity::find()
        .filter(condition)
        .order_by_desc(futures_position::Column::Id)
        .limit(if current { 1000 } else { 200 })
        .all(db)
        .await?;
    if !current {
        return Ok(rows.iter().map(closed_view).collect());
    }
    let mut views = Vec::with_capacity(rows.len());
    for row in rows {
        let answer = exchange
            .ask(&row.symbol, |reply| Command::Position { user_id, reply })
            .await?;
        views.extend(answer);
    }
    Ok(views)
}

/// A page of the user's position history: closed and liquidated positions, the latest closed
/// first, and how many there are in all.
pub async fn position_history(
    db: &DatabaseConnection,
    user_id: i64,
    symbol: Option<&str>,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<ClosedPosition>), Refusal> {
    let mut query = futures_position::Entity::find()
        .filter(futures_position::Column::UserId.eq(user_id))
        .filter(futures_position::Column::Status.ne("open"));
    if let Some(symbol) = symbol.map(self::symbol).filter(|s| !s.is_empty()) {
        query = query.filter(futures_position::Column::Symbol.eq(symbol));
    }
    let paginator = query
        .order_by_desc(futures_position::Column::ClosedAt)
        .order_by_desc(futures_position::Column::Id)
        .paginate(db, page_size);
    let total = paginator.num_items().await?;
    let rows = paginator.fetch_page(page - 1).await?;
    Ok((total, rows.iter().map(ClosedPosition::from).collect()))
}

/// The user's stop orders, newest first: waiting ones, or triggered and cancelled ones.
pub async fn stops(
    db: &DatabaseConnection,
    user_id: i64,
    current: bool,
    symbol: Option<&str>,
) -> Result<Vec<FuturesStopOrder>, Refusal> {
    let mut query = futures_stop::Entity::find().filter(futures_stop::Column::UserId.eq(user_id));
    query = if current {
        query.filter(futures_stop::Column::Status.eq("waiting"))
    } else {
        query.filter(futures_stop::Column::Status.ne("waiting"))
    };
    if let Some(symbol) = symbol.map(self::symbol).filter(|s| !s.is_empty()) {
        query = query.filter(futures_stop::Column::Symbol.eq(symbol));
    }
    Ok(query
        .order_by_desc(futures_stop::Column::Id)
        .limit(200)
        .all(db)
        .await?
        .iter()
        .map(FuturesStopOrder::from)
        .collect())
}

/// What [`withdraw_all_of`] withdrew.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Withdrawn {
    /// Resting limit orders cancelled.
    pub orders: usize,
    /// Waiting stop orders cancelled.
    pub stops: usize,
    /// Positions whose take-profit and stop-loss prices were cleared.
    pub take_profit_stop_loss: usize,
}

/// Withdraws everything `user_id` has waiting in the futures engines — resting limit orders,
/// waiting stop orders, and the take-profit and stop-loss prices of open positions — each through
/// its engine's own command, as the user's cancel does (a hold returned by the engine's entry, the
/// `futuresOrder`, `futuresStop` and `POSITION` messages on the user's channel): what freezing an
/// account does. The positions stay open, their liquidation price in force. What finished
/// meanwhile is passed over, and so is what sits on a symbol no longer traded (no engine runs it).
/// Running it again finds nothing left.
pub async fn withdraw_all_of(
    db: &DatabaseConnection,
    exchange: &FuturesRegistry,
    user_id: i64,
) -> Result<Withdrawn, Refusal> {
    let mut withdrawn = Withdrawn::default();
    let traded = |symbol: &str| {
        let running = exchange.rules(symbol).is_ok();
        if !running {
            tracing::warn!(%symbol, user_id, "futures orders on a symbol without an engine were left");
        }
        running
    };
    // A refusal that only says the thing is gone already.
    let gone = |refusal: &Refusal| matches!(refusal.msg, Msg::OrderNotFound | Msg::NoOpenPosition);
    let orders = futures_order::Entity::find()
        .filter(futures_order::Column::UserId.eq(user_id))
        .filter(futures_order::Column::Status.is_in(["waitDeal", "partDeal"]))
        .order_by_asc(futures_order::Column::Id)
        .all(db)
        .await?;
    for order in orders.iter().filter(|o| traded(&o.symbol)) {
        let answer = exchange
            .ask(&order.symbol, |reply| Command::Cancel {
                user_id,
                order_id: order.id,
                reply,
            })
            .await;
        match answer {
            Ok(_) => withdrawn.orders += 1,
            Err(refusal) if gone(&refusal) => {}
            Err(refusal) => return Err(refusal),
        }
    }
    let stops = futures_stop::Entity::find()
        .filter(futures_stop::Column::UserId.eq(user_id))
        .filter(futures_stop::Column::Status.eq("waiting"))
        .order_by_asc(futures_stop::Column::Id)
        .all(db)
        .await?;
    for stop in stops.iter().filter(|s| traded(&s.symbol)) {
        let answer = exchange
            .ask(&stop.symbol, |reply| Command::CancelStop {
                user_id,
                stop_id: stop.id,
                reply,
            })
            .await;
        match answer {
            Ok(_) => withdrawn.stops += 1,
            Err(refusal) if gone(&refusal) => {}
            Err(refusal) => return Err(refusal),
        }
    }
    let armed = futures_position::Entity::find()
        .filter(futures_position::Column::UserId.eq(user_id))
        .filter(futures_position::Column::Status.eq("open"))
        .filter(
            Condition::any()
                .add(futures_position::Column::TakeProfit.is_not_null())
                .add(futures_position::Column::StopLoss.is_not_null()),
        )
        .all(db)
        .await?;
    for position in armed.iter().filter(|p| traded(&p.symbol)) {
        let answer = exchange
            .ask(&position.symbol, |reply| Command::SetTpSl {
                user_id,
                take_profit: None,
                stop_loss: None,
                reply,
            })
            .await;
        match answer {
            Ok(_) => withdrawn.take_profit_stop_loss += 1,
            Err(refusal) if gone(&refusal) => {}
            Err(refusal) => return Err(refusal),
        }
    }
    Ok(withdrawn)
}

/// The user's funding payments, newest first.
pub async fn fundings(
    db: &DatabaseConnection,
    user_id: i64,
    symbol: Option<&str>,
) -> Result<Vec<futures_funding::Model>, Refusal> {
    let mut query =
        futures_funding::Entity::find().filter(futures_funding::Column::UserId.eq(user_id));
    if let Some(symbol) = symbol.map(self::symbol).filter(|s| !s.is_empty()) {
        query = query.filter(futures_funding::Column::Symbol.eq(symbol));
    }
    Ok(query
        .order_by_desc(futures_funding::Column::Id)
        .limit(200)
        .all(db)
        .await?)
}

/// The unrealised PnL and the margin of the user's open positions (USDT): what the user
/// channel's `au` message adds to the trading wallet.
pub async fn open_figures(
    exchange: &FuturesRegistry,
    db: &DatabaseConnection,
    user_id: i64,
) -> Result<Decimal, Refusal> {
    let views = positions(db, exchange, user_id, true, None).await?;
    Ok(views.iter().map(|v| v.unrealised_pnl).sum())
}

/// The trading wallet is the balance of the user's cross futures positions: what they use of it
/// stays when the user moves funds out.
#[async_trait::async_trait]
impl crate::funds::service::BucketClaims for FuturesRegistry {
    async fn transferable(
        &self,
        db: &DatabaseConnection,
        user_id: i64,
        bucket: crate::funds::ledger::Bucket,
        coin: &str,
    ) -> Result<Option<Decimal>, Refusal> {
        if bucket != crate::funds::ledger::Bucket::Trading || coin != super::settle::USDT {
            return Ok(None);
        }
        transferable_from_trading(self, db, user_id).await.map(Some)
    }
}

/// What the user may move out of the trading wallet now: the wallet less what the cross positions
/// use of it (initial margin) and their unrealised loss, as the engines last figured them.
pub async fn transferable_from_trading(
    exchange: &FuturesRegistry,
    db: &DatabaseConnection,
    user_id: i64,
) -> Result<Decimal, Refusal> {
    let wallet =
        crate::funds::ledger::balance(db, super::settle::trading(user_id), super::settle::USDT)
            .await?;
    let cross = exchange.cross_totals(user_id).await?;
    Ok((wallet - cross.initial + cross.unrealised.min(Decimal::ZERO)).max(Decimal::ZERO))
}
