//! The market hub: the latest ticker of every pair, and a broadcast of live messages.
//!
//! Each message is serialised once, by its producer, and shared by every client as an `Arc<str>`.
//! The broadcast never waits for a receiver: a client that falls behind loses old messages (see
//! `ws.rs`, which then resends the latest tickers, so ticker data is conflated, latest wins).

use std::{
    collections::HashMap,
    sync::{Arc, RwLock},
};

use rust_decimal::Decimal;
use serde::Serialize;
use tokio::sync::broadcast;

/// How many messages a slow client may fall behind before it starts losing the oldest.
pub const EVENT_BUFFER: usize = 4096;

/// 24-hour statistics and last price of one pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Ticker {
    /// Last price.
    pub close: Decimal,
    /// Price 24 hours ago.
    pub open: Decimal,
    /// Highest price of the last 24 hours.
    pub high: Decimal,
    /// Lowest price of the last 24 hours.
    pub low: Decimal,
    /// Base volume of the last 24 hours.
    pub volume: Decimal,
    /// Quote volume (turnover) of the last 24 hours.
    pub quote_volume: Decimal,
    /// Number of trades of the last 24 hours.
    #[serde(rename = "totalNumberOfTrades")]
    pub trade_count: u64,
    /// Time of the last tick, epoch milliseconds.
    pub ts: i64,
}

impl Ticker {
    /// `close − open`.
    pub fn change(&self) -> Decimal {
        self.close - self.open
    }

    /// The 24h change in percent by wasm-core's rule (2 decimals, only when both prices are positive).
    pub fn change_percent(&self) -> Option<Decimal> {
        wasm_core::format::price_change_percent(self.close, self.open)
    }
}

/// The wire form of a ticker message (docs/api.md, market channel).
#[derive(Serialize)]
struct TickerMessage<'a> {
    #[serde(rename = "type")]
    kind: &'static str,
    symbol: &'a str,
    data: TickerData<'a>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct TickerData<'a> {
    #[serde(flatten)]
    ticker: &'a Ticker,
    change: Decimal,
    price_change_percent: Option<Decimal>,
}

/// The serialised `ticker` message of `symbol`.
pub fn ticker_message(symbol: &str, ticker: &Ticker) -> Arc<str> {
    let message = TickerMessage {
        kind: "ticker",
        symbol,
        data: TickerData {
            ticker,
            change: ticker.change(),
            price_change_percent: ticker.change_percent(),
        },
    };
    // Serialising plain structs of strings and integers cannot fail.
    Arc::from(serde_json::to_string(&message).unwrap_or_default())
}

/// A newly listed pair, as the notice channel announces it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Listing {
    /// Coin id.
    pub id: i32,
    /// Base asset (`pepe`).
    pub coin: String,
    /// Pair id (`pepeusdt`).
    pub symbol: String,
    /// Display name (`PEPE/USDT`).
    pub show_symbol: String,
    /// Logo URL.
    pub logo: String,
    /// The first price.
    pub price: Decimal,
    /// Listing time, epoch milliseconds.
    pub listed_at: i64,
}

/// A live message ready to send: its channel and pair for subscription matching, and its text.
#[derive(Debug, Clone)]
pub struct MarketEvent {
    /// The channel (`ticker`).
    pub channel: &'static str,
    /// The pair (`btcusdt`).
    pub symbol: Arc<str>,
    /// The serialised message.
    pub text: Arc<str>,
}

/// The latest market state and the live broadcast; shared by the simulator, the API and the channels.
pub struct MarketHub {
    tickers: RwLock<HashMap<String, Ticker>>,
    events: broadcast::Sender<MarketEvent>,
    notices: broadcast::Sender<Arc<str>>,
}

impl Default for MarketHub {
    fn default() -> Self {
        Self::new()
    }
}

impl MarketHub {
    /// An empty hub.
    pub fn new() -> Self {
        Self {
            tickers: RwLock::new(HashMap::new()),
            events: broadcast::channel(EVENT_BUFFER).0,
            notices: broadcast::channel(64).0,
        }
    }

    /// The latest ticker of `symbol`, if the market source has produced one.
    pub fn ticker(&self, symbol: &str) -> Option<Ticker> {
        self.read().get(symbol).cloned()
    }

    /// Every pair with a ticker.
    pub fn symbols(&self) -> Vec<String> {
        self.read().keys().cloned().collect()
    }

    /// Records `ticker` as the latest of `symbol` and broadcasts it.
    pub fn publish_ticker(&self, symbol: &str, ticker: Ticker) {
        let text = ticker_message(symbol, &ticker);
        self.write().insert(symbol.to_owned(), ticker);
        // No receiver is not an error: nobody is watching.
        let _ = self.events.send(MarketEvent {
            channel: "ticker",
            symbol: Arc::from(symbol),
            text,
        });
    }

    /// Announces a newly listed pair on `/ws/business/notice` (an `OWNCOIN` message).
    pub fn publish_listing(&self, listing: &Listing) {
        let text = serde_json::json!({"type": "OWNCOIN", "data": listing}).to_string();
        // No receiver is not an error: nobody is watching.
        let _ = self.notices.send(Arc::from(text));
    }

    /// A receiver of every business notice from now on.
    pub fn subscribe_notices(&self) -> broadcast::Receiver<Arc<str>> {
        self.notices.subscribe()
    }

    /// A receiver of every live message from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<MarketEvent> {
        self.events.subscribe()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Ticker>> {
        // A panic while holding the lock leaves plain data behind; keep serving it.
        self.tickers.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Ticker>> {
        self.tickers.write().unwrap_or_else(|e| e.into_inner())
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    fn ticker() -> Ticker {
        Ticker {
            close: dec!(101.5),
            open: dec!(100),
            high: dec!(102),
            low: dec!(99),
            volume: dec!(12.5),
            quote_volume: dec!(1250),
            trade_count: 42,
            ts: 1_700_000_000_000,
        }
    }

    #[test]
    fn a_ticker_message_carries_decimals_as_strings() {
        let text = ticker_message("btcusdt", &ticker());
        let value: serde_json::Value = serde_json::from_str(&text).unwrap();
        assert_eq!(value["type"], "ticker");
        assert_eq!(value["symbol"], "btcusdt");
        assert_eq!(value["data"]["close"], "101.5");
        assert_eq!(value["data"]["change"], "1.5");
        assert_eq!(value["data"]["priceChangePercent"], "1.50");
        assert_eq!(value["data"]["quoteVolume"], "1250");
        assert_eq!(value["data"]["totalNumberOfTrades"], 42);
        assert_eq!(value["data"]["ts"], 1_700_000_000_000i64);
    }

    #[tokio::test]
    async fn publishing_records_and_broadcasts() {
        let hub = MarketHub::new();
        let mut receiver = hub.subscribe();
        hub.publish_ticker("btcusdt", ticker());
        assert_eq!(hub.ticker("btcusdt"), Some(ticker()));
        let event = receiver.recv().await.unwrap();
        assert_eq!(&*event.symbol, "btcusdt");
        assert!(event.text.contains("\"close\":\"101.5\""));
    }
}
