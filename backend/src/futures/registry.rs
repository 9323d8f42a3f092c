//! The registry of futures engines: one engine task per USDT-M symbol (every pair listed with
//! `contract_enabled`), found by symbol; the state the engines share — the users' cross figures per
//! symbol (what a cross position's liquidation price and the available balance need from the
//! user's other symbols), the funding info of every symbol, the user channel's futures messages —
//! and the price source the engines read.
//!
//! In cluster mode (a bus given) one instance runs every engine (`ownership.rs`: one owner, since
//! cross margin couples a user's symbols), and the state they share lives with it alone; every
//! other instance knows the rules of every symbol and sends each command, and each read of that
//! state, to the owner (`forward.rs`), tried again while the engines change hands.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use wasm_core::margin::TierTable;

use super::engine::{Command, Engine};
use super::forward::{self, Done, Reply, WireCommand};
use super::position::SymbolRules;
use super::views::{ContractRules, ContractTier, FundingInfo};
use crate::cluster::forward::{self as cluster_forward, Sent, until_served};
use crate::cluster::{Bus, Fence};
use crate::config::FuturesConfig;
use crate::entity::coin;
use crate::refusal::{Refusal, RefusalKind};

use crate::i18n::Msg;
use crate::market::MarketHub;
use crate::market::book::BookSnapshot;
use crate::user::events::UserEvent;

/// Commands waiting per engine before callers are told the engine is busy.
const QUEUE: usize = 4096;
/// Messages the user channel may fall behind by.
const USER_EVENTS: usize = 4096;

/// The mark and index price of a symbol at one moment.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct MarkPrice {
    /// Mark price (what PnL, liquidation and triggers use).
    pub mark: Decimal,
    /// Index price (what the premium of funding is measured against).
    pub index: Decimal,
    /// When, unix milliseconds.
    pub ts: i64,
}

/// Where the engines read prices: the market hub (the simulator's mark and index, and the book
/// ladder market orders walk). A trait so a deployment can feed another source.
pub trait PriceSource: Send + Sync + 'static {
    /// The latest mark and index price of `symbol`.
    fn mark(&self, symbol: &str) -> Option<MarkPrice>;
    /// The latest order book of `symbol`.
    fn book(&self, symbol: &str) -> Option<Arc<BookSnapshot>>;
}

impl PriceSource for MarketHub {
    fn mark(&self, symbol: &str) -> Option<MarkPrice> {
        self.detail(symbol).map(|d| MarkPrice {
            mark: d.mark_price,
            index: d.index_price,
            ts: d.ts,
        })
    }

    fn book(&self, symbol: &str) -> Option<Arc<BookSnapshot>> {
        MarketHub::book(self, symbol)
    }
}

/// What one user's cross position in one symbol contributes to the user's other cross positions
/// and to the available balance.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct CrossFigures {
    /// Initial margin (`size × entry / leverage`) the position uses of the wallet.
    pub initial: Decimal,
    /// Maintenance margin at the last mark.
    pub maintenance: Decimal,
    /// Unrealised PnL at the last mark.
    pub unrealised: Decimal,
}

impl std::ops::Add for CrossFigures {
    type Output = CrossFigures;
    fn add(self, other: CrossFigures) -> CrossFigures {
        CrossFigures {
            initial: self.initial + other.initial,
            maintenance: self.maintenance + other.maintenance,
            unrealised: self.unrealised + other.unrealised,
        }
    }
}

/// What a set of running engines shares. In cluster mode each ownership period of the engines
/// has its own (the cross figures and funding info live and die with the engines that made them).
pub struct Shared {
    /// The database.
    pub db: DatabaseConnection,
    /// Mark, index and book.
    pub prices: Arc<dyn PriceSource>,
    /// `[futures]`.
    pub config: FuturesConfig,
    /// Share of every fee paid into the security fund, percent.
    pub security_percent: Decimal,
    /// The VIPs and their fee discount.
    pub fee_discounts: Arc<crate::tiers::FeeDiscounts>,
    /// The users' channel messages (`POSITION`, `futuresOrder`).
    pub events: broadcast::Sender<Arc<UserEvent>>,
    /// The owner's fence in cluster mode, checked in every transaction of the engines (`None`: one
    /// process, which owns the engines for good).
    pub fence: Option<Arc<Fence>>,
    cross: Mutex<HashMap<i64, HashMap<String, CrossFigures>>>,
    funding: RwLock<HashMap<String, FundingInfo>>,
}

