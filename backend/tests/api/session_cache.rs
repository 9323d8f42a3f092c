//! The session cache of the hot trading calls (`submitSpotOrder`, `cancelSpotOrder`,
//! `listSpotOrders`) against the real app: each way a session ends is seen by those calls at the
//! next request, the expiry is exact, and a change written by another instance (straight to the
//! database here) is seen within the cache's TTL.

use backend::entity::user_session;
use backend::user::session_cache::TTL;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter, sea_query::Expr};
use serde_json::json;

use crate::helpers::{PASSWORD, TestApp, spawn_app};

const ORDERS: &str = "/api/currency/order/orderList?scope=current";

/// The status of the cached trading calls for `token`: the order list, a cancellation of an
/// order that does not exist (404 or 400 once past the session check) and an order.
async fn trading_statuses(app: &TestApp, token: &str) -> [u16; 3] {
    let (list, _) = app.post_as(token, ORDERS, None).await;
    let (cancel, _) = app
        .post_as(token, "/api/currency/order/cancelOrder?id=987654", None)
        .await;
    let (submit, _) = app
        .post_as(
            token,
            "/api/currency/order/submit",
            Some(
                json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit",
                "price": "1", "quantity": "1"}),
            ),
        )
        .await;
    [list, cancel, submit]
}

async fn assert_logged_in(app: &TestApp, token: &str) {
    let [list, cancel, submit] = trading_statuses(app, token).await;
    assert_eq!(list, 200);
    assert_ne!(cancel, 401);
    assert_ne!(submit, 401);
}

async fn assert_logged_out(app: &TestApp, token: &str, why: &str) {
    assert_eq!(trading_statuses(app, token).await, [401; 3], "{why}");
}

fn now_ms() -> i64 {
    chrono::Utc::now().timestamp_millis()
}

#[tokio::test]
async fn a_logout_ends_the_cached_calls_at_once() {
    let app = spawn_app().await;
    let member = app.member("cache-logout@example.com").await;
    assert_logged_in(&app, &member.token).await;
    let (status, body) = app.post_as(&member.token, "/api/user/logout", None).await;
    assert_eq!(status, 200, "{body}");
    assert_logged_out(&app, &member.token, "logged out").await;
    app.stop().await;
}

#[tokio::test]
async fn a_revoked_device_loses_the_cached_calls_at_once() {
    let app = spawn_app().await;
    let member = app.member("cache-device@example.com").await;
    let phone = app.login("cache-device@example.com", PASSWORD).await;
    assert_logged_in(&app, &phone).await;
    let (_, body) = app
        .get_as(&member.token, "/api/coin/coin/member/getLoginDevice")
        .await;
    let phone_id = body["data"]
        .as_array()
        .unwrap()
        .iter()
        .find(|device| device["current"] == false)
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("/api/coin/coin/member/deleteDevice/{phone_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_logged_out(&app, &phone, "the revoked device").await;
    assert_logged_in(&app, &member.token).await;
    app.stop().await;
}

#[tokio::test]
async fn a_password_change_ends_the_other_sessions_cached_calls_at_once() {
    let app = spawn_app().await;
    let member = app.member("cache-password@example.com").await;
    let laptop = app.login("cache-password@example.com", PASSWORD).await;
    assert_logged_in(&app, &laptop).await;
    assert_logged_in(&app, &member.token).await;
    crate::helpers::confirm_identity(&app, &member).await;
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/user/updatePwd",
            Some(json!({"oldPassword": PASSWORD, "password": "Newpass123",
                "confirmPassword": "Newpass123"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_logged_out(&app, &laptop, "another device after a password change").await;
    assert_logged_in(&app, &member.token).await;
    app.stop().await;
}

#[tokio::test]
async fn a_password_reset_ends_every_sessions_cached_calls_at_once() {
    let app = spawn_app().await;
    let member = app.member("cache-reset@example.com").await;
    assert_logged_in(&app, &member.token).await;
    app.state()
        .limiter
        .clear("code:target:cache-reset@example.com");
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": "cache-reset@example.com", "type": "reset"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let code = app.last_code("cache-reset@example.com").await;
    let reset = json!({"account": "cache-reset@example.com", "code": code,
        "password": "Newpass123", "confirmPassword": "Newpass123"})
    .to_string();
    let (status, body) = app.post("/api/user/backPwd", Some(&reset), &[]).await;
    assert_eq!(status, 200, "{body}");
    assert_logged_out(&app, &member.token, "after a reset").await;
    app.stop().await;
}

#[tokio::test]
async fn a_reauthentication_is_seen_at_once_and_keeps_the_session() {
    let app = spawn_app().await;
    let member = app.member("cache-reauth@example.com").await;
    assert_logged_in(&app, &member.token).await;
    // The fund password needs a recent re-authentication of this session.
    let fund_password = json!({"password": "123456", "confirmPassword": "123456"});
    let path = "/api/coin/coin/member/tradePwd";
    let (status, body) = app
        .post_as(&member.token, path, Some(fund_password.clone()))
        .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("reauth_required")),
        "{body}"
    );
    crate::helpers::confirm_identity(&app, &member).await;
    let (status, body) = app.post_as(&member.token, path, Some(fund_password)).await;
    assert_eq!(status, 200, "{body}");
    assert_logged_in(&app, &member.token).await;
    app.stop().await;
}

#[tokio::test]
async fn the_expiry_is_exact_for_the_cached_calls() {
    let app = spawn_app().await;
    let member = app.member("cache-expiry@example.com").await;
    // The session ends 1.5 s from now; the cache reads that end with the session.
    let ends_at = now_ms() + 1_500;
    user_session::Entity::update_many()
        .col_expr(user_session::Column::ExpiresAt, Expr::value(ends_at))
        .filter(user_session::Column::UserId.eq(member.user_id))
        .exec(app.db())
        .await
        .unwrap();
    assert_logged_in(&app, &member.token).await;
    let wait = ends_at - now_ms() + 50;
    assert!(
        wait > 0,
        "the machine was too slow to test before the expiry"
    );
    tokio::time::sleep(std::time::Duration::from_millis(wait as u64)).await;
    assert_logged_out(&app, &member.token, "expired").await;
    app.stop().await;
}

#[tokio::test]
async fn a_revocation_by_another_instance_is_seen_within_the_ttl() {
    let app = spawn_app().await;
    let member = app.member("cache-instance@example.com").await;
    assert_logged_in(&app, &member.token).await;
    // Another instance ends the session: only the database changes, this process is not told.
    user_session::Entity::update_many()
        .col_expr(user_session::Column::RevokedAt, Expr::value(now_ms()))
        .filter(user_session::Column::UserId.eq(member.user_id))
        .exec(app.db())
        .await
        .unwrap();
    let (status, _) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 401, "the uncached calls see it at once");
    tokio::time::sleep(TTL + std::time::Duration::from_millis(100)).await;
    assert_logged_out(&app, &member.token, "after the TTL").await;
    app.stop().await;
}
