//! The engine of one spot pair: the single writer of its order book. A tokio task owns the pair's
//! [`matching::Book`] and the open orders' rows; every change reaches it as a [`Command`] on its
//! queue, so orders of one pair are matched strictly one after another.
//!
//! Commands are taken in batches (whatever is queued, up to [`MAX_BATCH`]) and the whole batch is
//! written in one database transaction — group commit: one commit for many orders, and a handful
//! of statements for the whole batch rather than several per order. The batch reads what it needs
//! first (the accounts of its users and of the house, its idempotency keys, ids for its new orders),
//! works in memory — the book, the open orders, and the ledger entries in a
//! [`LedgerBatch`](crate::funds::ledger::batch::LedgerBatch) — and writes the result at the end with multi-row statements: entries,
//! postings, trades, every changed account and every changed order once. A refusal (insufficient
//! balance, a fill-or-kill that cannot fill, a post-only order that would take) takes back only
//! that order's hold ([`LedgerBatch::undo_to`](crate::funds::ledger::batch::LedgerBatch::undo_to)), and the engine refuses before it changes the
//! book, so memory and database stay equal. Answers, trades, the depth and the users' order and
//! fill messages go out only after the commit. If the commit fails, every order of the batch is
//! answered "busy, nothing done" and the book is rebuilt from the database (the open orders, in
//! arrival order), exactly as after a restart.
//!
//! The markets of one server take turns at the database (one async lock, [`EngineContext::write_turn`]),
//! so on SQLite a market never sleeps in the busy handler waiting for another one's write lock.
//!
//! The house market maker quotes a ladder around the simulated price on every tick ([`Command::Quote`]):
//! its previous orders are withdrawn and the new ladder placed, as large as its own ledger
//! balances allow (bids within its quote balance, asks within its base balance). Its orders live only in memory
//! (re-quoted every tick, never resting long); its fills are real — settled on the house's
//! market-maker account and published on the market channel like any trade. A batch of quotes
//! alone (the usual case) first tries to re-quote in memory: the market maker's balances are read
//! on the pool, outside any transaction and the write turn, and when the last price triggers no
//! stop and the new ladder crosses no user order (both checked before the book changes) the
//! house orders only rest, nothing is written and the book goes out at once. A quote that would
//! fill or trigger something goes through a write transaction as above, which reads the
//! balances again and settles the fills.

mod book_events;
mod command;
mod fills;
mod house_maker;
mod open_orders;
mod orders;
mod outbox;

pub use command::{Answer, Command, OrderSpec, Submit};
pub use house_maker::HOUSE;
use house_maker::HOUSE_ID_BIT;
use open_orders::OpenOrder;
pub use open_orders::OpenOrderIndex;
pub use outbox::UserEvent;
use outbox::{Outbox, PendingEvent, order_event};

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use matching::{Book, Event, StopCondition};
use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, DatabaseBackend, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder,
    sea_query::OnConflict,
};
use tokio::sync::{Mutex, broadcast, mpsc, watch};

use super::rules::PairRules;
use super::views::OrderStatus;
use crate::db::{Writer, WriterTransaction};
use crate::entity::{spot_order, spot_trade};
use crate::funds::ledger::batch::{self, NewIds, Writes};
use crate::funds::ledger::{AccountRef, Bucket, House, Idempotency, LedgerError};
use crate::refusal::{Refusal, RefusalKind};

use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::market::simulator::now_ms;

/// A batch slower than this is logged with how long each of its phases took.
pub const SLOW_BATCH: Duration = Duration::from_millis(100);

/// When each phase of one batch's write ended, to log a batch slower than [`SLOW_BATCH`].
struct BatchPhases {
    started: Instant,
    commands: usize,
    ends: Vec<(&'static str, Instant)>,
}

impl BatchPhases {
    fn start(commands: usize) -> Self {
        Self {
            started: Instant::now(),
            commands,
            ends: Vec::with_capacity(6),
        }
    }

    fn mark(&mut self, phase: &'static str) {
        self.ends.push((phase, Instant::now()));
    }

