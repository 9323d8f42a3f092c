//! The market hub: the latest ticker of every pair, and a broadcast of live messages.
//!
//! Each message is serialised and framed as a WebSocket text frame once, by its producer
//! ([`MarketEvent`]), and every client's task copies those bytes into its write. The broadcast never
//! waits for a receiver: a client that falls behind loses old messages (see `ws.rs`, which then
//! resends the latest tickers and books, so they are conflated, latest wins).
//!
//! What is published together travels together: an item of the broadcast is a [`Batch`], and the
//! simulator publishes a whole tick (every pair's ticker, trades, detail and book, and `simpleData`)
//! as one ([`MarketHub::publication`]), joined by the books the spot markets publish for that tick
//! within [`GATHER_WINDOW`] ([`Publication::send_soon`]; the tick goes out as soon as the books it
//! waits for have joined, [`Publication::send_with_books`]), so each client receives a tick with one
//! receive, one reference count and one write instead of ~60; clients of the same kind share that
//! write too ([`Published`]). The candles (`kline`, `KLINE`: ten intervals a pair, most of the
//! messages of a tick) have a broadcast of their own, which only clients subscribed to a kline
//! channel read.

use std::{
    collections::HashMap,
    sync::{Arc, Mutex, RwLock},
};

use std::collections::VecDeque;

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast;

use wasm_core::kline::{Candle, Interval};

use crate::market::book::{BookDiff, BookSnapshot};
use crate::market::frame;

/// How many batches a slow client may fall behind before it starts losing the oldest (a tick is one
/// batch of the simulator, plus one per book or trade another source publishes: some 20 seconds).
/// The broadcast keeps this many batches whoever reads them, so it bounds the hub's memory too.
pub const EVENT_BUFFER: usize = 256;
/// The same for the candles' broadcast (one batch a tick: about a minute).
pub const CANDLE_BUFFER: usize = 64;

/// 24-hour statistics and last price of one pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
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
pub fn ticker_message(symbol: &str, ticker: &Ticker) -> String {
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
    serde_json::to_string(&message).unwrap_or_default()
}

/// Which side took liquidity in a trade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// A buyer lifted an ask.
    Buy,
    /// A seller hit a bid.
    Sell,
}

/// One trade of a pair.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Trade {
    /// Trade id, increasing per pair.
    pub id: u64,
    /// Price.
    pub price: Decimal,
    /// Quantity in the base asset.
    pub quantity: Decimal,
    /// The taker's side.
    pub side: Side,
    /// Time, epoch milliseconds.
    pub ts: i64,
}

/// Trades kept per pair for new subscribers and `POST /api/market/trades`.
pub const RECENT_TRADES: usize = 100;

/// The `depth` snapshot message of `symbol` (sent on subscription and after a client lagged).
pub fn depth_snapshot_message(symbol: &str, snapshot: &BookSnapshot) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Data<'a> {
        kind: &'static str,
        #[serde(flatten)]
        snapshot: &'a BookSnapshot,
    }
    serde_json::json!({"type": "depth", "symbol": symbol, "data": Data { kind: "snapshot", snapshot }})
        .to_string()
}

/// The `depth` diff message of `symbol`.
fn depth_diff_message(symbol: &str, diff: &BookDiff) -> String {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Data<'a> {
        kind: &'static str,
        #[serde(flatten)]
        diff: &'a BookDiff,
    }
    serde_json::json!({"type": "depth", "symbol": symbol, "data": Data { kind: "diff", diff }})
        .to_string()
}

/// The `DETAIL` message of `symbol`.
pub fn detail_message(symbol: &str, detail: &Detail) -> String {
    serde_json::json!({"type": "DETAIL", "symbol": symbol, "data": detail}).to_string()
}

/// The `TRADE` message of `symbol`: `trades` newest last; `snapshot` marks the recent trades sent on
/// subscription (newest first).
pub fn trades_message(symbol: &str, trades: &[Trade], snapshot: bool) -> String {
    serde_json::json!({"type": "TRADE", "symbol": symbol, "snapshot": snapshot, "data": trades})
        .to_string()
}

/// The event channel of `interval`'s candles (`kline:1m` … `kline:1M`).
pub fn kline_channel(interval: Interval) -> &'static str {
    match interval {
        Interval::OneMinute => "kline:1m",
        Interval::FiveMinutes => "kline:5m",
        Interval::FifteenMinutes => "kline:15m",
        Interval::ThirtyMinutes => "kline:30m",
        Interval::OneHour => "kline:1h",
        Interval::TwoHours => "kline:2h",
        Interval::FourHours => "kline:4h",
        Interval::OneDay => "kline:1d",
        Interval::OneWeek => "kline:1w",
        Interval::OneMonth => "kline:1M",
    }
}

