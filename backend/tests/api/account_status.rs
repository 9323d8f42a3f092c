//! Account status on the live user channel: an operator freezing an account (and who may), the
//! frozen account's login refused, and the `USER_STATUS` message its open sockets get before they
//! close — `frozen` for a freeze, `session_revoked` for a device removed from the device list; and
//! what a freeze withdraws from the markets (spot orders, futures orders, stop orders, take profit
//! and stop loss), through the engines' own cancels, with the ledger audit clean.

use backend::entity::{futures_order, futures_position, futures_stop, spot_order};
use backend::funds::audit;
use backend::funds::ledger::{self, AccountRef, Bucket};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{Member, PASSWORD, TestApp, spawn_app, spawn_app_with};
use crate::kyc::operator;

fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

async fn login_answer(app: &TestApp, account: &str) -> (u16, Value) {
    app.post(
        "/api/user/login",
        Some(&serde_json::json!({"account": account, "password": PASSWORD}).to_string()),
        &[],
    )
    .await
}

#[tokio::test]
async fn a_frozen_account_is_told_live_signed_out_and_kept_out_until_unfrozen() {
    let app = spawn_app().await;
    let alice = app.member("frozen-alice@example.com").await;
    let bob = app.member("frozen-bob@example.com").await;
    let ops = operator(&app, "frozen-ops@example.com").await;
    let freeze = |id: i64| format!("/api/admin/users/{id}/freeze");

    // Only operators freeze, never an operator's account, and only accounts that exist.
    let (status, body) = app.post_as(&bob.token, &freeze(alice.user_id), None).await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    let (status, body) = app
        .get_as(
            &bob.token,
            "/api/admin/users/find?account=frozen-alice@example.com",
        )
        .await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    let (status, body) = app.post_as(&ops, &freeze(999_999), None).await;
    assert_eq!(
        (status, reason(&body)),
        (404, "account_not_found"),
        "{body}"
    );
    let (_, body) = app.post_as(&ops, "/api/user/getInfo", None).await;
    let ops_id = body["data"]["user"]["userId"]
        .as_i64()
        .expect("the operator's id");
    let (status, body) = app.post_as(&ops, &freeze(ops_id), None).await;
    assert_eq!(
        (status, reason(&body)),
        (403, "operator_not_freezable"),
        "{body}"
    );

    let (status, body) = app
        .get_as(
            &ops,
            "/api/admin/users/find?account=Frozen-Alice@example.com",
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["userId"], alice.user_id);
    assert_eq!(body["data"]["frozen"], false);

    let mut channel = app
        .channel(&format!(
            "/ws/user/push/{}?satoken={}",
            alice.user_id, alice.token
        ))
        .await;
    channel.next_of("au").await;
    let mut bobs = app
        .channel(&format!(
            "/ws/user/push/{}?satoken={}",
            bob.user_id, bob.token
        ))
        .await;
    bobs.next_of("au").await;

    let (status, body) = app.post_as(&ops, &freeze(alice.user_id), None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["frozen"], true, "{body}");
    let frozen_at = body["data"]["frozenAt"].as_i64().expect("frozenAt");

    let status_message = channel.next_of("USER_STATUS").await;
    assert_eq!(
        status_message["data"]["status"], "frozen",
        "{status_message}"
    );
    assert_eq!(channel.closed().await, Some(4401));
    let (status, _) = app.post_as(&alice.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 401, "the frozen account's sessions ended");
    let (status, body) = login_answer(&app, &alice.account).await;
    assert_eq!((status, reason(&body)), (400, "account_frozen"), "{body}");
    // A wrong password learns nothing about the account.
    let (status, body) = app
        .post(
            "/api/user/login",
            Some(
                &serde_json::json!({"account": alice.account, "password": "Wrong1234"}).to_string(),
            ),
            &[],
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "invalid_credentials"),
        "{body}"
    );

    // Freezing again keeps the first time; Bob's channel went on untouched.
    let (_, body) = app.post_as(&ops, &freeze(alice.user_id), None).await;
    assert_eq!(body["data"]["frozenAt"], frozen_at, "{body}");
    bobs.send(serde_json::json!({"op": "ping", "ts": 3})).await;
    assert_eq!(bobs.next_of("pong").await["ts"], 3);

    let (status, body) = app
        .post_as(
            &ops,
            &format!("/api/admin/users/{}/unfreeze", alice.user_id),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["frozen"], false, "{body}");
    assert!(body["data"]["frozenAt"].is_null(), "{body}");
    app.login(&alice.account, PASSWORD).await;
    app.stop().await;
}

