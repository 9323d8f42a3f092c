//! The registry of futures engines: one engine task per USDT-M symbol (every pair listed with
//! `contract_enabled`), found by symbol; the state the engines share — the users' cross figures per
//! symbol (what a cross position's liquidation price and the available balance need from the
//! user's other symbols), the funding info of every symbol, the user channel's futures messages —
//! and the price source the engines read.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};
use tokio::sync::{broadcast, mpsc, oneshot, watch};
use wasm_core::margin::TierTable;

use super::engine::{Command, Engine};
use super::position::SymbolRules;
use super::views::{ContractRules, ContractTier, FundingInfo};
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
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
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

/// What every engine shares.
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
    /// The funding rounds' lease in cluster mode (`None`: this instance pays every round).
    pub funding_lease: Option<Arc<dyn crate::lease::Lease>>,
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
}

/// The running futures engines.
pub struct FuturesRegistry {
    engines: HashMap<String, mpsc::Sender<Command>>,
    rules: HashMap<String, Arc<SymbolRules>>,
    shared: Arc<Shared>,
}

impl FuturesRegistry {
    /// Starts an engine for every pair listed as a USDT-M perpetual (none when `[futures]` is
    /// disabled); each rebuilds its symbol's positions, orders and stop orders from the database
    /// before it takes a command.
    pub async fn start(
        db: DatabaseConnection,
        prices: Arc<dyn PriceSource>,
        config: FuturesConfig,
        security_percent: Decimal,
        fee_discounts: Arc<crate::tiers::FeeDiscounts>,
        funding_lease: Option<Arc<dyn crate::lease::Lease>>,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Self>, DbErr> {
        let (events, _) = broadcast::channel(USER_EVENTS);
        let shared = Arc::new(Shared {
            db: db.clone(),
            prices,
            config: config.clone(),
            security_percent,
            fee_discounts,
            events,
            funding_lease,
            cross: Mutex::new(HashMap::new()),
            funding: RwLock::new(HashMap::new()),
        });
        let mut engines = HashMap::new();
        let mut rules = HashMap::new();
        if config.enabled {
            let pairs = coin::Entity::find()
                .filter(coin::Column::ContractEnabled.eq(true))
                .all(&db)
                .await?;
            for pair in pairs {
                let parse = |text: &str| wasm_core::money::parse_decimal(text).ok();
                let (Some(tick), Some(step)) = (parse(&pair.tick_size), parse(&pair.step_size))
                else {
                    tracing::error!(symbol = %pair.symbol, "unreadable tick or step size");
                    continue;
                };
                let tiers = match config
                    .tiers_of(&pair.symbol)
                    .and_then(|t| TierTable::new(t).map_err(|e| format!("{e:?}")))
                {
                    Ok(tiers) => tiers,
                    Err(error) => {
                        tracing::error!(symbol = %pair.symbol, %error, "unusable tier table");
                        continue;
                    }
                };
                let symbol_rules = Arc::new(SymbolRules {
                    symbol: pair.symbol.clone(),
                    tick,
                    step,
                    tiers,
                    maker_fee: config.maker_fee_rate,
                    taker_fee: config.taker_fee_rate,
                });
                let (sender, receiver) = mpsc::channel(QUEUE);
                let engine = Engine::load(symbol_rules.clone(), shared.clone()).await?;
                tokio::spawn(engine.run(receiver, shutdown.clone()));
                engines.insert(pair.symbol.clone(), sender);
                rules.insert(pair.symbol, symbol_rules);
            }
        }
        Ok(Arc::new(Self {
            engines,
            rules,
            shared,
        }))
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
        let config = &self.shared.config;
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

    /// What the engines share.
    pub fn shared(&self) -> &Arc<Shared> {
        &self.shared
    }

    /// The user channel's futures messages.
    pub fn subscribe_user_events(&self) -> broadcast::Receiver<Arc<UserEvent>> {
        self.shared.events.subscribe()
    }

    /// The funding info of `symbol`.
    pub fn funding_info(&self, symbol: &str) -> Option<FundingInfo> {
        self.shared
            .funding
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .cloned()
    }

    /// Sends the command `make` builds (around its reply channel) to `symbol`'s engine and waits
    /// for the answer.
    pub async fn ask<T>(
        &self,
        symbol: &str,
        make: impl FnOnce(oneshot::Sender<Result<T, Refusal>>) -> Command,
    ) -> Result<T, Refusal> {
        let engine = self
            .engines
            .get(symbol)
            .ok_or_else(|| unavailable(symbol))?;
        let (reply, answer) = oneshot::channel();
        engine.try_send(make(reply)).map_err(|_| busy())?;
        answer.await.map_err(|_| busy())?
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

/// The failure of a symbol not traded as a USDT-M perpetual.
pub fn unavailable(symbol: &str) -> Refusal {
    Refusal::new(RefusalKind::Invalid, Msg::FuturesSymbolUnavailable)
        .with_field("symbol")
        .with_param("symbol", symbol.to_uppercase())
}

fn busy() -> Refusal {
    Refusal::new(RefusalKind::Unavailable, Msg::TradingBusy)
}
