//! The user channel `/ws/user/push/{userId}`: `au` messages with the account's figures, only for
//! the token's own user, updated when the balances change, closed when the session ends.

use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app};

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("{value}"))
        .parse()
        .unwrap()
}

/// The HTTP status with which opening `path` is refused.
async fn refused(app: &TestApp, path: &str, cookie: Option<&str>) -> u16 {
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let url = format!("{}{path}", app.base.replace("http://", "ws://"));
    let mut request = url.into_client_request().unwrap();
    if let Some(cookie) = cookie {
        request
            .headers_mut()
            .insert("cookie", cookie.parse().unwrap());
    }
    match tokio_tungstenite::connect_async(request).await {
        Err(tokio_tungstenite::tungstenite::Error::Http(response)) => response.status().as_u16(),
        Err(other) => panic!("{path}: {other}"),
        Ok(_) => panic!("{path} opened"),
    }
}

#[tokio::test]
async fn only_the_tokens_own_user_gets_account_updates() {
    let app = spawn_app().await;
    let alice = app.member("push-alice@example.com").await;
    let bob = app.member("push-bob@example.com").await;
    let path = |user_id: i64, token: &str| format!("/ws/user/push/{user_id}?satoken={token}");

    assert_eq!(
        refused(&app, &format!("/ws/user/push/{}", alice.user_id), None).await,
        401
    );
    assert_eq!(
        refused(&app, &path(alice.user_id, &bob.token), None).await,
        401
    );
    assert_eq!(
        refused(&app, &path(alice.user_id, "forged"), None).await,
        401
    );
    let cookie = format!("lang=en; coin-access-token={}", bob.token);
    assert_eq!(
        refused(
            &app,
            &format!("/ws/user/push/{}", alice.user_id),
            Some(&cookie)
        )
        .await,
        401
    );

    app.credit(alice.user_id, "usdt", dec!(500)).await;
    let mut channel = app.channel(&path(alice.user_id, &alice.token)).await;
    let first = channel.next_of("au").await;
    assert_eq!(decimal(&first["data"]["price"]), dec!(500), "{first}");
    assert_eq!(decimal(&first["data"]["allMargin"]), dec!(0));
    assert_eq!(decimal(&first["data"]["userEar"]), dec!(0));

    // Moving funds to the trading account changes the margin: a new message follows.
    let (status, body) = app
        .post_as(
            &alice.token,
            "/api/asset/transferFunds",
            Some(json!({"coin": "usdt", "amount": "120", "from": "funding", "to": "trading"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let update = channel.next_of("au").await;
    assert_eq!(decimal(&update["data"]["allMargin"]), dec!(120), "{update}");
    assert_eq!(decimal(&update["data"]["price"]), dec!(500));

    channel.send(json!({"op": "ping", "ts": 7})).await;
    assert_eq!(channel.next_of("pong").await["ts"], 7);

    // Logging out ends the session and closes the channel with 4401.
    let (status, body) = app.post_as(&alice.token, "/api/user/logout", None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(channel.closed().await, Some(4401));
    app.stop().await;
}
