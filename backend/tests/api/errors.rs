//! Bad input of every kind gets an envelope with a clear message; nothing panics; the server
//! keeps serving.

use crate::helpers::spawn_app;

#[tokio::test]
async fn an_unknown_api_path_is_a_404_envelope() {
    let app = spawn_app().await;
    let (status, body) = app.post("/api/nothing/here", None, &[]).await;
    assert_eq!(status, 404);
    assert_eq!(body["code"], 404);
    assert_eq!(body["msg"], "The requested resource does not exist");
    assert_eq!(body["data"]["reason"], "not_found");
    let (status, _, text) = app.get("/api/common/nope").await;
    assert_eq!(status, 404);
    assert!(text.contains("\"code\":404"));
    app.stop().await;
}

#[tokio::test]
async fn a_wrong_method_is_a_405_envelope() {
    let app = spawn_app().await;
    let (status, _, text) = app.get("/api/common/getCoinList").await;
    assert_eq!(status, 405);
    let body: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["code"], 405);
    app.stop().await;
}

#[tokio::test]
async fn malformed_json_is_a_400_in_the_users_language() {
    let app = spawn_app().await;
    let (status, body) = app
        .post(
            "/api/common/getCoinList",
            Some(r#"{"keyword": "#),
            &[("lang", "fr")],
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["code"], 400);
    assert_eq!(body["data"]["reason"], "malformed_json");
    let (_, english) = app.post("/api/common/getCoinList", Some("[1,"), &[]).await;
    assert_eq!(english["msg"], "The request body is not valid JSON");
    assert_ne!(body["msg"], english["msg"]);
    app.stop().await;
}

#[tokio::test]
async fn a_wrong_type_names_the_field() {
    let app = spawn_app().await;
    let (status, body) = app
        .post("/api/common/getCoinList", Some(r#"{"keyword": 5}"#), &[])
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["msg"], "Invalid value for field 'keyword'");
    assert_eq!(body["data"]["field"], "keyword");
    let (_, body) = app
        .post(
            "/api/common/getCoinList",
            Some(r#"{"market": "futures"}"#),
            &[("lang", "de")],
        )
        .await;
    assert_eq!(body["data"]["field"], "market");
    assert!(body["msg"].as_str().unwrap().contains("market"));
    assert_ne!(body["msg"], "Invalid value for field 'market'");
    let (_, body) = app
        .post("/api/common/getCoinList", Some(r#"{"symbol": "btc"}"#), &[])
        .await;
    assert_eq!(body["msg"], "Unknown field 'symbol'");
    app.stop().await;
}

#[tokio::test]
async fn a_validator_failure_is_a_400_naming_the_field() {
    let app = spawn_app().await;
    let long = "x".repeat(33);
    let (status, body) = app
        .post(
            "/api/common/getCoinList",
            Some(&format!(r#"{{"keyword": "{long}"}}"#)),
            &[],
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["data"]["reason"], "invalid_field");
    assert_eq!(body["data"]["field"], "keyword");
    assert_eq!(body["msg"], "Invalid value for field 'keyword'");
    app.stop().await;
}

#[tokio::test]
async fn a_body_that_is_not_json_is_a_415() {
    let app = spawn_app().await;
    let response = app
        .client
        .post(format!("{}/api/common/getCoinList", app.base))
        .header("content-type", "text/plain")
        .body("hello")
        .send()
        .await
        .unwrap();
    assert_eq!(response.status().as_u16(), 415);
    let body: serde_json::Value = response.json().await.unwrap();
    assert_eq!(body["code"], 415);
    app.stop().await;
}

#[tokio::test]
async fn the_server_keeps_serving_after_bad_input() {
    let app = spawn_app().await;
    for body in [
        "{",
        "null",
        "[]",
        "\"x\"",
        "{\"keyword\":{}}",
        "{\"market\":null}",
    ] {
        let (status, _) = app.post("/api/common/getCoinList", Some(body), &[]).await;
        assert!(status == 200 || status == 400, "{body} gave {status}");
    }
    let (status, _) = app.post("/api/common/getCoinList", None, &[]).await;
    assert_eq!(status, 200);
    app.stop().await;
}
