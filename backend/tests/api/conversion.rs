//! Conversion over HTTP: a quote at the book's price less the spread, within the size and daily
//! limits, paid only from what the market maker holds, accepted once (a replay answers the first
//! result), refused when expired, forged, someone else's, or not covered by the balance; nothing
//! is posted in any refused case and the audit stays clean.

use backend::funds::audit;
use backend::funds::conversion::Quote;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, spawn_app_with, spawn_app_with_empty_ledger};

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
        .parse()
        .unwrap()
}

async fn quote(app: &TestApp, token: &str, from: &str, to: &str, amount: &str) -> (u16, Value) {
    app.post_as(
        token,
        "/api/texchange/getExchangeQuote",
        Some(json!({"from": from, "to": to, "amount": amount})),
    )
    .await
}

async fn accept(app: &TestApp, token: &str, quote_id: &str) -> (u16, Value) {
    app.post_as(
        token,
        "/api/texchange/currencyExchange",
        Some(json!({"quoteId": quote_id})),
    )
    .await
}

async fn funding(app: &TestApp, token: &str, coin: &str) -> Decimal {
    let (status, body) = app.post_as(token, "/api/userCoin/getUserCoin", None).await;
    assert_eq!(status, 200, "{body}");
    let row = body["data"]["coins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["coin"] == coin)
        .unwrap_or_else(|| panic!("no {coin} in {body}"))
        .clone();
    decimal(&row["funding"])
}

#[tokio::test]
async fn a_quote_converts_at_its_rate_once() {
    let app = spawn_app().await;
    let member = app.member("swap@example.com").await;
    app.credit(member.user_id, "usdt", dec!(1000)).await;

    let (status, body) = quote(&app, &member.token, "USDT", "btc", "250").await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    let (rate, receive) = (decimal(&data["rate"]), decimal(&data["receive"]));
    assert!(rate > Decimal::ZERO);
    assert_eq!(
        receive,
        (dec!(250) * rate).round_dp_with_strategy(8, rust_decimal::RoundingStrategy::ToZero)
    );
    assert_eq!(data["ttlMs"], 10_000);
    let quote_id = data["quoteId"].as_str().unwrap().to_owned();

    let (status, first) = accept(&app, &member.token, &quote_id).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(decimal(&first["data"]["fromBalance"]), dec!(750));
    assert_eq!(decimal(&first["data"]["toBalance"]), receive);
    assert_eq!(first["msg"], "Conversion completed");

    // Accepting the same quote again converts nothing and answers the first result.
    let (status, again) = accept(&app, &member.token, &quote_id).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["data"], first["data"]);
    assert_eq!(funding(&app, &member.token, "usdt").await, dec!(750));
    assert_eq!(funding(&app, &member.token, "btc").await, receive);

    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
    app.stop().await;
}

#[tokio::test]
async fn refused_quotes_post_nothing() {
    let app = spawn_app().await;
    let alice = app.member("alice-swap@example.com").await;
    let bob = app.member("bob-swap@example.com").await;
    app.credit(alice.user_id, "eth", dec!(2)).await;

    // Bad input: same coin, unknown coin, bad amounts.
    let (status, body) = quote(&app, &alice.token, "eth", "ETH", "1").await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("same_coin")),
        "{body}"
    );
    let (status, body) = quote(&app, &alice.token, "eth", "nope", "1").await;
    assert_eq!(
        (status, body["data"]["field"].as_str()),
        (400, Some("to")),
        "{body}"
    );
    for amount in ["-1", "abc", "1.123456789", "0"] {
        let (status, body) = quote(&app, &alice.token, "eth", "usdt", amount).await;
        assert_eq!(
            (status, body["data"]["field"].as_str()),
            (400, Some("amount")),
            "{amount}: {body}"
        );
    }
    let (status, body) = quote(&app, &alice.token, "usdt", "btc", "0.00000001").await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("convert_below_minimum")),
        "{body}"
    );
    // The attack's size: a billion USDT is far past the largest single conversion.
    let (status, body) = quote(&app, &alice.token, "usdt", "btc", "1000000000").await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("convert_above_maximum")),
        "{body}"
    );
    assert_eq!(
        body["msg"],
        "The largest single conversion is worth 100000 USDT; split it into smaller ones"
    );

    // A conversion from an asset the user does not hold: 'Insufficient balance'.
    let (status, body) = quote(&app, &alice.token, "usdt", "eth", "100").await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = accept(
        &app,
        &alice.token,
        body["data"]["quoteId"].as_str().unwrap(),
    )
    .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["reason"], "insufficient_balance");

    // Someone else's quote, an altered one, garbage.
    let (_, body) = quote(&app, &alice.token, "eth", "usdt", "1").await;
    let alices = body["data"]["quoteId"].as_str().unwrap().to_owned();
    let (status, body) = accept(&app, &bob.token, &alices).await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("invalid_quote")),
        "{body}"
    );
    let altered = alices.replacen(":1:", ":2:", 1);
    assert_ne!(altered, alices);
    let (status, body) = accept(&app, &alice.token, &altered).await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("invalid_quote")),
        "{body}"
    );
    let (status, _) = accept(&app, &alice.token, "q1:nonsense").await;
    assert_eq!(status, 400);

    // An expired quote: signed with the server's key but already past its expiry.
    let mut expired = Quote::from_token(&app.state().link_key, &alices).unwrap();
    expired.expires_at = 1;
    let (status, body) = accept(&app, &alice.token, &expired.token(&app.state().link_key)).await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (409, Some("quote_expired")),
        "{body}"
    );

    // Without a session.
    let (status, _) = app
        .post(
            "/api/texchange/getExchangeQuote",
            Some(r#"{"from":"eth","to":"usdt","amount":"1"}"#),
            &[],
        )
        .await;
    assert_eq!(status, 401);

    assert_eq!(funding(&app, &alice.token, "eth").await, dec!(2));
    assert_eq!(funding(&app, &alice.token, "usdt").await, dec!(0));
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
    app.stop().await;
}

