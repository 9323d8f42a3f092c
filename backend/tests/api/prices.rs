//! The price info of a pair (`currencyPrice`, `getCurrencyPrice`) and its 24h statistics.

use rust_decimal::Decimal;

use crate::helpers::spawn_app;

fn decimal(value: &serde_json::Value) -> Decimal {
    value
        .as_str()
        .expect("a decimal string")
        .parse()
        .expect("a decimal")
}

#[tokio::test]
async fn the_price_info_of_a_pair() {
    let app = spawn_app().await;
    let (status, _, text) = app
        .get("/api/contract/coin/currencyPrice?symbol=BTCUSDT")
        .await;
    assert_eq!(status, 200, "{text}");
    let body: serde_json::Value = serde_json::from_str(&text).unwrap();
    let data = &body["data"];
    assert_eq!(data["symbol"], "btcusdt");
    assert_eq!(data["logo"], "/coin-logos/btc.svg");
    let (close, open) = (decimal(&data["close"]), decimal(&data["openPrice"]));
    assert_eq!(decimal(&data["change"]), close - open);
    let percent = wasm_core::format::price_change_percent(close, open).unwrap();
    assert_eq!(decimal(&data["priceChangePercent"]), percent);

    let (status, body) = app
        .post(
            "/api/texchange/getCurrencyPrice",
            Some(r#"{"symbol":"ethusdt"}"#),
            &[],
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["symbol"], "ethusdt");
    assert!(body["data"]["close"].is_string());
    app.stop().await;
}

#[tokio::test]
async fn the_24h_statistics_of_a_pair() {
    let app = spawn_app().await;
    let (status, body) = app
        .post(
            "/api/market/ticker24h",
            Some(r#"{"symbol":"solusdt"}"#),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    let (high, low, last) = (
        decimal(&data["highPrice"]),
        decimal(&data["lowPrice"]),
        decimal(&data["lastPrice"]),
    );
    assert!(low <= last && last <= high);
    assert_eq!(
        decimal(&data["priceChange"]),
        last - decimal(&data["openPrice"])
    );
    assert!(decimal(&data["baseAssetVolume"]) > Decimal::ZERO);
    assert!(decimal(&data["quoteAssetVolume"]) > Decimal::ZERO);
    assert!(data["totalNumberOfTrades"].as_u64().unwrap() > 0);
    app.stop().await;
}

#[tokio::test]
async fn unknown_or_missing_symbols_are_clear_errors() {
    let app = spawn_app().await;
    let (status, _, text) = app
        .get("/api/contract/coin/currencyPrice?symbol=nopeusdt")
        .await;
    assert_eq!(status, 404);
    assert!(text.contains("Unknown trading pair 'nopeusdt'"), "{text}");
    let (status, _, text) = app.get("/api/contract/coin/currencyPrice").await;
    assert_eq!(status, 400);
    let body: serde_json::Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["msg"], "Invalid value for field 'symbol'");
    for path in ["/api/texchange/getCurrencyPrice", "/api/market/ticker24h"] {
        let (status, body) = app
            .post(path, Some(r#"{"symbol":"nopeusdt"}"#), &[("lang", "ja")])
            .await;
        assert_eq!(status, 404, "{path}");
        assert_ne!(
            body["msg"], "Unknown trading pair 'nopeusdt'",
            "{path} answers in Japanese"
        );
        let (status, body) = app.post(path, Some(r#"{"symbol": 7}"#), &[]).await;
        assert_eq!(status, 400, "{path}");
        assert_eq!(body["data"]["field"], "symbol");
        let (status, _) = app.post(path, None, &[]).await;
        assert_eq!(status, 400, "{path} without a body");
    }
    app.stop().await;
}
