//! Tests of the ws module.

use rust_decimal_macros::dec;

use super::*;
use crate::market::Ticker;
use crate::market::book::BookSnapshot;

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

/// The texts of the whole text frames in `bytes` (what a client would read).
fn texts(bytes: &[u8]) -> Vec<String> {
    let (frames, rest) = frame::server_frames(bytes);
    assert_eq!(rest, 0, "whole frames only");
    frames
        .into_iter()
        .map(|(opcode, payload)| {
            assert_eq!(opcode, frame::OP_TEXT);
            String::from_utf8(payload).unwrap()
        })
        .collect()
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
    let outgoing = texts(&outgoing);
    let closes: Vec<_> = outgoing
        .iter()
        .map(|t| parse(t)["data"]["close"].clone())
        .collect();
    assert_eq!(closes, [json!("2"), json!("3"), json!("4")]);
    assert!(outgoing.iter().all(|t| parse(t)["symbol"] == "btcusdt"));
    assert!(matches!(events.try_recv(), Err(TryRecvError::Empty)));
}

#[tokio::test]
async fn clients_of_the_same_kind_share_one_write_of_a_batch() {
    let hub = hub();
    let subscribe = |client: &mut Client| {
        for message in [
            r#"{"op":"subscribe","channel":"ticker","symbol":"btcusdt"}"#,
            r#"{"op":"subscribe","channel":"depth","symbol":"btcusdt"}"#,
        ] {
            handle(message, &hub, client, Lang::En);
        }
    };
    let (mut first, mut second, mut behind) =
        (Client::default(), Client::default(), Client::default());
    subscribe(&mut first);
    subscribe(&mut second);
    subscribe(&mut behind);
    let btc = hub.topic("depth", "btcusdt").unwrap();
    for client in [&mut first, &mut second] {
        client.hold(btc, 4);
    }
    behind.hold(btc, 3);
    let mut events = hub.subscribe();
    let book = |seq| BookSnapshot {
        seq,
        bids: Vec::new(),
        asks: Vec::new(),
        ts: 1,
    };
    let mut publication = hub.publication();
    publication.ticker("btcusdt", ticker_at(7));
    publication.book("btcusdt", book(5), &book(4).diff_to(&book(5)));
    publication.ticker("ethusdt", ticker_at(7));
    publication.send();
    let batch = events.recv().await.unwrap();

    // What the copying path would write.
    let mut expected = Vec::new();
    let mut copy = Client::default();
    subscribe(&mut copy);
    copy.hold(btc, 4);
    add_wanted(&batch, &mut copy, &mut expected);

    let one = shared_write(&batch, &mut first);
    let two = shared_write(&batch, &mut second);
    assert!(Arc::ptr_eq(&one, &two), "one write for both");
    assert_eq!(&*one, &expected[..]);
    assert_eq!(texts(&one).len(), 2);
    assert_eq!(second.held(btc), Some(5));
    // Holding another depth, a client is another kind: same bytes here, built on its own.
    let own = shared_write(&batch, &mut behind);
    assert!(!Arc::ptr_eq(&one, &own));
    assert_eq!(&*own, &expected[..]);
    assert_eq!(behind.held(btc), Some(5));
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
    assert_eq!(texts(&outgoing).len(), BATCH);
    let mut rest = Vec::new();
    let first = events.recv().await;
    assert!(take_published(
        first,
        &mut events,
        &hub,
        &mut client,
        &mut rest
    ));
    let rest = texts(&rest);
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
        parse(&texts(&outgoing)[0])["data"]["close"],
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
    let event = |channel: &'static str, symbol: &str, seq: u64| {
        MarketEvent::new(
            hub.topic(channel, symbol).unwrap(),
            channel,
            symbol,
            "{}",
            seq,
        )
    };
    assert!(client.wants(&event("ticker", "ethusdt", 0)));
    assert!(client.wants(&event("kline:1h", "ethusdt", 0)));
    assert!(client.wants_klines());
    assert!(!client.wants(&event("kline:1m", "ethusdt", 0)));
    assert!(!client.wants(&event("kline:1h", "btcusdt", 0)));
    assert!(!client.wants(&event("depth", "ethusdt", 1)));
    assert!(!client.wants(&event("trade", "btcusdt", 0)));
    let btc = hub.topic("depth", "btcusdt").unwrap();
    client.hold(btc, 7);
    assert!(!client.wants(&event("depth", "btcusdt", 7)));
    assert!(client.wants(&event("depth", "btcusdt", 8)));
    client.hold(btc, 8);
    assert_eq!(client.held(btc), Some(8));
    assert_eq!(client.held.len(), 1);
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
    assert_eq!(client.held(btc), None);
    assert!(client.wants(&event("ticker", "btcusdt", 0)));
}

