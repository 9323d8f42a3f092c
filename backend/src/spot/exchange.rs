//! The spot exchange: one [`SpotMarket`] task per pair listed for spot trading, found by symbol.
//! Orders and cancellations go to their pair's queue and wait for the task's answer; the
//! simulator's books arrive through [`QuoteSink`], without waiting (a busy market skips a quote,
//! the next one replaces it). Pairs listed while the server runs get their market on the first
//! quote.

use std::collections::{HashMap, HashSet};
use std::sync::{Arc, Mutex, RwLock};

use poem::http::StatusCode;
use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter};
use tokio::sync::{broadcast, mpsc, oneshot, watch};

use super::market::{Answer, Command, MarketContext, SpotMarket, Submit, UserEvent};
use super::rules::PairRules;
use super::views::SpotOrder;
use crate::config::TradingConfig;
use crate::entity::coin;
use crate::http::ApiError;
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
    commands: mpsc::Sender<Command>,
}

/// Every spot market of the server.
pub struct SpotExchange {
    markets: RwLock<HashMap<String, Handle>>,
    pending: Mutex<HashSet<String>>,
    context: MarketContext,
    trading: TradingConfig,
    shutdown: watch::Receiver<bool>,
}

impl SpotExchange {
    /// Starts a market for every pair listed for spot trading.
    pub async fn start(
        db: DatabaseConnection,
        hub: Arc<MarketHub>,
        trading: TradingConfig,
        security_percent: Decimal,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Self>, DbErr> {
        let (user_events, _) = broadcast::channel(USER_EVENTS);
        let exchange = Arc::new(Self {
            markets: RwLock::new(HashMap::new()),
            pending: Mutex::new(HashSet::new()),
            context: MarketContext {
                db: db.clone(),
                hub,
                user_events,
                security_percent,
                house_levels: trading.market_maker_levels,
            },
            trading,
            shutdown,
        });
        let coins = coin::Entity::find()
            .filter(coin::Column::SpotEnabled.eq(true))
            .all(&db)
            .await?;
        for coin in coins {
            exchange.open(&coin);
        }
        Ok(exchange)
    }

    /// Starts the market of `coin` (once).
    fn open(&self, coin: &coin::Model) {
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
        let (commands, queue) = mpsc::channel(QUEUE);
        let market = SpotMarket::new(rules.clone(), self.context.clone());
        tokio::spawn(market.run(queue, self.shutdown.clone()));
        markets.insert(coin.symbol.clone(), Handle { rules, commands });
    }

    /// The rules of a spot pair.
    pub fn rules(&self, symbol: &str) -> Option<Arc<PairRules>> {
        self.markets
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .map(|handle| handle.rules.clone())
    }

    fn sender(&self, symbol: &str) -> Result<mpsc::Sender<Command>, ApiError> {
        self.markets
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .map(|handle| handle.commands.clone())
            .ok_or_else(|| {
                ApiError::new(StatusCode::BAD_REQUEST, Msg::SpotPairUnavailable)
                    .with_field("symbol")
                    .with_param("symbol", symbol.to_uppercase())
            })
    }

    /// Places an order on `symbol` and waits for the market's answer.
    pub async fn submit(
        &self,
        symbol: &str,
        make: impl FnOnce(oneshot::Sender<Result<Answer, ApiError>>) -> Submit,
    ) -> Result<Answer, ApiError> {
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
    ) -> Result<SpotOrder, ApiError> {
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
                .one(&exchange.context.db)
                .await
            {
                Ok(Some(coin)) => exchange.open(&coin),
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

/// The exchange as the simulator's sink, behind an `Arc` so new pairs can be opened.
pub struct ExchangeQuotes(pub Arc<SpotExchange>);

impl QuoteSink for ExchangeQuotes {
    fn quote(&self, symbol: &str, book: &BookSnapshot, price: Decimal) -> bool {
        let sender = {
            let markets = self.0.markets.read().unwrap_or_else(|e| e.into_inner());
            markets.get(symbol).map(|handle| handle.commands.clone())
        };
        match sender {
            Some(sender) => {
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

fn enqueue(sender: &mpsc::Sender<Command>, command: Command) -> Result<(), ApiError> {
    sender.try_send(command).map_err(|_| busy())
}

fn busy() -> ApiError {
    ApiError::new(StatusCode::SERVICE_UNAVAILABLE, Msg::TradingBusy)
}
