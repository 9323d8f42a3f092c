//! Spot trading over HTTP: market and limit orders against the house market maker and between
//! users, fees split to the security fund, cancellation releasing held funds, refusals that hold
//! nothing, idempotent submission, the user channel's order and fill messages, and the books
//! rebuilt from the database after a restart — with the ledger audit clean after every scenario.

use std::time::Duration;

use backend::funds::audit;
use backend::funds::ledger::{self, AccountRef, House};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::helpers::{
    Member, TestApp, accepted, crossing_orders_in_flight, spawn_app, spawn_app_in_with,
    spawn_app_with,
};

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
        .parse()
        .unwrap()
}

async fn submit(app: &TestApp, member: &Member, order: Value) -> (u16, Value) {
    app.post_as(&member.token, "/api/currency/order/submit", Some(order))
        .await
}

/// The user's `coin` balances: (funding, frozen).
async fn balance(app: &TestApp, member: &Member, coin: &str) -> (Decimal, Decimal) {
    let (status, body) = app
        .post_as(&member.token, "/api/userCoin/getUserCoin", None)
        .await;
    assert_eq!(status, 200, "{body}");
    let row = body["data"]["coins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["coin"] == coin)
        .unwrap_or_else(|| panic!("no {coin} in {body}"))
        .clone();
    (decimal(&row["funding"]), decimal(&row["frozen"]))
}

async fn orders(app: &TestApp, member: &Member, scope: &str) -> Vec<Value> {
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("/api/currency/order/orderList?scope={scope}&symbol=btcusdt"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["records"].as_array().unwrap().clone()
}

async fn cancel(app: &TestApp, member: &Member, id: i64) -> (u16, Value) {
    app.post_as(
        &member.token,
        &format!("/api/currency/order/cancelOrder?id={id}"),
        None,
    )
    .await
}

/// Waits until the house market maker quotes `symbol` (its first ladder after start).
async fn wait_for_asks(app: &TestApp, symbol: &str) {
    for _ in 0..200 {
        let (status, body) = app
            .post(
                "/api/market/depth",
                Some(&json!({"symbol": symbol}).to_string()),
                &[],
            )
            .await;
        assert_eq!(status, 200, "{body}");
        if body["data"]["asks"]
            .as_array()
            .is_some_and(|a| !a.is_empty())
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the market maker never quoted {symbol}");
}

async fn assert_audit_clean(app: &TestApp) {
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
}

/// An app without the simulator: the book holds only the users' orders.
async fn quiet_app() -> TestApp {
    spawn_app_with(|config| config.simulator.enabled = false).await
}

#[tokio::test]
async fn a_market_buy_fills_against_the_house_and_settles_through_the_ledger() {
    let app = spawn_app().await;
    let member = app.member("spot-buyer@example.com").await;
    app.credit(member.user_id, "usdt", dec!(1000)).await;
    wait_for_asks(&app, "btcusdt").await;

    // Until the market maker's first ladder (within a tick of the start) the book is empty and a
    // market order is refused with nothing held; the user tries again.
    let order =
        json!({"symbol": "BTCUSDT", "side": "buy", "orderType": "market", "quantity": "0.001"});
    let (mut status, mut body) = submit(&app, &member, order.clone()).await;
    for _ in 0..50 {
        if body["data"]["reason"] != "no_liquidity" {
            break;
        }
        assert_eq!(balance(&app, &member, "usdt").await, (dec!(1000), dec!(0)));
        tokio::time::sleep(Duration::from_millis(100)).await;
        (status, body) = submit(&app, &member, order.clone()).await;
    }
    assert_eq!(status, 200, "{body}");
    let order = &body["data"];
    assert_eq!(order["status"], "dealTotol", "{order}");
    assert_eq!(order["commissType"], "market");
    assert_eq!(decimal(&order["haveDealNum"]), dec!(0.001));
    assert_eq!(decimal(&order["serviceCharge"]), dec!(0.000001));
    assert_eq!(order["feeCoin"], "btc");
    let spent = decimal(&order["dealAmount"]);
    assert!(spent > dec!(10) && spent < dec!(1000), "{order}");
    assert_eq!(
        decimal(&order["dealAverPrice"]),
        (spent / dec!(0.001)).round_dp(12).normalize()
    );

    assert_eq!(
        balance(&app, &member, "btc").await,
        (dec!(0.000999), dec!(0))
    );
    assert_eq!(
        balance(&app, &member, "usdt").await,
        (dec!(1000) - spent, dec!(0))
    );
    let (status, fills) = app
        .post_as(
            &member.token,
            "/api/coin/coin/entrust/getEntrustLogCurrency",
            Some(json!({"symbol": "btcusdt"})),
        )
        .await;
    assert_eq!(status, 200, "{fills}");
    let records = fills["data"]["records"].as_array().unwrap();
    assert!(!records.is_empty());
    assert!(
        records
            .iter()
            .all(|f| f["role"] == "taker" && f["side"] == "buy")
    );
    let filled: Decimal = records.iter().map(|f| decimal(&f["quantity"])).sum();
    assert_eq!(filled, dec!(0.001));

    let (status, bills) = app
        .post_as(
            &member.token,
            "/api/coin/coin/assets/getMyBill",
            Some(json!({"kind": "spot_trade"})),
        )
        .await;
    assert_eq!(status, 200, "{bills}");
    assert!(bills["data"]["total"].as_u64().unwrap() >= 2, "{bills}");
    assert_eq!(orders(&app, &member, "history").await.len(), 1);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_resting_limit_order_is_listed_in_the_book_and_cancelling_releases_its_funds() {
    let app = quiet_app().await;
    let member = app.member("spot-limit@example.com").await;
    let other = app.member("spot-other@example.com").await;
    app.credit(member.user_id, "usdt", dec!(1000)).await;

    let (status, body) = submit(
        &app,
        &member,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "20000", "quantity": "0.01"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();
    assert_eq!(body["data"]["status"], "waitDeal");
    assert_eq!(decimal(&body["data"]["entrustedValue"]), dec!(200));
    assert_eq!(balance(&app, &member, "usdt").await, (dec!(800), dec!(200)));
    assert_eq!(orders(&app, &member, "current").await[0]["id"], id);
    let (_, depth) = app
        .post(
            "/api/market/depth",
            Some(&json!({"symbol": "btcusdt"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(depth["data"]["bids"], json!([["20000", "0.01"]]), "{depth}");

    let (status, body) = cancel(&app, &other, id).await;
    assert_eq!(
        (status, body["data"]["reason"].clone()),
        (400, json!("order_not_found")),
        "{body}"
    );

    let (status, body) = cancel(&app, &member, id).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "cancelled");
    assert_eq!(body["data"]["cancelReason"], "user");
    assert_eq!(balance(&app, &member, "usdt").await, (dec!(1000), dec!(0)));
    assert!(orders(&app, &member, "current").await.is_empty());
    assert_eq!(orders(&app, &member, "history").await[0]["id"], id);

    let (status, body) = cancel(&app, &member, id).await;
    assert_eq!(
        (status, body["data"]["reason"].clone()),
        (400, json!("order_not_open")),
        "{body}"
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn two_users_trade_and_ten_percent_of_each_fee_goes_to_the_security_fund() {
    let app = quiet_app().await;
    let seller = app.member("spot-seller@example.com").await;
    let buyer = app.member("spot-taker@example.com").await;
    app.credit(seller.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(10000)).await;

    let (status, ask) = submit(
        &app,
        &seller,
        json!({"symbol": "btcusdt", "side": "sell", "orderType": "limit", "price": "50000", "quantity": "0.1"}),
    )
    .await;
    assert_eq!(status, 200, "{ask}");
    let ask_id = ask["data"]["id"].as_i64().unwrap();

    let (status, bought) = submit(
        &app,
        &buyer,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "market", "quoteAmount": "2500"}),
    )
    .await;
    assert_eq!(status, 200, "{bought}");
    assert_eq!(bought["data"]["status"], "dealTotol", "{bought}");
    assert_eq!(decimal(&bought["data"]["haveDealNum"]), dec!(0.05));
    // Taker fee 0.1 % in BTC; maker fee 0.1 % in USDT; 10 % of each to the security fund.
    assert_eq!(balance(&app, &buyer, "btc").await, (dec!(0.04995), dec!(0)));
    assert_eq!(balance(&app, &buyer, "usdt").await, (dec!(7500), dec!(0)));
    assert_eq!(
        balance(&app, &seller, "usdt").await,
        (dec!(2497.5), dec!(0))
    );
    assert_eq!(balance(&app, &seller, "btc").await, (dec!(0.9), dec!(0.05)));
    let house = |house: House, asset: &'static str| {
        let db = app.db().clone();
        async move {
            ledger::balance(&db, AccountRef::House(house), asset)
                .await
                .unwrap()
        }
    };
    assert_eq!(house(House::SecurityFund, "usdt").await, dec!(0.25));
    assert_eq!(house(House::Fees, "usdt").await, dec!(2.25));
    assert_eq!(house(House::SecurityFund, "btc").await, dec!(0.000005));
    assert_eq!(house(House::Fees, "btc").await, dec!(0.000045));

    let open = orders(&app, &seller, "current").await;
    assert_eq!(open[0]["status"], "partDeal");
    assert_eq!(decimal(&open[0]["haveDealNum"]), dec!(0.05));

    // Self-trade prevention: the seller's crossing buy cancels their own resting ask.
    app.credit(seller.user_id, "usdt", dec!(5000)).await;
    let (status, own) = submit(
        &app,
        &seller,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "50000", "quantity": "0.01"}),
    )
    .await;
    assert_eq!(status, 200, "{own}");
    assert_eq!(own["data"]["status"], "waitDeal", "{own}");
    let history = orders(&app, &seller, "history").await;
    let cancelled = history.iter().find(|o| o["id"] == ask_id).unwrap();
    assert_eq!(cancelled["cancelReason"], "self_trade");
    assert_eq!(balance(&app, &seller, "btc").await, (dec!(0.95), dec!(0)));
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn refused_orders_hold_nothing_and_say_why() {
    let app = quiet_app().await;
    let maker = app.member("spot-maker@example.com").await;
    let member = app.member("spot-refused@example.com").await;
    app.credit(maker.user_id, "btc", dec!(1)).await;
    app.credit(member.user_id, "usdt", dec!(100)).await;
    let (status, body) = submit(
        &app,
        &maker,
        json!({"symbol": "btcusdt", "side": "sell", "orderType": "limit", "price": "50000", "quantity": "0.001"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let cases = [
        (
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "49000.005", "quantity": "0.001"}),
            "price",
        ),
        (
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "49000", "quantity": "0.0000015"}),
            "quantity",
        ),
        (
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "1000", "quantity": "0.001"}),
            "quantity",
        ),
        (
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "0", "quantity": "0.001"}),
            "price",
        ),
        (
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "-5", "quantity": "0.001"}),
            "price",
        ),
        (
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "49000", "quantity": "0.01"}),
            "quantity",
        ),
        (
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "40000", "quantity": "0.001", "timeInForce": "fok"}),
            "timeInForce",
        ),
        (
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "51000", "quantity": "0.001", "postOnly": true}),
            "postOnly",
        ),
        (
            json!({"symbol": "btcusdt", "side": "sell", "orderType": "market", "quantity": "0.001"}),
            "quantity",
        ),
        (
            json!({"symbol": "nopeusdt", "side": "buy", "orderType": "market", "quantity": "1"}),
            "symbol",
        ),
    ];
    for (order, field) in cases {
        let (status, body) = submit(&app, &member, order.clone()).await;
        assert_eq!(status, 400, "{order} → {body}");
        assert_eq!(body["data"]["field"], field, "{order} → {body}");
        assert!(!body["msg"].as_str().unwrap().is_empty());
    }
    let (_, body) = submit(
        &app,
        &member,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "49000", "quantity": "0.01"}),
    )
    .await;
    assert_eq!(body["data"]["reason"], "insufficient_balance", "{body}");
    let (_, body) = submit(
        &app,
        &member,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "40000", "quantity": "0.001", "timeInForce": "fok"}),
    )
    .await;
    assert_eq!(body["data"]["reason"], "fok_unfillable", "{body}");

    assert_eq!(balance(&app, &member, "usdt").await, (dec!(100), dec!(0)));
    assert!(orders(&app, &member, "current").await.is_empty());
    assert!(orders(&app, &member, "history").await.is_empty());
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_retried_order_with_the_same_key_is_placed_once() {
    let app = quiet_app().await;
    let member = app.member("spot-retry@example.com").await;
    app.credit(member.user_id, "usdt", dec!(1000)).await;
    let order = json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "30000", "quantity": "0.002"}).to_string();
    let headers = [
        ("satoken", member.token.as_str()),
        ("Idempotency-Key", "order-1"),
    ];
    let (first_status, first) = app
        .post("/api/currency/order/submit", Some(&order), &headers)
        .await;
    let (second_status, second) = app
        .post("/api/currency/order/submit", Some(&order), &headers)
        .await;
    assert_eq!(
        (first_status, second_status),
        (200, 200),
        "{first} {second}"
    );
    assert_eq!(first["data"]["id"], second["data"]["id"]);
    assert_eq!(orders(&app, &member, "current").await.len(), 1);
    assert_eq!(balance(&app, &member, "usdt").await, (dec!(940), dec!(60)));
    let other = json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "30000", "quantity": "0.003"}).to_string();
    let (status, body) = app
        .post("/api/currency/order/submit", Some(&other), &headers)
        .await;
    assert_eq!(
        (status, body["data"]["reason"].clone()),
        (400, json!("idempotency_key_reused"))
    );
    // Sent twice at once (one batch or two), with a key full of quotes and SQL: placed once.
    let odd_key = r#"it's"odd"\';--DROP"#;
    let headers = [
        ("satoken", member.token.as_str()),
        ("Idempotency-Key", odd_key),
    ];
    let (a, b) = tokio::join!(
        app.post("/api/currency/order/submit", Some(&other), &headers),
        app.post("/api/currency/order/submit", Some(&other), &headers),
    );
    assert_eq!((a.0, b.0), (200, 200), "{} {}", a.1, b.1);
    assert_eq!(a.1["data"]["id"], b.1["data"]["id"]);
    assert_eq!(orders(&app, &member, "current").await.len(), 2);
    assert_eq!(balance(&app, &member, "usdt").await, (dec!(850), dec!(150)));
    app.stop().await;
}

