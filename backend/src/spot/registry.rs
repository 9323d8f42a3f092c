//! The registry of spot engines: one [`SpotEngine`] task per pair listed for spot trading, found by symbol.
//! Orders and cancellations go to their pair's queue and wait for the task's answer; the
//! simulator's books arrive through [`QuoteSink`], without waiting (a busy market skips a quote,
//! the next one replaces it). Pairs listed while the server runs get their market on the first
//! quote. Each pair's market maker is given its inventory once, when its market first opens.
//!
//! In cluster mode (a bus given) an instance runs the engine only of the pairs it owns
//! (`ownership.rs`); it knows every pair's rules, and an order or cancellation for a pair it does
//! not own goes to the owner (`forward.rs`), retried against a new owner while a pair changes hands,
//! for at most [`FORWARD_WITHIN`](crate::cluster::forward::FORWARD_WITHIN).

use std::collections::{HashMap, HashSet};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, RwLock};

use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::engine::{Answer, Command, EngineContext, SpotEngine, Submit};
use super::forward::{self, Done, WireCommand, WireQuote};
use super::rules::PairRules;
use super::views::SpotOrder;
use crate::cluster::forward::{Sent, until_served};
use crate::cluster::{Bus, Fence};
use crate::config::TradingConfig;
use crate::db::Writer;
use crate::entity::{coin, journal_entry};
use crate::funds::ledger::{self, AccountRef, House, NewEntry, Posting};
use crate::refusal::{Refusal, RefusalKind};
use crate::user::events::UserEvent;

use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::market::book::BookSnapshot;
use crate::market::simulator::QuoteSink;

/// Commands a market queues before new orders are answered "busy".
const QUEUE: usize = 8192;
/// Messages of the users' channels kept for slow readers.
const USER_EVENTS: usize = 4096;

struct Handle {
    rules: Arc<PairRules>,
    /// The engine's queue: always on a lone instance; in cluster mode while this instance owns
    /// the pair.
    commands: Option<mpsc::Sender<Command>>,
    /// The owner's fence (cluster mode, while owned).
    fence: Option<Arc<Fence>>,
}

/// Every spot market of the server.
pub struct SpotRegistry {
    markets: RwLock<HashMap<String, Handle>>,
    pending: Mutex<HashSet<String>>,
    context: EngineContext,
    trading: TradingConfig,
    shutdown: watch::Receiver<bool>,
    /// Where the markets run: a thread of their own on an SQLite file, else the server's runtime.
    runtime: tokio::runtime::Handle,
    /// The cluster's bus (cluster mode: engines only for the pairs this instance owns).
    bus: Option<Arc<Bus>>,
    /// How many pairs this instance owns (cluster mode).
    owned: AtomicUsize,
    /// This instance's share of the pairs (cluster mode).
    spread: Option<Arc<super::ownership::Spread>>,
}

/// A thread with a runtime of its own for the markets of an SQLite file, running until `shutdown`
/// changes or its sender is gone. Their batches run SQLite on their task (`db::direct`) for about
/// a millisecond each, and their write turn is the serial path of every order: on the server's
/// runtime a market woken for its turn waited in the queue behind HTTP tasks while holding it, and
/// a batch kept a runtime thread from the HTTP tasks. (On PostgreSQL the batches mostly wait for
/// the network, and sqlx's sockets belong to the runtime that opened them, so the markets stay
/// on the server's runtime.)
fn markets_thread(mut shutdown: watch::Receiver<bool>) -> std::io::Result<tokio::runtime::Handle> {
    let runtime = tokio::runtime::Builder::new_current_thread()
        .enable_all()
        // Tasks woken from another thread (a market's commands, the shared pool's answers) wait
        // in the runtime's global queue, by default looked at every 31st task: behind the two
        // trading markets, which wake each other through the write turn and run a batch each
        // time, an idle pair's re-quote waited 100–170 ms. Looked at before every task.
        .global_queue_interval(1)
        .build()?;
    let handle = runtime.handle().clone();
    std::thread::Builder::new()
        .name("spot-markets".into())
        .spawn(move || {
            runtime.block_on(async move {
                while !*shutdown.borrow() {
                    if shutdown.changed().await.is_err() {
                        break;
                    }
                }
            });
        })?;
    Ok(handle)
}

