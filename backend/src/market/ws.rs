//! The market channel `GET /ws/market/{clientId}` (messages in docs/api.md).
//!
//! Every client has its own task. It reads the shared broadcast, which never waits for it; when the
//! client falls behind, the missed tickers are replaced by the latest ones (conflation). A send that
//! cannot complete within [`SEND_TIMEOUT`] means the client cannot keep up: it is closed with a
//! reason, and nobody else is slowed. The server sends `HEARTBEAT` every [`HEARTBEAT_EVERY`]; a
//! client silent for [`CLIENT_IDLE_LIMIT`] is considered dead and closed.
//!
//! Cost per connection (measured with `backend/examples/market_load.rs`, docs/benchmarks.md): each
//! wake-up takes every message already published (up to [`BATCH`]) and writes them with one flush,
//! and the socket's read buffer is small ([`READ_BUFFER`]): tungstenite's default of 128 KiB was
//! most of a connection's memory, and it zero-fills the free part of that buffer on every read
//! attempt, which is most of the CPU with thousands of clients.

use std::{
    collections::{HashMap, HashSet},
    sync::Arc,
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use poem::{
    IntoResponse, Request, handler,
    web::{
        Data, Path,
        websocket::{CloseCode, Message, WebSocket, WebSocketConfig, WebSocketStream},
    },
};
use serde::Deserialize;
use serde_json::json;
use tokio::{
    sync::broadcast::{
        Receiver,
        error::{RecvError, TryRecvError},
    },
    time::Instant,
};

use crate::http::middleware::request_lang;
use crate::i18n::{Lang, Msg, translate};
use crate::market::{
    MarketEvent, MarketHub,
    hub::{
        Topic, depth_snapshot_message, detail_message, kline_channel, kline_message,
        ticker_message, trades_message,
    },
};
use wasm_core::kline::Interval;

/// How often the server sends `HEARTBEAT`.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(10);
/// How long a client may stay silent (no ping, no message) before it is closed.
pub const CLIENT_IDLE_LIMIT: Duration = Duration::from_secs(60);
/// How long one send may take before the client is judged too slow.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// The channels a client can subscribe to.
const CHANNELS: [&str; 6] = ["ticker", "depth", "trade", "kline", "detail", "simpleData"];
/// Trades sent on subscription to `trade`.
const TRADE_SNAPSHOT: usize = 50;
/// The largest client message read; longer ones get an error.
const MAX_CLIENT_MESSAGE: usize = 4096;
/// The most broadcast messages one wake-up takes before writing (bounds a batch's memory).
const BATCH: usize = 256;
/// A connection's read buffer: client messages are small (a longer frame still arrives whole,
/// the buffer grows for it).
const READ_BUFFER: usize = 4096;
/// Written frames are collected up to this size before a write, and always written on flush.
const WRITE_BUFFER: usize = 16 * 1024;

/// A client's subscriptions by channel key (`ticker`, `kline:1m`): the pairs, `*` for every pair.
type Subscriptions = HashMap<&'static str, HashSet<String>>;

/// What one client is subscribed to, and the last depth `seq` it holds per pair.
#[derive(Default)]
struct Client {
    subscriptions: Subscriptions,
    /// The same as topics, sorted: every client looks at every message of the broadcast, and a
    /// number is found without touching strings.
    topics: Vec<Topic>,
    /// The last depth `seq` held, by pair id.
    depth_seq: Vec<(u16, u64)>,
}

/// A message from the client.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum ClientMessage {
    Subscribe {
        channel: String,
        #[serde(default = "every_pair")]
        symbol: String,
        interval: Option<String>,
    },
    Unsubscribe {
        channel: String,
        #[serde(default = "every_pair")]
        symbol: String,
        interval: Option<String>,
    },
    Ping {
        ts: Option<i64>,
    },
}

fn every_pair() -> String {
    "*".to_owned()
}