#[tokio::test]
async fn concurrent_acceptances_of_one_quote_convert_once() {
    let app = spawn_app().await;
    let member = app.member("race-swap@example.com").await;
    app.credit(member.user_id, "usdt", dec!(100)).await;
    let (_, body) = quote(&app, &member.token, "usdt", "eth", "100").await;
    let quote_id = body["data"]["quoteId"].as_str().unwrap().to_owned();

    let attempts = (0..20).map(|_| accept(&app, &member.token, &quote_id));
    let answers = futures_util::future::join_all(attempts).await;
    let entries: std::collections::BTreeSet<String> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, 200, "{body}");
            body["data"]["entryId"].to_string()
        })
        .collect();
    assert_eq!(entries.len(), 1, "one entry for every answer");
    assert_eq!(funding(&app, &member.token, "usdt").await, dec!(0));
    app.stop().await;
}

#[tokio::test]
async fn a_round_trip_loses_the_books_spread_and_the_houses() {
    let app = spawn_app().await;
    let member = app.member("round-trip@example.com").await;
    app.credit(member.user_id, "usdt", dec!(1000)).await;
    let (status, there) = quote(&app, &member.token, "usdt", "btc", "1000").await;
    assert_eq!(status, 200, "{there}");
    assert_eq!(decimal(&there["data"]["spread"]), dec!(0.001));
    assert_eq!(decimal(&there["data"]["valueUsdt"]), dec!(1000));
    assert_eq!(decimal(&there["data"]["dailyLeftUsdt"]), dec!(999000));
    let (status, done) = accept(
        &app,
        &member.token,
        there["data"]["quoteId"].as_str().unwrap(),
    )
    .await;
    assert_eq!(status, 200, "{done}");
    let btc = decimal(&done["data"]["toBalance"]);
    // At once, back: the bids are below the asks and the spread is taken twice.
    let (status, back) = quote(&app, &member.token, "btc", "usdt", &btc.to_string()).await;
    assert_eq!(status, 200, "{back}");
    let returned = decimal(&back["data"]["receive"]);
    assert!(
        returned < dec!(998.01),
        "a round trip must lose at least twice the spread: {back}"
    );
    assert!(returned > dec!(990), "priced near the market: {back}");
    app.stop().await;
}

#[tokio::test]
async fn the_daily_limit_holds_under_parallel_acceptances() {
    let app = spawn_app_with(|config| {
        config.convert.max_usdt = dec!(400);
        config.convert.daily_limit_usdt = dec!(1000);
    })
    .await;
    let member = app.member("daily-limit@example.com").await;
    app.credit(member.user_id, "usdt", dec!(5000)).await;
    // Five quotes of 300 USDT, each within the limit alone, accepted all at once: three fit.
    let mut quote_ids = Vec::new();
    for _ in 0..5 {
        let (status, body) = quote(&app, &member.token, "usdt", "eth", "300").await;
        assert_eq!(status, 200, "{body}");
        quote_ids.push(body["data"]["quoteId"].as_str().unwrap().to_owned());
    }
    let answers =
        futures_util::future::join_all(quote_ids.iter().map(|id| accept(&app, &member.token, id)))
            .await;
    let done = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(done, 3, "{answers:?}");
    for (status, body) in answers.iter().filter(|(status, _)| *status != 200) {
        assert_eq!(
            (*status, body["data"]["reason"].as_str()),
            (400, Some("convert_daily_limit")),
            "{body}"
        );
    }
    assert_eq!(funding(&app, &member.token, "usdt").await, dec!(4100));
    // A new quote says what is left: 100 USDT.
    let (status, body) = quote(&app, &member.token, "usdt", "eth", "150").await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("convert_daily_limit")),
        "{body}"
    );
    assert!(
        body["msg"].as_str().unwrap().contains("100 USDT left"),
        "{body}"
    );
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
    app.stop().await;
}

#[tokio::test]
async fn the_market_maker_never_pays_more_than_it_holds() {
    // A ledger without the market maker's inventory: it holds nothing to pay with.
    let app = spawn_app_with_empty_ledger().await;
    let member = app.member("liquidity@example.com").await;
    app.credit(member.user_id, "usdt", dec!(1000)).await;
    let (status, body) = quote(&app, &member.token, "usdt", "btc", "100").await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("convert_liquidity")),
        "{body}"
    );
    // A quote signed by the server before the house ran dry is refused at acceptance too.
    let signed = Quote {
        user_id: member.user_id,
        from: "usdt".into(),
        to: "btc".into(),
        amount: dec!(100),
        rate: dec!(0.00001),
        receive: dec!(0.001),
        value_usdt: dec!(100),
        expires_at: i64::MAX,
        nonce: "00112233445566778899aabbccddeeff".into(),
    };
    let (status, body) = accept(&app, &member.token, &signed.token(&app.state().link_key)).await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("convert_liquidity")),
        "{body}"
    );
    assert_eq!(funding(&app, &member.token, "usdt").await, dec!(1000));
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
    app.stop().await;
}
