//! `POST /api/market/kline`: history rolled up from the stored 1m candles, paged backwards, the
//! same history after a restart, and the cache of closed candles giving exactly the uncached
//! rollup's pages.

use backend::market::api;
use backend::market::candles::{history, newest_minute, save};
use poem_openapi::types::ToJSON;
use rust_decimal::Decimal;
use serde_json::{Value, json};
use wasm_core::kline::{Candle, Interval};

use crate::helpers::{TestApp, spawn_app, spawn_app_in, spawn_app_with};

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
    // Strictly one of the document's values: no surrounding spaces, no empty interval.
    for interval in [" 1m", ""] {
        let (status, body) = app
            .post(
                "/api/market/kline",
                Some(&format!(
                    r#"{{"symbol":"btcusdt","interval":"{interval}"}}"#
                )),
                &[],
            )
            .await;
        assert_eq!(
            (status, body["data"]["reason"].as_str()),
            (400, Some("unknown_interval")),
            "{interval:?}: {body}"
        );
    }
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

/// 2024-01-15 03:41 UTC: neither an hour nor a day opens there.
const FIRST_MINUTE: i64 = 1_705_290_060_000;
/// Forty days of minutes, some missing: more than the 50,000 a page may read.
const STORED_DAYS: usize = 40;

/// The stored minutes of the cache tests from minute `from` to `to` (indices from
/// [`FIRST_MINUTE`]): every 97th missing, day 10 missing, day 20 with one minute in 17, three
/// hours missing on day 30; decimals carry trailing zeros (`65012.30`, `0.013000`).
fn stored_minutes(from: usize, to: usize, salt: i64) -> Vec<Candle> {
    let price = |i: usize| Decimal::new(6_500_000 + (i * 7919 % 10_000) as i64 * 10 + salt, 2);
    (from..to)
        .filter(|&i| i % 97 != 0)
        .filter(|&i| !(10 * 1440..11 * 1440).contains(&i))
        .filter(|&i| !(20 * 1440..21 * 1440).contains(&i) || i % 17 == 0)
        .filter(|&i| !(30 * 1440 + 300..30 * 1440 + 480).contains(&i))
        .map(|i| {
            let (open, close) = (price(i), price(i + 1));
            Candle {
                open_time: FIRST_MINUTE + i as i64 * MINUTE,
                open,
                high: open.max(close) + Decimal::new(150, 2),
                low: open.min(close) - Decimal::new(50, 2),
                close,
                base_volume: Decimal::new((i % 13 + 1) as i64 * 1000 + salt, 6),
                quote_volume: Decimal::new((i % 29 + 1) as i64 * 125_000, 4),
                trade_count: (i % 5 + 1) as u64,
            }
        })
        .collect()
}

/// The page `history` gives (the uncached rollup), as the handler would write it.
async fn uncached(app: &TestApp, body: &Value) -> Value {
    let interval = Interval::parse(body["interval"].as_str().unwrap()).unwrap();
    let symbol = body["symbol"].as_str().unwrap().to_ascii_lowercase();
    let page = history(
        app.db(),
        &symbol,
        interval,
        body["endTime"].as_i64(),
        body["limit"].as_u64().map_or(500, |l| l as u32),
        body["offsetMinutes"].as_i64().unwrap_or(0) as i32,
    )
    .await
    .expect("the uncached rollup");
    let page = api::KlinePage {
        symbol,
        interval: interval.as_str().into(),
        candles: page
            .candles
            .iter()
            .map(|c| api::KlineCandle {
                open_time: c.open_time,
                open: c.open,
                high: c.high,
                low: c.low,
                close: c.close,
                base_volume: c.base_volume,
                quote_volume: c.quote_volume,
                trade_count: c.trade_count,
            })
            .collect(),
        has_more: page.has_more,
    };
    page.to_json().expect("JSON")
}

/// The raw body of `POST /api/market/kline` with `body`.
async fn kline_text(app: &TestApp, body: &Value) -> String {
    let response = app
        .client
        .post(format!("{}/api/market/kline", app.base))
        .header("content-type", "application/json")
        .body(body.to_string())
        .send()
        .await
        .expect("answered");
    assert_eq!(response.status(), 200);
    response.text().await.expect("a body")
}

/// Asks for `body` and checks the answer against the uncached rollup; returns the raw answer.
async fn checked(app: &TestApp, body: &Value) -> (String, Value) {
    let text = kline_text(app, body).await;
    let answer: Value = serde_json::from_str(&text).expect("JSON");
    assert_eq!(answer["code"], 200, "{body}: {text}");
    let expected = uncached(app, body).await;
    assert!(
        answer["data"] == expected,
        "{body}: cached {} candles (hasMore {}), uncached {} (hasMore {})",
        candles(&answer).len(),
        answer["data"]["hasMore"],
        expected["candles"].as_array().map_or(0, Vec::len),
        expected["hasMore"],
    );
    (text, answer)
}

