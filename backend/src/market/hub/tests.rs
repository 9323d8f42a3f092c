//! Tests of the hub module.

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
    let batch = receiver.recv().await.unwrap();
    assert_eq!(batch.len(), 1);
    assert_eq!(&*batch[0].symbol, "btcusdt");
    assert!(batch[0].text().contains("\"close\":\"101.5\""));
}

#[test]
fn topics_number_every_channel_and_pair() {
    let hub = MarketHub::new();
    let btc = hub.pair_id("btcusdt");
    let eth = hub.pair_id("ethusdt");
    assert_ne!(btc, eth);
    assert_eq!(hub.pair_id("btcusdt"), btc);
    assert_eq!(hub.pair_id("*"), Topic::EVERY_PAIR);
    let mut seen = std::collections::HashSet::new();
    for channel in ["ticker", "depth", "trade", "detail", "simpleData"]
        .into_iter()
        .chain(Interval::ALL.iter().map(|i| kline_channel(*i)))
    {
        let topic = hub.topic(channel, "btcusdt").unwrap();
        assert_eq!(topic.pair_id(), btc);
        assert_eq!(topic.is_depth(), channel == "depth");
        assert!(seen.insert(topic), "{channel}");
        assert_eq!(topic.every_pair(), hub.topic(channel, "*").unwrap());
    }
    assert_eq!(hub.topic("nope", "btcusdt"), None);
    assert_eq!(hub.topic("kline", "btcusdt"), None);
}

#[tokio::test]
async fn candles_have_a_broadcast_of_their_own() {
    let hub = MarketHub::new();
    let mut events = hub.subscribe();
    let mut klines = hub.subscribe_klines();
    let candle = Candle {
        open_time: 0,
        open: dec!(1),
        high: dec!(1),
        low: dec!(1),
        close: dec!(1),
        base_volume: dec!(1),
        quote_volume: dec!(1),
        trade_count: 1,
    };
    hub.publish_klines(
        "btcusdt",
        vec![(Interval::OneHour, candle)],
        &[(Interval::OneMinute, candle)],
    );
    hub.publish_ticker("btcusdt", ticker());
    let candles = klines.recv().await.unwrap();
    assert_eq!(
        (candles[0].channel, candles[0].text().contains("\"KLINE\"")),
        ("kline:1m", true)
    );
    assert_eq!(candles[1].channel, "kline:1h");
    assert_eq!(candles.len(), 2);
    assert!(klines.try_recv().is_err());
    assert_eq!(events.recv().await.unwrap()[0].channel, "ticker");
    assert!(events.try_recv().is_err());
}

#[tokio::test]
async fn a_publication_is_one_batch_of_framed_messages_in_order() {
    let hub = MarketHub::new();
    let mut events = hub.subscribe();
    let mut klines = hub.subscribe_klines();
    let mut publication = hub.publication();
    publication.ticker("btcusdt", ticker());
    publication.trades(
        "btcusdt",
        &[Trade {
            id: 1,
            price: dec!(101.5),
            quantity: dec!(0.1),
            side: Side::Buy,
            ts: 5,
        }],
    );
    publication.trades("ethusdt", &[]);
    publication.ticker("ethusdt", ticker());
    publication.simple_data(7);
    // Recorded at once, broadcast on send.
    assert_eq!(hub.ticker("ethusdt"), Some(ticker()));
    assert_eq!(hub.recent_trades("btcusdt", 5).len(), 1);
    assert!(events.try_recv().is_err());
    publication.send();
    let batch = events.recv().await.unwrap();
    let channels: Vec<_> = batch.iter().map(|e| (e.channel, &*e.symbol)).collect();
    assert_eq!(
        channels,
        [
            ("ticker", "btcusdt"),
            ("trade", "btcusdt"),
            ("ticker", "ethusdt"),
            ("simpleData", "*")
        ]
    );
    for event in batch.iter() {
        let frame = event.frame();
        assert_eq!(frame[0], 0x81, "a final, unmasked text frame");
        assert!(frame.ends_with(event.text().as_bytes()));
        let value: serde_json::Value = serde_json::from_str(event.text()).unwrap();
        assert!(value["type"].is_string());
    }
    assert!(events.try_recv().is_err());
    // Nothing for the candles: no batch.
    assert!(klines.try_recv().is_err());
    // Dropped unsent: nothing.
    let mut publication = hub.publication();
    publication.ticker("btcusdt", ticker());
    drop(publication);
    assert!(events.try_recv().is_err());
}