impl Shared {
    /// Records (or, with `None`, forgets) the cross figures of `user_id` in `symbol`.
    pub fn set_cross(&self, user_id: i64, symbol: &str, figures: Option<CrossFigures>) {
        let mut cross = self.cross.lock().unwrap_or_else(|e| e.into_inner());
        match figures {
            Some(figures) => {
                cross
                    .entry(user_id)
                    .or_default()
                    .insert(symbol.to_owned(), figures);
            }
            None => {
                if let Some(symbols) = cross.get_mut(&user_id) {
                    symbols.remove(symbol);
                    if symbols.is_empty() {
                        cross.remove(&user_id);
                    }
                }
            }
        }
    }

    /// The sum of `user_id`'s cross figures, leaving out `except` (the symbol asking).
    pub fn cross_totals(&self, user_id: i64, except: Option<&str>) -> CrossFigures {
        let cross = self.cross.lock().unwrap_or_else(|e| e.into_inner());
        cross
            .get(&user_id)
            .map_or(CrossFigures::default(), |symbols| {
                symbols
                    .iter()
                    .filter(|(symbol, _)| Some(symbol.as_str()) != except)
                    .fold(CrossFigures::default(), |sum, (_, f)| sum + *f)
            })
    }

    /// Publishes `data` as a `kind` message on `user_id`'s channel.
    pub fn publish<T: serde::Serialize>(&self, user_id: i64, kind: &str, data: &T) {
        let _ = self
            .events
            .send(Arc::new(UserEvent::new(user_id, kind, data)));
    }

    /// Records the funding info of a symbol.
    pub fn set_funding(&self, info: FundingInfo) {
        self.funding
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(info.symbol.clone(), info);
    }

    /// The funding info `symbol`'s engine last published.
    pub fn funding_of(&self, symbol: &str) -> Option<FundingInfo> {
        self.funding
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .cloned()
    }
}

/// What every set of engines is made with.
struct Setup {
    db: DatabaseConnection,
    prices: Arc<dyn PriceSource>,
    config: FuturesConfig,
    security_percent: Decimal,
    fee_discounts: Arc<crate::tiers::FeeDiscounts>,
    events: broadcast::Sender<Arc<UserEvent>>,
}

/// The engines running in this process, and what they share.
pub(super) struct Running {
    shared: Arc<Shared>,
    engines: HashMap<String, mpsc::Sender<Command>>,
    /// Stops them when sent or dropped (cluster mode; in one process they run until shutdown).
    stop: Option<watch::Sender<bool>>,
}

/// The futures engines of the server.
pub struct FuturesRegistry {
    rules: HashMap<String, Arc<SymbolRules>>,
    setup: Setup,
    running: RwLock<Option<Arc<Running>>>,
    /// The cluster's bus (cluster mode: the engines run on their owner alone).
    bus: Option<Arc<Bus>>,
}