#[tokio::test]
async fn cached_pages_are_the_uncached_rollup_cold_warm_and_after_new_minutes() {
    let app = spawn_app_with(|config| config.simulator.enabled = false).await;
    let last = STORED_DAYS * 1440;
    save(app.db(), "btcusdt", &stored_minutes(0, last, 0))
        .await
        .expect("stored");
    let newest = FIRST_MINUTE + (last as i64 - 1) * MINUTE;

    // Every interval at UTC, +05:45 and an odd offset (some at −09:30 too), newest page first,
    // then two pages back; then pages that end inside a bucket, past the newest minute, before the
    // first one, and of other sizes.
    let mut requests = Vec::new();
    for interval in ["5m", "15m", "30m", "1h", "2h", "4h", "1d", "1w", "1M"] {
        let half_hour_zone = matches!(interval, "30m" | "1d" | "1M");
        for offset in [0, 345, -570, 7] {
            if offset == -570 && !half_hour_zone {
                continue;
            }
            let mut body =
                json!({"symbol": "BTCUSDT", "interval": interval, "offsetMinutes": offset});
            for _ in 0..3 {
                let (text, answer) = checked(&app, &body).await;
                requests.push((body.clone(), text));
                let Some(first) = open_times(&answer).first().copied() else {
                    break;
                };
                if answer["data"]["hasMore"] != true {
                    break;
                }
                body["endTime"] = json!(first);
            }
        }
    }
    for (interval, end, limit, offset) in [
        ("1h", newest - 12_345_678, 37, 0),
        ("1d", newest - 3 * 86_400_000 - 4321, 5, 480),
        ("1M", newest - 20 * 86_400_000, 1, -225),
        ("4h", newest + 10 * 86_400_000, 1000, 0),
        ("30m", FIRST_MINUTE + 100 * MINUTE, 1000, 0),
        ("1w", FIRST_MINUTE, 10, 0),
        ("15m", FIRST_MINUTE + 20 * 1440 * MINUTE, 1000, 345),
    ] {
        let body = json!({"symbol": "btcusdt", "interval": interval, "endTime": end,
            "limit": limit, "offsetMinutes": offset});
        let (text, _) = checked(&app, &body).await;
        requests.push((body, text));
    }
    let cache = app.state().kline_cache.clone();
    assert!(cache.cached_candles() > 0);

    // Warm: the same bytes.
    let loaded = cache.minutes_loaded();
    for (body, cold) in &requests {
        assert_eq!(&kline_text(&app, body).await, cold, "{body}");
    }
    let warm_minutes = cache.minutes_loaded() - loaded;
    assert!(
        warm_minutes < 100 * requests.len() as u64,
        "{warm_minutes} minutes read for {} warm pages",
        requests.len()
    );

    // The newest minute is stored again with more trades, and 25 more close past an hour and
    // a −03:45 day: the cached buckets before them stay, the newest pages follow.
    save(app.db(), "btcusdt", &stored_minutes(last - 1, last + 25, 3))
        .await
        .expect("stored");
    for interval in ["5m", "15m", "30m", "1h", "2h", "4h", "1d", "1w", "1M"] {
        for offset in [0, 345, -225] {
            let body = json!({"symbol": "btcusdt", "interval": interval, "offsetMinutes": offset, "limit": 300});
            let (cold, _) = checked(&app, &body).await;
            assert_eq!(kline_text(&app, &body).await, cold, "{body}");
        }
    }
    app.stop().await;
}

#[tokio::test]
async fn cached_pages_are_the_uncached_rollup_while_the_simulator_stores_minutes() {
    let app = spawn_app().await;
    for interval in ["5m", "30m", "1h", "4h", "1d", "1w", "1M"] {
        for offset in [0, 345] {
            let body = json!({"symbol": "ethusdt", "interval": interval, "offsetMinutes": offset});
            // A minute that closes between the answer and the rollup changes the newest
            // candle: ask again then.
            let mut attempts = 0;
            loop {
                let before = newest_minute(app.db(), "ethusdt").await.unwrap();
                let text = kline_text(&app, &body).await;
                let answer: Value = serde_json::from_str(&text).unwrap();
                let expected = uncached(&app, &body).await;
                let after = newest_minute(app.db(), "ethusdt").await.unwrap();
                if before != after && attempts < 3 {
                    attempts += 1;
                    continue;
                }
                assert_eq!(answer["data"], expected, "{body}");
                assert!(!candles(&answer).is_empty());
                break;
            }
        }
    }
    app.stop().await;
}
