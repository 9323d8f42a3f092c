//! The engine of one futures symbol: a single-writer tokio task that owns the symbol's open
//! positions (one per user: one-way mode), resting limit orders, stop orders and the users'
//! settings, and the price-trigger index over them.
//!
//! - Every command and every triggered event runs in one database transaction that writes its
//!   rows and posts its journal entries together (and claims the caller's idempotency key); the
//!   in-memory state changes only after the commit, so a refused or failed change leaves nothing
//!   behind. A race lost to another writer of the same account (a transfer) is retried.
//! - A mark tick (the price source polled every `mark_poll_ms`, acting when the mark's time
//!   changed) samples the funding premium and asks the index what the mark crossed: resting limit
//!   orders (filled at their price, maker fee), take-profit / stop-loss prices and stop orders
//!   (closing at market against the book, taker fee), and liquidation prices (closing at the mark).
//!   Nothing else is looked at, so a tick costs `O(log n)` with `n` open positions.
//! - Cross positions: their liquidation price moves with the wallet and the user's other cross
//!   positions. Each engine publishes its cross positions' figures (initial and maintenance margin,
//!   unrealised PnL) to the shared registry and recomputes its cross liquidation prices with the
//!   wallets and the registry every `cross_refresh_ms` and after every change of the user's
//!   position in the symbol; an index hit of a cross position is confirmed with fresh figures
//!   before it liquidates.
//! - Funding runs at every multiple of the interval: the average premium since the last one plus
//!   the interest, capped, paid by longs to the counterparty and by the counterparty to shorts
//!   when positive (the other way when negative), one entry and one `futures_funding` row per
//!   position, and one `futures_funding_round` row for the time. A funding time is settled once
//!   and none is skipped: without a mark it waits for one; a time that passed while the server
//!   was down is settled at start (see [`Engine::load`]), a position that already has its row for
//!   a time (a crash in the middle of a round) is not paid again.
//! - At start the engine rebuilds itself from the database: open positions, resting orders,
//!   waiting stop orders and settings, and their index.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseTransaction, DbErr, EntityTrait,
    NotSet, QueryFilter, QueryOrder, TransactionTrait, sea_query::OnConflict,
};
use tokio::sync::{mpsc, oneshot, watch};
use wasm_core::margin::{
    MarginAdjustmentInput, MarginDirection, MarginMode, MaxOpenSizeInput, Side, margin_adjustment,
    max_open_size,
};
use wasm_core::validate::Violation;

use super::funding::{PremiumSampler, funding_payment, funding_rate, next_funding_time};
use super::index::{Direction, TriggerIndex};
use super::position::{
    CrossContext, Position, SymbolRules, amount, opposite, plan_fill, reducing_part, walk_book,
};
use super::registry::{CrossFigures, MarkPrice, Shared};
use super::settle::{self, FillAmounts, Legs, SECURITY_FUND, USDT};
use super::views::{
    FundingInfo, FuturesOrder, FuturesOrderType, FuturesPosition, FuturesSetting, FuturesStopOrder,
    OrderSide, mode_str, position_view, side_str,
};
use crate::entity::{
    futures_funding, futures_funding_round, futures_order, futures_position, futures_setting,
    futures_stop,
};
use crate::funds::ledger::{self, Idempotency, LedgerError, NewEntry};
use crate::refusal::{Refusal, RefusalKind};

use crate::i18n::Msg;
use crate::user::now_ms;

/// Attempts of a change that keeps losing races.
const ATTEMPTS: u32 = 20;
/// Leverage of a user who never chose one.
pub const DEFAULT_LEVERAGE: Decimal = Decimal::from_parts(10, 0, 0, false, 0);

/// A reply channel.
pub type Reply<T> = oneshot::Sender<Result<T, Refusal>>;

/// A change asked with an idempotency key: done now, or the first answer of the same request.
#[derive(Debug)]
pub enum Answer<T> {
    /// Done now.
    Done(T),
    /// The key was used for the same request before: its stored answer (JSON).
    Replayed(String),
}

/// A new order, checked for shape by the service.
#[derive(Debug, Clone)]
pub struct OrderSpec {
    /// Buy or sell.
    pub side: OrderSide,
    /// Market or limit.
    pub order_type: FuturesOrderType,
    /// Limit price.
    pub price: Option<Decimal>,
    /// Quantity (none with `close_position`).
    pub quantity: Option<Decimal>,
    /// Leverage of what the order opens (the user's setting when none).
    pub leverage: Option<Decimal>,
    /// Margin mode of what the order opens (the user's setting when none).
    pub mode: Option<MarginMode>,
    /// Only reduce the position.
    pub reduce_only: bool,
    /// Close the whole position.
    pub close_position: bool,
}

/// A stop order to place.
#[derive(Debug, Clone)]
pub struct StopSpec {
    /// The side of the position it closes (the open position's when none).
    pub position_side: Option<Side>,
    /// Trigger (mark price).
    pub trigger_price: Decimal,
    /// Quantity to close (the whole position when none).
    pub quantity: Option<Decimal>,
}

/// What an engine is asked to do.
pub enum Command {
    /// Place an order.
    Submit {
        /// The user.
        user_id: i64,
        /// The order.
        spec: OrderSpec,
        /// The caller's key.
        idempotency: Option<Idempotency>,
        /// The answer.
        reply: Reply<Answer<FuturesOrder>>,
    },
    /// Cancel a resting order.
    Cancel {
        /// The user.
        user_id: i64,
        /// The order.
        order_id: i64,
        /// The answer.
        reply: Reply<FuturesOrder>,
    },
    /// Set (or clear, with `None`) the take-profit and stop-loss prices of the user's position.
    SetTpSl {
        /// The user.
        user_id: i64,
        /// Take-profit trigger.
        take_profit: Option<Decimal>,
        /// Stop-loss trigger.
        stop_loss: Option<Decimal>,
        /// The answer.
        reply: Reply<FuturesPosition>,
    },
    /// Place a stop order.
    SetStop {
        /// The user.
        user_id: i64,
        /// The stop order.
        spec: StopSpec,
        /// The caller's key.
        idempotency: Option<Idempotency>,
        /// The answer.
        reply: Reply<Answer<FuturesStopOrder>>,
    },
    /// Cancel a waiting stop order.
    CancelStop {
        /// The user.
        user_id: i64,
        /// The stop order.
        stop_id: i64,
        /// The answer.
        reply: Reply<FuturesStopOrder>,
    },
    /// Add margin to or remove margin from the user's isolated position.
    AdjustMargin {
        /// The user.
        user_id: i64,
        /// Add or remove.
        direction: MarginDirection,
        /// How much.
        amount: Decimal,
        /// The caller's key.
        idempotency: Option<Idempotency>,
        /// The answer.
        reply: Reply<Answer<FuturesPosition>>,
    },
    /// Set the leverage and/or margin mode of the user's new orders.
    SetLeverage {
        /// The user.
        user_id: i64,
        /// New leverage.
        leverage: Option<Decimal>,
        /// New margin mode.
        mode: Option<MarginMode>,
        /// The answer.
        reply: Reply<FuturesSetting>,
    },
    /// The user's setting.
    Setting {
        /// The user.
        user_id: i64,
        /// The answer.
        reply: Reply<FuturesSetting>,
    },
    /// The user's open position with its figures now.
    Position {
        /// The user.
        user_id: i64,
        /// The answer.
        reply: Reply<Option<FuturesPosition>>,
    },
    /// Act on the current mark now.
    Evaluate {
        /// Answered once done.
        reply: Reply<()>,
    },
    /// Refresh the cross liquidation prices now.
    RefreshCross {
        /// Answered once done.
        reply: Reply<()>,
    },
}

/// What a trigger fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A resting limit order (by id).
    Limit(i64),
    /// A user's take profit.
    TakeProfit(i64),
    /// A user's stop loss.
    StopLoss(i64),
    /// A stop order (by id).
    Stop(i64),
    /// A user's liquidation price.
    Liquidation(i64),
}

/// A resting limit order.
#[derive(Debug, Clone)]
struct OpenOrder {
    row: futures_order::Model,
    side: OrderSide,
    price: Decimal,
    remaining: Decimal,
    hold: Decimal,
    leverage: Decimal,
    mode: MarginMode,
}

/// A user's leverage and mode.
#[derive(Debug, Clone, Copy)]
struct Setting {
    leverage: Decimal,
    mode: MarginMode,
}

/// What a committed change does to the engine's memory.
#[derive(Debug, Default)]
struct Effect {
    /// Users whose position changed: the position now (`None`: flat).
    positions: Vec<(i64, Option<Position>)>,
    /// Orders written: open ones are (re)placed, others leave the book.
    orders: Vec<futures_order::Model>,
    /// Holds of orders (by id) after the change.
    holds: Vec<(i64, Decimal)>,
    /// Stop orders written.
    stops: Vec<futures_stop::Model>,
    /// Closed or liquidated position rows (published as such).
    closed: Vec<futures_position::Model>,
}

/// Runs `$body` (an expression over the transaction `$txn` giving `Result<T, LedgerError>`) in a
/// transaction that claims `$idem` first; the answer stored for a replay is `$respond(&T)`. Lost
/// races are retried. Gives `Result<Answer<T>, LedgerError>`.
macro_rules! transact {
    ($db:expr, $idem:expr, $respond:expr, |$txn:ident| $body:expr) => {{
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result: Result<Answer<_>, LedgerError> = async {
                let $txn = $db.begin().await?;
                if let Some(idem) = $idem {
                    if let Some(first) = ledger::claim_key(&$txn, idem).await? {
                        return Ok(Answer::Replayed(first));
                    }
                }
                // Its own block, so a `return` in the body ends only the body.
                let value = async { $body }.await?;
                if let Some(idem) = $idem {
                    ledger::store_response(&$txn, idem, $respond(&value)).await?;
                }
                $txn.commit().await?;
                Ok(Answer::Done(value))
            }
            .await;
            match result {
                Err(LedgerError::LostRace) if attempt < ATTEMPTS => {}
                Err(LedgerError::Db(ref error)) if attempt < ATTEMPTS && retryable(error) => {}
                other => break other,
            }
            tokio::time::sleep(Duration::from_millis(u64::from(attempt) * 3)).await;
        }
    }};
}