impl FuturesRegistry {
    /// Knows every pair listed as a USDT-M perpetual (none when `[futures]` is disabled) and
    /// starts their engines: here, or in cluster mode (`bus` given) on the instance that owns them
    /// (`ownership.rs`). Each engine rebuilds its symbol's positions, orders and stop orders from
    /// the database before it takes a command.
    pub async fn start(
        db: DatabaseConnection,
        prices: Arc<dyn PriceSource>,
        config: FuturesConfig,
        security_percent: Decimal,
        fee_discounts: Arc<crate::tiers::FeeDiscounts>,
        bus: Option<Arc<Bus>>,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Self>, DbErr> {
        let (events, _) = broadcast::channel(USER_EVENTS);
        let mut rules = HashMap::new();
        if config.enabled {
            let pairs = coin::Entity::find()
                .filter(coin::Column::ContractEnabled.eq(true))
                .all(&db)
                .await?;
            for pair in pairs {
                if let Some(symbol_rules) = symbol_rules(&pair, &config) {
                    rules.insert(pair.symbol, Arc::new(symbol_rules));
                }
            }
        }
        let registry = Arc::new(Self {
            rules,
            setup: Setup {
                db,
                prices,
                config,
                security_percent,
                fee_discounts,
                events,
            },
            running: RwLock::new(None),
            bus: bus.clone(),
        });
        match bus {
            None => {
                let running = registry.run_engines(None, shutdown, None).await?;
                *registry.running.write().unwrap_or_else(|e| e.into_inner()) = Some(running);
            }
            Some(bus) if !registry.rules.is_empty() => {
                tokio::spawn(super::ownership::run(registry.clone(), bus, shutdown));
            }
            Some(_) => {}
        }
        Ok(registry)
    }

    /// Loads and starts an engine per symbol under `fence`, running until `stop` changes.
    async fn run_engines(
        &self,
        fence: Option<Arc<Fence>>,
        stop: watch::Receiver<bool>,
        stop_sender: Option<watch::Sender<bool>>,
    ) -> Result<Arc<Running>, DbErr> {
        let shared = self.shared_under(fence);
        // Rebuilt together: a takeover waits for the slowest symbol, not for their sum.
        let (symbols, loads): (Vec<_>, Vec<_>) = self
            .rules
            .iter()
            .map(|(symbol, rules)| (symbol.clone(), Engine::load(rules.clone(), shared.clone())))
            .unzip();
        let loaded = futures_util::future::try_join_all(loads).await?;
        let mut engines = HashMap::new();
        for (symbol, engine) in symbols.into_iter().zip(loaded) {
            let (sender, receiver) = mpsc::channel(QUEUE);
            tokio::spawn(engine.run(receiver, stop.clone()));
            engines.insert(symbol, sender);
        }
        Ok(Arc::new(Running {
            shared,
            engines,
            stop: stop_sender,
        }))
    }

    /// A fresh state for a set of engines writing under `fence`.
    pub(crate) fn shared_under(&self, fence: Option<Arc<Fence>>) -> Arc<Shared> {
        let setup = &self.setup;
        Arc::new(Shared {
            db: setup.db.clone(),
            prices: setup.prices.clone(),
            config: setup.config.clone(),
            security_percent: setup.security_percent,
            fee_discounts: setup.fee_discounts.clone(),
            events: setup.events.clone(),
            fence,
            cross: Mutex::new(HashMap::new()),
            funding: RwLock::new(HashMap::new()),
        })
    }

    /// Starts every engine under `fence` (cluster mode: this instance took the engines), each
    /// rebuilt from the database.
    pub(super) async fn install(&self, fence: Arc<Fence>) -> Result<(), DbErr> {
        self.uninstall();
        let (stop, stopped) = watch::channel(false);
        let running = self.run_engines(Some(fence), stopped, Some(stop)).await?;
        *self.running.write().unwrap_or_else(|e| e.into_inner()) = Some(running);
        Ok(())
    }

    /// Stops every engine here at once (cluster mode: this instance no longer owns them); what
    /// they shared goes with them.
    pub(super) fn uninstall(&self) {
        let running = self
            .running
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .take();
        let Some(running) = running else {
            return;
        };
        if let Some(fence) = &running.shared.fence {
            fence.lose();
        }
        // Sent rather than dropped: an answer on its way may still hold `running`.
        if let Some(stop) = &running.stop {
            let _ = stop.send(true);
        }
    }

    /// The engines running here, if any.
    fn local(&self) -> Option<Arc<Running>> {
        self.running
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }

    /// The database.
    pub(super) fn db(&self) -> &DatabaseConnection {
        &self.setup.db
    }

    /// The rules of `symbol` (lower case), or the error of a symbol not traded as a perpetual.
    pub fn rules(&self, symbol: &str) -> Result<Arc<SymbolRules>, Refusal> {
        self.rules
            .get(symbol)
            .cloned()
            .ok_or_else(|| unavailable(symbol))
    }

    /// The published rules of `symbol` (lower case): tiers, fees and the funding settings.
    pub fn contract_rules(&self, symbol: &str) -> Result<ContractRules, Refusal> {
        let rules = self.rules(symbol)?;
        let config = &self.setup.config;
        Ok(ContractRules {
            symbol: rules.symbol.clone(),
            tick_size: rules.tick,
            step_size: rules.step,
            maker_fee_rate: rules.maker_fee,
            taker_fee_rate: rules.taker_fee,
            max_leverage: rules.max_leverage(),
            funding_interval_secs: i64::try_from(config.funding_interval_secs).unwrap_or(i64::MAX),
            funding_cap: config.funding_cap,
            funding_interest: config.funding_interest,
            tiers: rules
                .tiers
                .tiers()
                .iter()
                .map(|tier| ContractTier {
                    notional_floor: tier.notional_floor,
                    notional_cap: tier.notional_cap,
                    max_leverage: tier.max_leverage,
                    mmr: tier.mmr,
                    cum: tier.cum,
                })
                .collect(),
        })
    }

    /// The symbols traded.
    pub fn symbols(&self) -> Vec<String> {
        let mut symbols: Vec<String> = self.rules.keys().cloned().collect();
        symbols.sort();
        symbols
    }

    /// What the engines running here share (`None` in cluster mode on an instance that does not
    /// own them).
    pub fn shared(&self) -> Option<Arc<Shared>> {
        self.local().map(|running| running.shared.clone())
    }

    /// The user channel's futures messages (of the engines running here).
    pub fn subscribe_user_events(&self) -> broadcast::Receiver<Arc<UserEvent>> {
        self.setup.events.subscribe()
    }

    /// The funding info of `symbol` (from the owner of the engines in cluster mode; `None` when
    /// it cannot be had now).
    pub async fn funding_info(&self, symbol: &str) -> Option<FundingInfo> {
        self.rules.get(symbol)?;
        let Some(bus) = &self.bus else {
            return self.local()?.shared.funding_of(symbol);
        };
        let command = WireCommand::FundingInfo {
            symbol: symbol.to_owned(),
        };
        match self.in_cluster(bus, command).await {
            Ok(Done::Funding(info)) => info.map(|info| *info),
            Ok(_) => None,
            Err(refusal) => {
                tracing::warn!(%symbol, ?refusal, "funding info from the futures owner");
                None
            }
        }
    }

    /// The sum of `user_id`'s cross figures over every symbol, as the engines last figured them
    /// (from the owner of the engines in cluster mode).
    pub async fn cross_totals(&self, user_id: i64) -> Result<CrossFigures, Refusal> {
        let Some(bus) = self.bus.as_ref().filter(|_| !self.rules.is_empty()) else {
            return Ok(self
                .local()
                .map(|running| running.shared.cross_totals(user_id, None))
                .unwrap_or_default());
        };
        match self
            .in_cluster(bus, WireCommand::CrossTotals { user_id })
            .await?
        {
            Done::Cross(figures) => Ok(figures),
            _ => Err(Refusal::internal("the answer of another futures command")),
        }
    }

    /// Sends the command `make` builds (around its reply channel) to `symbol`'s engine — in cluster
    /// mode the owner's, wherever it runs — and waits for the answer.
    pub async fn ask<T>(
        &self,
        symbol: &str,
        make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Command,
    ) -> Result<T, Refusal> {
        let (reply, answer) = oneshot::channel();
        match &self.bus {
            None => {
                let engine = self
                    .local()
                    .and_then(|running| running.engines.get(symbol).cloned())
                    .ok_or_else(|| unavailable(symbol))?;
                engine.try_send(make(reply)).map_err(|_| busy())?;
            }
            Some(bus) => {
                self.rules(symbol)?;
                let (command, responder) = forward::split(make(reply));
                let command = WireCommand::Engine {
                    symbol: symbol.to_owned(),
                    command,
                };
                responder(self.in_cluster(bus, command).await);
            }
        }
        answer.await.map_err(|_| busy())?
    }

    /// `command` done by the owner of the engines (cluster mode): here when this instance owns
    /// them, else through the bus; tried again while they change hands.
    async fn in_cluster(&self, bus: &Bus, command: WireCommand) -> Result<Done, Refusal> {
        let command = &command;
        until_served(
            || async move {
                if self.local().is_some() {
                    return self.answer_here(command.clone()).await.into_done();
                }
                match cluster_forward::send(bus, forward::SUBJECT, super::ownership::LEASE, command)
                    .await
                {
                    Sent::Replied(reply) => Reply::into_done(reply),
                    Sent::NoOwner => None,
                    Sent::Unknown if command.retry_safe() => None,
                    Sent::Unknown => Some(Err(busy())),
                }
            },
            busy,
        )
        .await
    }

    /// This instance's answer to a futures `command` (cluster mode), or [`Reply::NotOwner`] when it
    /// does not own the engines or lost them before it was done (nothing of it was stored).
    pub(super) async fn answer_here(&self, command: WireCommand) -> Reply {
        let Some(running) = self.local() else {
            return Reply::NotOwner;
        };
        let lost = || running.shared.fence.as_ref().is_some_and(|f| f.is_lost());
        if lost() {
            return Reply::NotOwner;
        }
        let answer = match command {
            WireCommand::CrossTotals { user_id } => {
                Ok(Done::Cross(running.shared.cross_totals(user_id, None)))
            }
            WireCommand::FundingInfo { symbol } => Ok(Done::Funding(
                running.shared.funding_of(&symbol).map(Box::new),
            )),
            WireCommand::Engine { symbol, command } => {
                let Some(engine) = running.engines.get(&symbol) else {
                    return Reply::of(Err(unavailable(&symbol)));
                };
                let (command, pending) = command.into_command();
                match engine.try_send(command) {
                    Err(mpsc::error::TrySendError::Closed(_)) => return Reply::NotOwner,
                    Err(mpsc::error::TrySendError::Full(_)) => Err(busy()),
                    Ok(()) => pending.await,
                }
            }
        };
        if answer.is_err() && lost() {
            Reply::NotOwner
        } else {
            Reply::of(answer)
        }
    }

    /// Makes `symbol`'s engine act on the current mark price now (triggers, liquidations) and
    /// answers once it has: what a mark tick does, on demand.
    pub async fn evaluate(&self, symbol: &str) -> Result<(), Refusal> {
        self.ask(symbol, |reply| Command::Evaluate { reply }).await
    }

    /// Makes `symbol`'s engine refresh its cross positions' liquidation prices now (as its timer
    /// does) and act on them.
    pub async fn refresh_cross(&self, symbol: &str) -> Result<(), Refusal> {
        self.ask(symbol, |reply| Command::RefreshCross { reply })
            .await
    }
}

/// The rules of `pair` as a perpetual, or `None` (logged) when its sizes or tiers are unusable.
fn symbol_rules(pair: &coin::Model, config: &FuturesConfig) -> Option<SymbolRules> {
    let parse = |text: &str| wasm_core::money::parse_decimal(text).ok();
    let (Some(tick), Some(step)) = (parse(&pair.tick_size), parse(&pair.step_size)) else {
        tracing::error!(symbol = %pair.symbol, "unreadable tick or step size");
        return None;
    };
    let tiers = match config
        .tiers_of(&pair.symbol)
        .and_then(|t| TierTable::new(t).map_err(|e| format!("{e:?}")))
    {
        Ok(tiers) => tiers,
        Err(error) => {
            tracing::error!(symbol = %pair.symbol, %error, "unusable tier table");
            return None;
        }
    };
    Some(SymbolRules {
        symbol: pair.symbol.clone(),
        tick,
        step,
        tiers,
        maker_fee: config.maker_fee_rate,
        taker_fee: config.taker_fee_rate,
    })
}

/// The failure of a symbol not traded as a USDT-M perpetual.
pub fn unavailable(symbol: &str) -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::FuturesSymbolUnavailable)
        .with_field("symbol")
        .with_param("symbol", symbol.to_uppercase())
}

/// The refusal of an engine that cannot take a command now.
pub(crate) fn busy() -> Refusal {
    Refusal::new(RefusalKind::Unavailable, Msg::TradingBusy)
}
