//! The market channel `GET /ws/market/{clientId}` (messages in docs/api.md).
//!
//! Every client has its own task. It reads the shared broadcast, which never waits for it; when the
//! client falls behind, the missed tickers are replaced by the latest ones (conflation). A send that
//! cannot complete within [`SEND_TIMEOUT`] means the client cannot keep up: it is closed with a
//! reason, and nobody else is slowed. The server sends `HEARTBEAT` every [`HEARTBEAT_EVERY`]; a
//! client silent for [`CLIENT_IDLE_LIMIT`] is considered dead and closed.

use std::{collections::HashSet, sync::Arc, time::Duration};

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
use crate::market::{MarketHub, hub::ticker_message};

/// How often the server sends `HEARTBEAT`.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(10);
/// How long a client may stay silent (no ping, no message) before it is closed.
pub const CLIENT_IDLE_LIMIT: Duration = Duration::from_secs(60);
/// How long one send may take before the client is judged too slow.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// The channels a client can subscribe to.
const CHANNELS: [&str; 1] = ["ticker"];

/// A message from the client.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum ClientMessage {
    Subscribe { channel: String, symbol: String },
    Unsubscribe { channel: String, symbol: String },
    Ping { ts: Option<i64> },
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
    let mut subscriptions: HashSet<(String, String)> = HashSet::new();
    let mut heartbeat = tokio::time::interval_at(Instant::now() + HEARTBEAT_EVERY, HEARTBEAT_EVERY);
    let mut last_heard = Instant::now();

    let end = 'serve: loop {
        let mut outgoing: Vec<String> = Vec::new();
        tokio::select! {
            incoming = stream.next() => match incoming {
                Some(Ok(Message::Text(text))) => {
                    last_heard = Instant::now();
                    outgoing = handle(&text, &hub, &mut subscriptions, lang);
                }
                Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break End::ClientLeft,
                Some(Ok(_)) => last_heard = Instant::now(),
            },
            event = events.recv() => match event {
                Ok(event) => {
                    if is_subscribed(&subscriptions, event.channel, &event.symbol) {
                        outgoing.push(event.text.to_string());
                    }
                }
                Err(RecvError::Lagged(missed)) => {
                    tracing::debug!(missed, "market client lagged; sending latest tickers");
                    outgoing = snapshots(&hub, &subscriptions);
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

fn is_subscribed(subscriptions: &HashSet<(String, String)>, channel: &str, symbol: &str) -> bool {
    subscriptions
        .iter()
        .any(|(c, s)| c == channel && (s == "*" || s == symbol))
}

/// The latest ticker of every pair the client is subscribed to.
fn snapshots(hub: &MarketHub, subscriptions: &HashSet<(String, String)>) -> Vec<String> {
    hub.symbols()
        .into_iter()
        .filter(|symbol| is_subscribed(subscriptions, "ticker", symbol))
        .filter_map(|symbol| {
            hub.ticker(&symbol)
                .map(|ticker| ticker_message(&symbol, &ticker).to_string())
        })
        .collect()
}

/// Applies one client message and returns the answers to send.
fn handle(
    text: &str,
    hub: &MarketHub,
    subscriptions: &mut HashSet<(String, String)>,
    lang: Lang,
) -> Vec<String> {
    let error = |msg: Msg, params: &[(&str, &str)]| {
        json!({"type": "error", "code": 400, "msg": translate(lang, msg, params)}).to_string()
    };
    let message = match serde_json::from_str::<ClientMessage>(text) {
        Ok(message) => message,
        Err(_) => return vec![error(Msg::BadMessage, &[])],
    };
    match message {
        ClientMessage::Ping { ts } => vec![json!({"type": "pong", "ts": ts}).to_string()],
        ClientMessage::Subscribe { channel, symbol }
        | ClientMessage::Unsubscribe { channel, symbol }
            if !CHANNELS.contains(&channel.as_str()) =>
        {
            let _ = symbol;
            vec![error(Msg::UnknownChannel, &[("channel", &channel)])]
        }
        ClientMessage::Subscribe { channel, symbol } => {
            let symbol = symbol.to_ascii_lowercase();
            if symbol != "*" && hub.ticker(&symbol).is_none() {
                return vec![error(Msg::UnknownSymbol, &[("symbol", &symbol)])];
            }
            subscriptions.insert((channel.clone(), symbol.clone()));
            let mut answers = vec![
                json!({"type": "subscribed", "channel": channel, "symbol": symbol}).to_string(),
            ];
            let mut only = HashSet::new();
            only.insert((channel, symbol));
            answers.extend(snapshots(hub, &only));
            answers
        }
        ClientMessage::Unsubscribe { channel, symbol } => {
            let symbol = symbol.to_ascii_lowercase();
            subscriptions.remove(&(channel.clone(), symbol.clone()));
            vec![json!({"type": "unsubscribed", "channel": channel, "symbol": symbol}).to_string()]
        }
    }
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
        let mut subs = HashSet::new();
        let answers = handle(
            r#"{"op":"subscribe","channel":"ticker","symbol":"BTCUSDT"}"#,
            &hub,
            &mut subs,
            Lang::En,
        );
        assert_eq!(parse(&answers[0])["type"], "subscribed");
        assert_eq!(parse(&answers[1])["symbol"], "btcusdt");
        assert_eq!(answers.len(), 2);
        assert!(is_subscribed(&subs, "ticker", "btcusdt"));
        assert!(!is_subscribed(&subs, "ticker", "ethusdt"));
    }

    #[test]
    fn the_wildcard_covers_every_pair_and_unsubscribe_removes_it() {
        let hub = hub();
        let mut subs = HashSet::new();
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
        assert!(subs.is_empty());
    }

    #[test]
    fn bad_messages_get_a_translated_error() {
        let hub = hub();
        let mut subs = HashSet::new();
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
        assert!(subs.is_empty());
    }

    #[test]
    fn ping_is_answered() {
        let hub = hub();
        let answer = &handle(
            r#"{"op":"ping","ts":5}"#,
            &hub,
            &mut HashSet::new(),
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