fn retryable(error: &DbErr) -> bool {
    let text = error.to_string().to_ascii_lowercase();
    text.contains("database is locked")
        || text.contains("busy")
        || text.contains("could not serialize")
        || text.contains("deadlock")
}

fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

fn refused(error: Refusal) -> LedgerError {
    LedgerError::Refused(error)
}

fn ledger_api_error(error: LedgerError) -> Refusal {
    crate::funds::service::ledger_error(error, "quantity")
}

fn bad(msg: Msg, field: &str) -> Refusal {
    Refusal::new(RefusalKind::Invalid, msg).with_field(field)
}

fn side_of(text: &str) -> Side {
    if text == "short" {
        Side::Short
    } else {
        Side::Long
    }
}

fn mode_of(text: &str) -> MarginMode {
    if text == "cross" {
        MarginMode::Cross
    } else {
        MarginMode::Isolated
    }
}

fn opt_text(value: Option<Decimal>) -> Option<String> {
    value.map(|v| v.normalize().to_string())
}

fn text(value: Decimal) -> String {
    value.normalize().to_string()
}

/// The index direction of a target of a position on `side`.
fn liquidation_direction(side: Side) -> Direction {
    match side {
        Side::Long => Direction::Below,
        Side::Short => Direction::Above,
    }
}

fn take_profit_direction(side: Side) -> Direction {
    match side {
        Side::Long => Direction::Above,
        Side::Short => Direction::Below,
    }
}

/// The engine of one symbol.
pub struct Engine {
    rules: Arc<SymbolRules>,
    shared: Arc<Shared>,
    positions: HashMap<i64, Position>,
    orders: BTreeMap<i64, OpenOrder>,
    stops: BTreeMap<i64, futures_stop::Model>,
    settings: HashMap<i64, Setting>,
    triggers: TriggerIndex<Target>,
    premiums: PremiumSampler,
    last_rate: Option<Decimal>,
    mark: Option<MarkPrice>,
    sampled_ts: Option<i64>,
    next_funding: i64,
    /// When a funding time that found no mark is tried again.
    funding_retry_at: Option<i64>,
    /// When the engine started: funding times before it were missed while the server was down.
    started_at: i64,
    /// The positions open at the start, by user: their id and when they were opened. Only they
    /// were held through a funding time that passed while the server was down.
    held_at_start: HashMap<i64, (i64, i64)>,
    crossed: Vec<Target>,
}

impl Engine {
    /// The engine of `rules.symbol`, rebuilt from the database.
    pub async fn load(rules: Arc<SymbolRules>, shared: Arc<Shared>) -> Result<Self, DbErr> {
        let db = &shared.db;
        let symbol = rules.symbol.clone();
        let interval = shared.config.funding_interval_secs as i64 * 1000;
        let mut engine = Engine {
            rules,
            shared: shared.clone(),
            positions: HashMap::new(),
            orders: BTreeMap::new(),
            stops: BTreeMap::new(),
            settings: HashMap::new(),
            triggers: TriggerIndex::new(),
            premiums: PremiumSampler::default(),
            last_rate: None,
            mark: shared.prices.mark(&symbol),
            sampled_ts: None,
            next_funding: next_funding_time(now_ms(), interval),
            funding_retry_at: None,
            started_at: now_ms(),
            held_at_start: HashMap::new(),
            crossed: Vec::new(),
        };
        for row in futures_position::Entity::find()
            .filter(futures_position::Column::Symbol.eq(&symbol))
            .filter(futures_position::Column::Status.eq("open"))
            .all(db)
            .await?
        {
            let position = position_of(&row);
            engine.positions.insert(row.user_id, position);
            engine
                .held_at_start
                .insert(row.user_id, (row.id, row.opened_at));
        }
        for row in futures_order::Entity::find()
            .filter(futures_order::Column::Symbol.eq(&symbol))
            .filter(futures_order::Column::Status.is_in(["waitDeal", "partDeal"]))
            .all(db)
            .await?
        {
            if let Some(order) = open_order(&row) {
                engine.orders.insert(row.id, order);
            }
        }
        for row in futures_stop::Entity::find()
            .filter(futures_stop::Column::Symbol.eq(&symbol))
            .filter(futures_stop::Column::Status.eq("waiting"))
            .all(db)
            .await?
        {
            engine.stops.insert(row.id, row);
        }
        for row in futures_setting::Entity::find()
            .filter(futures_setting::Column::Symbol.eq(&symbol))
            .all(db)
            .await?
        {
            engine.settings.insert(
                row.user_id,
                Setting {
                    leverage: dec(&row.leverage),
                    mode: mode_of(&row.margin_mode),
                },
            );
        }
        if let Some(last) = futures_funding::Entity::find()
            .filter(futures_funding::Column::Symbol.eq(&symbol))
            .order_by_desc(futures_funding::Column::FundingTime)
            .one(db)
            .await?
        {
            engine.last_rate = Some(dec(&last.rate));
        }
        // The funding times the open positions were held through while the server was down: every
        // multiple of the interval after the newest settled round (or the oldest position's
        // opening) up to now. The run loop settles them first, oldest first.
        let last_round = futures_funding_round::Entity::find()
            .filter(futures_funding_round::Column::Symbol.eq(&symbol))
            .order_by_desc(futures_funding_round::Column::FundingTime)
            .one(db)
            .await?;
        if let Some(last) = &last_round {
            engine.last_rate = Some(dec(&last.rate));
        }
        let oldest_opening = engine
            .held_at_start
            .values()
            .map(|(_, opened)| *opened)
            .min();
        if let Some(oldest) = oldest_opening {
            let since = last_round.map_or(oldest, |round| round.funding_time.max(oldest));
            let first_missed = next_funding_time(since, interval);
            if first_missed <= engine.started_at {
                engine.next_funding = first_missed;
            }
        }
        // The index: orders and stops as stored; positions' triggers and liquidation prices.
        let orders: Vec<(i64, Direction, Decimal)> = engine
            .orders
            .values()
            .map(|o| (o.row.id, limit_direction(o.side), o.price))
            .collect();
        for (id, direction, price) in orders {
            engine
                .triggers
                .set(Target::Limit(id), direction, Some(price));
        }
        let stops: Vec<(i64, Direction, Decimal)> = engine
            .stops
            .values()
            .map(|s| (s.id, stop_direction(&s.direction), dec(&s.trigger_price)))
            .collect();
        for (id, direction, price) in stops {
            engine
                .triggers
                .set(Target::Stop(id), direction, Some(price));
        }
        let users: Vec<i64> = engine.positions.keys().copied().collect();
        let wallets = engine.wallets(&users).await?;
        for user_id in users {
            let wallet = wallets.get(&user_id).copied().unwrap_or_default();
            engine.place(user_id, wallet);
        }
        engine.publish_funding();
        Ok(engine)
    }

