//! The test clock call (`POST /api/admin/test/clock/advance`): absent from a default server,
//! operators only when `test_clock` is on, and it moves the clock earn reads.

use serde_json::json;

use crate::helpers::{spawn_app, spawn_app_with};
use crate::kyc::operator;

const ADVANCE: &str = "/api/admin/test/clock/advance";

#[tokio::test]
async fn a_default_server_does_not_serve_the_test_clock() {
    let app = spawn_app().await;
    let ops = operator(&app, "ops@example.com").await;
    let before = app.state().clock.offset_ms();
    let (status, _) = app.post_as(&ops, ADVANCE, Some(json!({"days": 2}))).await;
    assert_eq!(status, 404);
    assert_eq!(app.state().clock.offset_ms(), before);
    let (_, spec, _) = app.get("/api/openapi.json").await;
    assert!(!spec.contains("test/clock"));
    app.stop().await;
}

#[tokio::test]
async fn with_the_flag_an_operator_moves_the_clock_and_a_member_cannot() {
    let app = spawn_app_with(|config| config.test_clock = true).await;
    let member = app.member("member@example.com").await;
    let (status, _) = app
        .post_as(&member.token, ADVANCE, Some(json!({"days": 1})))
        .await;
    assert_eq!(status, 403);
    assert_eq!(app.state().clock.offset_ms(), 0);

    let ops = operator(&app, "ops@example.com").await;
    let (status, body) = app
        .post_as(&ops, ADVANCE, Some(json!({"days": 2, "ms": 5})))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["offsetMs"], 2 * 86_400_000 + 5);
    assert_eq!(app.state().clock.offset_ms(), 2 * 86_400_000 + 5);
    assert_eq!(app.state().earn.clock().offset_ms(), 2 * 86_400_000 + 5);

    let (status, _) = app
        .post_as(&ops, ADVANCE, Some(json!({"days": 4000})))
        .await;
    assert_eq!(status, 400);
    app.stop().await;
}
