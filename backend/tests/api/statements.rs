//! What a user reads about their futures money over HTTP (issue 22, item 12): the bills of a
//! futures trade show a running balance per row, one row per fee (the security fund's share is the
//! house's business), structured details to word in the reader's language, and a `futures` kind
//! filter; the position history lists closed positions with entry, exit, size, PnL and fees, paged.

use std::sync::atomic::{AtomicI64, Ordering};

use backend::funds::ledger::{self, AccountRef, Bucket, House, NewEntry, Posting};
use backend::market::book::{BookSnapshot, Level};
use backend::market::hub::Detail;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::helpers::{Member, TestApp, spawn_app_with};

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
        .parse()
        .unwrap()
}

async fn futures_app() -> TestApp {
    spawn_app_with(|config| {
        config.simulator.enabled = false;
        config.futures.mark_poll_ms = 20;
        config.futures.cross_refresh_ms = 60_000;
    })
    .await
}

/// `amount` USDT into the member's trading wallet, as a deposit and a transfer do.
async fn fund(app: &TestApp, member: &Member, amount: Decimal) {
    let entry = NewEntry {
        kind: "deposit".into(),
        reference: "test".into(),
        user_id: Some(member.user_id),
        actor_id: None,
        memo: String::new(),
        postings: Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            AccountRef::User {
                user_id: member.user_id,
                bucket: Bucket::Trading,
            },
            "usdt",
            amount,
        )
        .to_vec(),
    };
    ledger::post(app.db(), &entry).await.expect("credited");
}

static CLOCK: AtomicI64 = AtomicI64::new(0);

/// Publishes `mark` as the BTC mark, index and a two-level book around it, and lets the engine act.
async fn set_price(app: &TestApp, mark: Decimal) {
    let ts = chrono::Utc::now().timestamp_millis() + CLOCK.fetch_add(1, Ordering::SeqCst);
    let hub = &app.state().hub;
    let level = |price: Decimal, quantity: Decimal| Level { price, quantity };
    let book = BookSnapshot {
        seq: ts as u64,
        bids: vec![level(mark, dec!(0.5)), level(mark - dec!(10), dec!(100))],
        asks: vec![level(mark, dec!(0.5)), level(mark + dec!(10), dec!(100))],
        ts,
    };
    let empty = BookSnapshot {
        seq: ts as u64 - 1,
        bids: vec![],
        asks: vec![],
        ts,
    };
    let diff = empty.diff_to(&book);
    hub.publish_book("btcusdt", book, &diff);
    hub.publish_detail(
        "btcusdt",
        Detail {
            last_price: mark,
            index_price: mark,
            mark_price: mark,
            best_bid: Some(mark),
            best_ask: Some(mark),
            ts,
        },
    );
    app.state()
        .futures
        .evaluate("btcusdt")
        .await
        .expect("evaluated");
}

