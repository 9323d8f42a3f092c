//! The engine of one spot pair: the single writer of its order book. A tokio task owns the pair's
//! [`matching::Book`] and the open orders' rows; every change reaches it as a [`Command`] on its
//! queue, so orders of one pair are matched strictly one after another. Commands are taken in
//! batches, and each batch is written in one database transaction with its ledger entries (group
//! commit); its answers, trades, depth and the users' order and fill messages go out only after
//! the commit. At start, and whenever memory may no longer equal the database, the book is rebuilt
//! from the stored open orders in arrival order ([`SpotEngine::rebuild`]).
//!
//! One job per file:
//! - `command.rs`: what the server sends the engine ([`Command`], [`Submit`], [`OrderSpec`]) and
//!   the [`Answer`] to an order;
//! - `batch.rs`: group commit, a batch read, run and written in one transaction in the markets'
//!   write turn ([`MAX_BATCH`], [`SLOW_BATCH`]);
//! - `orders.rs`: users' orders: a new order's checks, hold and placing, a cancellation;
//! - `book_events.rs`: what the book reported, applied to the orders; a finished order releases
//!   what it still holds;
//! - `fills.rs`: the settlement of one fill (its journal entry, trade and both orders' figures);
//! - `house_maker.rs`: the house market maker's ladder, re-quoted in memory when it writes nothing;
//! - `outbox.rs`: what a committed batch sends (answers, tape, depth, the users' messages);
//! - `open_orders.rs`: the index of the open orders' pairs ([`OpenOrderIndex`]), and an open order
//!   as the engine keeps it;
//! - this file: the engine's state and context, its task loop and the rebuild.
//!
//! In cluster mode an engine runs only on the pair's owner and carries its [`Fence`]: every batch
//! checks it in its transaction (`batch.rs`), and an engine that finds the pair taken by a newer
//! owner refuses that batch whole, answers what is still queued "busy" and ends.

mod batch;
mod book_events;
mod command;
mod fills;
mod house_maker;
mod open_orders;
mod orders;
mod outbox;
#[cfg(test)]
mod tests;

use batch::batch_from;
pub use batch::{MAX_BATCH, SLOW_BATCH};
pub use command::{Answer, Command, OrderSpec, Submit};
pub use house_maker::HOUSE;
use open_orders::OpenOrder;
pub use open_orders::OpenOrderIndex;

use std::collections::HashMap;
use std::sync::Arc;

use matching::{Book, Event, StopCondition};
use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder};
use tokio::sync::{Mutex, broadcast, mpsc, watch};

use super::rules::PairRules;
use super::views::OrderStatus;
use crate::cluster::Fence;
use crate::db::Writer;
use crate::entity::spot_order;
use crate::market::MarketHub;
use crate::user::events::UserEvent;

/// What the task shares with the rest of the server.
#[derive(Clone)]
pub struct EngineContext {
    /// The database, as the markets write it ([`crate::db::connect_writer`]).
    pub writer: Writer,
    /// The shared pool, for reads outside a transaction: they need not wait while another
    /// market holds the writer's one connection.
    pub pool: DatabaseConnection,
    /// The market channel.
    pub hub: Arc<MarketHub>,
    /// The users' channels.
    pub user_events: broadcast::Sender<Arc<UserEvent>>,
    /// Share of every fee paid into the security fund, in percent.
    pub security_percent: Decimal,
    /// The VIPs and their fee discount.
    pub fee_discounts: Arc<crate::tiers::FeeDiscounts>,
    /// Levels the house quotes per side.
    pub house_levels: usize,
    /// Held by a market while it writes a batch: one market at a time, each waking as soon as
    /// the previous one commits.
    pub write_turn: Arc<Mutex<()>>,
    /// The pair of every open order, for cancellations.
    pub open_orders: Arc<OpenOrderIndex>,
    /// The server's runtime, for work on the shared pool (see `SpotEngine::quote_in_memory`).
    pub server: tokio::runtime::Handle,
}

/// One pair's market task.
pub struct SpotEngine {
    rules: Arc<PairRules>,
    context: EngineContext,
    book: Book,
    open: HashMap<i64, OpenOrder>,
    house_orders: Vec<u64>,
    next_house_id: u64,
    events: Vec<Event>,
    /// Orders finished in the current batch, for the answers.
    finished: HashMap<i64, spot_order::Model>,
    /// The pair's symbol, shared with the open-order index.
    symbol: Arc<str>,
    /// The owner's fence in cluster mode (checked by every batch), `None` on a lone instance.
    fence: Option<Arc<Fence>>,
}