impl SpotRegistry {
    /// The turn the markets take to write (first come, first served); another writer that takes
    /// it too never competes with them for SQLite's write lock.
    pub fn write_turn(&self) -> Arc<tokio::sync::Mutex<()>> {
        self.context.write_turn.clone()
    }

    /// Checkpoints the WAL on the markets' writer connection between two batches (holding their
    /// write turn), so that the next batch restarts the WAL ([`crate::db::run_checkpoints`]).
    pub async fn finish_checkpoint(&self) -> Result<(), DbErr> {
        let started = std::time::Instant::now();
        let _turn = self.context.write_turn.lock().await;
        let turn_ms = started.elapsed().as_secs_f64() * 1e3;
        let frames = self.context.writer.checkpoint_passive().await?;
        let total = started.elapsed();
        if total >= super::engine::SLOW_BATCH {
            tracing::warn!(
                frames,
                turn_ms,
                total_ms = total.as_millis() as u64,
                "slow spot batch: the writer's checkpoint held the write turn"
            );
        }
        Ok(())
    }

    /// Starts a market for every pair listed for spot trading; they write through `db`
    /// ([`crate::db::connect_writer`]) and read outside their transactions on `pool` (the shared
    /// pool). In cluster mode (`bus` given) each pair's engine runs on its owner alone.
    #[allow(clippy::too_many_arguments)]
    pub async fn start(
        writer: Writer,
        pool: DatabaseConnection,
        hub: Arc<MarketHub>,
        trading: TradingConfig,
        security_percent: Decimal,
        fee_discounts: Arc<crate::tiers::FeeDiscounts>,
        shutdown: watch::Receiver<bool>,
        bus: Option<Arc<Bus>>,
    ) -> Result<Arc<Self>, DbErr> {
        let (user_events, _) = broadcast::channel(USER_EVENTS);
        let runtime = match writer {
            Writer::Own(_) => {
                markets_thread(shutdown.clone()).map_err(|e| DbErr::Custom(e.to_string()))?
            }
            Writer::Shared(_) => tokio::runtime::Handle::current(),
        };
        let exchange = Arc::new(Self {
            markets: RwLock::new(HashMap::new()),
            pending: Mutex::new(HashSet::new()),
            context: EngineContext {
                writer,
                pool: pool.clone(),
                hub,
                user_events,
                security_percent,
                fee_discounts,
                house_levels: trading.market_maker_levels,
                write_turn: Arc::new(tokio::sync::Mutex::new(())),
                open_orders: Arc::default(),
                server: tokio::runtime::Handle::current(),
            },
            trading,
            runtime,
            spread: bus
                .as_ref()
                .map(|bus| super::ownership::Spread::start(bus.clone(), shutdown.clone())),
            shutdown,
            bus,
            owned: AtomicUsize::new(0),
        });
        // Cluster mode: every instance's index covers every pair (`engine/open_orders.rs`).
        if let Some(fanout) = exchange.context.hub.fanout() {
            exchange.context.open_orders.share_through(fanout);
        }
        let coins = coin::Entity::find()
            .filter(coin::Column::SpotEnabled.eq(true))
            .all(&pool)
            .await?;
        for coin in coins {
            fund_market_maker(&pool, &coin, exchange.trading.market_maker_inventory).await?;
            exchange.open(&coin);
        }
        Ok(exchange)
    }

