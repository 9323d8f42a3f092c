//! The engine of one futures symbol: a single-writer tokio task that owns the symbol's open
//! positions (one per user: one-way mode), resting limit orders, stop orders and the users'
//! settings, and the price-trigger index over them.
//!
//! - Every command and every triggered event runs in one database transaction that writes its
//!   rows and posts its journal entries together (and claims the caller's idempotency key); the
//!   in-memory state changes only after the commit, so a refused or failed change leaves nothing
//!   behind. A race lost to another writer of the same account (a transfer) is retried. In
//!   cluster mode each transaction first checks that this instance still owns the engines (the
//!   `futures` fencing token): a stale owner's change is refused before it writes.
//! - At start the engine rebuilds itself from the database: open positions, resting orders,
//!   waiting stop orders and settings, and their index ([`Engine::load`]); then [`Engine::run`]
//!   serves commands, mark ticks, cross refreshes and funding times, one at a time.
//!
//! One job per file:
//! - `mod.rs`: the engine's state, its rebuild, its loop and the dispatch of commands;
//! - `command.rs`: what it is asked ([`Command`], [`OrderSpec`], [`StopSpec`]) and answers
//!   ([`Answer`]);
//! - `orders.rs`, `stops.rs`, `position_settings.rs`: the user's commands (orders; take profit,
//!   stop loss and stop orders; margin, leverage and mode);
//! - `triggers.rs`: what a mark tick sets off (fills of resting orders, triggered closes,
//!   liquidations) and the cross positions' refresh;
//! - `funding_round.rs`: funding at every multiple of the interval, missed times caught up;
//! - `fill.rs`: one execution against a position, shared by orders and triggers;
//! - `reading.rs`: what commands and triggers read (settings, mark, wallets, figures);
//! - `state.rs`: how a committed change reaches memory and the trigger index;
//! - `store.rs`: the `transact!` retry, the rows written and the row ↔ model conversions.

use std::collections::{BTreeMap, HashMap};
use std::sync::Arc;
use std::time::Duration;

use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter, QueryOrder};
use tokio::sync::{mpsc, watch};

use super::funding::{PremiumSampler, next_funding_time};
use super::index::{Direction, TriggerIndex};
use super::position::{Position, SymbolRules};
use super::registry::{MarkPrice, Shared};
use crate::clock::now_ms;
use crate::entity::{
    futures_funding, futures_funding_round, futures_order, futures_position, futures_setting,
    futures_stop,
};
use state::{OpenOrder, Setting, limit_direction, stop_direction};
use store::{dec, mode_of, open_order};

mod command;
mod fill;
mod funding_round;
mod orders;
mod position_settings;
mod reading;
mod state;
mod stops;
mod store;
#[cfg(test)]
mod tests;
mod triggers;

pub use command::{Answer, Command, DEFAULT_LEVERAGE, OrderSpec, Reply, StopSpec, Target};
pub use store::position_of;

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

    /// Does what `command` asks and sends the answer.
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
}
