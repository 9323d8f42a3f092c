//! Numbers typed by users are read strictly on every call (`backend::number`): an amount or a
//! leverage with a space, a sign, a leading zero or a trailing point is refused with 400 and the
//! rule's own message naming the field, and nothing moves; an empty required string is
//! `field_required`. Before, `"10 "`, `"10."` and `"+10"` moved money and `"010"` set a leverage.

use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::helpers::spawn_app;

fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn amounts_and_leverage_in_another_form_are_refused_with_their_rule() {
    let app = spawn_app().await;
    let member = app.member("strict@example.com").await;
    app.credit(member.user_id, "usdt", dec!(100)).await;
    for (amount, rule) in [
        ("10 ", "invalid_number"),
        (" 10", "invalid_number"),
        ("+10", "invalid_number"),
        ("10.", "invalid_number"),
        ("010", "leading_zero"),
        ("1e1", "invalid_number"),
        ("", "field_required"),
    ] {
        let (status, body) = app
            .post_as(
                &member.token,
                "/api/asset/transferFunds",
                Some(json!({"coin": "usdt", "amount": amount, "from": "funding", "to": "trading"})),
            )
            .await;
        assert_eq!((status, reason(&body)), (400, rule), "{amount:?}: {body}");
        assert_eq!(body["data"]["field"], "amount", "{amount:?}: {body}");
        assert!(!body["msg"].as_str().unwrap_or_default().is_empty());
    }
    // Nothing moved; the plain form still does.
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/asset/transferFunds",
            Some(json!({"coin": "usdt", "amount": "10", "from": "funding", "to": "trading"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["fromBalance"], "90");

    for (leverage, rule) in [
        ("+10", "invalid_number"),
        ("010", "leading_zero"),
        ("10 ", "invalid_number"),
        ("10.0", "not_whole_number"),
    ] {
        let (status, body) = app
            .post_as(
                &member.token,
                "/api/contract/position/leverage",
                Some(json!({"symbol": "btcusdt", "leverage": leverage})),
            )
            .await;
        assert_eq!((status, reason(&body)), (400, rule), "{leverage:?}: {body}");
        assert_eq!(body["data"]["field"], "leverage", "{leverage:?}: {body}");
    }
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/contract/position/leverage",
            Some(json!({"symbol": "btcusdt", "leverage": "10"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn an_empty_required_string_is_field_required() {
    let app = spawn_app().await;
    let (status, body) = app
        .post(
            "/api/user/login",
            Some(&json!({"account": "", "password": "x"}).to_string()),
            &[],
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "field_required"), "{body}");
    assert_eq!(body["data"]["field"], "account", "{body}");
    app.stop().await;
}
