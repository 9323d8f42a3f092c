//! USDT-M futures over HTTP, with prices driven deterministically: the simulator is off and each
//! test publishes the mark, index and book ladder to the market hub (the engines' price source),
//! then asks the symbol's engine to act on it. Covered: the liquidation price the server stores
//! equals wasm-core's for the same inputs; market fills walking the ladder; partial and full
//! closes; take profit, stop loss and stop orders firing on the mark; margin added and removed as
//! wasm-core says; every bad input changing nothing; a price path liquidating an isolated long and
//! a cross short; funding paid and received; positions and resting orders surviving a restart —
//! with the ledger audit clean after each.

use std::sync::atomic::{AtomicI64, Ordering};
use std::time::Duration;

use backend::config::FuturesConfig;
use backend::entity::{futures_funding_round, futures_position};
use backend::funds::audit;
use backend::funds::ledger::{self, AccountRef, Bucket, House, NewEntry, Posting};
use backend::market::book::{BookSnapshot, Level};
use backend::market::hub::Detail;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};
use wasm_core::margin::{
    LiquidationInput, MarginAdjustmentInput, MarginDirection, MarginMode, Position, Side,
    liquidation_price, margin_adjustment,
};

use crate::helpers::{Member, TestApp, spawn_app_in_with, spawn_app_with};

const BTC: &str = "btcusdt";

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
        .parse()
        .unwrap()
}

pub fn configure(config: &mut backend::config::Config) {
    config.simulator.enabled = false;
    config.futures.mark_poll_ms = 20;
    // The tests refresh cross prices themselves when they need to.
    config.futures.cross_refresh_ms = 60_000;
}

async fn futures_app() -> TestApp {
    spawn_app_with(configure).await
}