/// Upgrades to the market channel.
#[handler]
pub fn market_channel(
    Path(client_id): Path<String>,
    req: &Request,
    ws: WebSocket,
    Data(hub): Data<&Arc<MarketHub>>,
) -> impl IntoResponse {
    let lang = request_lang(req);
    let hub = hub.clone();
    ws.config(socket_config())
        .on_upgrade(move |socket| async move {
            tracing::debug!(%client_id, "market channel opened");
            serve(socket, hub, lang).await;
            tracing::debug!(%client_id, "market channel closed");
        })
}

/// Why a client's loop ended.
enum End {
    ClientLeft,
    TooSlow,
    Idle,
}

async fn serve(mut socket: WebSocketStream, hub: Arc<MarketHub>, lang: Lang) {
    // Not split: reading happens in the select below and writing after it, never both at once,
    // and a split socket pays a lock on every read and every message written.
    let mut events = hub.subscribe();
    // The candles' broadcast, read only while the client has a kline subscription.
    let mut klines: Option<Receiver<Arc<MarketEvent>>> = None;
    let mut client = Client::default();
    let mut heartbeat = tokio::time::interval_at(Instant::now() + HEARTBEAT_EVERY, HEARTBEAT_EVERY);
    let mut last_heard = Instant::now();

    let end = loop {
        let mut outgoing: Vec<String> = Vec::new();
        tokio::select! {
            incoming = socket.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    last_heard = Instant::now();
                    // Listening before a kline subscription reads its snapshot: nothing falls
                    // between the two.
                    let candles = klines.take().unwrap_or_else(|| hub.subscribe_klines());
                    outgoing = handle(&text, &hub, &mut client, lang);
                    klines = client.wants_klines().then_some(candles);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break End::ClientLeft,
                Some(Ok(_)) => last_heard = Instant::now(),
            },
            event = events.recv() => {
                if !take_published(event, &mut events, &hub, &mut client, &mut outgoing) {
                    break End::ClientLeft;
                }
            }
            Some(event) = next_candle(&mut klines) => {
                if let Some(candles) = klines.as_mut()
                    && !take_published(event, candles, &hub, &mut client, &mut outgoing)
                {
                    break End::ClientLeft;
                }
            }
            _ = heartbeat.tick() => {
                if last_heard.elapsed() > CLIENT_IDLE_LIMIT {
                    break End::Idle;
                }
                outgoing.push(json!({"type": "HEARTBEAT", "ts": crate::market::simulator::now_ms()}).to_string());
            }
        }
        if outgoing.is_empty() {
            continue;
        }
        // One flush for the whole batch: one write to the socket instead of one per message.
        let write = async {
            for text in outgoing {
                socket.feed(Message::Text(text)).await?;
            }
            socket.flush().await
        };
        match tokio::time::timeout(SEND_TIMEOUT, write).await {
            Ok(Ok(())) => {}
            Ok(Err(_)) => break End::ClientLeft,
            Err(_) => break End::TooSlow,
        }
    };
    let reason = match end {
        End::ClientLeft => return,
        End::TooSlow => translate(lang, Msg::TooSlow, &[]),
        End::Idle => "idle".to_owned(),
    };
    let _ = tokio::time::timeout(
        SEND_TIMEOUT,
        socket.send(Message::Close(Some((CloseCode::Policy, reason)))),
    )
    .await;
}

/// The next message of the candles' broadcast; never, while the client reads none (`None`).
async fn next_candle(
    klines: &mut Option<Receiver<Arc<MarketEvent>>>,
) -> Option<Result<Arc<MarketEvent>, RecvError>> {
    match klines {
        Some(receiver) => Some(receiver.recv().await),
        None => std::future::pending().await,
    }
}

/// The WebSocket settings of a market channel connection ([`READ_BUFFER`], [`WRITE_BUFFER`]).
fn socket_config() -> WebSocketConfig {
    WebSocketConfig::default()
        .read_buffer_size(READ_BUFFER)
        .write_buffer_size(WRITE_BUFFER)
}