    /// Logs the phases, in milliseconds, when the whole batch took longer than [`SLOW_BATCH`].
    fn report(&self, symbol: &str) {
        let total = self.started.elapsed();
        if total < SLOW_BATCH {
            return;
        }
        let mut from = self.started;
        let phases: Vec<String> = self
            .ends
            .iter()
            .map(|(phase, end)| {
                let ms = end.duration_since(from).as_secs_f64() * 1e3;
                from = *end;
                format!("{phase} {ms:.1}")
            })
            .collect();
        tracing::warn!(
            symbol,
            commands = self.commands,
            total_ms = total.as_millis() as u64,
            phases = %phases.join(", "),
            "slow spot batch"
        );
    }
}

/// Most commands written in one transaction.
pub const MAX_BATCH: usize = 256;

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

/// Why a step stopped: the order is refused (its hold is taken back), or the batch cannot go on.
enum Stop {
    Refused(Refusal),
    Fatal(String),
}

impl From<DbErr> for Stop {
    fn from(error: DbErr) -> Self {
        Stop::Fatal(error.to_string())
    }
}

impl From<LedgerError> for Stop {
    fn from(error: LedgerError) -> Self {
        Stop::Fatal(error.to_string())
    }
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
        }
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

    async fn process(&mut self, mut batch: Vec<Command>) {
        let mut phases = BatchPhases::start(batch.len());
        // Most batches are the simulator's quotes alone, which usually write nothing: they need
        // neither the write turn nor a transaction.
        if batch
            .iter()
            .all(|command| matches!(command, Command::Quote { .. }))
        {
            batch = self.quote_in_memory(batch).await;
            phases.mark("in-memory quote");
            if batch.is_empty() {
                phases.report(&self.rules.symbol);
                return;
            }
        }
        let mut outbox = Outbox::default();
        let result = self.write_batch(batch, &mut outbox, &mut phases).await;
        match result {
            Ok(()) => {
                self.deliver(outbox);
                phases.mark("deliver");
                phases.report(&self.rules.symbol);
            }
            Err(cause) => {
                tracing::error!(%cause, symbol = %self.rules.symbol, "a spot batch failed; nothing of it was kept");
                let busy = || Refusal::new(RefusalKind::Unavailable, Msg::TradingBusy);
                for (reply, _) in outbox.submits {
                    let _ = reply.send(Err(busy()));
                }
                for (reply, _) in outbox.cancels {
                    let _ = reply.send(Err(busy()));
                }
                if let Err(error) = self.rebuild().await {
                    tracing::error!(%error, "reloading the spot book failed");
                }
            }
        }
    }

    async fn write_batch(
        &mut self,
        batch: Vec<Command>,
        outbox: &mut Outbox,
        phases: &mut BatchPhases,
    ) -> Result<(), String> {
        self.finished.clear();
        let write_turn = self.context.write_turn.clone();
        let _turn = write_turn.lock().await;
        phases.mark("turn");
        // One market's batch at a time, taken at the start. A batch posts many entries and locks
        // their accounts in arrival order, so two markets' batches sharing accounts (the house's
        // fee accounts, a user trading both pairs) could otherwise deadlock on PostgreSQL: there
        // the batch takes an advisory lock first. On SQLite `BEGIN IMMEDIATE` takes the
        // database's write lock with the transaction itself, without a statement of its own.
        let writer = self.context.writer.clone();
        let txn = writer.begin_immediate().await.map_err(|e| e.to_string())?;
        if txn.backend() == DatabaseBackend::Postgres {
            txn.execute_unprepared("SELECT pg_advisory_xact_lock(7411)")
                .await
                .map_err(|e| e.to_string())?;
        }
        phases.mark("begin");
        self.prepare(&txn, &batch, outbox)
            .await
            .map_err(|e| e.to_string())?;
        phases.mark("prepare");
        for command in batch {
            match command {
                Command::Submit(submit) => self.submit(&txn, *submit, outbox).await?,
                Command::Cancel {
                    user_id,
                    order_id,
                    reply,
                } => {
                    let answer = self.cancel(&txn, user_id, order_id, outbox).await;
                    match answer {
                        Ok(order) => outbox.cancels.push((reply, Ok(order))),
                        Err(Stop::Refused(error)) => outbox.cancels.push((reply, Err(error))),
                        Err(Stop::Fatal(cause)) => return Err(cause),
                    }
                }
                Command::Quote { book, last } => {
                    match self.quote(&txn, &book, last, outbox).await {
                        Ok(()) => {}
                        Err(Stop::Refused(_)) => {}
                        Err(Stop::Fatal(cause)) => return Err(cause),
                    }
                }
            }
        }
        phases.mark("match");
        // Every order a step changed is written once per batch.
        let now = now_ms();
        let mut rows: Vec<spot_order::Model> = self.finished.values().cloned().collect();
        for id in &outbox.touched {
            if let Some(order) = self.open.get_mut(id) {
                let row = order.synced(now);
                outbox
                    .user_events
                    .push(PendingEvent::Ready(order_event(row)));
                rows.push(row.clone());
            }
        }
        self.write(&txn, rows, outbox)
            .await
            .map_err(|e| e.to_string())?;
        phases.mark("write");
        let committed = txn.commit().await.map_err(|e| e.to_string());
        phases.mark("commit");
        committed
    }