#[tokio::test]
async fn a_device_removed_from_the_device_list_is_told_its_session_was_revoked() {
    let app = spawn_app().await;
    let alice = app.member("revoked-alice@example.com").await;
    let laptop = app.login(&alice.account, PASSWORD).await;
    let mut channel = app
        .channel(&format!("/ws/user/push/{}?satoken={laptop}", alice.user_id))
        .await;
    channel.next_of("au").await;

    let (status, body) = app
        .get_as(&alice.token, "/api/coin/coin/member/getLoginDevice")
        .await;
    assert_eq!(status, 200, "{body}");
    let other = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|d| d["current"] == false)
        .and_then(|d| d["id"].as_i64())
        .expect("the laptop's session");
    let (status, body) = app
        .post_as(
            &alice.token,
            &format!("/api/coin/coin/member/deleteDevice/{other}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");

    let status_message = channel.next_of("USER_STATUS").await;
    assert_eq!(
        status_message["data"]["status"], "session_revoked",
        "{status_message}"
    );
    assert_eq!(channel.closed().await, Some(4401));
    app.stop().await;
}

async fn bucket(app: &TestApp, member: &Member, bucket: Bucket, coin: &str) -> Decimal {
    let account = AccountRef::User {
        user_id: member.user_id,
        bucket,
    };
    ledger::balance(app.db(), account, coin).await.unwrap()
}