/// Takes `first` (what `recv` gave) and every message already published after it, up to
/// [`BATCH`], adding what the client wants to `outgoing`. A client that fell behind gets the latest
/// tickers and books instead of what it missed. `false` when the broadcast has ended.
fn take_published(
    first: Result<Arc<MarketEvent>, RecvError>,
    events: &mut Receiver<Arc<MarketEvent>>,
    hub: &MarketHub,
    client: &mut Client,
    outgoing: &mut Vec<String>,
) -> bool {
    let mut next = first;
    for taken in 1.. {
        match next {
            Ok(event) => {
                if client.wants(&event) {
                    if event.topic.is_depth() {
                        client.hold_depth(event.topic.pair_id(), event.seq);
                    }
                    outgoing.push(event.text.to_string());
                }
            }
            Err(RecvError::Lagged(missed)) => {
                tracing::debug!(
                    missed,
                    "market client lagged; sending latest tickers and books"
                );
                outgoing.extend(snapshots(hub, client, None));
            }
            Err(RecvError::Closed) => return false,
        }
        if taken == BATCH {
            break;
        }
        next = match events.try_recv() {
            Ok(event) => Ok(event),
            Err(TryRecvError::Empty) => break,
            Err(TryRecvError::Lagged(missed)) => Err(RecvError::Lagged(missed)),
            // Sent before the sender went: recv reports it on the next wake-up.
            Err(TryRecvError::Closed) => break,
        };
    }
    true
}

impl Client {
    /// Whether `event` goes to this client: subscribed, and for depth a diff newer than the book
    /// it holds (a diff already inside its snapshot is skipped).
    fn wants(&self, event: &MarketEvent) -> bool {
        let topic = event.topic;
        if self.topics.binary_search(&topic).is_err()
            && self.topics.binary_search(&topic.every_pair()).is_err()
        {
            return false;
        }
        !topic.is_depth()
            || self
                .held_depth(topic.pair_id())
                .is_none_or(|held| event.seq > held)
    }

    /// Rebuilds [`Client::topics`] after the subscriptions changed.
    fn refresh_topics(&mut self, hub: &MarketHub) {
        self.topics = self
            .subscriptions
            .iter()
            .flat_map(|(channel, symbols)| symbols.iter().filter_map(|s| hub.topic(channel, s)))
            .collect();
        self.topics.sort_unstable();
    }

    /// The depth `seq` held of pair `pair_id`.
    fn held_depth(&self, pair_id: u16) -> Option<u64> {
        self.depth_seq
            .iter()
            .find(|(id, _)| *id == pair_id)
            .map(|(_, seq)| *seq)
    }

    /// Whether the client has a kline subscription (and so reads the candles' broadcast).
    fn wants_klines(&self) -> bool {
        self.subscriptions
            .keys()
            .any(|key| key.starts_with("kline:"))
    }

    /// Records `seq` as the depth of pair `pair_id` the client holds.
    fn hold_depth(&mut self, pair_id: u16, seq: u64) {
        hold(&mut self.depth_seq, pair_id, seq);
    }
}

/// Records `seq` as the depth of pair `pair_id` in `depth_seq`.
fn hold(depth_seq: &mut Vec<(u16, u64)>, pair_id: u16, seq: u64) {
    match depth_seq.iter_mut().find(|(id, _)| *id == pair_id) {
        Some((_, held)) => *held = seq,
        None => depth_seq.push((pair_id, seq)),
    }
}

fn is_subscribed(subscriptions: &Subscriptions, channel: &str, symbol: &str) -> bool {
    subscriptions
        .get(channel)
        .is_some_and(|symbols| symbols.contains(symbol) || symbols.contains("*"))
}