/// A `kline` (live, `kind` "kline") or `KLINE` (closed) message of `symbol` at `interval`.
pub fn kline_message(kind: &str, symbol: &str, interval: Interval, candle: &Candle) -> String {
    serde_json::json!({"type": kind, "symbol": symbol, "interval": interval.as_str(), "data": candle})
        .to_string()
}

/// Mark and index prices and the top of the book of a pair (the `DETAIL` message).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Detail {
    /// Last trade price.
    pub last_price: Decimal,
    /// Index price: the simulated spot index the pair tracks.
    pub index_price: Decimal,
    /// Mark price: the book's mid, kept within 0.5 % of the index (what futures mark to).
    pub mark_price: Decimal,
    /// Best bid.
    pub best_bid: Option<Decimal>,
    /// Best ask.
    pub best_ask: Option<Decimal>,
    /// Time, epoch milliseconds.
    pub ts: i64,
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

/// A live message ready to send: its channel and pair for subscription matching, and its WebSocket
/// frame.
#[derive(Debug)]
pub struct MarketEvent {
    /// The channel and pair as one number (see [`Topic`]).
    pub topic: Topic,
    /// The channel (`ticker`).
    pub channel: &'static str,
    /// The pair (`btcusdt`).
    pub symbol: Arc<str>,
    /// Where the message stands in its pair's sequence, for the channels a snapshot may already
    /// cover ([`Topic::is_sequenced`]): a depth diff's `seq`, a trade message's newest trade id;
    /// 0 for other channels.
    pub seq: u64,
    /// The message as an unmasked text frame: the same bytes for every client.
    frame: Box<[u8]>,
    /// Where the text starts in `frame`.
    header: usize,
}

impl MarketEvent {
    /// The message `text` of `channel` and `symbol` (with its `topic`), framed.
    pub fn new(topic: Topic, channel: &'static str, symbol: &str, text: &str, seq: u64) -> Self {
        let (frame, header) = frame::text_frame(text);
        Self {
            topic,
            channel,
            symbol: Arc::from(symbol),
            seq,
            frame,
            header,
        }
    }

    /// The message's WebSocket frame, ready to write.
    pub fn frame(&self) -> &[u8] {
        &self.frame
    }

    /// The message's text (JSON).
    pub fn text(&self) -> &str {
        // The frame was built from a `&str`.
        std::str::from_utf8(&self.frame[self.header..]).unwrap_or_default()
    }
}

/// Messages published together, delivered together: one item of the broadcast.
pub type Batch = Arc<Published>;

/// What a client holds of each sequenced topic ([`Topic::is_sequenced`]): the depth `seq` and the
/// newest trade id, by topic.
pub type HeldSeqs = [(Topic, u64)];

/// The most kinds of client (subscriptions and sequences held) whose write of one batch is kept for
/// others of the same kind (see [`Published::written`]).
const SHARED_WRITES: usize = 64;

/// The messages of one [`Batch`], and the writes built from them for each kind of client: clients
/// with the same subscriptions that hold the same sequences ([`HeldSeqs`]) get the same bytes, so the first of
/// them builds the write and the others share it (one reference count instead of a copy and a pass
/// over the batch each). Derefs to the messages.
#[derive(Debug)]
pub struct Published {
    events: Box<[MarketEvent]>,
    writes: Mutex<Vec<SharedWrite>>,
}

/// One kind of client's write of a batch.
#[derive(Debug)]
struct SharedWrite {
    /// The client's subscriptions as topics (sorted).
    topics: Box<[Topic]>,
    /// The sequences it held before the batch.
    held_before: Box<HeldSeqs>,
    /// The sequences it holds after it.
    held_after: Arc<HeldSeqs>,
    /// The frames it wants, in order.
    bytes: Arc<[u8]>,
}

impl Published {
    /// The batch of `events`.
    pub fn new(events: Vec<MarketEvent>) -> Self {
        Self {
            events: events.into_boxed_slice(),
            writes: Mutex::new(Vec::new()),
        }
    }

    /// The write already built for a client subscribed to `topics` that holds the sequences
    /// `held`, with the sequences it holds after the batch.
    pub fn written(&self, topics: &[Topic], held: &HeldSeqs) -> Option<(Arc<[u8]>, Arc<HeldSeqs>)> {
        self.lock_writes()
            .iter()
            .find(|write| &*write.topics == topics && &*write.held_before == held)
            .map(|write| (write.bytes.clone(), write.held_after.clone()))
    }