    /// Serves commands, mark ticks, cross refreshes and fundings until `shutdown` changes.
    pub async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let config = self.shared.config.clone();
        let mut poll = tokio::time::interval(Duration::from_millis(config.mark_poll_ms.max(1)));
        poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut refresh =
            tokio::time::interval(Duration::from_millis(config.cross_refresh_ms.max(1)));
        refresh.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            let funding_due = self.funding_retry_at.unwrap_or(self.next_funding);
            let until_funding = Duration::from_millis((funding_due - now_ms()).max(0) as u64);
            tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => self.handle(command).await,
                    None => break,
                },
                _ = poll.tick() => {
                    if let Some(mark) = self.shared.prices.mark(&self.rules.symbol)
                        && self.mark.is_none_or(|m| m.ts != mark.ts)
                    {
                        self.on_mark(mark).await;
                    }
                }
                _ = refresh.tick() => self.refresh_cross().await,
                _ = tokio::time::sleep(until_funding) => self.fund().await,
                _ = shutdown.changed() => break,
            }
        }
    }

    async fn handle(&mut self, command: Command) {
        match command {
            Command::Submit {
                user_id,
                spec,
                idempotency,
                reply,
            } => {
                let answer = self.submit(user_id, spec, idempotency.as_ref()).await;
                let _ = reply.send(answer);
            }
            Command::Cancel {
                user_id,
                order_id,
                reply,
            } => {
                let answer = self.cancel(user_id, order_id).await;
                let _ = reply.send(answer);
            }
            Command::SetTpSl {
                user_id,
                take_profit,
                stop_loss,
                reply,
            } => {
                let answer = self.set_tp_sl(user_id, take_profit, stop_loss).await;
                let _ = reply.send(answer);
            }
            Command::SetStop {
                user_id,
                spec,
                idempotency,
                reply,
            } => {
                let answer = self.set_stop(user_id, spec, idempotency.as_ref()).await;
                let _ = reply.send(answer);
            }
            Command::CancelStop {
                user_id,
                stop_id,
                reply,
            } => {
                let answer = self.cancel_stop(user_id, stop_id).await;
                let _ = reply.send(answer);
            }
            Command::AdjustMargin {
                user_id,
                direction,
                amount,
                idempotency,
                reply,
            } => {
                let answer = self
                    .adjust_margin(user_id, direction, amount, idempotency.as_ref())
                    .await;
                let _ = reply.send(answer);
            }
            Command::SetLeverage {
                user_id,
                leverage,
                mode,
                reply,
            } => {
                let answer = self.set_leverage(user_id, leverage, mode).await;
                let _ = reply.send(answer);
            }
            Command::Setting { user_id, reply } => {
                let _ = reply.send(Ok(self.setting_view(user_id)));
            }
            Command::Position { user_id, reply } => {
                let view = match self.positions.get(&user_id) {
                    Some(position) => {
                        let wallet = self.wallets(&[user_id]).await.unwrap_or_default();
                        let wallet = wallet.get(&user_id).copied().unwrap_or_default();
                        Some(self.view(position, wallet))
                    }
                    None => None,
                };
                let _ = reply.send(Ok(view));
            }
            Command::Evaluate { reply } => {
                if let Some(mark) = self.shared.prices.mark(&self.rules.symbol) {
                    self.on_mark(mark).await;
                }
                let _ = reply.send(Ok(()));
            }
            Command::RefreshCross { reply } => {
                self.refresh_cross().await;
                let _ = reply.send(Ok(()));
            }
        }
    }

    // ---- reading -------------------------------------------------------------------------

    fn setting(&self, user_id: i64) -> Setting {
        self.settings.get(&user_id).copied().unwrap_or(Setting {
            leverage: DEFAULT_LEVERAGE.min(self.rules.max_leverage()),
            mode: MarginMode::Isolated,
        })
    }

    fn setting_view(&self, user_id: i64) -> FuturesSetting {
        let setting = self.setting(user_id);
        FuturesSetting {
            symbol: self.rules.symbol.clone(),
            leverage: setting.leverage,
            margin_mode: setting.mode.into(),
            max_leverage: self.rules.max_leverage(),
        }
    }

    /// The mark this engine last acted on, or before its first tick the latest published.
    fn standing_mark(&self) -> Option<MarkPrice> {
        self.mark
            .or_else(|| self.shared.prices.mark(&self.rules.symbol))
    }

    fn mark_price(&self) -> Result<Decimal, Refusal> {
        self.standing_mark()
            .map(|m| m.mark)
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, Msg::NoLiquidity))
    }

    /// The trading wallets of `users` (USDT).
    async fn wallets(&self, users: &[i64]) -> Result<HashMap<i64, Decimal>, DbErr> {
        use crate::entity::ledger_account;
        let mut wallets = HashMap::new();
        for chunk in users.chunks(500) {
            let owners: Vec<String> = chunk.iter().map(|u| format!("user:{u}")).collect();
            for row in ledger_account::Entity::find()
                .filter(ledger_account::Column::Owner.is_in(owners))
                .filter(ledger_account::Column::Bucket.eq("trading"))
                .filter(ledger_account::Column::Asset.eq(USDT))
                .all(&self.shared.db)
                .await?
            {
                if let Some(user_id) = row.user_id {
                    wallets.insert(user_id, dec(&row.balance));
                }
            }
        }
        Ok(wallets)
    }

    fn cross_context(&self, user_id: i64, wallet: Decimal) -> CrossContext {
        let others = self.shared.cross_totals(user_id, Some(&self.rules.symbol));
        CrossContext {
            wallet,
            other_maintenance: others.maintenance,
            other_unrealised: others.unrealised,
        }
    }

    fn view(&self, position: &Position, wallet: Decimal) -> FuturesPosition {
        let mark = self.mark.map_or(position.entry_price, |m| m.mark);
        position_view(
            position,
            &self.rules.symbol,
            &self.rules,
            mark,
            self.cross_context(position.user_id, wallet),
        )
    }

    /// The balance available to open with: the wallet less what cross positions use of it and
    /// their unrealised loss.
    fn available(&self, user_id: i64, wallet: Decimal) -> Decimal {
        let all = self.shared.cross_totals(user_id, None);
        (wallet - all.initial + all.unrealised.min(Decimal::ZERO)).max(Decimal::ZERO)
    }

    // ---- the index -------------------------------------------------------------------------

    /// (Re)places the user's position in the index and the cross registry; `wallet` is the
    /// trading wallet (used by a cross position).
    fn place(&mut self, user_id: i64, wallet: Decimal) {
        let Some(position) = self.positions.get(&user_id).cloned() else {
            self.triggers.remove(Target::Liquidation(user_id));
            self.triggers.remove(Target::TakeProfit(user_id));
            self.triggers.remove(Target::StopLoss(user_id));
            self.shared.set_cross(user_id, &self.rules.symbol, None);
            return;
        };
        let cross = position.mode == MarginMode::Cross;
        if cross {
            let mark = self.mark.map_or(position.entry_price, |m| m.mark);
            self.shared.set_cross(
                user_id,
                &self.rules.symbol,
                Some(CrossFigures {
                    initial: position.initial_margin(),
                    maintenance: position.maintenance_at(&self.rules, mark),
                    unrealised: position.pnl_at(mark),
                }),
            );
        }
        let liquidation = if cross {
            position
                .liquidation_price(&self.rules, self.cross_context(user_id, wallet))
                .ok()
                .flatten()
        } else {
            position.liquidation_price
        };
        let side = position.side;
        self.triggers.set(
            Target::Liquidation(user_id),
            liquidation_direction(side),
            liquidation,
        );
        self.triggers.set(
            Target::TakeProfit(user_id),
            take_profit_direction(side),
            position.take_profit,
        );
        self.triggers.set(
            Target::StopLoss(user_id),
            liquidation_direction(side),
            position.stop_loss,
        );
        if let Some(p) = self.positions.get_mut(&user_id)
            && cross
        {
            p.liquidation_price = liquidation;
        }
    }

    /// Applies a committed change to memory and tells the users.
    fn apply(&mut self, effect: Effect, wallets: &HashMap<i64, Decimal>) {
        for (id, hold) in &effect.holds {
            if let Some(order) = self.orders.get_mut(id) {
                order.hold = *hold;
            }
        }
        for row in &effect.orders {
            let open = row.status == "waitDeal" || row.status == "partDeal";
            if open && row.order_type == "limit" {
                if let Some(order) = open_order(row) {
                    self.triggers.set(
                        Target::Limit(row.id),
                        limit_direction(order.side),
                        Some(order.price),
                    );
                    self.orders.insert(row.id, order);
                }
            } else {
                self.orders.remove(&row.id);
                self.triggers.remove(Target::Limit(row.id));
            }
            self.shared
                .publish(row.user_id, "futuresOrder", &FuturesOrder::from(row));
        }
        for row in &effect.stops {
            if row.status == "waiting" {
                self.triggers.set(
                    Target::Stop(row.id),
                    stop_direction(&row.direction),
                    Some(dec(&row.trigger_price)),
                );
                self.stops.insert(row.id, row.clone());
            } else {
                self.stops.remove(&row.id);
                self.triggers.remove(Target::Stop(row.id));
            }
            self.shared
                .publish(row.user_id, "futuresStop", &FuturesStopOrder::from(row));
        }
        for row in &effect.closed {
            self.shared
                .publish(row.user_id, "POSITION", &super::views::closed_view(row));
        }
        for (user_id, position) in effect.positions {
            match position {
                Some(position) => {
                    self.positions.insert(user_id, position);
                }
                None => {
                    self.positions.remove(&user_id);
                }
            }
            let wallet = wallets.get(&user_id).copied().unwrap_or_default();
            self.place(user_id, wallet);
            if let Some(position) = self.positions.get(&user_id) {
                let view = self.view(position, wallet);
                self.shared.publish(user_id, "POSITION", &view);
            }
        }
    }

    // ---- orders ----------------------------------------------------------------------------

    async fn submit(
        &mut self,
        user_id: i64,
        spec: OrderSpec,
        idempotency: Option<&Idempotency>,
    ) -> Result<Answer<FuturesOrder>, Refusal> {
        let rules = self.rules.clone();
        let position = self.positions.get(&user_id).cloned();
        let setting = self.setting(user_id);
        let direction = spec.side.direction();
        let (leverage, mode) = match &position {
            Some(p) => {
                if spec.mode.is_some_and(|m| m != p.mode) {
                    return Err(bad(Msg::MarginModeLocked, "marginMode"));
                }
                (p.leverage, p.mode)
            }
            None => (
                spec.leverage.unwrap_or(setting.leverage),
                spec.mode.unwrap_or(setting.mode),
            ),
        };
        let reduce_only = spec.reduce_only || spec.close_position;
        let mut quantity = if spec.close_position {
            match &position {
                Some(p) if p.side != direction => p.size,
                _ => return Err(bad(Msg::ReduceOnlyRejected, "closePosition")),
            }
        } else {
            spec.quantity
                .ok_or_else(|| bad(Msg::MissingField, "quantity").with_param("field", "quantity"))?
        };
        if reduce_only {
            quantity = reducing_part(position.as_ref(), direction, quantity);
            if quantity.is_zero() {
                return Err(bad(Msg::ReduceOnlyRejected, "reduceOnly"));
            }
        }
        self.mark_price()?;
        // What a market order fills now, and the price every check uses.
        let (fill_quantity, exec_price) = match spec.order_type {
            FuturesOrderType::Market => {
                let (filled, value) = self.walk(direction, quantity, None);
                if filled.is_zero() {
                    return Err(Refusal::new(RefusalKind::Invalid, Msg::NoLiquidity));
                }
                (filled, value / filled)
            }
            FuturesOrderType::Limit => {
                let limit = spec
                    .price
                    .ok_or_else(|| bad(Msg::MissingField, "price").with_param("field", "price"))?;
                // A limit order the ladder can fill whole within its price now executes at once
                // as a taker, at the ladder's prices (never worse than its limit), as on a venue
                // where it would meet the book; otherwise it rests until the mark reaches it.
                let (filled, value) = self.walk(direction, quantity, Some(limit));
                if !filled.is_zero() && filled == quantity {
                    (filled, value / filled)
                } else {
                    (Decimal::ZERO, limit)
                }
            }
        };
        let basis = if fill_quantity.is_zero() {
            quantity
        } else {
            fill_quantity
        };
        let reducing = reducing_part(position.as_ref(), direction, basis);
        let opening = basis - reducing;
        if opening > Decimal::ZERO {
            let max = rules.max_leverage();
            if leverage > max {
                return Err(Refusal::rule("leverage", &Violation::AboveMaximum { max }));
            }
            let same_side = position
                .as_ref()
                .filter(|p| p.side == direction)
                .map_or(Decimal::ZERO, |p| p.size);
            let allowed = rules.max_leverage_at((same_side + opening) * exec_price);
            if leverage > allowed {
                return Err(Refusal::rule(
                    "leverage",
                    &Violation::AboveMaximum { max: allowed },
                ));
            }
        }
        let now = now_ms();
        let shared = self.shared.clone();
        let outcome = transact!(
            shared.db,
            idempotency,
            |order: &(futures_order::Model, Effect, Decimal)| serde_json::to_string(
                &FuturesOrder::from(&order.0)
            )
            .unwrap_or_default(),
            |txn| {
                self.submit_in(
                    &txn,
                    user_id,
                    &spec,
                    &position,
                    (leverage, mode),
                    quantity,
                    fill_quantity,
                    exec_price,
                    opening,
                    now,
                )
                .await
            }
        )
        .map_err(ledger_api_error)?;
        Ok(match outcome {
            Answer::Done((row, effect, wallet)) => {
                let view = FuturesOrder::from(&row);
                self.apply(effect, &HashMap::from([(user_id, wallet)]));
                Answer::Done(view)
            }
            Answer::Replayed(first) => Answer::Replayed(first),
        })
    }

    /// Walks the ladder of the side a `direction` order takes (asks for a buy, bids for a sell),
    /// only its levels at or better than `limit` when given: the quantity filled and its value.
    fn walk(
        &self,
        direction: Side,
        quantity: Decimal,
        limit: Option<Decimal>,
    ) -> (Decimal, Decimal) {
        let Some(book) = self.shared.prices.book(&self.rules.symbol) else {
            return (Decimal::ZERO, Decimal::ZERO);
        };
        let (levels, within): (_, fn(Decimal, Decimal) -> bool) = match direction {
            Side::Long => (&book.asks, |price, limit| price <= limit),
            Side::Short => (&book.bids, |price, limit| price >= limit),
        };
        walk_book(
            levels
                .iter()
                .take_while(|l| limit.is_none_or(|limit| within(l.price, limit)))
                .map(|l| (l.price, l.quantity)),
            quantity,
        )
    }

    #[allow(clippy::too_many_arguments)]
    async fn submit_in(
        &self,
        txn: &DatabaseTransaction,
        user_id: i64,
        spec: &OrderSpec,
        position: &Option<Position>,
        (leverage, mode): (Decimal, MarginMode),
        quantity: Decimal,
        fill_quantity: Decimal,
        exec_price: Decimal,
        opening: Decimal,
        now: i64,
    ) -> Result<(futures_order::Model, Effect, Decimal), LedgerError> {
        let rules = &self.rules;
        let wallet = ledger::balance(txn, settle::trading(user_id), USDT).await?;
        if opening > Decimal::ZERO {
            let available = self.available(user_id, wallet);
            let max = max_open_size(&MaxOpenSizeInput {
                price: exec_price,
                leverage,
                available_balance: available,
                taker_fee_rate: rules.taker_fee,
                step_size: rules.step,
                tiers: rules.tier_rows(),
            })
            .map_err(|e| refused(Refusal::internal(format!("{e:?}"))))?;
            if opening > max.size {
                // Nothing fits at all: the balance is the problem; otherwise the order is above
                // the largest size the balance opens (the figure the order form shows).
                return Err(refused(if max.size.is_zero() {
                    Refusal::rule(
                        "quantity",
                        &Violation::InsufficientBalance {
                            available: available.normalize(),
                        },
                    )
                } else {
                    Refusal::rule("quantity", &Violation::AboveMaximum { max: max.size })
                }));
            }
        }
        let market = spec.order_type == FuturesOrderType::Market;
        // A market order, or a limit order the ladder fills whole now (see `submit`).
        let immediate = !fill_quantity.is_zero();
        let mut row = futures_order::ActiveModel {
            id: NotSet,
            user_id: Set(user_id),
            symbol: Set(rules.symbol.clone()),
            side: Set(spec.side.as_str().into()),
            order_type: Set(spec.order_type.as_str().into()),
            source: Set("user".into()),
            price: Set(opt_text(spec.price.filter(|_| !market))),
            quantity: Set(text(quantity)),
            leverage: Set(text(leverage)),
            margin_mode: Set(mode_str(mode).into()),
            reduce_only: Set(spec.reduce_only || spec.close_position),
            close_position: Set(spec.close_position),
            filled_quantity: Set("0".into()),
            filled_value: Set("0".into()),
            fee: Set("0".into()),
            realised_pnl: Set("0".into()),
            hold_remaining: Set("0".into()),
            status: Set("waitDeal".into()),
            cancel_reason: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
        }
        .insert(txn)
        .await?;
        let mut effect = Effect::default();
        if immediate {
            let fill = Fill {
                user_id,
                side: spec.side,
                quantity: fill_quantity,
                price: exec_price,
                leverage,
                mode,
                fee_rate: rules.taker_fee,
                released_hold: Decimal::ZERO,
            };
            let (wallet_after, change) = self
                .fill_in(txn, &mut row, position, &fill, &mut effect, now)
                .await?;
            if fill_quantity < quantity {
                row.status = "cancelled".into();
                row.cancel_reason = Some("no_liquidity".into());
                row = futures_order::ActiveModel::from(row)
                    .reset_all()
                    .update(txn)
                    .await?;
            }
            effect.positions.push((user_id, change));
            effect.orders.push(row.clone());
            return Ok((row, effect, wallet_after));
        }
        // A resting limit order holds the margin and taker fee of what it would open.
        let price = spec.price.unwrap_or_default();
        let hold = amount(opening * price / leverage + opening * price * rules.taker_fee);
        let mut wallet_after = wallet;
        if hold > Decimal::ZERO {
            let mut legs = Legs::new();
            legs.transfer(settle::trading(user_id), settle::margin(user_id), hold);
            let posted = ledger::post_within(
                txn,
                &legs.entry(
                    "futures_hold",
                    format!("futures_order:{}", row.id),
                    user_id,
                    format!("{} limit order hold", rules.symbol),
                ),
            )
            .await?;
            wallet_after = posted
                .balances
                .get(&(settle::trading(user_id), USDT.into()))
                .copied()
                .unwrap_or(wallet);
            row.hold_remaining = text(hold);
            row = futures_order::ActiveModel::from(row)
                .reset_all()
                .update(txn)
                .await?;
        }
        effect.orders.push(row.clone());
        Ok((row, effect, wallet_after))
    }

    /// Executes `fill` against the user's `position` inside `txn`: the entry, the order row's
    /// figures, the position rows. Gives the wallet after it and the user's position now.
    async fn fill_in(
        &self,
        txn: &DatabaseTransaction,
        row: &mut futures_order::Model,
        position: &Option<Position>,
        fill: &Fill,
        effect: &mut Effect,
        now: i64,
    ) -> Result<(Decimal, Option<Position>), LedgerError> {
        let user_id = fill.user_id;
        let direction = fill.side.direction();
        let plan = plan_fill(
            position.as_ref(),
            user_id,
            direction,
            fill.quantity,
            fill.price,
            fill.leverage,
            fill.mode,
            now,
        );
        let wallet = ledger::balance(txn, settle::trading(user_id), USDT).await?;
        let fund = ledger::balance(txn, SECURITY_FUND, USDT).await?;
        let fee = amount(fill.quantity * fill.price * fill.fee_rate);
        let (legs, charged) = settle::fill_legs(
            &FillAmounts {
                user_id,
                isolated: fill.mode == MarginMode::Isolated,
                released_hold: fill.released_hold,
                released_margin: plan.released_margin,
                realised_pnl: plan.realised_pnl,
                opened_margin: plan.opened_margin,
                fee,
                trading_before: wallet,
                security_fund_before: fund,
            },
            self.shared.security_percent,
        );
        let mut wallet_after = wallet;
        if !legs.is_empty() {
            let posted = ledger::post_within(
                txn,
                &legs.entry(
                    "futures_fill",
                    format!("futures_order:{}", row.id),
                    user_id,
                    format!(
                        "{} {} {} @ {}",
                        self.rules.symbol,
                        fill.side.as_str(),
                        fill.quantity.normalize(),
                        fill.price.normalize()
                    ),
                ),
            )
            .await?;
            wallet_after = posted
                .balances
                .get(&(settle::trading(user_id), USDT.into()))
                .copied()
                .unwrap_or(wallet);
        }
        // The order's figures.
        let filled = dec(&row.filled_quantity) + fill.quantity;
        row.filled_quantity = text(filled);
        row.filled_value = text(dec(&row.filled_value) + fill.quantity * fill.price);
        row.fee = text(dec(&row.fee) + charged.fee);
        row.realised_pnl = text(dec(&row.realised_pnl) + plan.realised_pnl);
        row.hold_remaining =
            text((dec(&row.hold_remaining) - fill.released_hold).max(Decimal::ZERO));
        row.status = if filled >= dec(&row.quantity) {
            "dealTotol".into()
        } else {
            "partDeal".into()
        };
        row.updated_at = now;
        *row = futures_order::ActiveModel::from(row.clone())
            .reset_all()
            .update(txn)
            .await?;
        // The positions.
        let mut after = plan.after.clone();
        if let Some(old) = position {
            let keeps = after.as_ref().is_some_and(|a| a.id == old.id && a.id != 0);
            if !keeps {
                // Closed (or flipped): the old row is finished.
                let mut closed = old.clone();
                closed.realised_pnl += plan.realised_pnl;
                closed.closed_size += plan.closed;
                closed.closed_value += plan.closed * fill.price;
                if after.is_none() {
                    closed.fees += charged.fee;
                }
                let closed_row = write_position(
                    txn,
                    &self.rules.symbol,
                    &closed,
                    "closed",
                    Decimal::ZERO,
                    Decimal::ZERO,
                    now,
                )
                .await?;
                effect.closed.push(closed_row);
            }
        }
        if let Some(next) = after.as_mut() {
            next.fees += charged.fee;
            next.liquidation_price = self.liquidation_of(next, wallet_after);
            let written = write_position(
                txn,
                &self.rules.symbol,
                next,
                "open",
                Decimal::ZERO,
                Decimal::ZERO,
                now,
            )
            .await?;
            next.id = written.id;
        }
        Ok((wallet_after, after))
    }

    /// The liquidation price wasm-core gives `position` (cross: with `wallet` and the other
    /// symbols' figures).
    fn liquidation_of(&self, position: &Position, wallet: Decimal) -> Option<Decimal> {
        position
            .liquidation_price(&self.rules, self.cross_context(position.user_id, wallet))
            .ok()
            .flatten()
    }

    async fn cancel(&mut self, user_id: i64, order_id: i64) -> Result<FuturesOrder, Refusal> {
        let Some(order) = self
            .orders
            .get(&order_id)
            .filter(|o| o.row.user_id == user_id)
            .cloned()
        else {
            return Err(Refusal::new(RefusalKind::NotFound, Msg::OrderNotFound));
        };
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        let outcome = transact!(
            shared.db,
            none,
            |_: &(futures_order::Model, Decimal)| String::new(),
            |txn| cancel_in(&txn, &order, "user", now_ms()).await
        )
        .map_err(ledger_api_error)?;
        match outcome {
            Answer::Done((row, wallet)) => {
                let view = FuturesOrder::from(&row);
                self.apply(
                    Effect {
                        orders: vec![row],
                        ..Effect::default()
                    },
                    &HashMap::from([(user_id, wallet)]),
                );
                Ok(view)
            }
            Answer::Replayed(_) => Err(Refusal::internal("no key, no replay")),
        }
    }

    // ---- take profit, stop loss, stop orders -------------------------------------------------

    async fn set_tp_sl(
        &mut self,
        user_id: i64,
        take_profit: Option<Decimal>,
        stop_loss: Option<Decimal>,
    ) -> Result<FuturesPosition, Refusal> {
        let Some(mut position) = self.positions.get(&user_id).cloned() else {
            return Err(bad(Msg::NoOpenPosition, "symbol"));
        };
        let mark = self.mark_price()?;
        let long = position.side == Side::Long;
        if let Some(tp) = take_profit
            && (tp <= Decimal::ZERO || (long && tp <= mark) || (!long && tp >= mark))
        {
            return Err(bad(Msg::TakeProfitWrongSide, "takeProfitPrice")
                .with_param("mark", mark.normalize().to_string()));
        }
        if let Some(sl) = stop_loss
            && (sl <= Decimal::ZERO || (long && sl >= mark) || (!long && sl <= mark))
        {
            return Err(bad(Msg::StopLossWrongSide, "stopLossPrice")
                .with_param("mark", mark.normalize().to_string()));
        }
        position.take_profit = take_profit;
        position.stop_loss = stop_loss;
        let symbol = self.rules.symbol.clone();
        let now = now_ms();
        let none: Option<&Idempotency> = None;
        let shared = self.shared.clone();
        transact!(
            shared.db,
            none,
            |_: &futures_position::Model| String::new(),
            |txn| {
                write_position(
                    &txn,
                    &symbol,
                    &position,
                    "open",
                    Decimal::ZERO,
                    Decimal::ZERO,
                    now,
                )
                .await
                .map_err(LedgerError::from)
            }
        )
        .map_err(ledger_api_error)?;
        let wallets = self.wallets(&[user_id]).await?;
        self.apply(
            Effect {
                positions: vec![(user_id, Some(position.clone()))],
                ..Effect::default()
            },
            &wallets,
        );
        let wallet = wallets.get(&user_id).copied().unwrap_or_default();
        Ok(self.view(&self.positions[&user_id], wallet))
    }

    async fn set_stop(
        &mut self,
        user_id: i64,
        spec: StopSpec,
        idempotency: Option<&Idempotency>,
    ) -> Result<Answer<FuturesStopOrder>, Refusal> {
        let Some(position) = self.positions.get(&user_id).cloned() else {
            return Err(bad(Msg::NoOpenPosition, "symbol"));
        };
        let side = spec.position_side.unwrap_or(position.side);
        if side != position.side {
            return Err(bad(Msg::NoOpenPosition, "positionSide"));
        }
        let mark = self.mark_price()?;
        let direction = if spec.trigger_price > mark {
            "above"
        } else if spec.trigger_price < mark {
            "below"
        } else {
            return Err(bad(Msg::StopTriggerAtMark, "triggerPrice"));
        };
        let now = now_ms();
        let symbol = self.rules.symbol.clone();
        let shared = self.shared.clone();
        let outcome = transact!(
            shared.db,
            idempotency,
            |row: &futures_stop::Model| serde_json::to_string(&FuturesStopOrder::from(row))
                .unwrap_or_default(),
            |txn| {
                futures_stop::ActiveModel {
                    id: NotSet,
                    user_id: Set(user_id),
                    symbol: Set(symbol.clone()),
                    position_side: Set(side_str(side).into()),
                    trigger_price: Set(text(spec.trigger_price)),
                    direction: Set(direction.into()),
                    quantity: Set(opt_text(spec.quantity)),
                    status: Set("waiting".into()),
                    order_id: Set(None),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&txn)
                .await
                .map_err(LedgerError::from)
            }
        )
        .map_err(ledger_api_error)?;
        Ok(match outcome {
            Answer::Done(row) => {
                let view = FuturesStopOrder::from(&row);
                self.apply(
                    Effect {
                        stops: vec![row],
                        ..Effect::default()
                    },
                    &HashMap::new(),
                );
                Answer::Done(view)
            }
            Answer::Replayed(first) => Answer::Replayed(first),
        })
    }

    async fn cancel_stop(
        &mut self,
        user_id: i64,
        stop_id: i64,
    ) -> Result<FuturesStopOrder, Refusal> {
        let Some(stop) = self
            .stops
            .get(&stop_id)
            .filter(|s| s.user_id == user_id)
            .cloned()
        else {
            return Err(Refusal::new(RefusalKind::NotFound, Msg::OrderNotFound));
        };
        let now = now_ms();
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        let outcome = transact!(
            shared.db,
            none,
            |_: &futures_stop::Model| String::new(),
            |txn| {
                let mut row = stop.clone();
                row.status = "cancelled".into();
                row.updated_at = now;
                futures_stop::ActiveModel::from(row)
                    .reset_all()
                    .update(&txn)
                    .await
                    .map_err(LedgerError::from)
            }
        )
        .map_err(ledger_api_error)?;
        match outcome {
            Answer::Done(row) => {
                let view = FuturesStopOrder::from(&row);
                self.apply(
                    Effect {
                        stops: vec![row],
                        ..Effect::default()
                    },
                    &HashMap::new(),
                );
                Ok(view)
            }
            Answer::Replayed(_) => Err(Refusal::internal("no key, no replay")),
        }
    }

    // ---- margin and settings ---------------------------------------------------------------

    async fn adjust_margin(
        &mut self,
        user_id: i64,
        direction: MarginDirection,
        change: Decimal,
        idempotency: Option<&Idempotency>,
    ) -> Result<Answer<FuturesPosition>, Refusal> {
        let Some(position) = self.positions.get(&user_id).cloned() else {
            return Err(bad(Msg::NoOpenPosition, "symbol"));
        };
        if position.mode != MarginMode::Isolated {
            return Err(bad(Msg::NotIsolatedMargin, "symbol"));
        }
        let mark = self.mark_price()?;
        let symbol = self.rules.symbol.clone();
        let now = now_ms();
        let shared = self.shared.clone();
        let outcome = transact!(
            shared.db,
            idempotency,
            |done: &(Position, Decimal, FuturesPosition)| serde_json::to_string(&done.2)
                .unwrap_or_default(),
            |txn| {
                let wallet = ledger::balance(&txn, settle::trading(user_id), USDT).await?;
                let available = self.available(user_id, wallet);
                let adjustment = margin_adjustment(&MarginAdjustmentInput {
                    position: position.core(CrossContext::default()),
                    mark_price: mark,
                    direction,
                    amount: change,
                    available_balance: Some(available),
                    tiers: self.rules.tier_rows(),
                    tick_size: Some(self.rules.tick),
                })
                .map_err(|e| refused(Refusal::internal(format!("{e:?}"))))?;
                if adjustment.exceeds_limit {
                    return Err(refused(match direction {
                        MarginDirection::Add => Refusal::rule(
                            "amount",
                            &Violation::InsufficientBalance {
                                available: available.normalize(),
                            },
                        ),
                        MarginDirection::Remove => Refusal::rule(
                            "amount",
                            &Violation::AboveMaximum {
                                max: adjustment.max_removable,
                            },
                        ),
                    }));
                }
                let mut legs = Legs::new();
                let (t, m) = (settle::trading(user_id), settle::margin(user_id));
                match direction {
                    MarginDirection::Add => legs.transfer(t, m, change),
                    MarginDirection::Remove => legs.transfer(m, t, change),
                };
                let posted = ledger::post_within(
                    &txn,
                    &legs.entry(
                        "futures_margin",
                        format!("futures_position:{}", position.id),
                        user_id,
                        format!("{symbol} margin {direction:?}"),
                    ),
                )
                .await?;
                let wallet_after = posted
                    .balances
                    .get(&(t, USDT.into()))
                    .copied()
                    .unwrap_or(wallet);
                let mut next = position.clone();
                next.margin = adjustment.wallet_balance;
                next.liquidation_price = adjustment.liquidation_price;
                write_position(
                    &txn,
                    &symbol,
                    &next,
                    "open",
                    Decimal::ZERO,
                    Decimal::ZERO,
                    now,
                )
                .await?;
                let view = self.view(&next, wallet_after);
                Ok::<_, LedgerError>((next, wallet_after, view))
            }
        )
        .map_err(|e| crate::funds::service::ledger_error(e, "amount"))?;
        Ok(match outcome {
            Answer::Done((next, wallet, view)) => {
                self.apply(
                    Effect {
                        positions: vec![(user_id, Some(next))],
                        ..Effect::default()
                    },
                    &HashMap::from([(user_id, wallet)]),
                );
                Answer::Done(view)
            }
            Answer::Replayed(first) => Answer::Replayed(first),
        })
    }

    async fn set_leverage(
        &mut self,
        user_id: i64,
        leverage: Option<Decimal>,
        mode: Option<MarginMode>,
    ) -> Result<FuturesSetting, Refusal> {
        let current = self.setting(user_id);
        let next = Setting {
            leverage: leverage.unwrap_or(current.leverage),
            mode: mode.unwrap_or(current.mode),
        };
        let max = self.rules.max_leverage();
        if next.leverage > max {
            return Err(Refusal::rule("leverage", &Violation::AboveMaximum { max }));
        }
        if next.leverage < Decimal::ONE || !next.leverage.fract().is_zero() {
            return Err(Refusal::rule(
                "leverage",
                &Violation::BelowMinimum { min: Decimal::ONE },
            ));
        }
        let busy = self.positions.contains_key(&user_id)
            || self.orders.values().any(|o| o.row.user_id == user_id);
        if next.mode != current.mode && busy {
            return Err(bad(Msg::MarginModeLocked, "marginMode"));
        }
        let symbol = self.rules.symbol.clone();
        let now = now_ms();
        let existing = futures_setting::Entity::find()
            .filter(futures_setting::Column::UserId.eq(user_id))
            .filter(futures_setting::Column::Symbol.eq(&symbol))
            .one(&self.shared.db)
            .await?;
        let mut row = futures_setting::ActiveModel {
            id: NotSet,
            user_id: Set(user_id),
            symbol: Set(symbol),
            leverage: Set(text(next.leverage)),
            margin_mode: Set(mode_str(next.mode).into()),
            updated_at: Set(now),
        };
        match existing {
            Some(found) => {
                row.id = Set(found.id);
                row.update(&self.shared.db).await?;
            }
            None => {
                row.insert(&self.shared.db).await?;
            }
        }
        self.settings.insert(user_id, next);
        Ok(self.setting_view(user_id))
    }

    // ---- mark ticks --------------------------------------------------------------------------

    async fn on_mark(&mut self, mark: MarkPrice) {
        // Each published mark counts once toward the funding premium, however often it is
        // acted on (a cross refresh or an evaluation acts on the same mark again).
        if self.sampled_ts != Some(mark.ts) {
            self.premiums.sample(mark.mark, mark.index);
            self.sampled_ts = Some(mark.ts);
        }
        self.mark = Some(mark);
        let mut crossed = std::mem::take(&mut self.crossed);
        self.triggers.crossed_into(mark.mark, &mut crossed);
        // Limits first, then take profits, stop losses and stop orders, then liquidations.
        crossed.sort_by_key(|t| match t {
            Target::Limit(_) => 0,
            Target::TakeProfit(_) | Target::StopLoss(_) | Target::Stop(_) => 1,
            Target::Liquidation(_) => 2,
        });
        for target in crossed.drain(..) {
            // An earlier event of this tick may have taken it out.
            if self.triggers.get(target).is_none() {
                continue;
            }
            let result = match target {
                Target::Limit(id) => self.fill_limit(id, mark.mark).await,
                Target::TakeProfit(user) => {
                    self.close_triggered(user, None, "take_profit", None).await
                }
                Target::StopLoss(user) => self.close_triggered(user, None, "stop_loss", None).await,
                Target::Stop(id) => match self.stops.get(&id).cloned() {
                    Some(stop) => {
                        self.close_triggered(
                            stop.user_id,
                            stop.quantity.as_deref().map(dec),
                            "stop",
                            Some(stop),
                        )
                        .await
                    }
                    None => Ok(()),
                },
                Target::Liquidation(user) => self.liquidate(user, mark.mark).await,
            };
            if let Err(error) = result {
                tracing::error!(symbol = %self.rules.symbol, ?target, ?error, "futures trigger failed");
                // Out of this tick's way; the next change of the object places it again.
                self.triggers.remove(target);
            }
        }
        self.crossed = crossed;
        self.publish_funding();
    }

    async fn fill_limit(&mut self, order_id: i64, _mark: Decimal) -> Result<(), Refusal> {
        let Some(order) = self.orders.get(&order_id).cloned() else {
            return Ok(());
        };
        let user_id = order.row.user_id;
        let position = self.positions.get(&user_id).cloned();
        let direction = order.side.direction();
        let mut quantity = order.remaining;
        if order.row.reduce_only {
            quantity = reducing_part(position.as_ref(), direction, quantity);
        }
        let now = now_ms();
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        if quantity.is_zero() {
            let outcome = transact!(
                shared.db,
                none,
                |_: &(futures_order::Model, Decimal)| String::new(),
                |txn| cancel_in(&txn, &order, "reduce_only", now).await
            )
            .map_err(ledger_api_error)?;
            if let Answer::Done((row, wallet)) = outcome {
                self.apply(
                    Effect {
                        orders: vec![row],
                        ..Effect::default()
                    },
                    &HashMap::from([(user_id, wallet)]),
                );
            }
            return Ok(());
        }
        let (leverage, mode) = match &position {
            Some(p) => (p.leverage, p.mode),
            None => (order.leverage, order.mode),
        };
        let fill = Fill {
            user_id,
            side: order.side,
            quantity,
            price: order.price,
            leverage,
            mode,
            fee_rate: self.rules.maker_fee,
            released_hold: order.hold,
        };
        let outcome = transact!(
            shared.db,
            none,
            |_: &(futures_order::Model, Effect, Decimal)| String::new(),
            |txn| {
                let mut row = order.row.clone();
                let mut effect = Effect::default();
                let (wallet, change) = self
                    .fill_in(&txn, &mut row, &position, &fill, &mut effect, now)
                    .await?;
                if row.status != "dealTotol" {
                    // A reduce-only remainder that no longer reduces anything.
                    row.status = "cancelled".into();
                    row.cancel_reason = Some("reduce_only".into());
                    row = futures_order::ActiveModel::from(row)
                        .reset_all()
                        .update(&txn)
                        .await?;
                }
                effect.positions.push((user_id, change));
                effect.orders.push(row.clone());
                Ok::<_, LedgerError>((row, effect, wallet))
            }
        );
        match outcome {
            Ok(Answer::Done((_, effect, wallet))) => {
                self.apply(effect, &HashMap::from([(user_id, wallet)]));
                Ok(())
            }
            Ok(Answer::Replayed(_)) => Ok(()),
            // The position changed since the order was placed and what it opens no longer fits
            // the hold and the wallet: the order is cancelled, its hold released.
            Err(LedgerError::InsufficientBalance { .. }) => {
                let outcome = transact!(
                    shared.db,
                    none,
                    |_: &(futures_order::Model, Decimal)| String::new(),
                    |txn| cancel_in(&txn, &order, "insufficient_margin", now).await
                )
                .map_err(ledger_api_error)?;
                if let Answer::Done((row, wallet)) = outcome {
                    self.apply(
                        Effect {
                            orders: vec![row],
                            ..Effect::default()
                        },
                        &HashMap::from([(user_id, wallet)]),
                    );
                }
                Ok(())
            }
            Err(error) => Err(ledger_api_error(error)),
        }
    }

    /// Closes `quantity` (the whole position when none) of the user's position at market, for a
    /// take profit, a stop loss or a stop order (`stop`, marked triggered).
    async fn close_triggered(
        &mut self,
        user_id: i64,
        quantity: Option<Decimal>,
        source: &str,
        stop: Option<futures_stop::Model>,
    ) -> Result<(), Refusal> {
        let position = self.positions.get(&user_id).cloned();
        let now = now_ms();
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        let Some(open) = position.clone().filter(|p| {
            stop.as_ref()
                .is_none_or(|s| side_of(&s.position_side) == p.side)
        }) else {
            // Nothing to close any more: a stop order ends cancelled.
            if let Some(stop) = stop {
                let outcome = transact!(
                    shared.db,
                    none,
                    |_: &futures_stop::Model| String::new(),
                    |txn| {
                        let mut row = stop.clone();
                        row.status = "cancelled".into();
                        row.updated_at = now;
                        futures_stop::ActiveModel::from(row)
                            .reset_all()
                            .update(&txn)
                            .await
                            .map_err(LedgerError::from)
                    }
                )
                .map_err(ledger_api_error)?;
                if let Answer::Done(row) = outcome {
                    self.apply(
                        Effect {
                            stops: vec![row],
                            ..Effect::default()
                        },
                        &HashMap::new(),
                    );
                }
            }
            return Ok(());
        };
        let side = OrderSide::toward(opposite(open.side));
        let quantity = quantity.unwrap_or(open.size).min(open.size);
        let (filled, value) = self.walk(side.direction(), quantity, None);
        // Without enough book the rest closes at the mark: a triggered close always completes.
        let mark = self.mark_price()?;
        let value = value + (quantity - filled) * mark;
        let price = value / quantity;
        let fill = Fill {
            user_id,
            side,
            quantity,
            price,
            leverage: open.leverage,
            mode: open.mode,
            fee_rate: self.rules.taker_fee,
            released_hold: Decimal::ZERO,
        };
        let symbol = self.rules.symbol.clone();
        let outcome = transact!(
            shared.db,
            none,
            |_: &(Effect, Decimal)| String::new(),
            |txn| {
                let mut row =
                    system_order(&txn, &symbol, user_id, side, quantity, &open, source, now)
                        .await?;
                let mut effect = Effect::default();
                let (wallet, change) = self
                    .fill_in(&txn, &mut row, &position, &fill, &mut effect, now)
                    .await?;
                let mut change = change;
                // A take profit or stop loss closes the whole position; a partial stop order
                // leaves the position's own triggers in place.
                if let Some(next) = change.as_mut()
                    && source != "stop"
                {
                    next.take_profit = None;
                    next.stop_loss = None;
                    write_position(
                        &txn,
                        &symbol,
                        next,
                        "open",
                        Decimal::ZERO,
                        Decimal::ZERO,
                        now,
                    )
                    .await?;
                }
                if let Some(stop) = &stop {
                    let mut done = stop.clone();
                    done.status = "triggered".into();
                    done.order_id = Some(row.id);
                    done.updated_at = now;
                    effect.stops.push(
                        futures_stop::ActiveModel::from(done)
                            .reset_all()
                            .update(&txn)
                            .await?,
                    );
                }
                effect.positions.push((user_id, change));
                effect.orders.push(row);
                Ok::<_, LedgerError>((effect, wallet))
            }
        )
        .map_err(ledger_api_error)?;
        if let Answer::Done((effect, wallet)) = outcome {
            self.apply(effect, &HashMap::from([(user_id, wallet)]));
        }
        Ok(())
    }

    /// Liquidates the user's position at `mark` once confirmed: an isolated position's stored
    /// price is exact; a cross position's is recomputed with the wallet now first.
    async fn liquidate(&mut self, user_id: i64, mark: Decimal) -> Result<(), Refusal> {
        let Some(position) = self.positions.get(&user_id).cloned() else {
            self.triggers.remove(Target::Liquidation(user_id));
            return Ok(());
        };
        let isolated = position.mode == MarginMode::Isolated;
        let now = now_ms();
        let symbol = self.rules.symbol.clone();
        let multiple = self.shared.config.cross_liquidation_fee_mm_multiple;
        let orders: Vec<OpenOrder> = self
            .orders
            .values()
            .filter(|o| o.row.user_id == user_id)
            .cloned()
            .collect();
        let stops: Vec<futures_stop::Model> = self
            .stops
            .values()
            .filter(|s| s.user_id == user_id)
            .cloned()
            .collect();
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        let outcome = transact!(
            shared.db,
            none,
            |_: &Option<(Effect, Decimal)>| String::new(),
            |txn| {
                let wallet = ledger::balance(&txn, settle::trading(user_id), USDT).await?;
                if !isolated {
                    let fresh = self.liquidation_of(&position, wallet);
                    if !fresh.is_some_and(|lp| liquidation_direction(position.side).fires(lp, mark))
                    {
                        return Ok(None);
                    }
                }
                let fund = ledger::balance(&txn, SECURITY_FUND, USDT).await?;
                let pnl = amount(position.pnl_at(mark));
                let (balance, fee_cap) = if isolated {
                    (position.margin, position.margin + pnl)
                } else {
                    (
                        wallet,
                        amount(position.maintenance_at(&self.rules, mark) * multiple),
                    )
                };
                let (legs, out) =
                    settle::liquidation_legs(user_id, isolated, balance, pnl, fee_cap, fund);
                let side = OrderSide::toward(opposite(position.side));
                let mut row = system_order(
                    &txn,
                    &symbol,
                    user_id,
                    side,
                    position.size,
                    &position,
                    "liquidation",
                    now,
                )
                .await?;
                let posted = if legs.is_empty() {
                    None
                } else {
                    Some(
                        ledger::post_within(
                            &txn,
                            &legs.entry(
                                "futures_liquidation",
                                format!("futures_position:{}", position.id),
                                user_id,
                                format!("{symbol} liquidation @ {}", mark.normalize()),
                            ),
                        )
                        .await?,
                    )
                };
                row.filled_quantity = text(position.size);
                row.filled_value = text(position.size * mark);
                row.realised_pnl = text(pnl);
                row.status = "dealTotol".into();
                let row = futures_order::ActiveModel::from(row)
                    .reset_all()
                    .update(&txn)
                    .await?;
                let mut closed = position.clone();
                closed.realised_pnl += pnl;
                closed.closed_size += position.size;
                closed.closed_value += position.size * mark;
                let closed_row = write_position(
                    &txn,
                    &symbol,
                    &closed,
                    "liquidated",
                    out.liquidation_fee,
                    out.covered_by_fund,
                    now,
                )
                .await?;
                let mut effect = Effect::default();
                effect.orders.push(row);
                effect.closed.push(closed_row);
                let mut wallet_after = posted
                    .and_then(|p| {
                        p.balances
                            .get(&(settle::trading(user_id), USDT.into()))
                            .copied()
                    })
                    .unwrap_or(wallet);
                for order in &orders {
                    let (cancelled, after) = cancel_in(&txn, order, "liquidation", now).await?;
                    if !dec(&order.row.hold_remaining).is_zero() {
                        wallet_after = after;
                    }
                    effect.orders.push(cancelled);
                }
                for stop in &stops {
                    let mut row = stop.clone();
                    row.status = "cancelled".into();
                    row.updated_at = now;
                    effect.stops.push(
                        futures_stop::ActiveModel::from(row)
                            .reset_all()
                            .update(&txn)
                            .await?,
                    );
                }
                effect.positions.push((user_id, None));
                Ok::<_, LedgerError>(Some((effect, wallet_after)))
            }
        )
        .map_err(ledger_api_error)?;
        match outcome {
            Answer::Done(Some((effect, wallet))) => {
                tracing::info!(%symbol, user_id, %mark, "position liquidated");
                self.apply(effect, &HashMap::from([(user_id, wallet)]));
            }
            // A cross position whose price moved away with the wallet: placed again.
            Answer::Done(None) => {
                let wallets = self.wallets(&[user_id]).await?;
                self.place(user_id, wallets.get(&user_id).copied().unwrap_or_default());
            }
            Answer::Replayed(_) => {}
        }
        Ok(())
    }

    /// Recomputes every cross position's figures and liquidation price with the wallets now, then
    /// acts on the mark (a wallet that shrank may have brought a price to it).
    async fn refresh_cross(&mut self) {
        let users: Vec<i64> = self
            .positions
            .values()
            .filter(|p| p.mode == MarginMode::Cross)
            .map(|p| p.user_id)
            .collect();
        if users.is_empty() {
            return;
        }
        let wallets = match self.wallets(&users).await {
            Ok(wallets) => wallets,
            Err(error) => {
                tracing::error!(%error, "reading cross wallets failed");
                return;
            }
        };
        for user_id in users {
            self.place(user_id, wallets.get(&user_id).copied().unwrap_or_default());
        }
        if let Some(mark) = self.mark {
            self.on_mark(mark).await;
        }
    }

    // ---- funding -----------------------------------------------------------------------------

    fn funding_rate_now(&self) -> Decimal {
        let config = &self.shared.config;
        let standing = self.standing_mark().map(|mark| (mark.mark, mark.index));
        funding_rate(
            self.premiums.average_or_standing(standing),
            config.funding_interest,
            config.funding_cap,
        )
    }

    fn publish_funding(&self) {
        let now = now_ms();
        // While missed times are being caught up, the next regular time is the one to show.
        let interval = self.shared.config.funding_interval_secs as i64 * 1000;
        let next_funding = if self.next_funding < self.started_at {
            next_funding_time(now, interval)
        } else {
            self.next_funding
        };
        let mark = self.standing_mark();
        self.shared.set_funding(FundingInfo {
            symbol: self.rules.symbol.clone(),
            funding_rate: self.funding_rate_now(),
            last_funding_rate: self.last_rate,
            next_funding_time: next_funding,
            countdown: ((next_funding - now).max(0) + 999) / 1000,
            interval_secs: self.shared.config.funding_interval_secs as i64,
            mark_price: mark.map_or(Decimal::ZERO, |m| m.mark),
            index_price: mark.map_or(Decimal::ZERO, |m| m.index),
        });
    }

    /// Settles the funding time `next_funding` on every open position at the current mark, then
    /// moves to the next multiple of the interval (which is still in the past while missed times
    /// are caught up). Without a mark it tries again a second later: a time is never skipped.
    ///
    /// A time before the engine's start was missed while the server was down: no premium was
    /// sampled for it, so its rate is the interest alone (capped), and only the positions open
    /// at the start and opened before it pay or receive it. A position that already has its
    /// `futures_funding` row for the time is not paid again.
    async fn fund(&mut self) {
        let funding_time = self.next_funding;
        let interval = self.shared.config.funding_interval_secs as i64 * 1000;
        let Some(mark) = self.standing_mark() else {
            self.funding_retry_at = Some(now_ms() + 1000);
            self.publish_funding();
            return;
        };
        self.funding_retry_at = None;
        let caught_up = funding_time < self.started_at;
        let rate = if caught_up {
            let config = &self.shared.config;
            funding_rate(Decimal::ZERO, config.funding_interest, config.funding_cap)
        } else {
            self.funding_rate_now()
        };
        let symbol = self.rules.symbol.clone();
        let already_paid: std::collections::HashSet<i64> = match futures_funding::Entity::find()
            .filter(futures_funding::Column::Symbol.eq(&symbol))
            .filter(futures_funding::Column::FundingTime.eq(funding_time))
            .all(&self.shared.db)
            .await
        {
            Ok(rows) => rows.into_iter().map(|row| row.position_id).collect(),
            Err(error) => {
                tracing::error!(%symbol, ?error, "funding: the paid positions could not be read");
                self.funding_retry_at = Some(now_ms() + 1000);
                return;
            }
        };
        self.next_funding = next_funding_time(funding_time, interval);
        let users: Vec<i64> = self.positions.keys().copied().collect();
        let mut paid_positions = 0;
        for user_id in users {
            let Some(position) = self.positions.get(&user_id).cloned() else {
                continue;
            };
            if already_paid.contains(&position.id) {
                continue;
            }
            if caught_up
                && self
                    .held_at_start
                    .get(&user_id)
                    .is_none_or(|&(id, opened)| id != position.id || opened > funding_time)
            {
                continue;
            }
            let payment = funding_payment(position.side, position.size, mark.mark, rate);
            if payment.is_zero() {
                continue;
            }
            let isolated = position.mode == MarginMode::Isolated;
            let shared = self.shared.clone();
            let none: Option<&Idempotency> = None;
            let outcome = transact!(
                shared.db,
                none,
                |_: &(Position, Decimal)| String::new(),
                |txn| {
                    let wallet = ledger::balance(&txn, settle::trading(user_id), USDT).await?;
                    let balance = if isolated { position.margin } else { wallet };
                    let (legs, paid) = settle::funding_legs(user_id, isolated, payment, balance);
                    let mut next = position.clone();
                    let mut wallet_after = wallet;
                    let mut entry_id = 0;
                    if !legs.is_empty() {
                        let posted = ledger::post_within(
                            &txn,
                            &legs.entry(
                                "futures_funding",
                                format!("futures_position:{}", position.id),
                                user_id,
                                format!("{symbol} funding rate {rate}"),
                            ),
                        )
                        .await?;
                        entry_id = posted.entry_id;
                        wallet_after = posted
                            .balances
                            .get(&(settle::trading(user_id), USDT.into()))
                            .copied()
                            .unwrap_or(wallet);
                    }
                    next.funding += paid;
                    if isolated {
                        next.margin -= paid;
                        next.liquidation_price = self.liquidation_of(&next, wallet_after);
                    }
                    futures_funding::ActiveModel {
                        id: NotSet,
                        user_id: Set(user_id),
                        symbol: Set(symbol.clone()),
                        position_id: Set(position.id),
                        side: Set(side_str(position.side).into()),
                        size: Set(text(position.size)),
                        mark_price: Set(text(mark.mark)),
                        rate: Set(text(rate)),
                        payment: Set(text(paid)),
                        entry_id: Set(entry_id),
                        funding_time: Set(funding_time),
                    }
                    .insert(&txn)
                    .await?;
                    write_position(
                        &txn,
                        &symbol,
                        &next,
                        "open",
                        Decimal::ZERO,
                        Decimal::ZERO,
                        now_ms(),
                    )
                    .await?;
                    Ok::<_, LedgerError>((next, wallet_after))
                }
            );
            match outcome {
                Ok(Answer::Done((next, wallet))) => {
                    paid_positions += 1;
                    self.apply(
                        Effect {
                            positions: vec![(user_id, Some(next))],
                            ..Effect::default()
                        },
                        &HashMap::from([(user_id, wallet)]),
                    )
                }
                Ok(Answer::Replayed(_)) => {}
                Err(error) => {
                    tracing::error!(%symbol, user_id, ?error, "funding payment failed");
                }
            }
        }
        let round = futures_funding_round::ActiveModel {
            id: NotSet,
            symbol: Set(symbol.clone()),
            funding_time: Set(funding_time),
            rate: Set(text(rate)),
            mark_price: Set(text(mark.mark)),
            positions: Set(paid_positions),
            caught_up: Set(caught_up),
            settled_at: Set(now_ms()),
        };
        if let Err(error) = futures_funding_round::Entity::insert(round)
            .on_conflict(
                OnConflict::columns([
                    futures_funding_round::Column::Symbol,
                    futures_funding_round::Column::FundingTime,
                ])
                .do_nothing()
                .to_owned(),
            )
            .exec_without_returning(&self.shared.db)
            .await
        {
            // The payments stand; without the round a restart looks for the time again and
            // finds every position's row.
            tracing::error!(%symbol, ?error, "the funding round could not be recorded");
        }
        tracing::info!(%symbol, %rate, funding_time, caught_up, "funding settled");
        self.last_rate = Some(rate);
        if !caught_up {
            self.premiums = PremiumSampler::default();
        }
        self.publish_funding();
        // Funding moved wallets and isolated margins: liquidation prices may have reached the mark.
        self.on_mark(mark).await;
    }
}

