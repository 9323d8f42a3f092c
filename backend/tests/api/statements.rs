//! What a user reads about their money over HTTP (issue 22, item 12): the bills of a futures trade
//! show a running balance per row, one row per fee (the security fund's share is the house's
//! business), structured details to word in the reader's language, and a `futures` kind filter;
//! the bills of deposits, withdrawals (hold, payout, fee, refund), moves, transfers (both sides),
//! conversions and seconds bets carry their details too; the position history lists closed
//! positions with entry, exit, size, PnL and fees, paged.

use std::sync::atomic::{AtomicI64, Ordering};

use backend::funds::ledger::{self, AccountRef, Bucket, House, NewEntry, Posting};
use backend::market::book::{BookSnapshot, Level};
use backend::market::hub::Detail;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::deposits::{claim, usdt_claim};
use crate::helpers::{FUND_PASSWORD, Member, TestApp, set_fund_password, spawn_app_with};
use crate::kyc::{operator, upload_sample};
use crate::withdrawals::{TRON, TX_ID, form, withdraw};

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

/// The `detail` of the member's only bill of `kind` on `bucket` (`None`: any bucket).
fn detail_of<'a>(records: &'a [Value], kind: &str, bucket: Option<&str>) -> &'a Value {
    let found: Vec<&Value> = records
        .iter()
        .filter(|bill| bill["kind"] == kind && bucket.is_none_or(|b| bill["bucket"] == b))
        .collect();
    assert!(!found.is_empty(), "no {kind} bill in {records:?}");
    assert!(
        found
            .iter()
            .all(|bill| bill["detail"] == found[0]["detail"]),
        "{found:?}"
    );
    &found[0]["detail"]
}

/// Every bill of the member (at most 100), newest first.
async fn all_bills(app: &TestApp, member: &Member) -> Vec<Value> {
    let page = bills(app, member, json!({"pageSize": 100})).await;
    page["records"].as_array().unwrap().clone()
}

