//! `getAllSetting`, `getCoinList` and `config.js`.

use serde_json::Value;

use crate::helpers::spawn_app;

const REQUIRED_COINS: [&str; 8] = ["btc", "eth", "bnb", "doge", "xrp", "ada", "sol", "ltc"];

#[tokio::test]
async fn all_settings_give_languages_time_zones_and_defaults() {
    let app = spawn_app().await;
    let (status, body) = app.post("/api/common/getAllSetting", None, &[]).await;
    assert_eq!(status, 200);
    assert_eq!(body["code"], 200);
    assert_eq!(body["msg"], "Success");
    let data = &body["data"];
    let languages = data["system"]["t_app_language"].as_array().unwrap();
    assert_eq!(languages.len(), 14);
    assert_eq!(languages[0]["code"], "en");
    let zones = data["system"]["timeZone"].as_array().unwrap();
    assert_eq!(zones.len(), 38);
    assert!(
        zones
            .iter()
            .any(|z| z["zoneId"] == "America/New_York" && z["offSetValue"] == "-05:00")
    );
    assert_eq!(data["platform"]["defaultTimeZone"], "America/New_York");
    assert_eq!(data["platform"]["defaultLanguage"], "en");
    assert_eq!(data["platform"]["defaultTheme"], "light");
    assert_eq!(data["platform"]["securityFundPercent"], "10");
    app.stop().await;
}

#[tokio::test]
async fn the_message_follows_the_lang_header() {
    let app = spawn_app().await;
    let (_, english) = app.post("/api/common/getAllSetting", None, &[]).await;
    let (_, german) = app
        .post("/api/common/getAllSetting", None, &[("lang", "de")])
        .await;
    let (_, japanese) = app
        .post("/api/common/getAllSetting", None, &[("language", "ja")])
        .await;
    let (_, chinese) = app
        .post(
            "/api/common/getAllSetting",
            None,
            &[("accept-language", "zh-TW,zh;q=0.9")],
        )
        .await;
    assert_ne!(german["msg"], english["msg"]);
    assert_ne!(japanese["msg"], english["msg"]);
    assert_ne!(chinese["msg"], english["msg"]);
    assert_ne!(japanese["msg"], german["msg"]);
    app.stop().await;
}

fn symbols(list: &Value) -> Vec<String> {
    list.as_array()
        .unwrap()
        .iter()
        .map(|e| e["symbol"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn the_coin_list_has_the_real_coins_with_live_prices() {
    let app = spawn_app().await;
    let (status, body) = app.post("/api/common/getCoinList", None, &[]).await;
    assert_eq!(status, 200);
    let spot = &body["data"]["currencyList"];
    let contract = &body["data"]["contractList"];
    for coin in REQUIRED_COINS {
        let symbol = format!("{coin}usdt");
        assert!(
            symbols(spot).contains(&symbol),
            "{symbol} missing from currencyList"
        );
        assert!(
            symbols(contract).contains(&symbol),
            "{symbol} missing from contractList"
        );
    }
    let btc = &spot.as_array().unwrap()[0];
    assert_eq!(btc["coin"], "btc");
    assert_eq!(btc["baseCoin"], "usdt");
    assert_eq!(btc["showSymbol"], "BTC/USDT");
    assert_eq!(btc["customizeFlag"], 1);
    assert_eq!(btc["market"], "crypto");
    assert_eq!(btc["logo"], "/coin-logos/btc.svg");
    assert_eq!(btc["tickSize"], "0.01");
    // Prices travel as decimal strings and are on the tick.
    for entry in spot.as_array().unwrap() {
        let amount = entry["amount"].as_str().expect("amount is a string");
        let open = entry["open"].as_str().expect("open is a string");
        let amount: rust_decimal::Decimal = amount.parse().unwrap();
        let open: rust_decimal::Decimal = open.parse().unwrap();
        assert!(amount > rust_decimal::Decimal::ZERO && open > rust_decimal::Decimal::ZERO);
        assert!(amount.scale() <= entry["pricePrecision"].as_u64().unwrap() as u32);
    }
    app.stop().await;
}

#[tokio::test]
async fn the_coin_list_can_be_filtered() {
    let app = spawn_app().await;
    let (_, body) = app
        .post("/api/common/getCoinList", Some(r#"{"keyword":"BT"}"#), &[])
        .await;
    assert_eq!(symbols(&body["data"]["currencyList"]), vec!["btcusdt"]);
    let (_, body) = app
        .post(
            "/api/common/getCoinList",
            Some(r#"{"market":"contract"}"#),
            &[],
        )
        .await;
    assert!(body["data"]["currencyList"].as_array().unwrap().is_empty());
    assert_eq!(body["data"]["contractList"].as_array().unwrap().len(), 8);
    let (_, body) = app.post("/api/common/getCoinList", Some("{}"), &[]).await;
    assert_eq!(body["data"]["currencyList"].as_array().unwrap().len(), 12);
    app.stop().await;
}

#[tokio::test]
async fn the_platform_config_script_is_javascript() {
    let app = spawn_app().await;
    let (status, content_type, text) = app.get("/platform/dev/config.js").await;
    assert_eq!(status, 200);
    assert!(
        content_type.starts_with("application/javascript"),
        "{content_type}"
    );
    assert!(text.starts_with("window.__PLATFORM_CONFIG__ = {"));
    assert!(text.contains("\"siteName\":\"Kestrel Exchange\""));
    app.stop().await;
}