#[tokio::test]
async fn books_and_trades_published_one_by_one_go_out_together() {
    let hub = MarketHub::new();
    let mut events = hub.subscribe();
    let empty = |seq| BookSnapshot {
        seq,
        bids: Vec::new(),
        asks: Vec::new(),
        ts: 1,
    };
    let started = tokio::time::Instant::now();
    for (symbol, seq) in [("btcusdt", 1), ("ethusdt", 1), ("btcusdt", 2)] {
        let diff = empty(seq - 1).diff_to(&empty(seq));
        hub.publish_book(symbol, empty(seq), &diff);
    }
    // Recorded at once, broadcast together within the window.
    assert_eq!(hub.book("btcusdt").unwrap().seq, 2);
    assert!(events.try_recv().is_err());
    let batch = events.recv().await.unwrap();
    assert!(started.elapsed() >= GATHER_WINDOW);
    let seqs: Vec<_> = batch.iter().map(|e| (&*e.symbol, e.seq)).collect();
    assert_eq!(seqs, [("btcusdt", 1), ("ethusdt", 1), ("btcusdt", 2)]);

    // A batch sent now takes what waits first, in order.
    let diff = empty(2).diff_to(&empty(3));
    hub.publish_book("btcusdt", empty(3), &diff);
    hub.publish_ticker("btcusdt", ticker());
    let batch = events.recv().await.unwrap();
    let channels: Vec<_> = batch.iter().map(|e| e.channel).collect();
    assert_eq!(channels, ["depth", "ticker"]);
    // The timer then finds nothing to send.
    tokio::time::sleep(GATHER_WINDOW * 2).await;
    assert!(events.try_recv().is_err());
}

#[tokio::test]
async fn a_tick_goes_out_as_soon_as_the_books_it_waits_for_have_joined() {
    let hub = MarketHub::new();
    let mut events = hub.subscribe();
    let empty = |seq| BookSnapshot {
        seq,
        bids: Vec::new(),
        asks: Vec::new(),
        ts: 1,
    };
    let book =
        |symbol: &str, seq| hub.publish_book(symbol, empty(seq), &empty(0).diff_to(&empty(seq)));
    // One of the two books comes before the tick, one after.
    book("btcusdt", 1);
    let mut publication = hub.publication();
    publication.ticker("btcusdt", ticker());
    publication.send_with_books(2);
    assert!(events.try_recv().is_err(), "one book is still missing");
    book("ethusdt", 1);
    // Out at once, well before the window.
    let batch = events.try_recv().expect("sent when the last book joined");
    let channels: Vec<_> = batch.iter().map(|e| (e.channel, &*e.symbol)).collect();
    assert_eq!(
        channels,
        [
            ("depth", "btcusdt"),
            ("ticker", "btcusdt"),
            ("depth", "ethusdt")
        ]
    );
    tokio::time::sleep(GATHER_WINDOW * 2).await;
    assert!(events.try_recv().is_err());

    // Nothing to wait for: at once.
    let mut publication = hub.publication();
    publication.ticker("btcusdt", ticker());
    publication.send_with_books(0);
    assert_eq!(events.try_recv().unwrap().len(), 1);

    // A book that does not come holds the tick for the window, no longer.
    let started = tokio::time::Instant::now();
    let mut publication = hub.publication();
    publication.ticker("btcusdt", ticker());
    publication.send_with_books(1);
    assert!(events.try_recv().is_err());
    assert_eq!(events.recv().await.unwrap().len(), 1);
    assert!(started.elapsed() >= GATHER_WINDOW);
}