    /// Starts the market of `coin` (once); in cluster mode, the loop that owns it while this
    /// instance holds its lease.
    fn open(self: &Arc<Self>, coin: &coin::Model) {
        let Some(rules) = PairRules::of(
            coin,
            self.trading.maker_fee_rate,
            self.trading.taker_fee_rate,
        ) else {
            tracing::error!(symbol = %coin.symbol, "the pair's tick, step or minimum is unusable; no spot market");
            return;
        };
        let mut markets = self.markets.write().unwrap_or_else(|e| e.into_inner());
        if markets.contains_key(&coin.symbol) {
            return;
        }
        let rules = Arc::new(rules);
        if let (Some(bus), Some(spread)) = (&self.bus, &self.spread) {
            markets.insert(
                coin.symbol.clone(),
                Handle {
                    rules,
                    commands: None,
                    fence: None,
                },
            );
            tokio::spawn(super::ownership::run(
                self.clone(),
                bus.clone(),
                spread.clone(),
                coin.symbol.clone(),
                self.shutdown.clone(),
            ));
            return;
        }
        let (commands, queue) = mpsc::channel(QUEUE);
        let market = SpotEngine::new(rules.clone(), self.context.clone());
        self.runtime.spawn(market.run(queue, self.shutdown.clone()));
        markets.insert(
            coin.symbol.clone(),
            Handle {
                rules,
                commands: Some(commands),
                fence: None,
            },
        );
    }

    /// Starts `symbol`'s engine under `fence` (cluster mode: this instance took the pair); its
    /// queue, or `None` for a pair not listed.
    pub(super) fn install(&self, symbol: &str, fence: Arc<Fence>) -> Option<mpsc::Sender<Command>> {
        let mut markets = self.markets.write().unwrap_or_else(|e| e.into_inner());
        let handle = markets.get_mut(symbol)?;
        let (commands, queue) = mpsc::channel(QUEUE);
        let market =
            SpotEngine::new(handle.rules.clone(), self.context.clone()).with_fence(fence.clone());
        self.runtime.spawn(market.run(queue, self.shutdown.clone()));
        if handle.commands.replace(commands.clone()).is_none() {
            self.owned.fetch_add(1, Ordering::SeqCst);
        }
        if let Some(old) = handle.fence.replace(fence) {
            old.lose();
        }
        Some(commands)
    }

    /// Stops `symbol`'s engine here (cluster mode: this instance no longer owns the pair).
    pub(super) fn uninstall(&self, symbol: &str) {
        let mut markets = self.markets.write().unwrap_or_else(|e| e.into_inner());
        if let Some(handle) = markets.get_mut(symbol) {
            if handle.commands.take().is_some() {
                self.owned.fetch_sub(1, Ordering::SeqCst);
            }
            if let Some(fence) = handle.fence.take() {
                fence.lose();
            }
        }
    }

    /// How many pairs this instance owns (cluster mode).
    pub(super) fn owned_pairs(&self) -> usize {
        self.owned.load(Ordering::SeqCst)
    }

    /// The shared pool.
    pub(super) fn pool(&self) -> &DatabaseConnection {
        &self.context.pool
    }

    /// `symbol`'s engine queue here and the owner's fence, if this instance runs it.
    fn local(&self, symbol: &str) -> Option<(mpsc::Sender<Command>, Option<Arc<Fence>>)> {
        self.markets
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .and_then(|handle| {
                handle
                    .commands
                    .clone()
                    .map(|commands| (commands, handle.fence.clone()))
            })
    }

    /// `command` done by `symbol`'s owner (cluster mode): this instance's engine when it owns the
    /// pair, else the owner's through the bus; retried while the pair changes hands (nothing of a
    /// refused try was stored), for at most [`FORWARD_WITHIN`](crate::cluster::forward::FORWARD_WITHIN).
    async fn in_cluster(
        &self,
        bus: &Bus,
        symbol: &str,
        command: WireCommand,
    ) -> Result<Done, Refusal> {
        let command = &command;
        until_served(
            || async move {
                if let Some((sender, fence)) = self.local(symbol) {
                    let (local, pending) = command.clone().into_command();
                    return match sender.try_send(local) {
                        Ok(()) => {
                            let answer = pending.answer().await;
                            let lost = fence.is_some_and(|fence| fence.is_lost());
                            (answer.is_ok() || !lost).then_some(answer)
                        }
                        Err(mpsc::error::TrySendError::Full(_)) => Some(Err(busy())),
                        // The engine ended: this instance just lost the pair.
                        Err(mpsc::error::TrySendError::Closed(_)) => None,
                    };
                }
                match forward::send(bus, symbol, command).await {
                    Sent::Replied(reply) => reply.into_done(),
                    Sent::NoOwner => None,
                    Sent::Unknown if command.retry_safe() => None,
                    Sent::Unknown => Some(Err(busy())),
                }
            },
            busy,
        )
        .await
    }