async fn spot_depth_bids(app: &TestApp, symbol: &str) -> Value {
    let (status, body) = app
        .post(
            "/api/market/depth",
            Some(&json!({"symbol": symbol}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["bids"].clone()
}

async fn ok(app: &TestApp, member: &Member, path: &str, body: Value) -> Value {
    let (status, answer) = app.post_as(&member.token, path, Some(body)).await;
    assert_eq!(status, 200, "{path}: {answer}");
    answer["data"].clone()
}

#[tokio::test]
async fn freezing_withdraws_the_accounts_resting_spot_and_futures_orders_through_their_engines() {
    // No simulator: the ETH/USDT book holds only users' orders, and the futures mark is the test's.
    let app = spawn_app_with(crate::futures::configure).await;
    let alice = app.member("resting-alice@example.com").await;
    let ops = operator(&app, "resting-ops@example.com").await;
    app.credit(alice.user_id, "usdt", dec!(1000)).await;
    app.credit(alice.user_id, "eth", dec!(1)).await;
    crate::futures::fund(&app, &alice, dec!(20000)).await;
    crate::futures::set_price(&app, dec!(50000), dec!(50000)).await;

    // Spot: a resting limit buy and a stop-limit sell waiting for its trigger.
    let limit = ok(
        &app,
        &alice,
        "/api/currency/order/submit",
        json!({"symbol": "ethusdt", "side": "buy", "orderType": "limit", "price": "2000", "quantity": "0.1"}),
    )
    .await;
    assert_eq!(limit["status"], "waitDeal", "{limit}");
    let stop_limit = ok(
        &app,
        &alice,
        "/api/currency/order/submit",
        json!({"symbol": "ethusdt", "side": "sell", "orderType": "stop_limit", "triggerPrice": "1500",
            "price": "1500", "quantity": "0.05"}),
    )
    .await;
    assert_eq!(stop_limit["status"], "waitTrigger", "{stop_limit}");
    assert_eq!(
        spot_depth_bids(&app, "ethusdt").await,
        json!([["2000", "0.1"]])
    );
    assert_eq!(
        bucket(&app, &alice, Bucket::Frozen, "usdt").await,
        dec!(200)
    );
    assert_eq!(
        bucket(&app, &alice, Bucket::Frozen, "eth").await,
        dec!(0.05)
    );

    // Futures: a position with take profit and stop loss, a stop order on it, a resting limit buy.
    let (status, body) = crate::futures::submit(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "market", "quantity": "0.2", "leverage": "5"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    ok(
        &app,
        &alice,
        "/api/contract/position/stopOrder",
        json!({"symbol": "btcusdt", "takeProfitPrice": "52000", "stopLossPrice": "48000"}),
    )
    .await;
    ok(
        &app,
        &alice,
        "/api/contract/loss/sett",
        json!({"symbol": "btcusdt", "triggerPrice": "49000", "quantity": "0.1"}),
    )
    .await;
    let trading_before_limit = bucket(&app, &alice, Bucket::Trading, "usdt").await;
    let margin_before_limit = bucket(&app, &alice, Bucket::FuturesMargin, "usdt").await;
    let (status, body) = crate::futures::submit(
        &app,
        &alice,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit", "price": "45000", "quantity": "0.1", "leverage": "5"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "waitDeal", "{body}");
    assert!(bucket(&app, &alice, Bucket::Trading, "usdt").await < trading_before_limit);

    let (status, body) = app
        .post_as(
            &ops,
            &format!("/api/admin/users/{}/freeze", alice.user_id),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let frozen_at = body["data"]["frozenAt"].as_i64().expect("frozenAt");

    // Spot: out of the book and out of the market's open-order index, cancelled as a user's
    // cancel is, every hold back in funding.
    assert_eq!(spot_depth_bids(&app, "ethusdt").await, json!([]));
    let spot = spot_order::Entity::find()
        .filter(spot_order::Column::UserId.eq(alice.user_id))
        .all(app.db())
        .await
        .unwrap();
    assert_eq!(spot.len(), 2);
    for order in &spot {
        assert_eq!(order.status, "cancelled", "{order:?}");
        assert_eq!(order.cancel_reason.as_deref(), Some("user"), "{order:?}");
        assert!(
            order.frozen_remaining.parse::<Decimal>().unwrap().is_zero(),
            "{order:?}"
        );
        assert!(
            app.state()
                .spot
                .open_order_symbol(alice.user_id, order.id)
                .is_none()
        );
    }
    assert_eq!(bucket(&app, &alice, Bucket::Frozen, "usdt").await, dec!(0));
    assert_eq!(bucket(&app, &alice, Bucket::Frozen, "eth").await, dec!(0));
    assert_eq!(
        bucket(&app, &alice, Bucket::Funding, "usdt").await,
        dec!(1000)
    );
    assert_eq!(bucket(&app, &alice, Bucket::Funding, "eth").await, dec!(1));

    // Futures: the limit order cancelled with its hold back in the wallet, the stop order
    // cancelled, the take profit and stop loss cleared; the position stays.
    let orders = futures_order::Entity::find()
        .filter(futures_order::Column::UserId.eq(alice.user_id))
        .filter(futures_order::Column::OrderType.eq("limit"))
        .all(app.db())
        .await
        .unwrap();
    assert_eq!(orders.len(), 1);
    assert_eq!(orders[0].status, "cancelled", "{:?}", orders[0]);
    assert_eq!(
        bucket(&app, &alice, Bucket::Trading, "usdt").await,
        trading_before_limit
    );
    assert_eq!(
        bucket(&app, &alice, Bucket::FuturesMargin, "usdt").await,
        margin_before_limit
    );
    let stops = futures_stop::Entity::find()
        .filter(futures_stop::Column::UserId.eq(alice.user_id))
        .all(app.db())
        .await
        .unwrap();
    assert_eq!(stops.len(), 1);
    assert_eq!(stops[0].status, "cancelled", "{:?}", stops[0]);
    let position = futures_position::Entity::find()
        .filter(futures_position::Column::UserId.eq(alice.user_id))
        .filter(futures_position::Column::Status.eq("open"))
        .one(app.db())
        .await
        .unwrap()
        .expect("the position stays open");
    assert_eq!(
        (position.take_profit.clone(), position.stop_loss.clone()),
        (None, None)
    );
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");

    // Nothing placed before the freeze trades any more: past the take profit, then through the
    // stop order, the stop loss and the cancelled limit price, the position is as it was.
    for mark in [dec!(52500), dec!(44000)] {
        crate::futures::set_price(&app, mark, mark).await;
    }
    let after = futures_position::Entity::find_by_id(position.id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(after.status, "open");
    assert_eq!(after.size, position.size);
    assert_eq!(
        futures_order::Entity::find()
            .filter(futures_order::Column::UserId.eq(alice.user_id))
            .all(app.db())
            .await
            .unwrap()
            .len(),
        2,
        "the opening market order and the cancelled limit order, nothing since"
    );

    // Freezing again keeps the first time and finds nothing more to cancel.
    let (status, body) = app
        .post_as(
            &ops,
            &format!("/api/admin/users/{}/freeze", alice.user_id),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["frozenAt"], frozen_at, "{body}");
    assert_eq!(
        bucket(&app, &alice, Bucket::Funding, "usdt").await,
        dec!(1000)
    );
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
    app.stop().await;
}