#[test]
fn a_batch_keeps_one_write_per_kind_of_client_until_the_next_batch() {
    let hub = MarketHub::new();
    let mut events = hub.subscribe();
    hub.publish_ticker("btcusdt", ticker());
    let batch = events.try_recv().unwrap();
    let topics = [hub.topic("ticker", "btcusdt").unwrap()];
    let depth = [(hub.topic("depth", "btcusdt").unwrap(), 3)];
    assert!(batch.written(&topics, &depth).is_none());
    let bytes: Arc<[u8]> = Arc::from(batch[0].frame());
    let after: Arc<HeldSeqs> = Arc::from(&depth[..]);
    batch.keep_written(&topics, &depth, after.clone(), bytes.clone());
    let (shared, held) = batch.written(&topics, &depth).unwrap();
    assert!(Arc::ptr_eq(&shared, &bytes));
    assert_eq!(held, after);
    // Another kind of client (other depth held, other subscriptions) builds its own.
    assert!(batch.written(&topics, &[]).is_none());
    assert!(batch.written(&[], &depth).is_none());
    // Once a newer batch is out, the writes are dropped.
    hub.publish_ticker("btcusdt", ticker());
    assert!(batch.written(&topics, &depth).is_none());
}

/// A book at `seq` whose levels move with it: one bid and one ask a `seq` apart from 100.
fn moving_book(seq: u64) -> BookSnapshot {
    let level = |price: i64| crate::market::book::Level {
        price: rust_decimal::Decimal::from(price),
        quantity: rust_decimal::Decimal::from(seq),
    };
    BookSnapshot {
        seq,
        bids: vec![level(100 - seq as i64)],
        asks: vec![level(101 + seq as i64), level(200)],
        ts: seq as i64,
    }
}

/// The operations of a message one instance sent the others.
fn ops_of(payload: &[u8]) -> Vec<String> {
    let shared: serde_json::Value = serde_json::from_slice(payload).unwrap();
    shared["ops"]
        .as_array()
        .unwrap()
        .iter()
        .map(|op| op["op"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn another_instance_follows_a_book_by_its_diffs_and_asks_for_it_whole_after_a_gap() {
    let (producer_fanout, mut sent) = crate::cluster::Fanout::capturing();
    let producer = MarketHub::new();
    producer.share_through(producer_fanout);
    let (receiver_fanout, mut asked) = crate::cluster::Fanout::capturing();
    let receiver = MarketHub::new();
    receiver.share_through(receiver_fanout);
    // Each asks the others for their books as it starts.
    assert_eq!(sent.try_recv().unwrap().0, "kestrel.live.market.all.want");
    assert_eq!(asked.try_recv().unwrap().0, "kestrel.live.market.all.want");
    let publish = |sent: &mut tokio::sync::mpsc::UnboundedReceiver<(String, Vec<u8>)>, seq: u64| {
        let (before, after) = (moving_book(seq - 1), moving_book(seq));
        producer.publish_book("btcusdt", after.clone(), &before.diff_to(&after));
        let (subject, payload) = sent.try_recv().unwrap();
        assert_eq!(subject, "kestrel.live.market.btcusdt.depth");
        payload
    };

    // A new producer's first diff goes with the book whole; the next ones alone.
    let first = publish(&mut sent, 1);
    assert_eq!(ops_of(&first), ["book", "snapshot"]);
    receiver.replay(&first).unwrap();
    assert_eq!(receiver.book("btcusdt").as_deref(), Some(&moving_book(1)));
    let second = publish(&mut sent, 2);
    assert_eq!(ops_of(&second), ["book"]);
    receiver.replay(&second).unwrap();
    assert_eq!(receiver.book("btcusdt").as_deref(), Some(&moving_book(2)));
    assert!(asked.try_recv().is_err(), "in step: nothing asked");

    // Diff 3 is lost: diff 4 does not follow, so the copy goes and the book is asked for.
    let _lost = publish(&mut sent, 3);
    receiver.replay(&publish(&mut sent, 4)).unwrap();
    assert!(receiver.book("btcusdt").is_none(), "no wrong book served");
    let (subject, want) = asked.try_recv().unwrap();
    assert_eq!(subject, "kestrel.live.market.btcusdt.want");
    producer.replay(&want).unwrap();
    let (subject, whole) = sent.try_recv().unwrap();
    assert_eq!(subject, "kestrel.live.market.btcusdt.depth");
    assert_eq!(ops_of(&whole), ["snapshot"]);
    receiver.replay(&whole).unwrap();
    assert_eq!(receiver.book("btcusdt").as_deref(), Some(&moving_book(4)));
    receiver.replay(&publish(&mut sent, 5)).unwrap();
    assert_eq!(receiver.book("btcusdt").as_deref(), Some(&moving_book(5)));

    // Only the producer answers: the receiver holds a copy, not its own book.
    receiver.replay(&want).unwrap();
    assert!(asked.try_recv().is_err());
}