#[tokio::test]
async fn the_bills_of_every_kind_carry_their_details() {
    let app = spawn_app_with(|config| {
        config.seconds.periods = vec![backend::config::SecondsPeriod {
            seconds: 1,
            payout_rate: dec!(0.85),
            min_stake: dec!(10),
            max_stake: dec!(500),
        }];
    })
    .await;
    let ops = operator(&app, "bills-ops@example.com").await;
    let alice = app.member("bills-alice@example.com").await;
    set_fund_password(&app, &alice).await;
    let bob = app.member("bills-bob@example.com").await;

    // A deposit credited: all Alice's money comes from it.
    let screenshot = upload_sample(&app, &alice, "png").await;
    let (status, body) = claim(&app, &alice.token, None, usdt_claim("150.5", screenshot)).await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();
    let (status, body) = crate::deposits::review(&app, &ops, id, true, None).await;
    assert_eq!(status, 200, "{body}");
    // A withdrawal sent (with its fee) and one refused.
    for (amount, decision) in [
        ("50", json!({"approve": true, "txHash": TX_ID})),
        ("20", json!({"approve": false, "reason": "late"})),
    ] {
        let (status, body) = withdraw(&app, &alice, &form("USDT", "trc20", TRON, amount)).await;
        assert_eq!(status, 200, "{body}");
        let id = body["data"]["id"].as_i64().unwrap();
        let (status, body) = crate::withdrawals::review(&app, &ops, id, decision).await;
        assert_eq!(status, 200, "{body}");
    }
    // A move to trading, a transfer to Bob, a conversion.
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/asset/transferFunds",
            Some(json!({"coin": "usdt", "amount": "5", "from": "funding", "to": "trading"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let send = json!({"coin": "usdt", "amount": "20", "toAccount": bob.user_id.to_string(),
        "fundPassword": FUND_PASSWORD});
    let (status, body) = app
        .post_as(&alice.token, "/api/transfer/submit", Some(send))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/texchange/getExchangeQuote",
            Some(json!({"from": "usdt", "to": "btc", "amount": "25"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (receive, quote_id) = (
        decimal(&body["data"]["receive"]),
        body["data"]["quoteId"].clone(),
    );
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/texchange/currencyExchange",
            Some(json!({"quoteId": quote_id})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Two opposite 1 s bets: at least one of them pays out (a win, or a tie for both).
    for direction in ["up", "down"] {
        let (status, body) = app
            .post_as(
                &alice.token,
                "/api/seconds/order/submit",
                Some(
                    json!({"symbol": "BTCUSDT", "direction": direction, "periodSeconds": 1,
                    "quantity": "10"}),
                ),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    let mut records = all_bills(&app, &alice).await;
    for _ in 0..200 {
        if records.iter().any(|bill| bill["kind"] == "seconds_settle") {
            break;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
        records = all_bills(&app, &alice).await;
    }

    assert_eq!(
        detail_of(&records, "deposit", None),
        &json!({"network": "TRC20"})
    );
    let destination = |stage: &str| json!({"stage": stage, "network": "TRC20", "address": TRON});
    // The hold shows on funding and frozen alike; the payout leaves frozen.
    let holds: Vec<&Value> = records
        .iter()
        .filter(|bill| bill["kind"] == "withdrawal" && bill["bucket"] == "funding")
        .collect();
    assert_eq!(holds.len(), 2, "{records:?}");
    assert!(
        holds
            .iter()
            .all(|bill| bill["detail"] == destination("held"))
    );
    let payouts: Vec<&Value> = records
        .iter()
        .filter(|bill| {
            bill["kind"] == "withdrawal"
                && bill["amount"].as_str().unwrap().starts_with('-')
                && bill["bucket"] == "frozen"
        })
        .collect();
    assert_eq!(payouts.len(), 1, "{records:?}");
    assert_eq!(payouts[0]["detail"], destination("sent"));
    assert_eq!(
        detail_of(&records, "fee", None),
        &json!({"feeOf": "withdrawal", "network": "TRC20"})
    );
    assert_eq!(
        detail_of(&records, "withdrawal_refund", None),
        &json!({"network": "TRC20", "address": TRON})
    );
    assert_eq!(
        detail_of(&records, "bucket_transfer", None),
        &json!({"fromBucket": "funding", "toBucket": "trading"})
    );
    assert_eq!(
        detail_of(&records, "user_transfer", None),
        &json!({"direction": "sent", "counterparty": bob.user_id})
    );
    let swap = detail_of(&records, "exchange", None);
    assert_eq!(
        (
            &swap["fromCoin"],
            decimal(&swap["fromAmount"]),
            &swap["toCoin"]
        ),
        (&json!("usdt"), dec!(25), &json!("btc")),
        "{swap}"
    );
    assert_eq!(decimal(&swap["toAmount"]), receive, "{swap}");
    let stakes: Vec<&Value> = records
        .iter()
        .filter(|bill| bill["kind"] == "seconds_stake")
        .map(|bill| &bill["detail"])
        .collect();
    assert_eq!(stakes.len(), 2, "{records:?}");
    for (stake, direction) in stakes.into_iter().zip(["down", "up"]) {
        assert_eq!(
            (
                &stake["symbol"],
                &stake["direction"],
                &stake["periodSeconds"]
            ),
            (&json!("btcusdt"), &json!(direction), &json!(1)),
            "{stake}"
        );
        assert!(decimal(&stake["price"]) > Decimal::ZERO, "{stake}");
    }
    let settle = records
        .iter()
        .find(|bill| bill["kind"] == "seconds_settle")
        .unwrap_or_else(|| panic!("no bet settled within 10 s: {records:?}"));
    let settle = &settle["detail"];
    assert!(settle["orderId"].is_i64(), "{settle}");
    assert!(
        ["win", "tie"].contains(&settle["result"].as_str().unwrap()),
        "{settle}"
    );
    assert!(
        ["up", "down"].contains(&settle["direction"].as_str().unwrap()),
        "{settle}"
    );
    assert!(decimal(&settle["openPrice"]) > Decimal::ZERO, "{settle}");
    assert!(
        records.iter().all(|bill| bill["detail"].is_object()),
        "every bill has a detail: {records:?}"
    );

    // The recipient reads the same transfer as received from Alice.
    let theirs = all_bills(&app, &bob).await;
    assert_eq!(
        detail_of(&theirs, "user_transfer", None),
        &json!({"direction": "received", "counterparty": alice.user_id})
    );
    app.stop().await;
}