/// One execution against a position.
struct Fill {
    user_id: i64,
    side: OrderSide,
    quantity: Decimal,
    price: Decimal,
    leverage: Decimal,
    mode: MarginMode,
    fee_rate: Decimal,
    released_hold: Decimal,
}

fn limit_direction(side: OrderSide) -> Direction {
    match side {
        OrderSide::Buy => Direction::Below,
        OrderSide::Sell => Direction::Above,
    }
}

fn stop_direction(text: &str) -> Direction {
    if text == "above" {
        Direction::Above
    } else {
        Direction::Below
    }
}

fn open_order(row: &futures_order::Model) -> Option<OpenOrder> {
    let price = wasm_core::money::parse_decimal(row.price.as_deref()?).ok()?;
    Some(OpenOrder {
        row: row.clone(),
        side: if row.side == "buy" {
            OrderSide::Buy
        } else {
            OrderSide::Sell
        },
        price,
        remaining: dec(&row.quantity) - dec(&row.filled_quantity),
        hold: dec(&row.hold_remaining),
        leverage: dec(&row.leverage),
        mode: mode_of(&row.margin_mode),
    })
}

/// The position a `futures_position` row holds.
pub fn position_of(row: &futures_position::Model) -> Position {
    let opt = |t: &Option<String>| t.as_deref().map(dec);
    Position {
        id: row.id,
        user_id: row.user_id,
        side: side_of(&row.side),
        size: dec(&row.size),
        entry_price: dec(&row.entry_price),
        leverage: dec(&row.leverage),
        mode: mode_of(&row.margin_mode),
        margin: dec(&row.margin),
        take_profit: opt(&row.take_profit),
        stop_loss: opt(&row.stop_loss),
        realised_pnl: dec(&row.realised_pnl),
        closed_size: dec(&row.closed_size),
        closed_value: dec(&row.closed_value),
        fees: dec(&row.fees),
        funding: dec(&row.funding),
        liquidation_price: opt(&row.liquidation_price),
        opened_at: row.opened_at,
    }
}