    /// Keeps `bytes`, built for a client subscribed to `topics` that held `held_before` and holds
    /// `held_after` after the batch, for the next client of the same kind (up to
    /// `SHARED_WRITES` kinds a batch).
    pub fn keep_written(
        &self,
        topics: &[Topic],
        held_before: &HeldSeqs,
        held_after: Arc<HeldSeqs>,
        bytes: Arc<[u8]>,
    ) {
        let mut writes = self.lock_writes();
        let known = writes
            .iter()
            .any(|write| &*write.topics == topics && &*write.held_before == held_before);
        if !known && writes.len() < SHARED_WRITES {
            writes.push(SharedWrite {
                topics: topics.into(),
                held_before: held_before.into(),
                held_after,
                bytes,
            });
        }
    }

    /// Drops the writes kept (once a newer batch is out, only clients behind read this one).
    fn forget_writes(&self) {
        self.lock_writes().clear();
    }

    fn lock_writes(&self) -> std::sync::MutexGuard<'_, Vec<SharedWrite>> {
        self.writes.lock().unwrap_or_else(|e| e.into_inner())
    }
}

impl std::ops::Deref for Published {
    type Target = [MarketEvent];

    fn deref(&self) -> &[MarketEvent] {
        &self.events
    }
}

/// A message's channel and pair as one number, so that each of thousands of clients tells
/// whether it wants a message without comparing strings: the channel's index among
/// [`channel_index`]'s keys times 2¹⁶ plus the pair's id ([`MarketHub::pair_id`], `0xFFFF` for `*`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Topic(u32);

impl Topic {
    /// The pair id that stands for every pair (`*`).
    pub const EVERY_PAIR: u16 = 0xFFFF;

    /// The topic of `channel` (a channel key: `ticker`, `kline:1m`) and pair `pair_id`.
    pub fn new(channel: &str, pair_id: u16) -> Option<Topic> {
        channel_index(channel).map(|index| Topic(u32::from(index) << 16 | u32::from(pair_id)))
    }

    /// The same channel for every pair (what a `*` subscription holds).
    pub fn every_pair(self) -> Topic {
        Topic(self.0 | u32::from(Self::EVERY_PAIR))
    }

    /// Whether this is a `depth` message.
    pub fn is_depth(self) -> bool {
        self.0 >> 16 == DEPTH_INDEX
    }

    /// Whether a message of this topic carries its place in the pair's sequence
    /// ([`MarketEvent::seq`]: `depth` and `trade`), so a client skips what its snapshot covered.
    pub fn is_sequenced(self) -> bool {
        matches!(self.0 >> 16, DEPTH_INDEX | TRADE_INDEX)
    }

    /// The pair's id.
    pub fn pair_id(self) -> u16 {
        (self.0 & 0xFFFF) as u16
    }
}

const DEPTH_INDEX: u32 = 1;
const TRADE_INDEX: u32 = 2;

/// The index of a channel key in the topic numbering (`ticker` 0, `depth` 1, `trade` 2, `detail` 3,
/// `simpleData` 4, then `kline:1m` … `kline:1M`).
pub fn channel_index(channel: &str) -> Option<u16> {
    match channel {
        "ticker" => Some(0),
        "depth" => Some(DEPTH_INDEX as u16),
        "trade" => Some(TRADE_INDEX as u16),
        "detail" => Some(3),
        "simpleData" => Some(4),
        _ => Interval::ALL
            .iter()
            .position(|interval| kline_channel(*interval) == channel)
            .map(|position| 5 + position as u16),
    }
}