    /// The rules of a spot pair.
    pub fn rules(&self, symbol: &str) -> Option<Arc<PairRules>> {
        self.markets
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .map(|handle| handle.rules.clone())
    }

    fn sender(&self, symbol: &str) -> Result<mpsc::Sender<Command>, Refusal> {
        self.markets
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .and_then(|handle| handle.commands.clone())
            .ok_or_else(|| unavailable(symbol))
    }

    /// Places an order on `symbol` and waits for the market's answer.
    pub async fn submit(
        &self,
        symbol: &str,
        make: impl FnOnce(oneshot::Sender<Result<Answer, Refusal>>) -> Submit,
    ) -> Result<Answer, Refusal> {
        if let Some(bus) = &self.bus {
            self.rules(symbol).ok_or_else(|| unavailable(symbol))?;
            let (reply, _) = oneshot::channel();
            let command = WireCommand::of_submit(&make(reply));
            return match self.in_cluster(bus, symbol, command).await? {
                Done::Submitted(answer) => Ok(answer),
                Done::Cancelled(_) => Err(Refusal::internal("a cancellation answered an order")),
            };
        }
        let sender = self.sender(symbol)?;
        let (reply, answer) = oneshot::channel();
        enqueue(&sender, Command::Submit(Box::new(make(reply))))?;
        answer.await.unwrap_or_else(|_| Err(busy()))
    }

    /// Cancels `order_id` of `user_id` on `symbol`.
    pub async fn cancel(
        &self,
        symbol: &str,
        user_id: i64,
        order_id: i64,
    ) -> Result<SpotOrder, Refusal> {
        if let Some(bus) = &self.bus {
            self.rules(symbol).ok_or_else(|| unavailable(symbol))?;
            let command = WireCommand::Cancel { user_id, order_id };
            return match self.in_cluster(bus, symbol, command).await? {
                Done::Cancelled(order) => Ok(*order),
                Done::Submitted(_) => Err(Refusal::internal("an order answered a cancellation")),
            };
        }
        let sender = self.sender(symbol)?;
        let (reply, answer) = oneshot::channel();
        enqueue(
            &sender,
            Command::Cancel {
                user_id,
                order_id,
                reply,
            },
        )?;
        answer.await.unwrap_or_else(|_| Err(busy()))
    }

    /// The pair of `user_id`'s open order `order_id`, if it is open.
    pub fn open_order_symbol(&self, user_id: i64, order_id: i64) -> Option<Arc<str>> {
        self.context.open_orders.symbol_of(user_id, order_id)
    }

    /// The users' `order` and `fill` messages.
    pub fn subscribe_user_events(&self) -> broadcast::Receiver<Arc<UserEvent>> {
        self.context.user_events.subscribe()
    }

    /// Starts the market of a pair listed while running (read from the database in the
    /// background; quotes before it is ready go to the simulator's own book).
    fn open_later(self: &Arc<Self>, symbol: &str) {
        {
            let mut pending = self.pending.lock().unwrap_or_else(|e| e.into_inner());
            if !pending.insert(symbol.to_owned()) {
                return;
            }
        }
        let exchange = self.clone();
        let symbol = symbol.to_owned();
        tokio::spawn(async move {
            match coin::Entity::find()
                .filter(coin::Column::Symbol.eq(&symbol))
                .filter(coin::Column::SpotEnabled.eq(true))
                .one(&exchange.context.pool)
                .await
            {
                Ok(Some(coin)) => {
                    let inventory = exchange.trading.market_maker_inventory;
                    match fund_market_maker(&exchange.context.pool, &coin, inventory).await {
                        Ok(()) => exchange.open(&coin),
                        Err(error) => {
                            tracing::error!(%error, %symbol, "funding the market maker failed")
                        }
                    }
                }
                Ok(None) => {}
                Err(error) => {
                    tracing::error!(%error, %symbol, "reading a new pair failed");
                    // Let a later quote try again.
                    exchange
                        .pending
                        .lock()
                        .unwrap_or_else(|e| e.into_inner())
                        .remove(&symbol);
                }
            }
        });
    }
}