/// Puts `amount` USDT into the user's trading (futures) wallet, as a deposit and a transfer do.
pub async fn fund(app: &TestApp, member: &Member, amount: Decimal) {
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

async fn balance(app: &TestApp, account: AccountRef) -> Decimal {
    ledger::balance(app.db(), account, "usdt").await.unwrap()
}

fn trading(member: &Member) -> AccountRef {
    AccountRef::User {
        user_id: member.user_id,
        bucket: Bucket::Trading,
    }
}

fn margin_bucket(member: &Member) -> AccountRef {
    AccountRef::User {
        user_id: member.user_id,
        bucket: Bucket::FuturesMargin,
    }
}

static CLOCK: AtomicI64 = AtomicI64::new(0);

/// Publishes `mark` (and `index`) with a ladder around it — asks `mark` (0.5), `mark + 10` (100);
/// bids `mark` (0.5), `mark − 10` (100) — and makes the engine act on it.
pub async fn set_price(app: &TestApp, mark: Decimal, index: Decimal) {
    set_price_of(app, BTC, mark, index).await;
}

/// [`set_price`] for `symbol`.
async fn set_price_of(app: &TestApp, symbol: &str, mark: Decimal, index: Decimal) {
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
    hub.publish_book(symbol, book, &diff);
    hub.publish_detail(
        symbol,
        Detail {
            last_price: mark,
            index_price: index,
            mark_price: mark,
            best_bid: Some(mark),
            best_ask: Some(mark),
            ts,
        },
    );
    app.state()
        .futures
        .evaluate(symbol)
        .await
        .expect("evaluated");
}

pub async fn submit(app: &TestApp, member: &Member, order: Value) -> (u16, Value) {
    app.post_as(&member.token, "/api/contract/order/submit", Some(order))
        .await
}

/// A futures app with Alice's trading wallet holding `funds` USDT and BTC's mark and index at
/// 50,000 (the ladder of [`set_price`]).
async fn alice_at_50000(funds: Decimal) -> (TestApp, Member) {
    let app = futures_app().await;
    let alice = app.member("alice@example.com").await;
    fund(&app, &alice, funds).await;
    set_price(&app, dec!(50000), dec!(50000)).await;
    (app, alice)
}

/// [`submit`]s `order`, which must be taken (200); its answer's body.
async fn placed(app: &TestApp, member: &Member, order: Value) -> Value {
    let (status, body) = submit(app, member, order).await;
    assert_eq!(status, 200, "{body}");
    body
}

async fn positions(app: &TestApp, member: &Member, scope: &str) -> Vec<Value> {
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("/api/contract/position/list?scope={scope}&symbol=btcusdt"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"].as_array().unwrap().clone()
}

async fn open_position(app: &TestApp, member: &Member) -> Option<Value> {
    positions(app, member, "current").await.into_iter().next()
}

async fn orders(app: &TestApp, member: &Member, scope: &str) -> Vec<Value> {
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("/api/contract/order/list?scope={scope}&symbol=btcusdt"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["records"].as_array().unwrap().clone()
}

async fn assert_audit_clean(app: &TestApp) {
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
}

/// The futures margin bucket holds exactly the isolated margins and order holds.
async fn assert_margin_bucket(app: &TestApp, member: &Member) {
    let positions = positions(app, member, "current").await;
    let isolated: Decimal = positions
        .iter()
        .filter(|p| p["marginMode"] == "isolated")
        .map(|p| decimal(&p["positionMargin"]))
        .sum();
    let rows = backend::entity::futures_order::Entity::find()
        .filter(backend::entity::futures_order::Column::UserId.eq(member.user_id))
        .all(app.db())
        .await
        .unwrap();
    let holds: Decimal = rows
        .iter()
        .map(|o| o.hold_remaining.parse::<Decimal>().unwrap())
        .sum();
    assert_eq!(balance(app, margin_bucket(member)).await, isolated + holds);
}

fn btc_tiers() -> Vec<wasm_core::margin::MarginTier> {
    FuturesConfig::default_tiers(Decimal::ONE)
}

fn wasm_lp(position: Position) -> Option<Decimal> {
    liquidation_price(&LiquidationInput {
        position,
        tiers: btc_tiers(),
        tick_size: Some(dec!(0.01)),
    })
    .unwrap()
}

fn isolated(
    side: Side,
    size: Decimal,
    entry: Decimal,
    leverage: Decimal,
    margin: Decimal,
) -> Position {
    Position {
        side,
        size,
        entry_price: entry,
        leverage,
        margin_mode: MarginMode::Isolated,
        wallet_balance: margin,
        other_maintenance_margin: None,
        other_unrealized_pnl: None,
    }
}

async fn stored_lp(app: &TestApp, member: &Member) -> Option<Decimal> {
    futures_position::Entity::find()
        .filter(futures_position::Column::UserId.eq(member.user_id))
        .filter(futures_position::Column::Status.eq("open"))
        .one(app.db())
        .await
        .unwrap()
        .and_then(|p| p.liquidation_price)
        .map(|p| p.parse().unwrap())
}

#[tokio::test]
async fn an_isolated_long_opens_at_the_ladders_vwap_with_wasm_cores_liquidation_price_and_closes_in_parts()
 {
    let (app, alice) = alice_at_50000(dec!(10000)).await;
    let mut push = app
        .channel(&format!(
            "/ws/user/push/{}?satoken={}",
            alice.user_id, alice.token
        ))
        .await;

    // 1 BTC at 10x: 0.5 at 50,000 and 0.5 at 50,010, an average of 50,005.
    let order = json!({"symbol": "BTCUSDT", "side": "buy", "orderType": "market",
        "quantity": "1", "leverage": "10", "marginMode": "isolated"});
    let (status, body) = app
        .post(
            "/api/contract/order/submit",
            Some(&order.to_string()),
            &[("satoken", &alice.token), ("Idempotency-Key", "open-1")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "dealTotol");
    assert_eq!(decimal(&body["data"]["dealAverPrice"]), dec!(50005));
    assert_eq!(decimal(&body["data"]["serviceCharge"]), dec!(25.0025));
    // The same key and body place nothing more.
    let (status, again) = app
        .post(
            "/api/contract/order/submit",
            Some(&order.to_string()),
            &[("satoken", &alice.token), ("Idempotency-Key", "open-1")],
        )
        .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["data"]["id"], body["data"]["id"]);

    let position = open_position(&app, &alice).await.expect("a position");
    assert_eq!(decimal(&position["openInterest"]), dec!(1));
    assert_eq!(decimal(&position["averOpenPrice"]), dec!(50005));
    assert_eq!(decimal(&position["positionMargin"]), dec!(5000.5));
    // What the order form previews with wasm-core is what the server stores and answers.
    let expected = wasm_lp(isolated(
        Side::Long,
        dec!(1),
        dec!(50005),
        dec!(10),
        dec!(5000.5),
    ));
    assert!(expected.is_some());
    assert_eq!(stored_lp(&app, &alice).await, expected);
    assert_eq!(
        position["expectedStrongParity"]
            .as_str()
            .map(|s| s.parse().unwrap()),
        expected
    );
    assert_eq!(balance(&app, trading(&alice)).await, dec!(4974.4975));
    assert_eq!(balance(&app, margin_bucket(&alice)).await, dec!(5000.5));
    // The balances call counts the margin as held: nothing vanishes from `total` or `frozen`.
    let (status, coins) = app
        .post_as(&alice.token, "/api/userCoin/getUserCoin", None)
        .await;
    assert_eq!(status, 200, "{coins}");
    let usdt = coins["data"]["coins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["coin"] == "usdt")
        .unwrap();
    assert_eq!(decimal(&usdt["trading"]), dec!(4974.4975));
    assert_eq!(decimal(&usdt["frozen"]), dec!(5000.5));
    assert_eq!(decimal(&usdt["total"]), dec!(9974.9975));
    // The POSITION message, and the 'au' message whose unrealised PnL is the position's at the
    // mark: 1 × (50,000 − 50,005). Either may come first ('au' is sent when a figure changes, so
    // it is read in the same loop rather than skipped while waiting for the other).
    let mut position_seen = false;
    let mut user_ear = String::new();
    for _ in 0..200 {
        let message = push.next().await;
        match message["type"].as_str() {
            Some("POSITION") => {
                assert_eq!(message["data"]["openInterest"], "1");
                position_seen = true;
            }
            Some("au") => user_ear = message["data"]["userEar"].as_str().unwrap().to_owned(),
            _ => {}
        }
        if position_seen && user_ear == "-5" {
            break;
        }
    }
    assert!(position_seen);
    assert_eq!(user_ear, "-5");
    assert_audit_clean(&app).await;

    // Close 0.4 at 51,000: 0.4 × 995 = 398 realised, 40 % of the margin released.
    set_price(&app, dec!(51000), dec!(51000)).await;
    let body = placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "sell", "orderType": "market",
            "quantity": "0.4", "reduceOnly": true}),
    )
    .await;
    assert_eq!(decimal(&body["data"]["profit"]), dec!(398));
    let position = open_position(&app, &alice).await.unwrap();
    assert_eq!(decimal(&position["openInterest"]), dec!(0.6));
    assert_eq!(decimal(&position["positionMargin"]), dec!(3000.3));
    assert_eq!(decimal(&position["closingAverPrice"]), dec!(51000));
    let expected = wasm_lp(isolated(
        Side::Long,
        dec!(0.6),
        dec!(50005),
        dec!(10),
        dec!(3000.3),
    ));
    assert_eq!(stored_lp(&app, &alice).await, expected);
    // 4,974.4975 + 2,000.2 + 398 − 10.2 (0.05 % of 20,400).
    assert_eq!(balance(&app, trading(&alice)).await, dec!(7362.4975));
    assert_margin_bucket(&app, &alice).await;
    assert_audit_clean(&app).await;

    // Then the rest, by closing the position.
    placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "sell", "orderType": "market", "closePosition": true}),
    )
    .await;
    assert!(open_position(&app, &alice).await.is_none());
    let closed = positions(&app, &alice, "history").await;
    assert_eq!(closed[0]["status"], "closed");
    // 0.5 at 51,000 and 0.1 at 50,990 on the bid ladder: 398 + 497.5 + 98.5.
    assert_eq!(decimal(&closed[0]["realisedPnl"]), dec!(994));
    assert_eq!(balance(&app, margin_bucket(&alice)).await, dec!(0));
    // 10,000 + 994 profit − 25.0025 − 10.2 − 15.2995 (0.05 % of 30,599) in fees.
    assert_eq!(balance(&app, trading(&alice)).await, dec!(10943.498));
    let fees = balance(&app, AccountRef::House(House::Fees)).await
        + balance(&app, AccountRef::House(House::SecurityFund)).await;
    assert_eq!(fees, dec!(50.502));
    assert_eq!(
        balance(&app, AccountRef::House(House::FuturesCounterparty)).await,
        dec!(-994)
    );
    assert_eq!(orders(&app, &alice, "history").await.len(), 3);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn bad_inputs_are_refused_and_change_nothing() {
    let app = futures_app().await;
    let alice = app.member("alice@example.com").await;
    let broke = app.member("broke@example.com").await;
    fund(&app, &alice, dec!(10000)).await;
    set_price(&app, dec!(50000), dec!(50000)).await;
    placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "market",
            "quantity": "0.1", "leverage": "10"}),
    )
    .await;
    let before_position = open_position(&app, &alice).await.unwrap();
    let before_trading = balance(&app, trading(&alice)).await;
    let before_margin = balance(&app, margin_bucket(&alice)).await;

    let refused = |status: u16, body: &Value, reason: &str| {
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["data"]["reason"], reason, "{body}");
    };
    // Leverage above the table's maximum, and above the maximum of the notional's tier
    // (1.2 BTC ≈ 60,000 is tier 2: at most 100x).
    let (status, body) = submit(
        &app,
        &broke,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "market", "quantity": "0.01", "leverage": "126"}),
    )
    .await;
    refused(status, &body, "above_maximum");
    assert_eq!(body["data"]["field"], "leverage");
    let (status, body) = submit(
        &app,
        &broke,
        json!({"symbol": "btcusdt", "side": "sell",
        "orderType": "limit", "price": "50000", "quantity": "1.2", "leverage": "125"}),
    )
    .await;
    refused(status, &body, "above_maximum");
    assert_eq!(body["data"]["field"], "leverage");
    // A size above what the available balance opens (wasm-core's max open size).
    let (status, body) = submit(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "sell",
        "orderType": "limit", "price": "50000", "quantity": "5", "leverage": "10"}),
    )
    .await;
    refused(status, &body, "above_maximum");
    assert_eq!(body["data"]["field"], "quantity");
    // Nothing at all to open with.
    let (status, body) = submit(
        &app,
        &broke,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "market", "quantity": "0.01", "leverage": "10"}),
    )
    .await;
    refused(status, &body, "insufficient_balance");
    // Take profit below the mark of a long, stop loss above it.
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/stopOrder",
            Some(json!({"symbol": "btcusdt", "takeProfitPrice": "49000"})),
        )
        .await;
    refused(status, &body, "take_profit_wrong_side");
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/stopOrder",
            Some(json!({"symbol": "btcusdt", "stopLossPrice": "51000"})),
        )
        .await;
    refused(status, &body, "stop_loss_wrong_side");
    // A removal that would breach the initial margin at the mark (the position's margin is its
    // initial margin at the entry, which is the mark: nothing is removable).
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/margin",
            Some(json!({"symbol": "btcusdt", "direction": "remove", "amount": "400"})),
        )
        .await;
    refused(status, &body, "above_maximum");
    // An unknown symbol, an off-tick price, no session.
    let (status, body) = submit(
        &app,
        &alice,
        json!({"symbol": "nopeusdt", "side": "buy",
        "orderType": "market", "quantity": "1"}),
    )
    .await;
    refused(status, &body, "futures_symbol_unavailable");
    let (status, body) = submit(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "limit", "price": "49000.001", "quantity": "0.01"}),
    )
    .await;
    refused(status, &body, "off_tick");
    let (status, _) = app
        .post(
            "/api/contract/order/submit",
            Some(
                &json!({"symbol": "btcusdt", "side": "buy", "orderType": "market",
                "quantity": "0.01"})
                .to_string(),
            ),
            &[],
        )
        .await;
    assert_eq!(status, 401);
    // A reduce-only order without a position to reduce.
    let (status, body) = submit(
        &app,
        &broke,
        json!({"symbol": "btcusdt", "side": "sell",
        "orderType": "market", "quantity": "0.01", "reduceOnly": true}),
    )
    .await;
    refused(status, &body, "reduce_only_rejected");

    assert_eq!(open_position(&app, &alice).await.unwrap(), before_position);
    assert_eq!(balance(&app, trading(&alice)).await, before_trading);
    assert_eq!(balance(&app, margin_bucket(&alice)).await, before_margin);
    assert_eq!(orders(&app, &alice, "current").await.len(), 0);
    assert_eq!(orders(&app, &broke, "history").await.len(), 0);
    assert!(open_position(&app, &broke).await.is_none());
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn take_profit_stop_loss_and_stop_orders_fire_on_the_mark() {
    let (app, alice) = alice_at_50000(dec!(20000)).await;
    let open = json!({"symbol": "btcusdt", "side": "buy", "orderType": "market",
        "quantity": "0.2", "leverage": "5"});
    assert_eq!(submit(&app, &alice, open.clone()).await.0, 200);
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/stopOrder",
            Some(
                json!({"symbol": "btcusdt", "takeProfitPrice": "52000", "stopLossPrice": "48000"}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(decimal(&body["data"]["takeProfitPrice"]), dec!(52000));
    // Not there yet.
    set_price(&app, dec!(51990), dec!(51990)).await;
    assert!(open_position(&app, &alice).await.is_some());
    // The take profit closes it at market (the bid ladder).
    set_price(&app, dec!(52000), dec!(52000)).await;
    assert!(open_position(&app, &alice).await.is_none());
    let history = orders(&app, &alice, "history").await;
    assert_eq!(history[0]["source"], "take_profit");
    assert_eq!(history[0]["status"], "dealTotol");
    assert_audit_clean(&app).await;

    // Again, with the stop loss.
    set_price(&app, dec!(50000), dec!(50000)).await;
    assert_eq!(submit(&app, &alice, open.clone()).await.0, 200);
    let (status, _) = app
        .post_as(
            &alice.token,
            "/api/contract/position/stopOrder",
            Some(json!({"symbol": "btcusdt", "stopLossPrice": "48000"})),
        )
        .await;
    assert_eq!(status, 200);
    set_price(&app, dec!(47990), dec!(47990)).await;
    assert!(open_position(&app, &alice).await.is_none());
    assert_eq!(
        orders(&app, &alice, "history").await[0]["source"],
        "stop_loss"
    );
    assert_audit_clean(&app).await;

    // A stop order closing half: waiting, then triggered by the mark.
    set_price(&app, dec!(50000), dec!(50000)).await;
    assert_eq!(submit(&app, &alice, open).await.0, 200);
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/loss/sett",
            Some(json!({"symbol": "btcusdt", "triggerPrice": "49000", "quantity": "0.1"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["direction"], "below");
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/loss/sett",
            Some(json!({"symbol": "btcusdt", "triggerPrice": "60000"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let cancel_id = body["data"]["id"].as_i64().unwrap();
    let (status, body) = app
        .post_as(
            &alice.token,
            &format!("/api/contract/loss/cancel?id={cancel_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "cancelled");
    let (_, body) = app
        .post_as(&alice.token, "/api/contract/loss/list", None)
        .await;
    assert_eq!(body["data"].as_array().unwrap().len(), 1);
    set_price(&app, dec!(49000), dec!(49000)).await;
    let position = open_position(&app, &alice).await.unwrap();
    assert_eq!(decimal(&position["openInterest"]), dec!(0.1));
    let (_, body) = app
        .post_as(&alice.token, "/api/contract/loss/list?scope=history", None)
        .await;
    let triggered: Vec<&Value> = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|s| s["status"] == "triggered")
        .collect();
    assert_eq!(triggered.len(), 1);
    assert!(triggered[0]["orderId"].as_i64().is_some());
    assert_margin_bucket(&app, &alice).await;
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn margin_added_and_removed_moves_the_liquidation_price_as_wasm_core_says() {
    let (app, alice) = alice_at_50000(dec!(10000)).await;
    // 0.4 BTC all at 50,000 (the first level holds 0.5).
    placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "market", "quantity": "0.4", "leverage": "10"}),
    )
    .await;
    let adjust = |direction: MarginDirection, amount: Decimal, margin: Decimal| {
        margin_adjustment(&MarginAdjustmentInput {
            position: isolated(Side::Long, dec!(0.4), dec!(50000), dec!(10), margin),
            mark_price: dec!(50500),
            direction,
            amount,
            available_balance: None,
            tiers: btc_tiers(),
            tick_size: Some(dec!(0.01)),
        })
        .unwrap()
    };
    set_price(&app, dec!(50500), dec!(50500)).await;
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/margin",
            Some(json!({"symbol": "btcusdt", "direction": "add", "amount": "1000"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let added = adjust(MarginDirection::Add, dec!(1000), dec!(2000));
    assert_eq!(decimal(&body["data"]["positionMargin"]), dec!(3000));
    assert_eq!(
        body["data"]["expectedStrongParity"]
            .as_str()
            .map(|s| s.parse().unwrap()),
        added.liquidation_price
    );
    assert_eq!(stored_lp(&app, &alice).await, added.liquidation_price);
    let removed = adjust(MarginDirection::Remove, dec!(500), dec!(3000));
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/margin",
            Some(json!({"symbol": "btcusdt", "direction": "remove", "amount": "500"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(stored_lp(&app, &alice).await, removed.liquidation_price);
    assert!(removed.liquidation_price > added.liquidation_price);
    // More than wasm-core's most removable: refused.
    let most = adjust(MarginDirection::Remove, dec!(0), dec!(2500)).max_removable;
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/margin",
            Some(json!({"symbol": "btcusdt", "direction": "remove",
                "amount": (most + dec!(0.01)).to_string()})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["reason"], "above_maximum");
    assert_eq!(body["msg"], format!("The maximum is {most}"));
    assert_eq!(stored_lp(&app, &alice).await, removed.liquidation_price);
    assert_eq!(balance(&app, margin_bucket(&alice)).await, dec!(2500));
    // Leverage and mode: a mode change with an open position is refused.
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/leverage",
            Some(json!({"symbol": "btcusdt", "marginMode": "cross"})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["reason"], "margin_mode_locked");
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/contract/position/leverage",
            Some(json!({"symbol": "btcusdt", "leverage": "20"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(decimal(&body["data"]["leverage"]), dec!(20));
    assert_eq!(decimal(&body["data"]["maxLeverage"]), dec!(125));
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_price_path_liquidates_an_isolated_long_and_a_cross_short() {
    let app = futures_app().await;
    let long = app.member("long@example.com").await;
    let short = app.member("short@example.com").await;
    fund(&app, &long, dec!(10000)).await;
    fund(&app, &short, dec!(3000)).await;
    set_price(&app, dec!(50000), dec!(50000)).await;
    placed(
        &app,
        &long,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "market", "quantity": "0.5", "leverage": "10", "marginMode": "isolated"}),
    )
    .await;
    placed(
        &app,
        &short,
        json!({"symbol": "btcusdt", "side": "sell",
        "orderType": "market", "quantity": "0.5", "leverage": "20", "marginMode": "cross"}),
    )
    .await;
    // The cross short's price: the whole wallet backs it.
    let wallet = balance(&app, trading(&short)).await;
    let cross_lp = wasm_lp(Position {
        side: Side::Short,
        size: dec!(0.5),
        entry_price: dec!(50000),
        leverage: dec!(20),
        margin_mode: MarginMode::Cross,
        wallet_balance: wallet,
        other_maintenance_margin: Some(dec!(0)),
        other_unrealized_pnl: Some(dec!(0)),
    })
    .unwrap();
    let shown = open_position(&app, &short).await.unwrap();
    assert_eq!(decimal(&shown["expectedStrongParity"]), cross_lp);
    let long_lp = wasm_lp(isolated(
        Side::Long,
        dec!(0.5),
        dec!(50000),
        dec!(10),
        dec!(2500),
    ))
    .unwrap();
    assert_eq!(stored_lp(&app, &long).await, Some(long_lp));

    // Down: the long survives above its price and is liquidated at it.
    set_price(&app, long_lp + dec!(1), long_lp + dec!(1)).await;
    assert!(open_position(&app, &long).await.is_some());
    let fund_before = balance(&app, AccountRef::House(House::SecurityFund)).await;
    set_price(&app, long_lp - dec!(5), long_lp - dec!(5)).await;
    assert!(open_position(&app, &long).await.is_none());
    let history = positions(&app, &long, "history").await;
    assert_eq!(history[0]["status"], "liquidated");
    assert_eq!(balance(&app, margin_bucket(&long)).await, dec!(0));
    // What the margin held beyond the loss went to the security fund.
    let loss = (long_lp - dec!(5) - dec!(50000)) * dec!(0.5);
    let row = futures_position::Entity::find()
        .filter(futures_position::Column::UserId.eq(long.user_id))
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    let fee: Decimal = row.liquidation_fee.parse().unwrap();
    assert_eq!(fee, dec!(2500) + loss);
    assert!(fee > dec!(0));
    assert_eq!(
        balance(&app, AccountRef::House(House::SecurityFund)).await - fund_before,
        fee
    );
    assert_eq!(
        orders(&app, &long, "history").await[0]["source"],
        "liquidation"
    );
    assert_audit_clean(&app).await;

    // Up: the cross short goes at its price.
    set_price(&app, cross_lp - dec!(1), cross_lp - dec!(1)).await;
    assert!(open_position(&app, &short).await.is_some());
    set_price(&app, cross_lp + dec!(5), cross_lp + dec!(5)).await;
    assert!(open_position(&app, &short).await.is_none());
    assert_eq!(
        positions(&app, &short, "history").await[0]["status"],
        "liquidated"
    );
    assert!(balance(&app, trading(&short)).await >= dec!(0));
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn funding_is_paid_by_longs_and_received_by_shorts() {
    let app = spawn_app_with(|config| {
        configure(config);
        config.futures.funding_interval_secs = 2;
    })
    .await;
    let long = app.member("long@example.com").await;
    let short = app.member("short@example.com").await;
    fund(&app, &long, dec!(10000)).await;
    fund(&app, &short, dec!(10000)).await;
    // The mark 0.2 % above the index: a rate of 0.2 % + 0.01 % interest.
    set_price(&app, dec!(50100), dec!(50000)).await;
    let (status, _, body) = app
        .get("/api/contract/coin/fundingInfo?symbol=BTCUSDT")
        .await;
    assert_eq!(status, 200, "{body}");
    let info: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(decimal(&info["data"]["fundingRate"]), dec!(0.0021));
    assert!(info["data"]["countdown"].as_i64().unwrap() <= 2);
    // The contract price info carries the same figures.
    let (status, _, body) = app
        .get("/api/contract/coin/currencyPrice?symbol=btcusdt")
        .await;
    assert_eq!(status, 200, "{body}");
    let price: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(decimal(&price["data"]["markPrice"]), dec!(50100));
    assert_eq!(decimal(&price["data"]["indexPrice"]), dec!(50000));
    assert_eq!(decimal(&price["data"]["fundingRate"]), dec!(0.0021));
    for (member, side) in [(&long, "buy"), (&short, "sell")] {
        let (status, body) = submit(
            &app,
            member,
            json!({"symbol": "btcusdt", "side": side,
            "orderType": "market", "quantity": "0.2", "leverage": "10",
            "marginMode": if side == "buy" { "isolated" } else { "cross" }}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    let long_margin = balance(&app, margin_bucket(&long)).await;
    let short_wallet = balance(&app, trading(&short)).await;
    // Wait for two fundings both positions took part in: the mark is set once, so at least the
    // second interval sees no new mark and takes the premium of the one standing through it.
    let mut paid = None;
    for _ in 0..150 {
        tokio::time::sleep(Duration::from_millis(100)).await;
        let (_, l) = app
            .post_as(&long.token, "/api/contract/funding/list", None)
            .await;
        let (_, s) = app
            .post_as(&short.token, "/api/contract/funding/list", None)
            .await;
        let (l, s) = (
            l["data"].as_array().unwrap().clone(),
            s["data"].as_array().unwrap().clone(),
        );
        if l.len() >= 2
            && s.len() >= 2
            && l.last().map(|r| &r["fundingTime"]) == s.last().map(|r| &r["fundingTime"])
        {
            paid = Some((l, s));
            break;
        }
    }
    let (l, s) = paid.expect("two fundings within 15 s");
    // 0.2 × 50,100 × 0.0021 = 21.042, paid by the long, received by the short, every time.
    for (rows, payment) in [(&l, dec!(21.042)), (&s, dec!(-21.042))] {
        for row in rows {
            assert_eq!(decimal(&row["rate"]), dec!(0.0021), "{row}");
            assert_eq!(decimal(&row["payment"]), payment, "{row}");
        }
    }
    // The long's isolated margin paid it; the short's wallet received it.
    let count = |list: &Value| list.as_array().map_or(0, |a| a.len());
    let (_, l_all) = app
        .post_as(&long.token, "/api/contract/funding/list", None)
        .await;
    let (_, s_all) = app
        .post_as(&short.token, "/api/contract/funding/list", None)
        .await;
    let (ln, sn) = (count(&l_all["data"]), count(&s_all["data"]));
    let long_paid: Decimal = l_all["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| decimal(&r["payment"]))
        .sum();
    let short_paid: Decimal = s_all["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| decimal(&r["payment"]))
        .sum();
    assert!(ln >= 2 && sn >= 2);
    assert_eq!(
        balance(&app, margin_bucket(&long)).await,
        long_margin - long_paid
    );
    assert_eq!(
        balance(&app, trading(&short)).await,
        short_wallet - short_paid
    );
    let position = open_position(&app, &long).await.unwrap();
    assert_eq!(decimal(&position["funding"]), long_paid);
    assert_audit_clean(&app).await;
    app.stop().await;
}

fn hourly_funding(config: &mut backend::config::Config) {
    configure(config);
    config.futures.funding_interval_secs = 3600;
}

/// The funding rows of `member`, oldest first.
async fn fundings(app: &TestApp, member: &Member) -> Vec<Value> {
    let (status, body) = app
        .post_as(&member.token, "/api/contract/funding/list", None)
        .await;
    assert_eq!(status, 200, "{body}");
    let mut rows = body["data"].as_array().unwrap().clone();
    rows.sort_by_key(|row| row["fundingTime"].as_i64());
    rows
}

#[tokio::test]
async fn funding_times_passed_while_the_server_was_down_are_settled_once_at_start() {
    const HOUR_MS: i64 = 3_600_000;
    let app = spawn_app_with(hourly_funding).await;
    let long = app.member("long@example.com").await;
    let short = app.member("short@example.com").await;
    fund(&app, &long, dec!(10000)).await;
    fund(&app, &short, dec!(10000)).await;
    set_price(&app, dec!(50000), dec!(50000)).await;
    for (member, side, mode) in [(&long, "buy", "isolated"), (&short, "sell", "cross")] {
        let (status, body) = submit(
            &app,
            member,
            json!({"symbol": "btcusdt", "side": side, "orderType": "market",
            "quantity": "0.1", "leverage": "10", "marginMode": mode}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    // As if the server had gone down just after opening them, two funding times ago.
    let last_time = chrono::Utc::now().timestamp_millis().div_euclid(HOUR_MS) * HOUR_MS;
    futures_position::Entity::update_many()
        .col_expr(
            futures_position::Column::OpenedAt,
            sea_orm::sea_query::Expr::value(last_time - HOUR_MS - 1),
        )
        .exec(app.db())
        .await
        .unwrap();
    let long_margin = balance(&app, margin_bucket(&long)).await;
    let short_wallet = balance(&app, trading(&short)).await;
    let (dir, postgres) = app.stop_keeping_data().await;

    let app = spawn_app_in_with(dir, postgres, hourly_funding).await;
    set_price(&app, dec!(50000), dec!(50000)).await;
    let mut settled = Vec::new();
    for _ in 0..100 {
        settled = fundings(&app, &short).await;
        if settled.len() == 2 && fundings(&app, &long).await.len() == 2 {
            break;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let long_rows = fundings(&app, &long).await;
    assert_eq!(settled.len(), 2, "{settled:?}");
    for (rows, payment) in [(&long_rows, dec!(0.5)), (&settled, dec!(-0.5))] {
        let times: Vec<i64> = rows
            .iter()
            .map(|row| row["fundingTime"].as_i64().unwrap())
            .collect();
        assert_eq!(times, [last_time - HOUR_MS, last_time]);
        for row in rows.iter() {
            // No premium was sampled while down: the interest alone, 0.01 %;
            // 0.1 × 50,000 × 0.0001 = 0.5.
            assert_eq!(decimal(&row["rate"]), dec!(0.0001));
            assert_eq!(decimal(&row["payment"]), payment);
        }
    }
    assert_eq!(
        balance(&app, margin_bucket(&long)).await,
        long_margin - dec!(1)
    );
    assert_eq!(balance(&app, trading(&short)).await, short_wallet + dec!(1));
    let rounds = futures_funding_round::Entity::find()
        .filter(futures_funding_round::Column::Symbol.eq("btcusdt"))
        .all(app.db())
        .await
        .unwrap();
    assert_eq!(rounds.len(), 2);
    assert!(
        rounds
            .iter()
            .all(|round| round.caught_up && round.positions == 2)
    );
    assert_audit_clean(&app).await;

    // Settled once: after another restart nothing is paid again.
    let (dir, postgres) = app.stop_keeping_data().await;
    let app = spawn_app_in_with(dir, postgres, hourly_funding).await;
    set_price(&app, dec!(50000), dec!(50000)).await;
    placed(
        &app,
        &long,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "market",
        "quantity": "0.1", "leverage": "10", "marginMode": "isolated"}),
    )
    .await;
    assert_eq!(fundings(&app, &long).await, long_rows);
    assert_eq!(fundings(&app, &short).await, settled);
    let (status, _, body) = app
        .get("/api/contract/coin/fundingInfo?symbol=BTCUSDT")
        .await;
    assert_eq!(status, 200, "{body}");
    let info: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(info["data"]["nextFundingTime"], json!(last_time + HOUR_MS));
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn positions_and_resting_orders_survive_a_restart() {
    let (app, alice) = alice_at_50000(dec!(10000)).await;
    assert_eq!(
        submit(
            &app,
            &alice,
            json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "market", "quantity": "0.1", "leverage": "10"})
        )
        .await
        .0,
        200
    );
    let (status, _) = app
        .post_as(
            &alice.token,
            "/api/contract/position/stopOrder",
            Some(json!({"symbol": "btcusdt", "takeProfitPrice": "55000"})),
        )
        .await;
    assert_eq!(status, 200);
    // A limit buy below the mark rests, holding margin and the taker fee of what it opens.
    let body = placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "limit", "price": "49000", "quantity": "0.1", "leverage": "10"}),
    )
    .await;
    assert_eq!(body["data"]["status"], "waitDeal");
    assert_margin_bucket(&app, &alice).await;
    // 0.1 × 49,000 × (1/10 + 0.0005) = 492.45 on top of the position's 500.
    assert_eq!(balance(&app, margin_bucket(&alice)).await, dec!(992.45));
    let position = open_position(&app, &alice).await.unwrap();
    let resting = orders(&app, &alice, "current").await;
    assert_eq!(resting.len(), 1);

    let (dir, postgres) = app.stop_keeping_data().await;
    let app = spawn_app_in_with(dir, postgres, configure).await;
    set_price(&app, dec!(50000), dec!(50000)).await;
    assert_eq!(open_position(&app, &alice).await.unwrap(), position);
    assert_eq!(orders(&app, &alice, "current").await, resting);

    // The mark reaches the limit after the restart: it fills at its price with the maker fee.
    set_price(&app, dec!(48990), dec!(48990)).await;
    assert!(orders(&app, &alice, "current").await.is_empty());
    let filled = &orders(&app, &alice, "history").await[0];
    assert_eq!(filled["status"], "dealTotol");
    assert_eq!(decimal(&filled["dealAverPrice"]), dec!(49000));
    assert_eq!(decimal(&filled["serviceCharge"]), dec!(0.98));
    let position = open_position(&app, &alice).await.unwrap();
    assert_eq!(decimal(&position["openInterest"]), dec!(0.2));
    assert_eq!(decimal(&position["averOpenPrice"]), dec!(49500));
    assert_eq!(decimal(&position["takeProfitPrice"]), dec!(55000));
    assert_margin_bucket(&app, &alice).await;
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_resting_order_is_cancelled_with_its_hold_released() {
    let (app, alice) = alice_at_50000(dec!(1000)).await;
    let body = placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "sell",
        "orderType": "limit", "price": "51000", "quantity": "0.01", "leverage": "5",
        "marginMode": "cross"}),
    )
    .await;
    let id = body["data"]["id"].as_i64().unwrap();
    assert!(balance(&app, margin_bucket(&alice)).await > dec!(0));
    let (status, body) = app
        .post_as(
            &alice.token,
            &format!("/api/contract/order/canCelOrder?id={id}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "cancelled");
    assert_eq!(balance(&app, margin_bucket(&alice)).await, dec!(0));
    assert_eq!(balance(&app, trading(&alice)).await, dec!(1000));
    let (status, _) = app
        .post_as(
            &alice.token,
            &format!("/api/contract/order/canCelOrder?id={id}"),
            None,
        )
        .await;
    assert_eq!(status, 404);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn what_cross_positions_use_of_the_trading_wallet_cannot_be_transferred_out() {
    let (app, alice) = alice_at_50000(dec!(1000)).await;
    // 0.1 BTC cross at 10x uses 500 of the wallet (and paid 2.5 in fees).
    placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "market", "quantity": "0.1", "leverage": "10", "marginMode": "cross"}),
    )
    .await;
    assert_eq!(balance(&app, trading(&alice)).await, dec!(997.5));
    let transfer = |amount: &str| json!({"coin": "usdt", "amount": amount, "from": "trading", "to": "funding"});
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/asset/transferFunds",
            Some(transfer("497.51")),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["reason"], "insufficient_balance");
    assert_eq!(balance(&app, trading(&alice)).await, dec!(997.5));
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/asset/transferFunds",
            Some(transfer("497.5")),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(balance(&app, trading(&alice)).await, dec!(500));
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_cross_liquidation_price_counts_the_users_other_cross_positions() {
    let (app, alice) = alice_at_50000(dec!(5000)).await;
    set_price_of(&app, "ethusdt", dec!(3000), dec!(3000)).await;
    for (symbol, quantity) in [("btcusdt", "0.2"), ("ethusdt", "0.5")] {
        placed(
            &app,
            &alice,
            json!({"symbol": symbol, "side": "buy",
            "orderType": "market", "quantity": quantity, "leverage": "20",
            "marginMode": "cross"}),
        )
        .await;
    }
    // ETH falls: its loss and maintenance margin weigh on the BTC position's price.
    set_price_of(&app, "ethusdt", dec!(2900), dec!(2900)).await;
    app.state().futures.refresh_cross("ethusdt").await.unwrap();
    app.state().futures.refresh_cross(BTC).await.unwrap();
    let eth = wasm_core::margin::position_metrics(&wasm_core::margin::PositionMetricsInput {
        position: Position {
            side: Side::Long,
            size: dec!(0.5),
            entry_price: dec!(3000),
            leverage: dec!(20),
            margin_mode: MarginMode::Isolated,
            wallet_balance: dec!(0),
            other_maintenance_margin: None,
            other_unrealized_pnl: None,
        },
        mark_price: dec!(2900),
        tiers: FuturesConfig::default_tiers(dec!(0.5)),
        tick_size: Some(dec!(0.01)),
    })
    .unwrap();
    let wallet = balance(&app, trading(&alice)).await;
    let expected = wasm_lp(Position {
        side: Side::Long,
        size: dec!(0.2),
        entry_price: dec!(50000),
        leverage: dec!(20),
        margin_mode: MarginMode::Cross,
        wallet_balance: wallet,
        other_maintenance_margin: Some(eth.maintenance_margin),
        other_unrealized_pnl: Some(eth.unrealized_pnl),
    });
    let (_, body) = app
        .post_as(&alice.token, "/api/contract/position/list", None)
        .await;
    let btc = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|p| p["symbol"] == "btcusdt")
        .unwrap()
        .clone();
    assert_eq!(decimal(&btc["expectedStrongParity"]), expected.unwrap());
    assert_eq!(eth.unrealized_pnl, dec!(-50));
    // Without the ETH position the BTC price would be lower (further away).
    let alone = wasm_lp(Position {
        other_maintenance_margin: Some(dec!(0)),
        other_unrealized_pnl: Some(dec!(0)),
        ..Position {
            side: Side::Long,
            size: dec!(0.2),
            entry_price: dec!(50000),
            leverage: dec!(20),
            margin_mode: MarginMode::Cross,
            wallet_balance: wallet,
            other_maintenance_margin: None,
            other_unrealized_pnl: None,
        }
    });
    assert!(alone < expected);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_reduce_only_limit_order_closes_part_of_the_position_at_its_price() {
    let (app, alice) = alice_at_50000(dec!(5000)).await;
    assert_eq!(
        submit(
            &app,
            &alice,
            json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "market", "quantity": "0.2", "leverage": "10"})
        )
        .await
        .0,
        200
    );
    let margin_before = balance(&app, margin_bucket(&alice)).await;
    // Closing needs no hold.
    placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "sell",
        "orderType": "limit", "price": "51000", "quantity": "0.1", "reduceOnly": true}),
    )
    .await;
    assert_eq!(balance(&app, margin_bucket(&alice)).await, margin_before);
    set_price(&app, dec!(50990), dec!(50990)).await;
    assert_eq!(orders(&app, &alice, "current").await.len(), 1);
    set_price(&app, dec!(51005), dec!(51005)).await;
    assert!(orders(&app, &alice, "current").await.is_empty());
    let filled = &orders(&app, &alice, "history").await[0];
    assert_eq!(decimal(&filled["dealAverPrice"]), dec!(51000));
    // 0.1 × 1,000 realised; the maker fee is 0.02 % of 5,100.
    assert_eq!(decimal(&filled["profit"]), dec!(100));
    assert_eq!(decimal(&filled["serviceCharge"]), dec!(1.02));
    let position = open_position(&app, &alice).await.unwrap();
    assert_eq!(decimal(&position["openInterest"]), dec!(0.1));
    assert_eq!(decimal(&position["closingAverPrice"]), dec!(51000));
    assert_eq!(
        stored_lp(&app, &alice).await,
        wasm_lp(isolated(
            Side::Long,
            dec!(0.1),
            dec!(50000),
            dec!(10),
            dec!(500)
        ))
    );
    assert_margin_bucket(&app, &alice).await;
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_limit_order_the_ladder_fills_within_its_price_executes_at_once_as_a_taker() {
    let app = futures_app().await;
    let alice = app.member("alice@example.com").await;
    fund(&app, &alice, dec!(10000)).await;
    // The ladder: asks 0.5 at 50,000 and 100 at 50,010.
    set_price(&app, dec!(50000), dec!(50000)).await;
    // A buy limit above the best ask meets the book: 0.3 at 50,000, not at its limit of 50,020.
    let body = placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "limit", "price": "50020", "quantity": "0.3", "leverage": "10"}),
    )
    .await;
    assert_eq!(body["data"]["status"], "dealTotol");
    assert_eq!(decimal(&body["data"]["commissPrice"]), dec!(50020));
    assert_eq!(decimal(&body["data"]["dealAverPrice"]), dec!(50000));
    // The taker fee: 0.05 % of 15,000.
    assert_eq!(decimal(&body["data"]["serviceCharge"]), dec!(7.5));
    let position = open_position(&app, &alice).await.unwrap();
    assert_eq!(decimal(&position["averOpenPrice"]), dec!(50000));
    assert_eq!(
        stored_lp(&app, &alice).await,
        wasm_lp(isolated(
            Side::Long,
            dec!(0.3),
            dec!(50000),
            dec!(10),
            dec!(1500)
        ))
    );
    // What the levels within the limit cannot fill whole rests at its limit, holding its margin.
    let body = placed(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy",
        "orderType": "limit", "price": "50005", "quantity": "1", "leverage": "10"}),
    )
    .await;
    assert_eq!(body["data"]["status"], "waitDeal");
    assert_eq!(orders(&app, &alice, "current").await.len(), 1);
    assert_margin_bucket(&app, &alice).await;
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_contracts_rules_are_published_as_the_server_applies_them() {
    let app = spawn_app_with(|config| {
        configure(config);
        config.futures.taker_fee_rate = dec!(0.0007);
    })
    .await;
    let (status, _, body) = app.get("/api/contract/coin/rules?symbol=BTCUSDT").await;
    assert_eq!(status, 200, "{body}");
    let rules: Value = serde_json::from_str(&body).unwrap();
    let rules = &rules["data"];
    assert_eq!(rules["symbol"], "btcusdt");
    assert_eq!(decimal(&rules["makerFeeRate"]), dec!(0.0002));
    assert_eq!(decimal(&rules["takerFeeRate"]), dec!(0.0007));
    assert_eq!(decimal(&rules["maxLeverage"]), dec!(125));
    assert_eq!(decimal(&rules["fundingCap"]), dec!(0.0075));
    let tiers = rules["tiers"].as_array().unwrap();
    let expected = btc_tiers();
    assert_eq!(tiers.len(), expected.len());
    for (tier, want) in tiers.iter().zip(&expected) {
        assert_eq!(decimal(&tier["notionalFloor"]), want.notional_floor);
        assert_eq!(decimal(&tier["notionalCap"]), want.notional_cap);
        assert_eq!(decimal(&tier["maxLeverage"]), want.max_leverage);
        assert_eq!(decimal(&tier["mmr"]), want.mmr);
        assert_eq!(decimal(&tier["cum"]), want.cum);
    }
    // A pair that is not a perpetual.
    let (status, _, body) = app.get("/api/contract/coin/rules?symbol=nopeusdt").await;
    assert_ne!(status, 200, "{body}");
    let refused: Value = serde_json::from_str(&body).unwrap();
    assert_ne!(refused["code"], 200, "{body}");
    app.stop().await;
}