impl SpotEngine {
    /// A market for `rules`; its book is loaded by [`SpotEngine::run`].
    pub fn new(rules: Arc<PairRules>, context: EngineContext) -> Self {
        let symbol = Arc::from(rules.symbol.as_str());
        Self {
            rules,
            context,
            book: Book::new(),
            open: HashMap::new(),
            house_orders: Vec::new(),
            next_house_id: 0,
            events: Vec::new(),
            finished: HashMap::new(),
            symbol,
            fence: None,
        }
    }

    /// The same market writing under `fence` (cluster mode: this instance owns the pair).
    pub fn with_fence(self, fence: Arc<Fence>) -> Self {
        Self {
            fence: Some(fence),
            ..self
        }
    }

    /// Whether a newer owner took the pair: this engine must not write again.
    fn fenced_out(&self) -> bool {
        self.fence.as_ref().is_some_and(|fence| fence.is_lost())
    }

    /// Loads the open orders, then serves commands until the queue closes or `shutdown` changes.
    pub async fn run(
        mut self,
        mut commands: mpsc::Receiver<Command>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        if let Err(error) = self.rebuild().await {
            tracing::error!(%error, symbol = %self.rules.symbol, "loading the spot book failed");
        }
        // The pair has a book from the start: the simulator's until the market maker's first
        // quote replaces it, or this one (the users' orders) when no simulator runs.
        if self.context.hub.book(&self.rules.symbol).is_none() {
            self.publish_depth();
        }
        loop {
            let first = tokio::select! {
                command = commands.recv() => match command {
                    Some(command) => command,
                    None => break,
                },
                _ = shutdown.changed() => {
                    // What is queued already is answered before the task ends.
                    commands.close();
                    while let Some(command) = commands.recv().await {
                        self.process(batch_from(command, &mut commands)).await;
                    }
                    break;
                }
            };
            self.process(batch_from(first, &mut commands)).await;
            if self.fenced_out() {
                // A newer owner took the pair: what is queued was not done; the callers retry
                // with the owner.
                commands.close();
                while let Some(command) = commands.recv().await {
                    command.refuse(batch::busy());
                }
                tracing::warn!(symbol = %self.rules.symbol, "a newer owner took the spot pair; this engine stopped");
                break;
            }
        }
    }

    /// The book again from the database: every open order in arrival order, as a restart does.
    pub async fn rebuild(&mut self) -> Result<(), DbErr> {
        self.book = Book::new();
        self.open.clear();
        self.house_orders.clear();
        let rows = self
            .context
            .writer
            .find(
                spot_order::Entity::find()
                    .filter(spot_order::Column::Symbol.eq(&self.rules.symbol))
                    .filter(spot_order::Column::Status.is_in(OrderStatus::OPEN))
                    .order_by_asc(spot_order::Column::Id),
            )
            .await?;
        for row in rows {
            let order = OpenOrder::of(row);
            let Some(request) = self.resting_request(&order) else {
                tracing::error!(
                    id = order.row.id,
                    "an open order no longer fits its pair's rules"
                );
                continue;
            };
            self.events.clear();
            match (
                &order.row.trigger_condition,
                OrderStatus::parse(&order.row.status),
            ) {
                (Some(condition), OrderStatus::WaitTrigger) => {
                    let trigger = order
                        .row
                        .trigger_price
                        .as_deref()
                        .and_then(|p| wasm_core::money::parse_decimal(p).ok())
                        .and_then(|p| self.rules.ticks(p))
                        .unwrap_or(1);
                    let condition = if condition == "above" {
                        StopCondition::AtOrAbove
                    } else {
                        StopCondition::AtOrBelow
                    };
                    self.book.place_stop(
                        matching::StopRequest {
                            order: request,
                            trigger,
                            condition,
                        },
                        &mut self.events,
                    );
                }
                _ => self.book.place(request, &mut self.events),
            }
            if self
                .events
                .iter()
                .any(|event| !matches!(event, Event::Rested { .. } | Event::StopAccepted { .. }))
            {
                tracing::error!(id = order.row.id, events = ?self.events, "an open order did not rest on rebuild");
            }
            self.open.insert(order.row.id, order);
        }
        self.events.clear();
        self.context.open_orders.replace(
            &self.symbol,
            self.open
                .values()
                .map(|order| (order.row.id, order.row.user_id)),
        );
        Ok(())
    }
}