#[test]
fn trades_already_in_the_snapshot_are_not_sent_again() {
    let hub = MarketHub::new();
    let trade = |id| crate::market::hub::Trade {
        id,
        price: dec!(100),
        quantity: dec!(1),
        side: crate::market::hub::Side::Buy,
        ts: 1,
    };
    hub.publish_ticker("btcusdt", ticker_at(100));
    hub.publish_trades("btcusdt", &[trade(1), trade(2)]);
    let mut client = Client::default();
    let answers = handle(
        r#"{"op":"subscribe","channel":"trade","symbol":"btcusdt"}"#,
        &hub,
        &mut client,
        Lang::En,
    );
    assert!(answers.iter().any(|a| a.contains(r#""snapshot":true"#)));
    let topic = hub.topic("trade", "btcusdt").unwrap();
    assert_eq!(client.held(topic), Some(2));
    let event = |seq| MarketEvent::new(topic, "trade", "btcusdt", "{}", seq);
    // Recorded before the snapshot, broadcast after it: skipped.
    assert!(!client.wants(&event(2)));
    assert!(client.wants(&event(3)));
    handle(
        r#"{"op":"unsubscribe","channel":"trade","symbol":"btcusdt"}"#,
        &hub,
        &mut client,
        Lang::En,
    );
    assert_eq!(client.held(topic), None);
}

/// The limits in tests: the same proportions as [`LIMITS`], in milliseconds.
const TEST_LIMITS: Limits = Limits {
    heartbeat_every: Duration::from_millis(100),
    idle_limit: Duration::from_millis(600),
    send_timeout: Duration::from_millis(300),
};

/// The bytes of each write the server made.
type Writes = Arc<std::sync::Mutex<Vec<Vec<u8>>>>;

/// The server's end of a test connection, recording each write.
struct RecordingIo {
    inner: tokio::io::DuplexStream,
    writes: Writes,
}

impl AsyncRead for RecordingIo {
    fn poll_read(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &mut tokio::io::ReadBuf<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_read(cx, buf)
    }
}

impl AsyncWrite for RecordingIo {
    fn poll_write(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
        buf: &[u8],
    ) -> std::task::Poll<std::io::Result<usize>> {
        let written = std::pin::Pin::new(&mut self.inner).poll_write(cx, buf);
        if let std::task::Poll::Ready(Ok(n)) = &written {
            self.writes.lock().unwrap().push(buf[..*n].to_vec());
        }
        written
    }

    fn poll_flush(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(
        mut self: std::pin::Pin<&mut Self>,
        cx: &mut std::task::Context<'_>,
    ) -> std::task::Poll<std::io::Result<()>> {
        std::pin::Pin::new(&mut self.inner).poll_shutdown(cx)
    }
}

/// A client on the other end of an in-memory connection served by [`serve`].
struct TestClient {
    io: tokio::io::DuplexStream,
    buf: Vec<u8>,
    frames: std::collections::VecDeque<(u8, Vec<u8>)>,
}

impl TestClient {
    /// Serves a new client; `capacity` is what the connection holds unread.
    fn start(hub: &Arc<MarketHub>, capacity: usize) -> (Self, tokio::task::JoinHandle<()>) {
        let (client, task, _) = Self::start_recording(hub, capacity);
        (client, task)
    }

    /// As [`TestClient::start`], with every write of the server recorded.
    fn start_recording(
        hub: &Arc<MarketHub>,
        capacity: usize,
    ) -> (Self, tokio::task::JoinHandle<()>, Writes) {
        let (client, server) = tokio::io::duplex(capacity);
        let writes = Writes::default();
        let server = RecordingIo {
            inner: server,
            writes: writes.clone(),
        };
        let task = tokio::spawn(serve(server, hub.clone(), Lang::En, TEST_LIMITS));
        let client = Self {
            io: client,
            buf: Vec::new(),
            frames: Default::default(),
        };
        (client, task, writes)
    }

    async fn send_frame(&mut self, first: u8, payload: &[u8]) {
        let bytes = frame::client_frame(first, payload);
        self.io.write_all(&bytes).await.unwrap();
    }

    async fn send(&mut self, message: serde_json::Value) {
        self.send_frame(0x81, message.to_string().as_bytes()).await;
    }

    /// The next frame (opcode, payload); `None` once the server has closed the connection.
    async fn next(&mut self) -> Option<(u8, Vec<u8>)> {
        loop {
            if let Some(frame) = self.frames.pop_front() {
                return Some(frame);
            }
            let mut chunk = [0u8; 4096];
            let n = self.io.read(&mut chunk).await.ok()?;
            if n == 0 {
                return None;
            }
            self.buf.extend_from_slice(&chunk[..n]);
            let (frames, rest) = frame::server_frames(&self.buf);
            self.buf.drain(..self.buf.len() - rest);
            self.frames.extend(frames);
        }
    }

    /// The next text message of `kind`, skipping others.
    async fn next_of(&mut self, kind: &str) -> serde_json::Value {
        loop {
            let (opcode, payload) = self.next().await.expect("a message");
            if opcode == frame::OP_TEXT {
                let value = parse(std::str::from_utf8(&payload).unwrap());
                if value["type"] == kind {
                    return value;
                }
            }
        }
    }

    /// Reads to the end: the close frame's code and reason, and the text messages before it.
    async fn until_closed(&mut self) -> (Vec<String>, Option<(u16, String)>) {
        let mut texts = Vec::new();
        let mut close = None;
        while let Some((opcode, payload)) = self.next().await {
            match opcode {
                frame::OP_TEXT => texts.push(String::from_utf8(payload).unwrap()),
                frame::OP_CLOSE => {
                    let code = u16::from_be_bytes([payload[0], payload[1]]);
                    close = Some((code, String::from_utf8(payload[2..].to_vec()).unwrap()));
                }
                _ => {}
            }
        }
        (texts, close)
    }
}

#[test]
fn the_handshake_answers_the_key_as_rfc_6455_does() {
    assert_eq!(
        derive_accept(b"dGhlIHNhbXBsZSBub25jZQ=="),
        "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
    );
}

#[tokio::test]
async fn the_channel_answers_pings_skips_long_messages_and_closes_when_asked() {
    let hub = Arc::new(hub());
    let (mut client, task) = TestClient::start(&hub, 64 * 1024);
    client
        .send(json!({"op": "subscribe", "channel": "ticker", "symbol": "btcusdt"}))
        .await;
    assert_eq!(client.next_of("subscribed").await["symbol"], "btcusdt");
    assert_eq!(client.next_of("ticker").await["data"]["close"], "2");

    client.send_frame(0x89, b"are you there").await;
    assert_eq!(
        client.next().await,
        Some((frame::OP_PONG, b"are you there".to_vec()))
    );

    // Longer than the limit, and in fragments: skipped, answered, and the connection goes on.
    let long = "x".repeat(3 * MAX_CLIENT_MESSAGE);
    client
        .send_frame(0x01, &long.as_bytes()[..MAX_CLIENT_MESSAGE])
        .await;
    client
        .send_frame(0x80, &long.as_bytes()[MAX_CLIENT_MESSAGE..])
        .await;
    let error = client.next_of("error").await;
    assert_eq!(error["code"], 400);
    assert_eq!(error["msg"], translate(Lang::En, Msg::BadMessage, &[]));

    // A published message arrives as the very frame the hub built.
    let mut events = hub.subscribe();
    hub.publish_ticker("btcusdt", ticker_at(7));
    hub.publish_ticker("ethusdt", ticker_at(7));
    let published = events.recv().await.unwrap();
    let (opcode, payload) = client.next().await.unwrap();
    assert_eq!(opcode, frame::OP_TEXT);
    assert_eq!(payload, published[0].text().as_bytes());

    client.send(json!({"op": "ping", "ts": 9})).await;
    assert_eq!(client.next_of("pong").await["ts"], 9);

    let mut close = 1000u16.to_be_bytes().to_vec();
    close.extend_from_slice(b"bye");
    client.send_frame(0x88, &close).await;
    let (texts, closed) = client.until_closed().await;
    assert!(texts.is_empty(), "{texts:?}");
    assert_eq!(closed, Some((1000, String::new())));
    task.await.unwrap();
}

#[tokio::test]
async fn a_client_breaking_the_protocol_is_closed_with_the_code() {
    let hub = Arc::new(hub());
    let (mut client, task) = TestClient::start(&hub, 64 * 1024);
    // Not masked.
    client
        .io
        .write_all(&[0x81, 0x02, b'h', b'i'])
        .await
        .unwrap();
    let (_, closed) = client.until_closed().await;
    assert_eq!(closed.map(|(code, _)| code), Some(frame::CLOSE_PROTOCOL));
    task.await.unwrap();
}

#[tokio::test]
async fn a_client_that_stops_reading_is_closed_as_too_slow() {
    let hub = Arc::new(hub());
    let (mut client, task) = TestClient::start(&hub, 4096);
    client
        .send(json!({"op": "subscribe", "channel": "ticker", "symbol": "btcusdt"}))
        .await;
    client.next_of("ticker").await;
    // Far more than the connection holds, and the client reads none of it.
    for close in 0..200 {
        hub.publish_ticker("btcusdt", ticker_at(close + 10));
        tokio::task::yield_now().await;
    }
    tokio::time::sleep(TEST_LIMITS.send_timeout + Duration::from_millis(100)).await;
    let (texts, closed) = client.until_closed().await;
    assert!(texts.len() < 200, "it was cut short");
    assert!(texts.iter().all(|text| parse(text)["type"] == "ticker"));
    assert_eq!(
        closed,
        Some((frame::CLOSE_POLICY, translate(Lang::En, Msg::TooSlow, &[])))
    );
    task.await.unwrap();
}

#[tokio::test]
async fn a_silent_client_gets_heartbeats_then_is_reaped() {
    let hub = Arc::new(hub());
    let (mut client, task) = TestClient::start(&hub, 64 * 1024);
    let started = Instant::now();
    let (texts, closed) = client.until_closed().await;
    let beats = texts
        .iter()
        .filter(|text| parse(text)["type"] == "HEARTBEAT")
        .count();
    assert_eq!(beats, texts.len());
    // A heartbeat every period while the limit has not passed (timers may fire late).
    assert!((4..=6).contains(&beats), "{beats}");
    assert_eq!(closed, Some((frame::CLOSE_POLICY, "idle".to_owned())));
    assert!(started.elapsed() > TEST_LIMITS.idle_limit);
    task.await.unwrap();
}

// Paused time: the timers fire in their order however busy the machine is.
#[tokio::test(start_paused = true)]
async fn while_messages_flow_heartbeats_ride_on_them_and_a_silent_client_is_still_reaped() {
    let hub = Arc::new(hub());
    let (mut client, task, writes) = TestClient::start_recording(&hub, 64 * 1024);
    client
        .send(json!({"op": "subscribe", "channel": "ticker", "symbol": "btcusdt"}))
        .await;
    // A ticker every eighth of the heartbeat period, until the connection ends.
    let publisher = tokio::spawn({
        let hub = hub.clone();
        async move {
            let mut every = tokio::time::interval(TEST_LIMITS.heartbeat_every / 8);
            for close in 10.. {
                every.tick().await;
                hub.publish_ticker("btcusdt", ticker_at(close));
            }
        }
    });
    let (texts, closed) = client.until_closed().await;
    publisher.abort();
    let kinds: Vec<String> = texts
        .iter()
        .map(|text| parse(text)["type"].as_str().unwrap_or_default().to_owned())
        .collect();
    let beats: Vec<usize> = (0..kinds.len())
        .filter(|at| kinds[*at] == "HEARTBEAT")
        .collect();
    // One every three quarters of a period or more while the idle limit had not passed ...
    assert!((4..=9).contains(&beats.len()), "{kinds:?}");
    // ... each written with a ticker, not on a wake-up and a write of its own.
    let contains = |write: &[u8], text: &str| {
        write
            .windows(text.len())
            .any(|window| window == text.as_bytes())
    };
    let with_beat: Vec<Vec<u8>> = writes
        .lock()
        .unwrap()
        .iter()
        .filter(|write| contains(write, "HEARTBEAT"))
        .cloned()
        .collect();
    assert_eq!(with_beat.len(), beats.len());
    assert!(
        with_beat
            .iter()
            .all(|write| contains(write, r#""type":"ticker""#)),
        "a heartbeat written alone"
    );
    // The client said nothing after subscribing: closed as idle all the same.
    assert_eq!(closed, Some((frame::CLOSE_POLICY, "idle".to_owned())));
    task.await.unwrap();
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