    /// Reads what the batch will need in a few statements: ids for its new orders, its
    /// idempotency keys' records, and the accounts of its users and of the house in both assets.
    async fn prepare(
        &mut self,
        txn: &WriterTransaction<'_>,
        batch: &[Command],
        outbox: &mut Outbox,
    ) -> Result<(), DbErr> {
        let submits: Vec<&Submit> = batch
            .iter()
            .filter_map(|command| match command {
                Command::Submit(submit) => Some(&**submit),
                _ => None,
            })
            .collect();
        let mut new_ids =
            NewIds::start(txn, &["spot_order", "spot_trade", "journal_entry"]).await?;
        outbox.order_ids = new_ids.take(txn, "spot_order", submits.len()).await?.into();
        outbox.new_ids = Some(new_ids);
        let keys: Vec<&Idempotency> = submits
            .iter()
            .filter_map(|submit| submit.idempotency.as_ref())
            .collect();
        for record in batch::find_keys(txn, &keys).await? {
            outbox.stored_keys.insert(
                (record.user_id, record.key),
                (record.request_hash, record.response),
            );
        }
        let mut users: Vec<i64> = batch
            .iter()
            .filter_map(|command| match command {
                Command::Submit(submit) => Some(submit.user_id),
                Command::Cancel { user_id, .. } => Some(*user_id),
                Command::Quote { .. } => None,
            })
            .collect();
        users.sort_unstable();
        users.dedup();
        let rules = &self.rules;
        let mut wanted: Vec<(AccountRef, &str)> = Vec::new();
        for asset in [rules.base.as_str(), rules.quote.as_str()] {
            for house in [House::MarketMaker, House::Fees, House::SecurityFund] {
                wanted.push((AccountRef::House(house), asset));
            }
            for user_id in &users {
                for bucket in [Bucket::Funding, Bucket::Frozen] {
                    wanted.push((
                        AccountRef::User {
                            user_id: *user_id,
                            bucket,
                        },
                        asset,
                    ));
                }
            }
        }
        outbox.ledger.load(txn, &wanted).await
    }

    /// Writes the batch's results: its journal entries, its trades, every changed order and the
    /// idempotency keys it claimed.
    async fn write(
        &mut self,
        txn: &WriterTransaction<'_>,
        rows: Vec<spot_order::Model>,
        outbox: &mut Outbox,
    ) -> Result<(), DbErr> {
        let Some(mut new_ids) = outbox.new_ids.take() else {
            return Err(DbErr::Custom("the batch was not prepared".into()));
        };
        let mut ids = new_ids
            .take_each(
                txn,
                &[
                    ("journal_entry", outbox.ledger.len()),
                    ("spot_trade", outbox.trades.len()),
                ],
            )
            .await?
            .into_iter();
        let (entry_ids, trade_ids) = (
            ids.next().unwrap_or_default(),
            ids.next().unwrap_or_default(),
        );
        let mut writes = Writes::new(txn.backend());
        std::mem::take(&mut outbox.ledger).write(&entry_ids, &mut writes);
        for ((trade, entry), id) in outbox.trades.iter_mut().zip(trade_ids) {
            trade.id = id;
            trade.entry_id = entry_ids[entry.0];
        }
        writes.insert(
            outbox
                .trades
                .iter()
                .map(|(trade, _)| spot_trade::ActiveModel::from(trade.clone()))
                .collect(),
        );
        writes.upsert(
            rows.into_iter()
                .map(spot_order::ActiveModel::from)
                .collect(),
            OnConflict::column(spot_order::Column::Id)
                .update_columns([
                    spot_order::Column::FilledQuantity,
                    spot_order::Column::FilledAmount,
                    spot_order::Column::Fee,
                    spot_order::Column::FrozenRemaining,
                    spot_order::Column::Status,
                    spot_order::Column::CancelReason,
                    spot_order::Column::UpdatedAt,
                ])
                .to_owned(),
        );
        batch::write_keys(std::mem::take(&mut outbox.new_keys), &mut writes);
        // Everything in one round trip.
        writes.run(txn).await
    }
}

/// `first` and whatever else is queued, up to [`MAX_BATCH`] commands.
fn batch_from(first: Command, commands: &mut mpsc::Receiver<Command>) -> Vec<Command> {
    let mut batch = vec![first];
    while batch.len() < MAX_BATCH {
        match commands.try_recv() {
            Ok(command) => batch.push(command),
            Err(_) => break,
        }
    }
    batch
}

#[cfg(test)]
mod tests;