/// The latest market state and the live broadcast; shared by the simulator, the API and the channels.
pub struct MarketHub {
    /// Small ids of the pairs, in the order they were first seen (see [`Topic`]).
    pair_ids: RwLock<HashMap<String, u16>>,
    tickers: RwLock<HashMap<String, Ticker>>,
    klines: RwLock<HashMap<String, Vec<(Interval, Candle)>>>,
    details: RwLock<HashMap<String, Detail>>,
    books: RwLock<HashMap<String, Arc<BookSnapshot>>>,
    trades: RwLock<HashMap<String, VecDeque<Trade>>>,
    /// The broadcast of everything but the candles, with what waits to join its next batch.
    events: Arc<Outbox>,
    /// The candles' broadcast (see the module's notes).
    candle_events: broadcast::Sender<Batch>,
    notices: broadcast::Sender<Arc<str>>,
    /// The market channel's writers, started by its first client.
    writers: std::sync::OnceLock<crate::market::ws::Writers>,
    /// Where publications also go (cluster mode: the other instances), set at start.
    fanout: std::sync::OnceLock<crate::cluster::Fanout>,
    /// Which books this instance produces, and when they went whole (cluster mode).
    book_sync: remote::BookSync,
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
            pair_ids: RwLock::new(HashMap::new()),
            tickers: RwLock::new(HashMap::new()),
            klines: RwLock::new(HashMap::new()),
            details: RwLock::new(HashMap::new()),
            books: RwLock::new(HashMap::new()),
            trades: RwLock::new(HashMap::new()),
            events: Arc::new(Outbox {
                sender: broadcast::channel(EVENT_BUFFER).0,
                waiting: Mutex::new(Waiting::default()),
            }),
            candle_events: broadcast::channel(CANDLE_BUFFER).0,
            notices: broadcast::channel(64).0,
            writers: std::sync::OnceLock::new(),
            fanout: std::sync::OnceLock::new(),
            book_sync: remote::BookSync::default(),
        }
    }

    /// Shares every publication and notice made here through `fanout` from now on, and asks the
    /// other instances for their books (cluster mode; see `market/hub/remote.rs`). Set once;
    /// later calls change nothing.
    pub fn share_through(&self, fanout: crate::cluster::Fanout) {
        if self.fanout.set(fanout).is_ok() {
            self.want_every_book();
        }
    }

    /// Where this hub's publications go beyond this process, once set ([`Self::share_through`]).
    pub fn fanout(&self) -> Option<&crate::cluster::Fanout> {
        self.fanout.get()
    }

    /// Broadcasts `text` on `/ws/business/notice` here and shares it.
    fn send_notice(&self, text: String) {
        if let Some(fanout) = self.fanout.get() {
            fanout.publish("notice", text.as_bytes().to_vec());
        }
        // No receiver is not an error: nobody is watching.
        let _ = self.notices.send(Arc::from(text));
    }

    /// The market channel's writers, started on the current runtime the first time.
    pub(crate) fn writers(&self) -> &crate::market::ws::Writers {
        self.writers
            .get_or_init(|| crate::market::ws::Writers::start(self))
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
        let mut publication = self.publication();
        publication.ticker(symbol, ticker);
        publication.send();
    }

    /// The latest book of `symbol`.
    pub fn book(&self, symbol: &str) -> Option<Arc<BookSnapshot>> {
        self.books
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .cloned()
    }

    /// Records `snapshot` as the book of `symbol`, then broadcasts `diff` (in this order, so a
    /// client that takes the snapshot in between skips the diff by its `seq`) within
    /// [`GATHER_WINDOW`], in one batch with what else is published meanwhile (see
    /// [`Publication::send_soon`]).
    pub fn publish_book(&self, symbol: &str, snapshot: BookSnapshot, diff: &BookDiff) {
        let mut publication = self.publication();
        publication.book(symbol, snapshot, diff);
        publication.send_soon();
    }

    /// The live candle of `symbol` at `interval`.
    pub fn live_kline(&self, symbol: &str, interval: Interval) -> Option<Candle> {
        self.klines
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .and_then(|all| all.iter().find(|(i, _)| *i == interval).map(|(_, c)| *c))
    }

    /// Records the live candles of `symbol` and broadcasts them (`kline`), after the candles the
    /// last minute completed (`KLINE`).
    pub fn publish_klines(
        &self,
        symbol: &str,
        live: Vec<(Interval, Candle)>,
        completed: &[(Interval, Candle)],
    ) {
        let mut publication = self.publication();
        publication.klines(symbol, live, completed);
        publication.send();
    }

    /// The latest detail of `symbol`.
    pub fn detail(&self, symbol: &str) -> Option<Detail> {
        self.details
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .cloned()
    }

    /// Records and broadcasts the `DETAIL` of `symbol`.
    pub fn publish_detail(&self, symbol: &str, detail: Detail) {
        let mut publication = self.publication();
        publication.detail(symbol, detail);
        publication.send();
    }

    /// Broadcasts one `simpleData` message: last price and 24h change of every pair.
    pub fn publish_simple_data(&self, ts: i64) {
        let mut publication = self.publication();
        publication.simple_data(ts);
        publication.send();
    }

    /// The `simpleData` message of every pair now.
    pub fn simple_data_message(&self, ts: i64) -> String {
        let tickers = self.read();
        let mut rows: Vec<serde_json::Value> = tickers
            .iter()
            .map(|(symbol, ticker)| {
                serde_json::json!({
                    "symbol": symbol,
                    "close": ticker.close,
                    "open": ticker.open,
                    "priceChangePercent": ticker.change_percent(),
                })
            })
            .collect();
        rows.sort_by(|a, b| a["symbol"].as_str().cmp(&b["symbol"].as_str()));
        serde_json::json!({"type": "simpleData", "ts": ts, "data": rows}).to_string()
    }

    /// The newest `limit` trades of `symbol`, newest first.
    pub fn recent_trades(&self, symbol: &str, limit: usize) -> Vec<Trade> {
        self.trades
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
            .map(|trades| trades.iter().rev().take(limit).cloned().collect())
            .unwrap_or_default()
    }

    /// Records `trades` (oldest first) of `symbol` and broadcasts them as one `TRADE` message
    /// within [`GATHER_WINDOW`] (see [`Publication::send_soon`]). Ids stay increasing per pair when
    /// two sources publish (the simulated tape and the spot engine's fills): a trade whose id is
    /// not above the last one gets the next id.
    pub fn publish_trades(&self, symbol: &str, trades: &[Trade]) {
        let mut publication = self.publication();
        publication.trades(symbol, trades);
        publication.send_soon();
    }

    /// Collects messages to broadcast as one batch (see [`Publication`]).
    pub fn publication(&self) -> Publication<'_> {
        Publication {
            hub: self,
            events: Vec::new(),
            candles: Vec::new(),
            shared: self
                .fanout
                .get()
                .filter(|fanout| fanout.is_shared())
                .map(|_| Vec::new()),
        }
    }

    /// Announces a newly listed pair on `/ws/business/notice` (an `OWNCOIN` message).
    pub fn publish_listing(&self, listing: &Listing) {
        let text = serde_json::json!({"type": "OWNCOIN", "data": listing}).to_string();
        self.send_notice(text);
    }

    /// Sends a message of another kind on `/ws/business/notice` (`{"type": kind, "data": data}`),
    /// such as a published announcement.
    pub fn publish_notice(&self, kind: &str, data: &impl Serialize) {
        let text = serde_json::json!({"type": kind, "data": data}).to_string();
        self.send_notice(text);
    }

    /// A receiver of every business notice from now on.
    pub fn subscribe_notices(&self) -> broadcast::Receiver<Arc<str>> {
        self.notices.subscribe()
    }

    /// The small id of `symbol` (given on first use; [`Topic::EVERY_PAIR`] for `*`).
    pub fn pair_id(&self, symbol: &str) -> u16 {
        if symbol == "*" {
            return Topic::EVERY_PAIR;
        }
        if let Some(id) = self
            .pair_ids
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .get(symbol)
        {
            return *id;
        }
        let mut ids = self.pair_ids.write().unwrap_or_else(|e| e.into_inner());
        // Ids stay below EVERY_PAIR; 65,535 pairs are far beyond any listing.
        let next = u16::try_from(ids.len())
            .unwrap_or(Topic::EVERY_PAIR - 1)
            .min(Topic::EVERY_PAIR - 1);
        *ids.entry(symbol.to_owned()).or_insert(next)
    }

    /// The topic of `channel` (a channel key) and `symbol`.
    pub fn topic(&self, channel: &str, symbol: &str) -> Option<Topic> {
        Topic::new(channel, self.pair_id(symbol))
    }

    fn event(&self, channel: &'static str, symbol: &str, text: &str, seq: u64) -> MarketEvent {
        // Every channel a hub publishes on has an index.
        let topic = self.topic(channel, symbol).unwrap_or(Topic(u32::MAX));
        MarketEvent::new(topic, channel, symbol, text, seq)
    }

    /// A receiver of every live message but the candles from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<Batch> {
        self.events.sender.subscribe()
    }

    /// A receiver of every live candle message (`kline`, `KLINE`) from now on.
    pub fn subscribe_klines(&self) -> broadcast::Receiver<Batch> {
        self.candle_events.subscribe()
    }

    fn read(&self) -> std::sync::RwLockReadGuard<'_, HashMap<String, Ticker>> {
        // A panic while holding the lock leaves plain data behind; keep serving it.
        self.tickers.read().unwrap_or_else(|e| e.into_inner())
    }

    fn write(&self) -> std::sync::RwLockWriteGuard<'_, HashMap<String, Ticker>> {
        self.tickers.write().unwrap_or_else(|e| e.into_inner())
    }
}

mod publication;
mod remote;

pub use publication::{GATHER_WINDOW, Publication};
use publication::{Outbox, Waiting};

#[cfg(test)]
mod tests;