/// The registry as the simulator's sink, behind an `Arc` so new pairs can be opened.
pub struct SpotQuoteSink(pub Arc<SpotRegistry>);

impl QuoteSink for SpotQuoteSink {
    fn quote(&self, symbol: &str, book: &BookSnapshot, price: Decimal) -> bool {
        let sender = {
            let markets = self.0.markets.read().unwrap_or_else(|e| e.into_inner());
            markets.get(symbol).map(|handle| handle.commands.clone())
        };
        match sender {
            // Cluster mode: a pair this instance knows but does not own; its owner quotes.
            Some(None) => {
                if let Some(bus) = &self.0.bus
                    && let Ok(payload) = serde_json::to_vec(&WireQuote::of(book, price))
                {
                    let client = bus.client().clone();
                    let subject = forward::quote_subject(symbol);
                    tokio::spawn(async move {
                        let _ = client.publish(subject, payload.into()).await;
                    });
                }
                true
            }
            Some(Some(sender)) => {
                // A full queue skips this quote; the next tick's replaces it.
                let _ = sender.try_send(Command::Quote {
                    book: book.clone(),
                    last: price,
                });
                true
            }
            None => {
                self.0.open_later(symbol);
                false
            }
        }
    }
}

/// Entry kind: the house's inventory put into the market maker's account for a pair.
pub const MARKET_MAKER_FUNDING: &str = "market_maker_funding";

/// Puts `inventory` (valued in the quote asset) into the market maker's account for `coin`'s pair,
/// once per pair: half in the quote asset, half in the base asset at the pair's reference price,
/// from the outside world (the deposits-in-transit account), as one journal entry.
async fn fund_market_maker(
    db: &DatabaseConnection,
    coin: &coin::Model,
    inventory: Decimal,
) -> Result<(), DbErr> {
    let reference = format!("market_maker:{}", coin.symbol);
    let funded = journal_entry::Entity::find()
        .filter(journal_entry::Column::Kind.eq(MARKET_MAKER_FUNDING))
        .filter(journal_entry::Column::Reference.eq(&reference))
        .one(db)
        .await?
        .is_some();
    let price = wasm_core::money::parse_decimal(&coin.reference_price).unwrap_or_default();
    let step = wasm_core::money::parse_decimal(&coin.step_size).unwrap_or_default();
    if funded || inventory.is_zero() || price.is_zero() || step.is_zero() {
        return Ok(());
    }
    let half = (inventory / Decimal::TWO).trunc();
    let base = ((half / price) / step).trunc() * step;
    let outside = AccountRef::House(House::DepositsInTransit);
    let maker = AccountRef::House(House::MarketMaker);
    let mut postings = Posting::transfer(outside, maker, &coin.base_coin, half).to_vec();
    if !base.is_zero() {
        postings.extend(Posting::transfer(
            outside,
            maker,
            &coin.coin,
            base.normalize(),
        ));
    }
    let entry = NewEntry {
        kind: MARKET_MAKER_FUNDING.to_owned(),
        reference,
        user_id: None,
        actor_id: None,
        memo: coin.symbol.clone(),
        postings,
    };
    ledger::post(db, &entry)
        .await
        .map(|_| ())
        .map_err(|error| DbErr::Custom(format!("funding the market maker failed: {error}")))
}

fn enqueue(sender: &mpsc::Sender<Command>, command: Command) -> Result<(), Refusal> {
    sender.try_send(command).map_err(|_| busy())
}

/// The refusal of an order on `symbol`, which has no spot market.
pub fn unavailable(symbol: &str) -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::SpotPairUnavailable)
        .with_field("symbol")
        .with_param("symbol", symbol.to_uppercase())
}

/// The refusal of a command the market could not take now; nothing was done.
pub(super) fn busy() -> Refusal {
    Refusal::new(RefusalKind::Unavailable, Msg::TradingBusy)
}