/// The latest ticker and book of every pair the client is subscribed to (`only`: of one
/// subscription), and the recent trades when `only` is a trade subscription. Books sent are
/// remembered, so the diffs they include are skipped.
fn snapshots(hub: &MarketHub, client: &mut Client, only: Option<(&str, &str)>) -> Vec<String> {
    let wanted = |channel: &str, symbol: &str| match only {
        Some((c, s)) => c == channel && (s == "*" || s == symbol),
        None => is_subscribed(&client.subscriptions, channel, symbol),
    };
    let mut symbols = hub.symbols();
    symbols.sort();
    let mut out = Vec::new();
    for symbol in symbols {
        if wanted("ticker", &symbol)
            && let Some(ticker) = hub.ticker(&symbol)
        {
            out.push(ticker_message(&symbol, &ticker).to_string());
        }
        if wanted("depth", &symbol)
            && let Some(book) = hub.book(&symbol)
        {
            out.push(depth_snapshot_message(&symbol, &book));
            hold(&mut client.depth_seq, hub.pair_id(&symbol), book.seq);
        }
        if only.is_some() && wanted("trade", &symbol) {
            out.push(trades_message(
                &symbol,
                &hub.recent_trades(&symbol, TRADE_SNAPSHOT),
                true,
            ));
        }
        if wanted("detail", &symbol)
            && let Some(detail) = hub.detail(&symbol)
        {
            out.push(detail_message(&symbol, &detail));
        }
        for interval in Interval::ALL {
            if wanted(kline_channel(interval), &symbol)
                && let Some(candle) = hub.live_kline(&symbol, interval)
            {
                out.push(kline_message("kline", &symbol, interval, &candle));
            }
        }
    }
    if wanted("simpleData", "*") {
        out.push(hub.simple_data_message(crate::market::simulator::now_ms()));
    }
    out
}

/// Applies one client message and returns the answers to send.
fn handle(text: &str, hub: &MarketHub, client: &mut Client, lang: Lang) -> Vec<String> {
    let error = |msg: Msg, params: &[(&str, &str)]| {
        json!({"type": "error", "code": 400, "msg": translate(lang, msg, params)}).to_string()
    };
    if text.len() > MAX_CLIENT_MESSAGE {
        return vec![error(Msg::BadMessage, &[])];
    }
    let message = match serde_json::from_str::<ClientMessage>(text) {
        Ok(message) => message,
        Err(_) => return vec![error(Msg::BadMessage, &[])],
    };
    match message {
        ClientMessage::Ping { ts } => vec![json!({"type": "pong", "ts": ts}).to_string()],
        ClientMessage::Subscribe {
            channel,
            symbol,
            interval,
        } => {
            let key = match channel_key(&channel, interval.as_deref()) {
                Ok(key) => key,
                Err((msg, name, value)) => return vec![error(msg, &[(name, &value)])],
            };
            let symbol = if key == "simpleData" {
                "*".to_owned()
            } else {
                symbol.to_ascii_lowercase()
            };
            if symbol != "*" && hub.ticker(&symbol).is_none() {
                return vec![error(Msg::UnknownSymbol, &[("symbol", &symbol)])];
            }
            client
                .subscriptions
                .entry(key)
                .or_default()
                .insert(symbol.clone());
            client.refresh_topics(hub);
            let mut ack = json!({"type": "subscribed", "channel": channel, "symbol": symbol});
            if let Some(interval) = key.strip_prefix("kline:") {
                ack["interval"] = json!(interval);
            }
            let mut answers = vec![ack.to_string()];
            answers.extend(snapshots(hub, client, Some((key, &symbol))));
            answers
        }
        ClientMessage::Unsubscribe {
            channel,
            symbol,
            interval,
        } => {
            let key = match channel_key(&channel, interval.as_deref()) {
                Ok(key) => key,
                Err((msg, name, value)) => return vec![error(msg, &[(name, &value)])],
            };
            let symbol = symbol.to_ascii_lowercase();
            if let Some(symbols) = client.subscriptions.get_mut(key) {
                symbols.remove(&symbol);
                if symbols.is_empty() {
                    client.subscriptions.remove(key);
                }
            }
            client.refresh_topics(hub);
            if key == "depth" {
                let pair_id = hub.pair_id(&symbol);
                client.depth_seq.retain(|(id, _)| *id != pair_id);
            }
            vec![json!({"type": "unsubscribed", "channel": channel, "symbol": symbol}).to_string()]
        }
    }
}