/// Inserts (id 0) or updates the row of `position` with `status`.
async fn write_position(
    txn: &DatabaseTransaction,
    symbol: &str,
    position: &Position,
    status: &str,
    liquidation_fee: Decimal,
    fund_cover: Decimal,
    now: i64,
) -> Result<futures_position::Model, DbErr> {
    let open = status == "open";
    let row = futures_position::ActiveModel {
        id: if position.id == 0 {
            NotSet
        } else {
            Set(position.id)
        },
        user_id: Set(position.user_id),
        symbol: Set(symbol.to_owned()),
        side: Set(side_str(position.side).into()),
        size: Set(if open {
            text(position.size)
        } else {
            "0".into()
        }),
        entry_price: Set(text(position.entry_price)),
        leverage: Set(text(position.leverage)),
        margin_mode: Set(mode_str(position.mode).into()),
        margin: Set(if open {
            text(position.margin)
        } else {
            "0".into()
        }),
        take_profit: Set(opt_text(position.take_profit.filter(|_| open))),
        stop_loss: Set(opt_text(position.stop_loss.filter(|_| open))),
        realised_pnl: Set(text(position.realised_pnl)),
        closed_size: Set(text(position.closed_size)),
        closed_value: Set(text(position.closed_value)),
        fees: Set(text(position.fees)),
        funding: Set(text(position.funding)),
        liquidation_price: Set(opt_text(position.liquidation_price.filter(|_| open))),
        status: Set(status.into()),
        liquidation_fee: Set(text(liquidation_fee)),
        fund_cover: Set(text(fund_cover)),
        opened_at: Set(position.opened_at),
        updated_at: Set(now),
        closed_at: Set((!open).then_some(now)),
    };
    if position.id == 0 {
        row.insert(txn).await
    } else {
        row.update(txn).await
    }
}