#[tokio::test]
async fn order_changes_and_fills_reach_the_users_channel() {
    let app = quiet_app().await;
    let seller = app.member("spot-push-seller@example.com").await;
    let buyer = app.member("spot-push-buyer@example.com").await;
    app.credit(seller.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(1000)).await;
    let mut channel = app
        .channel(&format!(
            "/ws/user/push/{}?satoken={}",
            seller.user_id, seller.token
        ))
        .await;
    let (status, body) = submit(
        &app,
        &seller,
        json!({"symbol": "btcusdt", "side": "sell", "orderType": "limit", "price": "40000", "quantity": "0.01"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let placed = channel.next_of("order").await;
    assert_eq!(placed["data"]["status"], "waitDeal", "{placed}");

    let (status, body) = submit(
        &app,
        &buyer,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "market", "quantity": "0.01"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let fill = channel.next_of("fill").await;
    assert_eq!(fill["data"]["role"], "maker");
    assert_eq!(fill["data"]["side"], "sell");
    assert_eq!(decimal(&fill["data"]["fee"]), dec!(0.4));
    let done = channel.next_of("order").await;
    assert_eq!(done["data"]["status"], "dealTotol", "{done}");
    app.stop().await;
}

#[tokio::test]
async fn after_a_restart_under_load_the_books_equal_the_open_orders_and_the_audit_is_clean() {
    let app = quiet_app().await;
    let mut members = Vec::new();
    for n in 0..4 {
        let member = app.member(&format!("spot-restart-{n}@example.com")).await;
        app.credit(member.user_id, "usdt", dec!(100000)).await;
        app.credit(member.user_id, "btc", dec!(10)).await;
        members.push(member);
    }
    // Crossing buys and sells from four users, in flight while the server stops.
    let flight = crossing_orders_in_flight(&app, &members, 120);
    // Stop once the first orders are in, with the rest still arriving.
    for _ in 0..200 {
        if !orders(&app, &members[0], "current").await.is_empty()
            || !orders(&app, &members[0], "history").await.is_empty()
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    let (dir, postgres) = app.stop_keeping_data().await;
    let placed = accepted(flight).await;
    assert!(placed > 0, "no order went through before the stop");

    let app = spawn_app_in_with(dir, postgres, |config| config.simulator.enabled = false).await;
    assert_audit_clean(&app).await;
    // Every open order is in the rebuilt book: cancelling each works and releases exactly what
    // it held, after which nothing is frozen.
    for member in &members {
        let token = app.login(&member.account, crate::helpers::PASSWORD).await;
        let member = Member {
            token,
            ..member.clone()
        };
        for order in orders(&app, &member, "current").await {
            let (status, body) = cancel(&app, &member, order["id"].as_i64().unwrap()).await;
            assert_eq!(status, 200, "{body}");
        }
        assert_eq!(balance(&app, &member, "usdt").await.1, dec!(0));
        assert_eq!(balance(&app, &member, "btc").await.1, dec!(0));
    }
    let (_, depth) = app
        .post(
            "/api/market/depth",
            Some(&json!({"symbol": "btcusdt"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(depth["data"]["bids"], json!([]), "{depth}");
    assert_eq!(depth["data"]["asks"], json!([]), "{depth}");
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_stop_limit_order_waits_for_its_trigger_then_trades() {
    let app = quiet_app().await;
    let seller = app.member("spot-stop-seller@example.com").await;
    let trader = app.member("spot-stop-trader@example.com").await;
    let taker = app.member("spot-stop-taker@example.com").await;
    app.credit(seller.user_id, "btc", dec!(1)).await;
    app.credit(trader.user_id, "usdt", dec!(1000)).await;
    app.credit(taker.user_id, "usdt", dec!(1000)).await;
    for (price, quantity) in [("51000", "0.01"), ("52000", "0.02")] {
        let (status, body) = submit(
            &app,
            &seller,
            json!({"symbol": "btcusdt", "side": "sell", "orderType": "limit", "price": price, "quantity": quantity}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
    // A first trade at 51,000 sets the last price.
    let (status, body) = submit(
        &app,
        &taker,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "51000", "quantity": "0.005"}),
    )
    .await;
    assert_eq!(
        (status, body["data"]["status"].clone()),
        (200, json!("dealTotol")),
        "{body}"
    );

    // A stop buy above the last price waits (its limit price held), then triggers when a trade
    // reaches 51,500 and takes the ask at 52,000 within its limit.
    let (status, body) = submit(
        &app,
        &trader,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "stop_limit", "triggerPrice": "51500",
            "price": "52000", "quantity": "0.01"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let stop_id = body["data"]["id"].as_i64().unwrap();
    assert_eq!(body["data"]["status"], "waitTrigger", "{body}");
    assert_eq!(decimal(&body["data"]["triggerPrice"]), dec!(51500));
    assert_eq!(balance(&app, &trader, "usdt").await, (dec!(480), dec!(520)));

    // Trades at 51,000 do not reach the trigger; one at 52,000 does.
    let (status, body) = submit(
        &app,
        &taker,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "market", "quantity": "0.005"}),
    )
    .await;
    assert_eq!(
        (status, body["data"]["status"].clone()),
        (200, json!("dealTotol")),
        "{body}"
    );
    assert_eq!(
        orders(&app, &trader, "current").await[0]["status"],
        "waitTrigger"
    );
    let (status, body) = submit(
        &app,
        &taker,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "52000", "quantity": "0.001"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let history = orders(&app, &trader, "history").await;
    let stop = history
        .iter()
        .find(|o| o["id"] == stop_id)
        .expect("the stop order finished");
    assert_eq!(stop["status"], "dealTotol", "{stop}");
    assert_eq!(decimal(&stop["haveDealNum"]), dec!(0.01));
    assert_eq!(balance(&app, &trader, "usdt").await, (dec!(480), dec!(0)));
    assert_eq!(
        balance(&app, &trader, "btc").await,
        (dec!(0.00999), dec!(0))
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn random_orders_conserve_every_asset_and_hold_exactly_what_open_orders_need() {
    let app = quiet_app().await;
    let mut traders = Vec::new();
    for n in 0..3 {
        let member = app.member(&format!("spot-random-{n}@example.com")).await;
        app.credit(member.user_id, "usdt", dec!(50000)).await;
        app.credit(member.user_id, "btc", dec!(1)).await;
        traders.push(member);
    }
    // A small deterministic generator (LCG): the same workload on every run.
    let mut seed: u64 = 0x5eed;
    let mut next = |bound: u64| {
        seed = seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (seed >> 33) % bound
    };
    for _ in 0..150 {
        let member = &traders[next(3) as usize];
        let side = if next(2) == 0 { "buy" } else { "sell" };
        let order = match next(10) {
            0 => {
                json!({"symbol": "btcusdt", "side": side, "orderType": "market", "quantity": format!("0.00{}", 1 + next(9))})
            }
            1 => {
                json!({"symbol": "btcusdt", "side": "buy", "orderType": "market", "quoteAmount": format!("{}", 10 + next(200))})
            }
            2 => {
                json!({"symbol": "btcusdt", "side": side, "orderType": "limit", "price": format!("{}", 49900 + next(200)),
                "quantity": format!("0.00{}", 1 + next(9)), "timeInForce": if next(2) == 0 { "ioc" } else { "fok" }})
            }
            3 => {
                let open = orders(&app, member, "current").await;
                if let Some(order) = open.first() {
                    let (status, body) = cancel(&app, member, order["id"].as_i64().unwrap()).await;
                    assert_eq!(status, 200, "{body}");
                }
                continue;
            }
            _ => {
                json!({"symbol": "btcusdt", "side": side, "orderType": "limit", "price": format!("{}", 49900 + next(200)),
                "quantity": format!("0.00{}", 1 + next(9))})
            }
        };
        let (status, body) = submit(&app, member, order.clone()).await;
        // Refusals are allowed (no liquidity, FOK); failures are not.
        assert!(status == 200 || status == 400, "{order} → {status} {body}");
    }

    let house = |house: House, asset: &'static str| {
        let db = app.db().clone();
        async move {
            ledger::balance(&db, AccountRef::House(house), asset)
                .await
                .unwrap()
        }
    };
    for (asset, credited) in [("usdt", dec!(150000)), ("btc", dec!(3))] {
        let mut total = house(House::Fees, asset).await + house(House::SecurityFund, asset).await;
        for member in &traders {
            let (funding, frozen) = balance(&app, member, asset).await;
            assert!(funding >= Decimal::ZERO && frozen >= Decimal::ZERO);
            total += funding + frozen;
        }
        assert_eq!(total, credited, "{asset} is conserved");
    }
    for member in &traders {
        let mut held = (Decimal::ZERO, Decimal::ZERO);
        for order in orders(&app, member, "current").await {
            let executed = decimal(&order["haveDealNum"]);
            if order["side"] == "buy" {
                held.0 += decimal(&order["entrustedValue"]) - decimal(&order["dealAmount"]);
            } else {
                held.1 += decimal(&order["commissNum"]) - executed;
            }
        }
        assert_eq!(balance(&app, member, "usdt").await.1, held.0);
        assert_eq!(balance(&app, member, "btc").await.1, held.1);
    }
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn the_market_maker_quotes_only_what_its_own_account_holds() {
    // A small inventory: 2,000 USDT of value per pair, half of it in BTC.
    let app = spawn_app_with(|config| config.trading.market_maker_inventory = dec!(2000)).await;
    wait_for_asks(&app, "btcusdt").await;
    let maker = AccountRef::House(House::MarketMaker);
    let btc = ledger::balance(app.db(), maker, "btc").await.unwrap();
    assert!(btc > Decimal::ZERO && btc < dec!(0.011), "{btc}");
    let usdt = ledger::balance(app.db(), maker, "usdt").await.unwrap();
    // The simulator's own book is shown until the market maker's first ladder replaces it.
    let mut within = false;
    for _ in 0..100 {
        let (_, depth) = app
            .post(
                "/api/market/depth",
                Some(&json!({"symbol": "btcusdt", "limit": 50}).to_string()),
                &[],
            )
            .await;
        let side = |name: &str| -> Vec<(Decimal, Decimal)> {
            depth["data"][name]
                .as_array()
                .unwrap()
                .iter()
                .map(|level| (decimal(&level[0]), decimal(&level[1])))
                .collect()
        };
        let asked: Decimal = side("asks").iter().map(|(_, quantity)| *quantity).sum();
        let bid: Decimal = side("bids")
            .iter()
            .map(|(price, quantity)| price * quantity)
            .sum();
        // Bids draw on the USDT every pair's inventory put into the one market-maker account.
        if !asked.is_zero() && asked <= btc && bid <= usdt {
            within = true;
            break;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    assert!(within, "the ladder never fitted {btc} BTC and {usdt} USDT");
    app.stop().await;

    // Without an inventory there is nothing to quote: a market order finds no liquidity.
    let app = spawn_app_with(|config| config.trading.market_maker_inventory = Decimal::ZERO).await;
    let member = app.member("spot-no-maker@example.com").await;
    app.credit(member.user_id, "usdt", dec!(100)).await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    let (status, body) = submit(
        &app,
        &member,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "market", "quoteAmount": "50"}),
    )
    .await;
    assert_eq!(
        (status, body["data"]["reason"].clone()),
        (400, json!("no_liquidity")),
        "{body}"
    );
    app.stop().await;
}

#[tokio::test]
async fn the_real_books_depth_diffs_chain_and_never_cross_while_users_trade() {
    let app = spawn_app().await;
    let member = app.member("spot-depth@example.com").await;
    app.credit(member.user_id, "usdt", dec!(100000)).await;
    let mut channel = app.market_channel("").await;
    channel
        .send(json!({"op": "subscribe", "channel": "depth", "symbol": "btcusdt"}))
        .await;
    let snapshot = loop {
        let message = channel.next_of("depth").await;
        if message["data"]["kind"] == "snapshot" {
            break message;
        }
    };
    let levels = |levels: &Value| -> std::collections::BTreeMap<Decimal, Decimal> {
        levels
            .as_array()
            .unwrap()
            .iter()
            .map(|level| (decimal(&level[0]), decimal(&level[1])))
            .collect()
    };
    let mut seq = snapshot["data"]["seq"].as_u64().unwrap();
    let mut bids = levels(&snapshot["data"]["bids"]);
    let mut asks = levels(&snapshot["data"]["asks"]);
    for n in 0..150 {
        if n % 5 == 0 {
            let order = json!({"symbol": "btcusdt", "side": "buy", "orderType": "market", "quoteAmount": "500"});
            let (status, body) = submit(&app, &member, order).await;
            assert!(status == 200 || status == 400, "{body}");
        }
        let diff = channel.next_of("depth").await;
        let data = &diff["data"];
        assert_eq!(data["kind"], "diff");
        assert_eq!(data["prevSeq"].as_u64().unwrap(), seq, "diff {n} follows");
        seq = data["seq"].as_u64().unwrap();
        for (book, side) in [(&mut bids, "bids"), (&mut asks, "asks")] {
            for level in data[side].as_array().unwrap() {
                let (price, quantity) = (decimal(&level[0]), decimal(&level[1]));
                if quantity.is_zero() {
                    book.remove(&price);
                } else {
                    book.insert(price, quantity);
                }
            }
        }
        if let (Some(bid), Some(ask)) = (bids.keys().next_back(), asks.keys().next()) {
            assert!(bid < ask, "crossed after diff {n}: {bid} ≥ {ask}");
        }
    }
    app.stop().await;
}