/// The subscription key of `channel` (for `kline`, per interval: `kline:1m`), or the message
/// that explains why it is refused.
fn channel_key(
    channel: &str,
    interval: Option<&str>,
) -> Result<&'static str, (Msg, &'static str, String)> {
    let known = CHANNELS
        .iter()
        .find(|c| **c == channel)
        .ok_or_else(|| (Msg::UnknownChannel, "channel", channel.to_owned()))?;
    if *known != "kline" {
        return Ok(known);
    }
    let text = interval.unwrap_or_default();
    Interval::parse(text.trim())
        .map(kline_channel)
        .map_err(|_| (Msg::UnknownInterval, "interval", text.to_owned()))
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;
    use crate::market::Ticker;

    fn hub() -> MarketHub {
        let hub = MarketHub::new();
        for symbol in ["btcusdt", "ethusdt"] {
            hub.publish_ticker(
                symbol,
                Ticker {
                    close: dec!(2),
                    open: dec!(1),
                    high: dec!(2),
                    low: dec!(1),
                    volume: dec!(1),
                    quote_volume: dec!(1),
                    trade_count: 1,
                    ts: 1,
                },
            );
        }
        hub
    }

    fn parse(text: &str) -> serde_json::Value {
        serde_json::from_str(text).unwrap()
    }

    #[test]
    fn subscribing_acknowledges_and_sends_the_snapshot() {
        let hub = hub();
        let mut subs = Client::default();
        let answers = handle(
            r#"{"op":"subscribe","channel":"ticker","symbol":"BTCUSDT"}"#,
            &hub,
            &mut subs,
            Lang::En,
        );
        assert_eq!(parse(&answers[0])["type"], "subscribed");
        assert_eq!(parse(&answers[1])["symbol"], "btcusdt");
        assert_eq!(answers.len(), 2);
        assert!(is_subscribed(&subs.subscriptions, "ticker", "btcusdt"));
        assert!(!is_subscribed(&subs.subscriptions, "ticker", "ethusdt"));
    }

    #[test]
    fn the_wildcard_covers_every_pair_and_unsubscribe_removes_it() {
        let hub = hub();
        let mut subs = Client::default();
        let answers = handle(
            r#"{"op":"subscribe","channel":"ticker","symbol":"*"}"#,
            &hub,
            &mut subs,
            Lang::En,
        );
        assert_eq!(answers.len(), 3);
        handle(
            r#"{"op":"unsubscribe","channel":"ticker","symbol":"*"}"#,
            &hub,
            &mut subs,
            Lang::En,
        );
        assert!(subs.subscriptions.is_empty());
    }

    #[test]
    fn bad_messages_get_a_translated_error() {
        let hub = hub();
        let mut subs = Client::default();
        let answer = &handle("{nope", &hub, &mut subs, Lang::En)[0];
        assert_eq!(parse(answer)["type"], "error");
        let answer = &handle(
            r#"{"op":"subscribe","channel":"foo","symbol":"*"}"#,
            &hub,
            &mut subs,
            Lang::De,
        )[0];
        assert_eq!(
            parse(answer)["msg"],
            translate(Lang::De, Msg::UnknownChannel, &[("channel", "foo")])
        );
        let answer = &handle(
            r#"{"op":"subscribe","channel":"ticker","symbol":"nopeusdt"}"#,
            &hub,
            &mut subs,
            Lang::En,
        )[0];
        assert_eq!(parse(answer)["msg"], "Unknown trading pair 'nopeusdt'");
        assert!(subs.subscriptions.is_empty());
    }

    fn ticker_at(close: i64) -> Ticker {
        Ticker {
            close: close.into(),
            open: dec!(1),
            high: close.into(),
            low: dec!(1),
            volume: dec!(1),
            quote_volume: dec!(1),
            trade_count: 1,
            ts: close,
        }
    }

    fn subscribed_to_btc_tickers(hub: &MarketHub) -> Client {
        let mut client = Client::default();
        handle(
            r#"{"op":"subscribe","channel":"ticker","symbol":"btcusdt"}"#,
            hub,
            &mut client,
            Lang::En,
        );
        client
    }

    #[tokio::test]
    async fn one_wake_up_takes_everything_published_and_only_what_is_wanted() {
        let hub = hub();
        let mut client = subscribed_to_btc_tickers(&hub);
        let mut events = hub.subscribe();
        for close in 2..5 {
            hub.publish_ticker("btcusdt", ticker_at(close));
            hub.publish_ticker("ethusdt", ticker_at(close));
        }
        let first = events.recv().await;
        let mut outgoing = Vec::new();
        assert!(take_published(
            first,
            &mut events,
            &hub,
            &mut client,
            &mut outgoing
        ));
        let closes: Vec<_> = outgoing
            .iter()
            .map(|t| parse(t)["data"]["close"].clone())
            .collect();
        assert_eq!(closes, [json!("2"), json!("3"), json!("4")]);
        assert!(outgoing.iter().all(|t| parse(t)["symbol"] == "btcusdt"));
        assert!(matches!(events.try_recv(), Err(TryRecvError::Empty)));
    }

    #[tokio::test]
    async fn a_batch_stops_at_its_bound_and_the_rest_comes_next() {
        let hub = hub();
        let mut client = subscribed_to_btc_tickers(&hub);
        let mut events = hub.subscribe();
        for close in 0..(BATCH as i64 + 5) {
            hub.publish_ticker("btcusdt", ticker_at(close + 10));
        }
        let mut outgoing = Vec::new();
        let first = events.recv().await;
        assert!(take_published(
            first,
            &mut events,
            &hub,
            &mut client,
            &mut outgoing
        ));
        assert_eq!(outgoing.len(), BATCH);
        let mut rest = Vec::new();
        let first = events.recv().await;
        assert!(take_published(
            first,
            &mut events,
            &hub,
            &mut client,
            &mut rest
        ));
        assert_eq!(rest.len(), 5);
        assert_eq!(
            parse(&rest[4])["data"]["close"],
            json!((BATCH as i64 + 14).to_string())
        );
    }

    #[tokio::test]
    async fn a_client_that_fell_behind_gets_the_latest_ticker_first() {
        let hub = hub();
        let mut client = subscribed_to_btc_tickers(&hub);
        let mut events = hub.subscribe();
        let published = crate::market::hub::EVENT_BUFFER as i64 + 10;
        for close in 0..published {
            hub.publish_ticker("btcusdt", ticker_at(close + 10));
        }
        let first = events.recv().await;
        assert!(matches!(first, Err(RecvError::Lagged(10))));
        let mut outgoing = Vec::new();
        assert!(take_published(
            first,
            &mut events,
            &hub,
            &mut client,
            &mut outgoing
        ));
        assert_eq!(
            parse(&outgoing[0])["data"]["close"],
            json!((published + 9).to_string())
        );
    }

    #[test]
    fn messages_match_by_channel_and_pair_or_wildcard() {
        let hub = hub();
        let mut client = Client::default();
        for message in [
            r#"{"op":"subscribe","channel":"depth","symbol":"btcusdt"}"#,
            r#"{"op":"subscribe","channel":"kline","symbol":"ethusdt","interval":"1h"}"#,
            r#"{"op":"subscribe","channel":"ticker","symbol":"*"}"#,
        ] {
            handle(message, &hub, &mut client, Lang::En);
        }
        let event = |channel: &'static str, symbol: &str, seq: u64| MarketEvent {
            topic: hub.topic(channel, symbol).unwrap(),
            channel,
            symbol: Arc::from(symbol),
            text: Arc::from("{}"),
            seq,
        };
        assert!(client.wants(&event("ticker", "ethusdt", 0)));
        assert!(client.wants(&event("kline:1h", "ethusdt", 0)));
        assert!(client.wants_klines());
        assert!(!client.wants(&event("kline:1m", "ethusdt", 0)));
        assert!(!client.wants(&event("kline:1h", "btcusdt", 0)));
        assert!(!client.wants(&event("depth", "ethusdt", 1)));
        assert!(!client.wants(&event("trade", "btcusdt", 0)));
        let btc = hub.pair_id("btcusdt");
        client.hold_depth(btc, 7);
        assert!(!client.wants(&event("depth", "btcusdt", 7)));
        assert!(client.wants(&event("depth", "btcusdt", 8)));
        client.hold_depth(btc, 8);
        assert_eq!(client.held_depth(btc), Some(8));
        assert_eq!(client.depth_seq.len(), 1);
        handle(
            r#"{"op":"unsubscribe","channel":"kline","symbol":"ethusdt","interval":"1h"}"#,
            &hub,
            &mut client,
            Lang::En,
        );
        assert!(!client.wants(&event("kline:1h", "ethusdt", 0)));
        assert!(!client.subscriptions.contains_key("kline:1h"));
        assert!(!client.wants_klines());
        handle(
            r#"{"op":"unsubscribe","channel":"depth","symbol":"btcusdt"}"#,
            &hub,
            &mut client,
            Lang::En,
        );
        assert!(!client.wants(&event("depth", "btcusdt", 9)));
        assert_eq!(client.held_depth(btc), None);
        assert!(client.wants(&event("ticker", "btcusdt", 0)));
    }

    #[test]
    fn the_socket_buffers_are_small() {
        let config = socket_config();
        assert_eq!(config.read_buffer_size, READ_BUFFER);
        assert_eq!(config.write_buffer_size, WRITE_BUFFER);
    }

    #[test]
    fn ping_is_answered() {
        let hub = hub();
        let answer = &handle(
            r#"{"op":"ping","ts":5}"#,
            &hub,
            &mut Client::default(),
            Lang::En,
        )[0];
        assert_eq!(parse(answer), json!({"type": "pong", "ts": 5}));
    }
}

