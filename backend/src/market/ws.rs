//! The market channel `GET /ws/market/{clientId}` (messages in docs/api.md).
//!
//! Every client has its own task. It reads the shared broadcast, which never waits for it; when the
//! client falls behind, the missed tickers are replaced by the latest ones (conflation). A send that
//! cannot complete within [`SEND_TIMEOUT`] means the client cannot keep up: it is closed with a
//! reason, and nobody else is slowed. The server sends `HEARTBEAT` every [`HEARTBEAT_EVERY`]; a
//! client silent for [`CLIENT_IDLE_LIMIT`] is considered dead and closed.

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
        websocket::{CloseCode, Message, WebSocket, WebSocketStream},
    },
};
use serde::Deserialize;
use serde_json::json;
use tokio::{sync::broadcast::error::RecvError, time::Instant};

use crate::http::middleware::request_lang;
use crate::i18n::{Lang, Msg, translate};
use crate::market::{
    MarketHub,
    hub::{
        depth_snapshot_message, detail_message, kline_channel, kline_message, ticker_message,
        trades_message,
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

/// What one client is subscribed to, and the last depth `seq` it holds per pair.
#[derive(Default)]
struct Client {
    subscriptions: HashSet<(String, String)>,
    depth_seq: HashMap<String, u64>,
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
    ws.on_upgrade(move |socket| async move {
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

async fn serve(socket: WebSocketStream, hub: Arc<MarketHub>, lang: Lang) {
    let (mut sink, mut stream) = socket.split();
    let mut events = hub.subscribe();
    let mut client = Client::default();
    let mut heartbeat = tokio::time::interval_at(Instant::now() + HEARTBEAT_EVERY, HEARTBEAT_EVERY);
    let mut last_heard = Instant::now();

    let end = 'serve: loop {
        let mut outgoing: Vec<String> = Vec::new();
        tokio::select! {
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    last_heard = Instant::now();
                    outgoing = handle(&text, &hub, &mut client, lang);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break End::ClientLeft,
                Some(Ok(_)) => last_heard = Instant::now(),
            },
            event = events.recv() => match event {
                Ok(event) => {
                    if client.wants(&event) {
                        if event.channel == "depth" {
                            client.depth_seq.insert(event.symbol.to_string(), event.seq);
                        }
                        outgoing.push(event.text.to_string());
                    }
                }
                Err(RecvError::Lagged(missed)) => {
                    tracing::debug!(missed, "market client lagged; sending latest tickers and books");
                    outgoing = snapshots(&hub, &mut client, None);
                }
                Err(RecvError::Closed) => break End::ClientLeft,
            },
            _ = heartbeat.tick() => {
                if last_heard.elapsed() > CLIENT_IDLE_LIMIT {
                    break End::Idle;
                }
                outgoing.push(json!({"type": "HEARTBEAT", "ts": crate::market::simulator::now_ms()}).to_string());
            }
        }
        for text in outgoing {
            match tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text))).await {
                Ok(Ok(())) => {}
                Ok(Err(_)) => break 'serve End::ClientLeft,
                Err(_) => break 'serve End::TooSlow,
            }
        }
    };
    let reason = match end {
        End::ClientLeft => return,
        End::TooSlow => translate(lang, Msg::TooSlow, &[]),
        End::Idle => "idle".to_owned(),
    };
    let _ = tokio::time::timeout(
        SEND_TIMEOUT,
        sink.send(Message::Close(Some((CloseCode::Policy, reason)))),
    )
    .await;
}

impl Client {
    /// Whether `event` goes to this client: subscribed, and for depth a diff newer than the book
    /// it holds (a diff already inside its snapshot is skipped).
    fn wants(&self, event: &crate::market::MarketEvent) -> bool {
        if !is_subscribed(&self.subscriptions, event.channel, &event.symbol) {
            return false;
        }
        event.channel != "depth"
            || self
                .depth_seq
                .get(&*event.symbol)
                .is_none_or(|held| event.seq > *held)
    }
}

fn is_subscribed(subscriptions: &HashSet<(String, String)>, channel: &str, symbol: &str) -> bool {
    subscriptions
        .iter()
        .any(|(c, s)| c == channel && (s == "*" || s == symbol))
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
            client.depth_seq.insert(symbol.clone(), book.seq);
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
                .insert((key.to_owned(), symbol.clone()));
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
            client
                .subscriptions
                .remove(&(key.to_owned(), symbol.clone()));
            if key == "depth" {
                client.depth_seq.remove(&symbol);
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
