//! `POST /api/market/kline`: history rolled up from the stored 1m candles, paged backwards, and the
//! same history after a restart.

use serde_json::Value;

use crate::helpers::{spawn_app, spawn_app_in};

const MINUTE: i64 = 60_000;

fn candles(body: &Value) -> &Vec<Value> {
    body["data"]["candles"].as_array().expect("candles")
}

fn open_times(body: &Value) -> Vec<i64> {
    candles(body)
        .iter()
        .map(|c| c["openTime"].as_i64().unwrap())
        .collect()
}

#[tokio::test]
async fn one_minute_history_is_a_day_back_and_pages_backwards() {
    let app = spawn_app().await;
    let (status, first) = app
        .post(
            "/api/market/kline",
            Some(r#"{"symbol":"BTCUSDT","interval":"1m","limit":100}"#),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["data"]["symbol"], "btcusdt");
    assert_eq!(first["data"]["interval"], "1m");
    assert_eq!(first["data"]["hasMore"], true);
    let times = open_times(&first);
    assert_eq!(times.len(), 100);
    assert!(
        times.windows(2).all(|w| w[1] - w[0] == MINUTE),
        "consecutive minutes"
    );
    let candle = &candles(&first)[0];
    for field in ["open", "high", "low", "close", "baseVolume", "quoteVolume"] {
        assert!(candle[field].is_string(), "{field} is a decimal string");
    }
    let (high, low): (f64, f64) = (
        candle["high"].as_str().unwrap().parse().unwrap(),
        candle["low"].as_str().unwrap().parse().unwrap(),
    );
    assert!(high >= low);

    let body = format!(
        r#"{{"symbol":"btcusdt","interval":"1m","limit":100,"endTime":{}}}"#,
        times[0]
    );
    let (_, second) = app.post("/api/market/kline", Some(&body), &[]).await;
    let earlier = open_times(&second);
    assert_eq!(earlier.len(), 100);
    assert_eq!(
        earlier[99] + MINUTE,
        times[0],
        "the pages join without a gap or overlap"
    );

    // The backfill reaches a day back, so paging ends there.
    let body = format!(
        r#"{{"symbol":"btcusdt","interval":"1m","limit":1000,"endTime":{}}}"#,
        times[0] - 1300 * MINUTE
    );
    let (_, last) = app.post("/api/market/kline", Some(&body), &[]).await;
    assert_eq!(last["data"]["hasMore"], false);
    app.stop().await;
}

#[tokio::test]
async fn higher_intervals_follow_the_calendar_of_the_offset() {
    let app = spawn_app().await;
    let (_, hours) = app
        .post(
            "/api/market/kline",
            Some(r#"{"symbol":"ethusdt","interval":"1h","limit":30}"#),
            &[],
        )
        .await;
    let times = open_times(&hours);
    assert!(
        (24..=25).contains(&times.len()),
        "{} hourly candles",
        times.len()
    );
    assert!(times.iter().all(|t| t % (60 * MINUTE) == 0));
    let (_, days) = app
        .post(
            "/api/market/kline",
            Some(r#"{"symbol":"ethusdt","interval":"1d","offsetMinutes":480}"#),
            &[],
        )
        .await;
    let times = open_times(&days);
    assert!((1..=2).contains(&times.len()));
    assert!(
        times
            .iter()
            .all(|t| (t + 480 * MINUTE) % (1440 * MINUTE) == 0),
        "local midnight at +08:00"
    );
    app.stop().await;
}

#[tokio::test]
async fn bad_requests_say_what_is_wrong() {
    let app = spawn_app().await;
    let (status, body) = app
        .post(
            "/api/market/kline",
            Some(r#"{"symbol":"btcusdt","interval":"3m"}"#),
            &[],
        )
        .await;
    assert_eq!(status, 400);
    assert_eq!(body["msg"], "Unknown interval '3m'");
    assert_eq!(body["data"]["field"], "interval");
    let (_, german) = app
        .post(
            "/api/market/kline",
            Some(r#"{"symbol":"btcusdt","interval":"3m"}"#),
            &[("lang", "de")],
        )
        .await;
    assert_ne!(german["msg"], body["msg"]);
    let (status, body) = app
        .post(
            "/api/market/kline",
            Some(r#"{"symbol":"nopeusdt","interval":"1m"}"#),
            &[],
        )
        .await;
    assert_eq!(status, 404);
    assert_eq!(body["msg"], "Unknown trading pair 'nopeusdt'");
    for bad in [
        r#"{"symbol":"btcusdt","interval":"1m","limit":0}"#,
        r#"{"symbol":"btcusdt","interval":"1m","limit":1001}"#,
        r#"{"symbol":"btcusdt","interval":"1m","offsetMinutes":900}"#,
        r#"{"symbol":"btcusdt","interval":"1m","endTime":"yesterday"}"#,
        r#"{"symbol":"btcusdt"}"#,
    ] {
        let (status, body) = app.post("/api/market/kline", Some(bad), &[]).await;
        assert_eq!(status, 400, "{bad}: {body}");
    }
    app.stop().await;
}

#[tokio::test]
async fn the_history_survives_a_restart() {
    let app = spawn_app().await;
    let query = r#"{"symbol":"solusdt","interval":"15m","limit":20}"#;
    let (_, before) = app.post("/api/market/kline", Some(query), &[]).await;
    let (dir, database) = app.stop_keeping_data().await;
    let app = spawn_app_in(dir, database).await;
    let end = open_times(&before).last().copied().unwrap();
    let body = format!(r#"{{"symbol":"solusdt","interval":"15m","limit":19,"endTime":{end}}}"#);
    let (_, after) = app.post("/api/market/kline", Some(&body), &[]).await;
    // The closed quarter-hours are the stored ones, not a new backfill.
    assert_eq!(candles(&after)[..], candles(&before)[..19]);
    app.stop().await;
}