async fn market(app: &TestApp, member: &Member, side: &str) {
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/contract/order/submit",
            Some(
                json!({"symbol": "btcusdt", "side": side, "orderType": "market",
                "quantity": "0.1", "leverage": "10", "marginMode": "isolated"}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

async fn bills(app: &TestApp, member: &Member, query: Value) -> Value {
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/assets/getMyBill",
            Some(query),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

/// Alice opens 0.1 BTC long at 50,000 and closes it at 51,000 (isolated, 10×).
async fn round_trip(app: &TestApp) -> Member {
    let alice = app.member("statements@example.com").await;
    fund(app, &alice, dec!(5000)).await;
    set_price(app, dec!(50000)).await;
    market(app, &alice, "buy").await;
    set_price(app, dec!(51000)).await;
    market(app, &alice, "sell").await;
    alice
}

#[tokio::test]
async fn futures_bills_read_as_a_statement() {
    let app = futures_app().await;
    let alice = round_trip(&app).await;

    let all = bills(&app, &alice, json!({"pageSize": 100})).await;
    let mut rows = all["records"].as_array().unwrap().clone();
    rows.reverse();
    // A running balance: on each bucket, every row's balance is the one before plus its amount.
    for bucket in ["trading", "futures_margin"] {
        let mut running = Decimal::ZERO;
        for row in rows.iter().filter(|r| r["bucket"] == bucket) {
            running += decimal(&row["amount"]);
            assert_eq!(decimal(&row["balance"]), running, "{bucket}: {row}");
        }
    }

    // Each fee is one row of the whole fee (not its 90 % and 10 % shares).
    let (status, orders) = app
        .post_as(
            &alice.token,
            "/api/contract/order/list?scope=history&symbol=btcusdt",
            None,
        )
        .await;
    assert_eq!(status, 200, "{orders}");
    let orders = orders["data"]["records"].as_array().unwrap().clone();
    assert_eq!(orders.len(), 2);
    for order in &orders {
        let fee = decimal(&order["serviceCharge"]);
        assert!(fee > Decimal::ZERO);
        let fee_rows = rows
            .iter()
            .filter(|r| r["kind"] == "futures_fill" && decimal(&r["amount"]) == -fee)
            .count();
        assert_eq!(fee_rows, 1, "fee {fee} as one row: {rows:?}");
    }

    // Details as data: the fill's side, quantity and price, not an English sentence.
    let fills: Vec<&Value> = rows
        .iter()
        .filter(|r| r["kind"] == "futures_fill")
        .collect();
    let opening = &fills[0]["detail"];
    assert_eq!(opening["symbol"], "btcusdt", "{opening}");
    assert_eq!(opening["side"], "buy");
    assert_eq!(decimal(&opening["quantity"]), dec!(0.1));
    assert_eq!(decimal(&opening["price"]), dec!(50000));
    assert_eq!(fills.last().unwrap()["detail"]["side"], "sell");
    let deposit = rows.iter().find(|r| r["kind"] == "deposit").unwrap();
    assert!(deposit.get("detail").is_none(), "{deposit}");

    // The futures filter keeps every futures kind and nothing else.
    let futures = bills(&app, &alice, json!({"kind": "futures", "pageSize": 100})).await;
    let kinds: Vec<&str> = futures["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert_eq!(futures["total"].as_u64().unwrap() as usize, rows.len() - 1);
    assert!(kinds.iter().all(|k| k.starts_with("futures_")), "{kinds:?}");
    app.stop().await;
}

#[tokio::test]
async fn the_position_history_lists_closed_positions_paged() {
    let app = futures_app().await;
    let alice = round_trip(&app).await;
    let bob = app.member("other-statements@example.com").await;

    let history = |member: &Member, query: &'static str| {
        let token = member.token.clone();
        let app = &app;
        async move {
            let (status, body) = app
                .post_as(
                    &token,
                    &format!("/api/contract/position/history{query}"),
                    None,
                )
                .await;
            assert_eq!(status, 200, "{body}");
            body["data"].clone()
        }
    };
    let page = history(&alice, "").await;
    assert_eq!(page["total"], 1, "{page}");
    assert_eq!(page["page"], 1);
    assert_eq!(page["pageSize"], 20);
    let closed = &page["records"][0];
    assert_eq!(closed["symbol"], "btcusdt");
    assert_eq!(closed["side"], "long");
    assert_eq!(closed["status"], "closed");
    assert_eq!(decimal(&closed["entryPrice"]), dec!(50000));
    assert_eq!(decimal(&closed["exitPrice"]), dec!(51000));
    assert_eq!(decimal(&closed["size"]), dec!(0.1));
    assert_eq!(decimal(&closed["realisedPnl"]), dec!(100));
    // Taker fees of both fills: 0.1 × 50,000 and 0.1 × 51,000 at the taker rate.
    let (_, orders) = app
        .post_as(&alice.token, "/api/contract/order/list?scope=history", None)
        .await;
    let fees: Decimal = orders["data"]["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|o| decimal(&o["serviceCharge"]))
        .sum();
    assert_eq!(decimal(&closed["fees"]), fees);
    assert!(closed["closedAt"].as_i64().unwrap() >= closed["openedAt"].as_i64().unwrap());

    assert_eq!(history(&alice, "?page=2").await["records"], json!([]));
    assert_eq!(history(&alice, "?symbol=ethusdt").await["total"], 0);
    // Each user sees only their own.
    assert_eq!(history(&bob, "").await["total"], 0);
    let (status, _) = app.post("/api/contract/position/history", None, &[]).await;
    assert_eq!(status, 401);
    app.stop().await;
}
