//! The market channel and the stored tick series.

use backend::entity::market_tick;
use sea_orm::{EntityTrait, PaginatorTrait, QueryOrder};
use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_in};

#[tokio::test]
async fn a_ticker_subscription_gets_a_snapshot_then_live_updates() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "ticker", "symbol": "btcusdt"}))
        .await;
    let ack = channel.next().await;
    assert_eq!(
        ack,
        json!({"type": "subscribed", "channel": "ticker", "symbol": "btcusdt"})
    );
    let snapshot = channel.next_of("ticker").await;
    assert_eq!(snapshot["symbol"], "btcusdt");
    let first_ts = snapshot["data"]["ts"].as_i64().unwrap();
    for field in [
        "close",
        "open",
        "high",
        "low",
        "change",
        "volume",
        "quoteVolume",
    ] {
        assert!(
            snapshot["data"][field].is_string(),
            "{field} is not a decimal string"
        );
    }
    // The simulator ticks every 50 ms in tests: a newer ticker follows.
    loop {
        let update = channel.next_of("ticker").await;
        assert_eq!(
            update["symbol"], "btcusdt",
            "only the subscribed pair arrives"
        );
        if update["data"]["ts"].as_i64().unwrap() > first_ts {
            break;
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn ping_unsubscribe_and_errors() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("?lang=de").await;
    channel.send(json!({"op": "ping", "ts": 7})).await;
    assert_eq!(channel.next().await, json!({"type": "pong", "ts": 7}));
    channel
        .send(json!({"op": "subscribe", "channel": "candles", "symbol": "*"}))
        .await;
    let error = channel.next().await;
    assert_eq!(error["type"], "error");
    assert_eq!(
        error["msg"],
        backend::i18n::translate(
            backend::i18n::Lang::De,
            backend::i18n::Msg::UnknownChannel,
            &[("channel", "candles")]
        )
    );
    channel
        .send(json!({"op": "subscribe", "channel": "ticker", "symbol": "*"}))
        .await;
    channel.next_of("subscribed").await;
    channel
        .send(json!({"op": "unsubscribe", "channel": "ticker", "symbol": "*"}))
        .await;
    channel.next_of("unsubscribed").await;
    channel.send(json!({"op": "ping", "ts": 8})).await;
    // After unsubscribing, only the answer to the ping arrives (tickers already queued are skipped).
    assert_eq!(channel.next_of("pong").await["ts"], 8);
    app.stop().await;
}

#[tokio::test]
async fn every_tick_is_stored_and_the_series_continues_after_a_restart() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "ticker", "symbol": "ethusdt"}))
        .await;
    for _ in 0..5 {
        channel.next_of("ticker").await;
    }
    drop(channel);
    let (dir, database) = app.stop_keeping_data().await;

    let app = spawn_app_in(dir, database).await;
    let stored = market_tick::Entity::find().count(app.db()).await.unwrap();
    assert!(stored >= 4 * 12, "only {stored} ticks stored");
    let (_, body) = app
        .post(
            "/api/common/getCoinList",
            Some(r#"{"keyword":"eth","market":"spot"}"#),
            &[],
        )
        .await;
    let amount = body["data"]["currencyList"][0]["amount"]
        .as_str()
        .unwrap()
        .to_owned();
    // The restarted simulator starts from the last stored tick of the pair.
    let ticks = market_tick::Entity::find()
        .order_by_desc(market_tick::Column::Id)
        .all(app.db())
        .await
        .unwrap();
    let last_eth = ticks.iter().find(|t| t.symbol == "ethusdt").unwrap();
    let ordered: Vec<i64> = ticks
        .iter()
        .filter(|t| t.symbol == "ethusdt")
        .map(|t| t.seq)
        .collect();
    assert!(
        ordered.windows(2).all(|w| w[0] == w[1] + 1),
        "seq has gaps or repeats"
    );
    // Either no new tick yet (same price) or the series moved on from it.
    assert!(
        amount == last_eth.price || last_eth.seq > ordered[ordered.len() - 1],
        "restarted at {amount}, last stored {}",
        last_eth.price
    );
    app.stop().await;
}