/// Inserts the market order a trigger or the liquidation engine places for `user_id`.
#[allow(clippy::too_many_arguments)]
async fn system_order(
    txn: &DatabaseTransaction,
    symbol: &str,
    user_id: i64,
    side: OrderSide,
    quantity: Decimal,
    position: &Position,
    source: &str,
    now: i64,
) -> Result<futures_order::Model, DbErr> {
    futures_order::ActiveModel {
        id: NotSet,
        user_id: Set(user_id),
        symbol: Set(symbol.to_owned()),
        side: Set(side.as_str().into()),
        order_type: Set("market".into()),
        source: Set(source.into()),
        price: Set(None),
        quantity: Set(text(quantity)),
        leverage: Set(text(position.leverage)),
        margin_mode: Set(mode_str(position.mode).into()),
        reduce_only: Set(true),
        close_position: Set(quantity == position.size),
        filled_quantity: Set("0".into()),
        filled_value: Set("0".into()),
        fee: Set("0".into()),
        realised_pnl: Set("0".into()),
        hold_remaining: Set("0".into()),
        status: Set("waitDeal".into()),
        cancel_reason: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(txn)
    .await
}

/// Cancels a resting order inside `txn`, releasing its hold; gives the row and the wallet after.
async fn cancel_in(
    txn: &DatabaseTransaction,
    order: &OpenOrder,
    reason: &str,
    now: i64,
) -> Result<(futures_order::Model, Decimal), LedgerError> {
    let user_id = order.row.user_id;
    let mut wallet = ledger::balance(txn, settle::trading(user_id), USDT).await?;
    if order.hold > Decimal::ZERO {
        let mut legs = Legs::new();
        legs.transfer(
            settle::margin(user_id),
            settle::trading(user_id),
            order.hold,
        );
        let posted: NewEntry = legs.entry(
            "futures_release",
            format!("futures_order:{}", order.row.id),
            user_id,
            format!("{} order {} {reason}", order.row.symbol, order.row.id),
        );
        let posted = ledger::post_within(txn, &posted).await?;
        wallet = posted
            .balances
            .get(&(settle::trading(user_id), USDT.into()))
            .copied()
            .unwrap_or(wallet);
    }
    let mut row = order.row.clone();
    row.status = "cancelled".into();
    row.cancel_reason = Some(reason.into());
    row.hold_remaining = "0".into();
    row.updated_at = now;
    let row = futures_order::ActiveModel::from(row)
        .reset_all()
        .update(txn)
        .await?;
    Ok((row, wallet))
}
