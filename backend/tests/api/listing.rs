//! An operator lists a pair (`backend add-coin`): the running exchange quotes it within seconds and
//! announces it on `/ws/business/notice`.

use backend::common::service::{ListingError, NewCoin, list_coin};
use rust_decimal_macros::dec;
use serde_json::json;

use crate::helpers::spawn_app;

fn pepe() -> NewCoin {
    NewCoin {
        coin: "pepe".into(),
        reference_price: dec!(0.00001234),
        price_precision: 8,
        quantity_precision: 0,
        daily_volatility: dec!(0.08),
        contract: false,
        hot: false,
    }
}

#[tokio::test]
async fn a_new_listing_is_announced_and_quoted() {
    let app = spawn_app().await;
    let mut notices = app.notice_channel().await;
    notices.send(json!({"op": "ping", "ts": 1})).await;
    assert_eq!(notices.next_of("pong").await["ts"], 1);
    let listed = list_coin(app.db(), &pepe()).await.unwrap();
    assert_eq!(listed.symbol, "pepeusdt");
    let notice = notices.next_of("OWNCOIN").await;
    assert_eq!(notice["data"]["symbol"], "pepeusdt");
    assert_eq!(notice["data"]["showSymbol"], "PEPE/USDT");
    assert_eq!(notice["data"]["price"], "0.00001234");
    let (_, body) = app
        .post(
            "/api/common/getCoinList",
            Some(r#"{"keyword":"pepe"}"#),
            &[],
        )
        .await;
    let entry = &body["data"]["currencyList"][0];
    assert_eq!(entry["symbol"], "pepeusdt");
    assert_eq!(entry["tickSize"], "0.00000001");
    assert!(entry["amount"].is_string(), "quoted at once: {entry}");
    let (status, body) = app
        .post(
            "/api/market/kline",
            Some(r#"{"symbol":"pepeusdt","interval":"1h"}"#),
            &[],
        )
        .await;
    assert_eq!(status, 200);
    assert!(
        !body["data"]["candles"].as_array().unwrap().is_empty(),
        "a day of history"
    );
    app.stop().await;
}

#[tokio::test]
async fn bad_listings_are_refused() {
    let app = spawn_app().await;
    for (coin, expected) in [("BTC!", "coin"), ("x", "coin"), ("usdt", "coin")] {
        let error = list_coin(
            app.db(),
            &NewCoin {
                coin: coin.into(),
                ..pepe()
            },
        )
        .await
        .unwrap_err();
        assert!(
            matches!(error, ListingError::CoinName(_)),
            "{coin}: {error} ({expected})"
        );
    }
    let error = list_coin(
        app.db(),
        &NewCoin {
            coin: "btc".into(),
            ..pepe()
        },
    )
    .await
    .unwrap_err();
    assert!(matches!(error, ListingError::Listed(_)), "{error}");
    let zero = NewCoin {
        reference_price: dec!(0.000000001),
        ..pepe()
    };
    assert!(matches!(
        list_coin(app.db(), &zero).await,
        Err(ListingError::OutOfRange(_))
    ));
    let wild = NewCoin {
        daily_volatility: dec!(2),
        ..pepe()
    };
    assert!(matches!(
        list_coin(app.db(), &wild).await,
        Err(ListingError::OutOfRange(_))
    ));
    app.stop().await;
}

#[test]
fn the_add_coin_command_lists_once() {
    let dir = tempfile::tempdir().unwrap();
    let run = |args: &[&str]| {
        std::process::Command::new(env!("CARGO_BIN_EXE_backend"))
            .args(args)
            .env("EXCHANGE_DATA_DIR", dir.path())
            .env_remove("DATABASE_URL")
            .env("EXCHANGE_LOG", "warn")
            .output()
            .expect("the command runs")
    };
    let args = ["add-coin", "--coin", "wif", "--price", "2.15", "--hot"];
    let first = run(&args);
    assert!(first.status.success(), "{first:?}");
    assert!(String::from_utf8_lossy(&first.stdout).contains("listed WIF/USDT"));
    let again = run(&args);
    assert!(!again.status.success());
    assert!(String::from_utf8_lossy(&again.stderr).contains("wifusdt is listed already"));
    let bad = run(&["add-coin", "--coin", "doge2", "--price", "cheap"]);
    assert!(!bad.status.success());
    assert!(String::from_utf8_lossy(&bad.stderr).contains("--price"));
}