/// Upgrades to the business notice channel `GET /ws/business/notice`: an `OWNCOIN` message for every
/// newly listed pair, `HEARTBEAT` every [`HEARTBEAT_EVERY`]; clients may send `{"op":"ping"}`.
#[handler]
pub fn business_notice(ws: WebSocket, Data(hub): Data<&Arc<MarketHub>>) -> impl IntoResponse {
    let mut notices = hub.subscribe_notices();
    ws.on_upgrade(move |socket| async move {
        let (mut sink, mut stream) = socket.split();
        let mut heartbeat =
            tokio::time::interval_at(Instant::now() + HEARTBEAT_EVERY, HEARTBEAT_EVERY);
        let mut last_heard = Instant::now();
        loop {
            let text = tokio::select! {
                incoming = stream.next() => match incoming {
                    Some(Ok(Message::Text(text))) => {
                        last_heard = Instant::now();
                        match serde_json::from_str::<ClientMessage>(&text) {
                            Ok(ClientMessage::Ping { ts }) => json!({"type": "pong", "ts": ts}).to_string(),
                            _ => continue,
                        }
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {
                        last_heard = Instant::now();
                        continue;
                    }
                },
                notice = notices.recv() => match notice {
                    Ok(text) => text.to_string(),
                    // Listings are rare; a client this far behind has stopped reading.
                    Err(_) => break,
                },
                _ = heartbeat.tick() => {
                    if last_heard.elapsed() > CLIENT_IDLE_LIMIT {
                        break;
                    }
                    json!({"type": "HEARTBEAT", "ts": crate::market::simulator::now_ms()}).to_string()
                }
            };
            match tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text))).await {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
    })
}
