//! Group commit: commands are taken in batches (whatever is queued, up to [`MAX_BATCH`]) and the
//! whole batch is written in one database transaction — one commit for many orders, and a handful
//! of statements for the whole batch rather than several per order. The batch reads what it needs
//! first (the accounts of its users and of the house, its idempotency keys, ids for its new
//! orders), works in memory — the book, the open orders, and the ledger entries in a
//! [`LedgerBatch`] — and writes the result at the end with multi-row statements: entries,
//! postings, trades, every changed account and every changed order once. Nothing goes out before
//! the commit (`outbox.rs`). If the commit fails, every order of the batch is answered "busy,
//! nothing done" and the book is rebuilt from the database, exactly as after a restart.
//!
//! The markets of one server take turns at the database (one async lock,
//! [`EngineContext::write_turn`]), so on SQLite a market never sleeps in the busy handler waiting
//! for another one's write lock. A batch slower than [`SLOW_BATCH`] is logged with its phases.
//!
//! [`LedgerBatch`]: batch::LedgerBatch
//! [`EngineContext::write_turn`]: super::EngineContext::write_turn

use std::time::{Duration, Instant};

use sea_orm::{DatabaseBackend, DbErr, sea_query::OnConflict};
use tokio::sync::mpsc;

use super::outbox::{Outbox, PendingEvent, order_event};
use super::{Command, SpotEngine, Submit};
use crate::clock::now_ms;
use crate::db::WriterTransaction;
use crate::entity::{spot_order, spot_trade};
use crate::funds::ledger::batch::{self, NewIds, Writes};
use crate::funds::ledger::{AccountRef, Bucket, House, Idempotency, LedgerError};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// The PostgreSQL advisory lock every spot batch takes first (see [`SpotEngine::write_batch`]).
const MARKETS_TURN: i64 = 7411;

/// Most commands written in one transaction.
pub const MAX_BATCH: usize = 256;

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

/// Why a step stopped: the order is refused (its hold is taken back), or the batch cannot go on.
pub(super) enum Stop {
    /// The order is refused: this is its answer.
    Refused(Refusal),
    /// The batch cannot go on: nothing of it is kept.
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

/// The answer to a command that was not done: the market is busy (or no longer here); the
/// caller may retry.
pub(super) fn busy() -> Refusal {
    Refusal::new(RefusalKind::Unavailable, Msg::TradingBusy)
}

/// `first` and whatever else is queued, up to [`MAX_BATCH`] commands.
pub(super) fn batch_from(first: Command, commands: &mut mpsc::Receiver<Command>) -> Vec<Command> {
    let mut batch = vec![first];
    while batch.len() < MAX_BATCH {
        match commands.try_recv() {
            Ok(command) => batch.push(command),
            Err(_) => break,
        }
    }
    batch
}

impl SpotEngine {
    /// Runs one batch: in memory when it is quotes alone that write nothing, else in one write
    /// transaction; then sends what it produced, or answers "busy" and rebuilds the book.
    pub(super) async fn process(&mut self, mut batch: Vec<Command>) {
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
                for (reply, _) in outbox.submits {
                    let _ = reply.send(Err(busy()));
                }
                for (reply, _) in outbox.cancels {
                    let _ = reply.send(Err(busy()));
                }
                if self.fenced_out() {
                    // Another instance owns the pair now: its book is the one to keep.
                    return;
                }
                if let Err(error) = self.rebuild().await {
                    tracing::error!(%error, "reloading the spot book failed");
                }
            }
        }
    }

    /// Runs the batch's commands in one transaction, in the markets' write turn, and commits.
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
        // Cluster mode: only the pair's current owner writes (`crate::cluster::fence`); the
        // check keeps the owner's row locked until this batch ends, and takes the advisory lock
        // in the same statement.
        if let Some(fence) = &self.fence {
            if !crate::cluster::fence::still_holds_in_turn(&txn, fence, MARKETS_TURN)
                .await
                .map_err(|e| e.to_string())?
            {
                fence.lose();
                for command in batch {
                    command.refuse(busy());
                }
                return Err(format!(
                    "{} was taken by a newer owner than token {}: the batch is refused",
                    fence.market(),
                    fence.token()
                ));
            }
        } else if txn.backend() == DatabaseBackend::Postgres {
            txn.execute_unprepared(&format!("SELECT pg_advisory_xact_lock({MARKETS_TURN})"))
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
