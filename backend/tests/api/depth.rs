//! The order book and trades: `POST /api/market/depth`, `POST /api/market/trades`, and the market
//! channel's `depth` (snapshot, then sequence-numbered diffs; a client that misses one resyncs) and
//! `trade` subscriptions.

use std::collections::BTreeMap;

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

/// A client-side book: price → quantity per side.
#[derive(Default, Debug, PartialEq)]
struct Book {
    seq: u64,
    bids: BTreeMap<Decimal, Decimal>,
    asks: BTreeMap<Decimal, Decimal>,
}

impl Book {
    fn from_snapshot(data: &Value) -> Self {
        let side = |levels: &Value| {
            levels
                .as_array()
                .unwrap()
                .iter()
                .map(|l| (decimal(&l[0]), decimal(&l[1])))
                .collect()
        };
        Book {
            seq: data["seq"].as_u64().unwrap(),
            bids: side(&data["bids"]),
            asks: side(&data["asks"]),
        }
    }

    /// Applies a diff; `false` when it does not follow the book (a diff was missed).
    fn apply(&mut self, data: &Value) -> bool {
        if data["prevSeq"].as_u64().unwrap() != self.seq {
            return false;
        }
        for (side, levels) in [
            (&mut self.bids, &data["bids"]),
            (&mut self.asks, &data["asks"]),
        ] {
            for level in levels.as_array().unwrap() {
                let (price, quantity) = (decimal(&level[0]), decimal(&level[1]));
                if quantity.is_zero() {
                    side.remove(&price);
                } else {
                    side.insert(price, quantity);
                }
            }
        }
        self.seq = data["seq"].as_u64().unwrap();
        true
    }

    fn assert_sane(&self) {
        let best_bid = *self.bids.keys().next_back().expect("bids");
        let best_ask = *self.asks.keys().next().expect("asks");
        assert!(best_bid < best_ask, "crossed book: {best_bid} ≥ {best_ask}");
        assert_eq!(self.bids.len(), 50);
        assert_eq!(self.asks.len(), 50);
    }
}

#[tokio::test]
async fn the_depth_call_returns_both_sides_best_first() {
    let app = spawn_app().await;
    let (status, body) = app
        .post(
            "/api/market/depth",
            Some(r#"{"symbol":"BTCUSDT","limit":5}"#),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["symbol"], "btcusdt");
    assert!(data["seq"].as_u64().unwrap() >= 1);
    let bids: Vec<Decimal> = data["bids"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| decimal(&l[0]))
        .collect();
    let asks: Vec<Decimal> = data["asks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| decimal(&l[0]))
        .collect();
    assert_eq!((bids.len(), asks.len()), (5, 5));
    assert!(bids.windows(2).all(|w| w[0] > w[1]));
    assert!(asks.windows(2).all(|w| w[0] < w[1]));
    assert!(bids[0] < asks[0]);

    let (status, body) = app
        .post("/api/market/depth", Some(r#"{"symbol":"nopeusdt"}"#), &[])
        .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (404, Some("unknown_symbol"))
    );
    let (status, body) = app
        .post(
            "/api/market/depth",
            Some(r#"{"symbol":"btcusdt","limit":0}"#),
            &[],
        )
        .await;
    assert_eq!(
        (status, body["data"]["field"].as_str()),
        (400, Some("limit")),
        "{body}"
    );
    app.stop().await;
}

#[tokio::test]
async fn recent_trades_come_newest_first_with_sides() {
    let app = spawn_app().await;
    // Let a few ticks trade.
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "trade", "symbol": "ethusdt"}))
        .await;
    channel.next_of("subscribed").await;
    loop {
        let message = channel.next_of("TRADE").await;
        if message["snapshot"] == false {
            break;
        }
    }
    let (status, body) = app
        .post(
            "/api/market/trades",
            Some(r#"{"symbol":"ethusdt","limit":10}"#),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let trades = body["data"]["trades"].as_array().unwrap();
    assert!(!trades.is_empty() && trades.len() <= 10);
    let ids: Vec<u64> = trades.iter().map(|t| t["id"].as_u64().unwrap()).collect();
    assert!(ids.windows(2).all(|w| w[0] > w[1]), "{ids:?}");
    for trade in trades {
        assert!(matches!(trade["side"].as_str(), Some("buy" | "sell")));
        assert!(decimal(&trade["price"]) > Decimal::ZERO);
        assert!(decimal(&trade["quantity"]) > Decimal::ZERO);
    }
    app.stop().await;
}

#[tokio::test]
async fn a_trade_subscription_gets_recent_trades_then_live_ones() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "trade", "symbol": "btcusdt"}))
        .await;
    channel.next_of("subscribed").await;
    let snapshot = channel.next_of("TRADE").await;
    assert_eq!(snapshot["snapshot"], true);
    assert_eq!(snapshot["symbol"], "btcusdt");
    let newest_known = snapshot["data"][0]["id"].as_u64().unwrap_or(0);
    let live = loop {
        let message = channel.next_of("TRADE").await;
        if !message["data"].as_array().unwrap().is_empty() {
            break message;
        }
    };
    assert_eq!(live["snapshot"], false);
    let ids: Vec<u64> = live["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t["id"].as_u64().unwrap())
        .collect();
    assert!(
        ids.windows(2).all(|w| w[0] < w[1]),
        "live trades come oldest first: {ids:?}"
    );
    assert!(ids[0] > newest_known);
    app.stop().await;
}

#[tokio::test]
async fn depth_diffs_follow_the_snapshot_and_a_missed_diff_is_resynced() {
    let app = spawn_app().await;
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "depth", "symbol": "solusdt"}))
        .await;
    channel.next_of("subscribed").await;
    let snapshot = channel.next_of("depth").await;
    assert_eq!(snapshot["data"]["kind"], "snapshot");
    let mut book = Book::from_snapshot(&snapshot["data"]);
    book.assert_sane();
    for _ in 0..5 {
        let diff = channel.next_of("depth").await;
        assert_eq!(diff["data"]["kind"], "diff");
        assert!(
            book.apply(&diff["data"]),
            "diff {} follows seq {}",
            diff["data"]["seq"],
            book.seq
        );
        book.assert_sane();
    }
    // Drop one diff on the floor, as a client with a network hiccup would.
    channel.next_of("depth").await;
    let next = channel.next_of("depth").await;
    assert!(!book.apply(&next["data"]), "the gap is detected");
    // Resync: subscribing again sends a fresh snapshot, and diffs continue from it.
    channel
        .send(json!({"op": "subscribe", "channel": "depth", "symbol": "solusdt"}))
        .await;
    let resynced = loop {
        let message = channel.next_of("depth").await;
        if message["data"]["kind"] == "snapshot" {
            break message;
        }
    };
    let mut book = Book::from_snapshot(&resynced["data"]);
    for _ in 0..3 {
        let diff = channel.next_of("depth").await;
        assert!(
            book.apply(&diff["data"]),
            "after a resync the diffs follow again"
        );
    }
    book.assert_sane();
    app.stop().await;
}
