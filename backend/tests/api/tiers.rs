//! User tiers over HTTP: the published table; an account tier crossed by a passed deposit (the
//! credit recomputes at once) with the progress to the next one; VIP reached by 30-day volume and
//! by assets (the periodic job's run), after which the spot and futures fees are exactly the
//! configured discount lower — and the ledger still balances.

use backend::entity::{spot_trade, user};
use backend::tiers::job::run_once;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{EntityTrait, QueryOrder};
use serde_json::{Value, json};

use crate::deposits::{assert_audit_clean, claim, decimal, review, usdt_claim};
use crate::helpers::{TestApp, spawn_app_with};
use crate::kyc::{operator, upload_sample};

async fn mine(app: &TestApp, token: &str) -> Value {
    let (status, body) = app.get_as(token, "/api/tiers/mine").await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

async fn run_job(app: &TestApp) {
    let state = app.state();
    run_once(
        app.db(),
        &state.hub,
        &state.config.tiers,
        &state.fee_discounts,
        backend::clock::now_ms(),
    )
    .await
    .unwrap();
}

async fn user_type(app: &TestApp, user_id: i64) -> String {
    user::Entity::find_by_id(user_id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap()
        .user_type
}

#[tokio::test]
async fn a_passed_deposit_moves_the_account_tier_at_once_with_its_progress() {
    let app = spawn_app_with(|config| {
        config.simulator.enabled = false;
        config.tiers.enabled = false;
        config.tiers.account_tier_minimums = [dec!(100), dec!(1000), dec!(10000)];
    })
    .await;
    let (status, first, second) = app.get("/api/tiers/table").await;
    assert_eq!(status, 200, "{first} {second}");
    let table: Value = serde_json::from_str(&first)
        .or_else(|_| serde_json::from_str(&second))
        .unwrap();
    let tiers: Vec<(String, Decimal)> = table["data"]["accountTiers"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| {
            (
                t["tier"].as_str().unwrap().to_owned(),
                decimal(&t["minimumDepositUsd"]),
            )
        })
        .collect();
    assert_eq!(
        tiers,
        vec![
            ("basic".to_owned(), dec!(0)),
            ("starter".to_owned(), dec!(100)),
            ("advanced".to_owned(), dec!(1000)),
            ("premium".to_owned(), dec!(10000)),
        ]
    );
    assert_eq!(decimal(&table["data"]["vipFeeDiscount"]), dec!(0.2));

    let member = app.member("tier.depositor@example.com").await;
    let before = mine(&app, &member.token).await;
    assert_eq!(before["accountTier"], "basic");
    assert_eq!(before["nextTier"], "starter");
    assert_eq!(decimal(&before["progressPercent"]), dec!(0));
    assert_eq!(before["userType"], "normal");

    let ops = operator(&app, "tier.ops@example.com").await;
    let screenshot = upload_sample(&app, &member, "png").await;
    let (_, body) = claim(&app, &member.token, None, usdt_claim("550", screenshot)).await;
    let id = body["data"]["id"].as_i64().unwrap();
    // Under review nothing moves.
    assert_eq!(mine(&app, &member.token).await["accountTier"], "basic");
    let (status, body) = review(&app, &ops, id, true, None).await;
    assert_eq!(status, 200, "{body}");

    let after = mine(&app, &member.token).await;
    assert_eq!(after["accountTier"], "starter", "{after}");
    assert_eq!(decimal(&after["depositsUsd"]), dec!(550));
    assert_eq!(after["nextTier"], "advanced");
    assert_eq!(decimal(&after["nextMinimumUsd"]), dec!(1000));
    // (550 − 100) / (1000 − 100) = 50 %.
    assert_eq!(decimal(&after["progressPercent"]), dec!(50));
    app.stop().await;
}

/// `seller` rests 0.01 BTC at 50,000 (maker, its fee in USDT) and `buyer` takes it (its fee in BTC).
async fn sale(app: &TestApp, seller: &str, buyer: &str) {
    let (status, body) = app
        .post_as(
            seller,
            "/api/currency/order/submit",
            Some(
                json!({"symbol": "btcusdt", "side": "sell", "orderType": "limit",
                "price": "50000", "quantity": "0.01"}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .post_as(
            buyer,
            "/api/currency/order/submit",
            Some(
                json!({"symbol": "btcusdt", "side": "buy", "orderType": "market",
                "quoteAmount": "500"}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "dealTotol", "{body}");
}

async fn last_fees(app: &TestApp) -> (Decimal, Decimal) {
    let trade = spot_trade::Entity::find()
        .order_by_desc(spot_trade::Column::Id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    (
        trade.maker_fee.parse().unwrap(),
        trade.taker_fee.parse().unwrap(),
    )
}

#[tokio::test]
async fn volume_makes_a_vip_and_its_spot_fees_are_exactly_the_discount_lower() {
    let app = spawn_app_with(|config| {
        config.simulator.enabled = false;
        config.tiers.enabled = false;
        config.referral.enabled = false;
        config.tiers.vip_volume_usdt = dec!(400);
        config.tiers.vip_assets_usdt = dec!(1000000000);
        config.tiers.vip_fee_discount = dec!(0.2);
    })
    .await;
    let seller = app.member("vip.seller@example.com").await;
    let buyer = app.member("vip.buyer@example.com").await;
    app.credit(seller.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(10000)).await;

    // Normal users: 0.1 % each side (maker 0.5 USDT, taker 0.00001 BTC).
    sale(&app, &seller.token, &buyer.token).await;
    assert_eq!(last_fees(&app).await, (dec!(0.5), dec!(0.00001)));
    assert_eq!(user_type(&app, seller.user_id).await, "normal");

    // 500 USDT of volume each, over the 400 threshold: the job makes both VIP.
    run_job(&app).await;
    assert_eq!(user_type(&app, seller.user_id).await, "vip");
    let tiers = mine(&app, &seller.token).await;
    assert_eq!(tiers["userType"], "vip");
    assert_eq!(decimal(&tiers["volumeUsdt"]), dec!(500));
    assert_eq!(decimal(&tiers["feeDiscount"]), dec!(0.2));

    // 20 % off: 0.08 % each side.
    sale(&app, &seller.token, &buyer.token).await;
    assert_eq!(last_fees(&app).await, (dec!(0.4), dec!(0.000008)));
    assert_eq!(
        crate::referral::usdt(&app, seller.user_id).await,
        dec!(499.5) + dec!(499.6)
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn assets_make_a_vip_and_its_futures_fee_is_exactly_the_discount_lower() {
    let app = spawn_app_with(|config| {
        crate::futures::configure(config);
        config.tiers.enabled = false;
        config.tiers.vip_volume_usdt = dec!(1000000000);
        config.tiers.vip_assets_usdt = dec!(5000);
        config.tiers.vip_fee_discount = dec!(0.2);
    })
    .await;
    let alice = app.member("vip.alice@example.com").await;
    crate::futures::fund(&app, &alice, dec!(10000)).await;
    crate::futures::set_price(&app, dec!(50000), dec!(50000)).await;
    run_job(&app).await;
    assert_eq!(user_type(&app, alice.user_id).await, "vip");
    assert_eq!(
        decimal(&mine(&app, &alice.token).await["assetsUsdt"]),
        dec!(10000)
    );

    // 1 BTC at an average of 50,005: the taker fee 25.0025 less 20 %.
    let (status, body) = crate::futures::submit(
        &app,
        &alice,
        json!({"symbol": "BTCUSDT", "side": "buy", "orderType": "market",
            "quantity": "1", "leverage": "10", "marginMode": "isolated"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "dealTotol");
    assert_eq!(decimal(&body["data"]["serviceCharge"]), dec!(20.002));
    assert_audit_clean(&app).await;
    app.stop().await;
}
