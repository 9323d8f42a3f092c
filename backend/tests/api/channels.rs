//! The market channel's `kline` (live candle per interval), `DETAIL` (mark, index, top of book) and
//! `simpleData` (every pair's price in one message) subscriptions, and its refusals.

use rust_decimal::Decimal;
use serde_json::{Value, json};

use crate::helpers::spawn_app;

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .expect("a decimal string")
        .parse()
        .expect("a decimal")
}

#[tokio::test]
async fn kline_subscriptions_get_the_live_candle_of_their_interval() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "kline", "symbol": "btcusdt", "interval": "1m"}))
        .await;
    let ack = channel.next_of("subscribed").await;
    assert_eq!(ack["interval"], "1m");
    let first = channel.next_of("kline").await;
    assert_eq!(
        (first["symbol"].as_str(), first["interval"].as_str()),
        (Some("btcusdt"), Some("1m"))
    );
    let open_time = first["data"]["openTime"].as_i64().unwrap();
    assert_eq!(open_time % 60_000, 0);
    let candle = &first["data"];
    assert!(decimal(&candle["low"]) <= decimal(&candle["close"]));
    assert!(decimal(&candle["close"]) <= decimal(&candle["high"]));
    // Live updates of the same minute (or the next) follow; no other interval arrives.
    for _ in 0..3 {
        let update = channel.next_of("kline").await;
        assert_eq!(update["interval"], "1m");
        assert!(update["data"]["openTime"].as_i64().unwrap() >= open_time);
    }

    channel
        .send(json!({"op": "subscribe", "channel": "kline", "symbol": "btcusdt", "interval": "1month"}))
        .await;
    let month = loop {
        let message = channel.next_of("kline").await;
        if message["interval"] == "1M" {
            break message;
        }
    };
    let open = month["data"]["openTime"].as_i64().unwrap();
    let start = chrono::DateTime::from_timestamp_millis(open).unwrap();
    assert_eq!(
        start.format("%d %H:%M").to_string(),
        "01 00:00",
        "a month candle opens on the 1st, UTC"
    );
    // A day of backfilled volume is part of this month (unless the month began within the day).
    assert!(decimal(&month["data"]["baseVolume"]) > Decimal::ZERO);
    app.stop().await;
}

#[tokio::test]
async fn detail_carries_mark_index_and_the_top_of_the_book() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "detail", "symbol": "ethusdt"}))
        .await;
    channel.next_of("subscribed").await;
    for _ in 0..2 {
        let detail = channel.next_of("DETAIL").await;
        let data = &detail["data"];
        let index = decimal(&data["indexPrice"]);
        let mark = decimal(&data["markPrice"]);
        assert!((mark - index).abs() <= index * Decimal::new(5, 3), "{data}");
        assert!(decimal(&data["bestBid"]) < decimal(&data["bestAsk"]));
        assert_eq!(data["lastPrice"], data["indexPrice"]);
    }
    app.stop().await;
}

#[tokio::test]
async fn simple_data_lists_every_pair_in_one_message() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "simpleData"}))
        .await;
    let ack = channel.next_of("subscribed").await;
    assert_eq!(ack["symbol"], "*");
    for _ in 0..2 {
        let message = channel.next_of("simpleData").await;
        let rows = message["data"].as_array().unwrap();
        assert_eq!(rows.len(), 12, "{message}");
        assert!(rows.iter().any(|row| row["symbol"] == "btcusdt"));
        assert!(
            rows.iter()
                .all(|row| decimal(&row["close"]) > Decimal::ZERO)
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn unknown_intervals_and_oversized_messages_are_refused_without_harm() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("?lang=fr").await;
    channel
        .send(json!({"op": "subscribe", "channel": "kline", "symbol": "btcusdt", "interval": "7m"}))
        .await;
    let error = channel.next_of("error").await;
    assert!(error["msg"].as_str().unwrap().contains("7m"), "{error}");
    channel
        .send(json!({"op": "subscribe", "channel": "kline", "symbol": "btcusdt"}))
        .await;
    channel.next_of("error").await;
    channel
        .send(json!({"op": "subscribe", "channel": "ticker", "symbol": "x".repeat(10_000)}))
        .await;
    let error = channel.next_of("error").await;
    assert_eq!(error["code"], 400);
    // The connection still works.
    channel.send(json!({"op": "ping", "ts": 1})).await;
    assert_eq!(channel.next_of("pong").await["ts"], 1);
    app.stop().await;
}
