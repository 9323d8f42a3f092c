//! Seconds (flash) contracts against the real app: what is offered, bets placed and listed, every
//! bad input refused with nothing changed, settlement of wins, losses and ties by the published
//! rule over stored ticks (inserted here so each outcome is forced), the SETTLEMENT message on the
//! user channel, the product switched off, an order accepted before a restart settled after it,
//! and the replay of every settlement from the stored ticks — with the ledger audit clean.

use std::time::Duration;

use backend::config::{Config, SecondsPeriod};
use backend::entity::{journal_entry, market_tick, seconds_order};
use backend::funds::{audit, ledger};
use backend::seconds::settle;
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter,
};
use serde_json::{Value, json};

use crate::helpers::{Member, TestApp, spawn_app_in_with, spawn_app_with};

const SUBMIT: &str = "/api/seconds/order/submit";

fn periods(config: &mut Config) {
    config.seconds.periods = vec![
        SecondsPeriod {
            seconds: 1,
            payout_rate: dec!(0.85),
            min_stake: dec!(10),
            max_stake: dec!(500),
        },
        SecondsPeriod {
            seconds: 60,
            payout_rate: dec!(0.9),
            min_stake: dec!(10),
            max_stake: dec!(50000),
        },
    ];
}

/// An app without the simulator: the tests write the pair's ticks themselves.
async fn quiet_app() -> TestApp {
    spawn_app_with(|config| {
        config.simulator.enabled = false;
        periods(config);
    })
    .await
}

async fn tick(app: &TestApp, seq: i64, price: &str, ts_ms: i64) {
    market_tick::ActiveModel {
        symbol: Set("btcusdt".into()),
        seq: Set(seq),
        price: Set(price.into()),
        volume: Set("0".into()),
        trade_count: Set(0),
        ts_ms: Set(ts_ms),
        ..Default::default()
    }
    .insert(app.db())
    .await
    .expect("tick stored");
}

fn now_ms() -> i64 {
    backend::clock::now_ms()
}

async fn bet(
    app: &TestApp,
    member: &Member,
    direction: &str,
    period: u32,
    quantity: &str,
) -> (u16, Value) {
    app.post_as(
        &member.token,
        SUBMIT,
        Some(json!({"symbol": "BTCUSDT", "direction": direction, "periodSeconds": period, "quantity": quantity})),
    )
    .await
}

async fn usdt(app: &TestApp, user_id: i64) -> Decimal {
    ledger::balance(app.db(), ledger::AccountRef::funding(user_id), "usdt")
        .await
        .unwrap()
}

async fn history(app: &TestApp, member: &Member) -> Vec<Value> {
    let (status, body) = app
        .post_as(&member.token, "/api/seconds/order/list?scope=history", None)
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["records"].as_array().unwrap().clone()
}

/// Waits (at most 10 s) until the member has `count` settled orders.
async fn settled(app: &TestApp, member: &Member, count: usize) -> Vec<Value> {
    for _ in 0..200 {
        let records = history(app, member).await;
        if records.len() >= count {
            return records;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("{count} orders were not settled within 10 s");
}

async fn assert_sound(app: &TestApp) {
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
    let mismatches = settle::replay(app.db()).await.unwrap();
    assert!(mismatches.is_empty(), "{mismatches:?}");
}

async fn seconds_entries(app: &TestApp, kind: &str) -> u64 {
    journal_entry::Entity::find()
        .filter(journal_entry::Column::Kind.eq(kind))
        .count(app.db())
        .await
        .unwrap()
}

#[tokio::test]
async fn the_offer_lists_periods_pairs_and_the_rule() {
    let app = quiet_app().await;
    let (status, _, text) = app.get("/api/seconds/config").await;
    assert_eq!(status, 200, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    let data = &body["data"];
    assert_eq!(data["enabled"], true);
    assert_eq!(data["stakeCoin"], "usdt");
    assert_eq!(data["rule"], "last_tick_at_or_before_expiry");
    assert_eq!(
        data["periods"][0],
        json!({"seconds": 1, "payoutRate": "0.85", "minStake": "10", "maxStake": "500"})
    );
    let symbols: Vec<&str> = data["symbols"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| s["symbol"].as_str().unwrap())
        .collect();
    assert!(symbols.contains(&"btcusdt"), "{symbols:?}");
    app.stop().await;
}

#[tokio::test]
async fn bets_settle_as_win_loss_and_tie_by_the_stored_ticks() {
    let app = quiet_app().await;
    let alice = app.member("seconds-alice@example.com").await;
    app.credit(alice.user_id, "usdt", dec!(1000)).await;
    let mut channel = app
        .channel(&format!(
            "/ws/user/push/{}?satoken={}",
            alice.user_id, alice.token
        ))
        .await;
    tick(&app, 1, "100", now_ms()).await;

    let (status, up) = bet(&app, &alice, "up", 1, "100").await;
    assert_eq!(status, 200, "{up}");
    let (status, down) = bet(&app, &alice, "down", 1, "200").await;
    assert_eq!(status, 200, "{down}");
    let up = &up["data"];
    assert_eq!(up["status"], "open");
    assert_eq!(up["symbol"], "btcusdt");
    assert_eq!(up["openPrice"], "100");
    assert_eq!(up["openTickSeq"], 1);
    assert_eq!(up["quantity"], "100");
    assert_eq!(up["payoutRate"], "0.85");
    assert_eq!(up["rule"], "last_tick_at_or_before_expiry");
    assert_eq!(
        up["closeTime"].as_i64().unwrap(),
        up["commissTime"].as_i64().unwrap() + 1000,
        "the expiry is fixed at acceptance"
    );
    assert!(up["countdown"].as_i64().unwrap() <= 1);
    assert_eq!(usdt(&app, alice.user_id).await, dec!(700));
    let placed = channel.next_of("seconds_order").await;
    assert_eq!(placed["data"]["id"], up["id"], "{placed}");

    let (status, open) = app
        .post_as(&alice.token, "/api/seconds/order/list?scope=open", None)
        .await;
    assert_eq!(status, 200, "{open}");
    assert_eq!(open["data"]["total"], 2);

    // Tick 2 falls within both periods; tick 3 comes after both expiries and must not count.
    let first_expiry = up["closeTime"]
        .as_i64()
        .unwrap()
        .min(down["data"]["closeTime"].as_i64().unwrap());
    let last_expiry = up["closeTime"]
        .as_i64()
        .unwrap()
        .max(down["data"]["closeTime"].as_i64().unwrap());
    tick(&app, 2, "101", first_expiry).await;
    tick(&app, 3, "999", last_expiry + 1).await;
    let records = settled(&app, &alice, 2).await;
    let by_id = |id: &Value| records.iter().find(|r| &r["id"] == id).unwrap().clone();
    let won = by_id(&up["id"]);
    assert_eq!(won["status"], "settled");
    assert_eq!(won["result"], "win", "{won}");
    assert_eq!(won["closePrice"], "101");
    assert_eq!(won["settleTickSeq"], 2);
    assert_eq!(won["settleTickTime"], first_expiry);
    assert_eq!(won["profit"], "85");
    assert_eq!(won["payout"], "185");
    assert_eq!(won["countdown"], 0);
    let lost = by_id(&down["data"]["id"]);
    assert_eq!(lost["result"], "loss", "{lost}");
    assert_eq!(lost["profit"], "-200");
    assert_eq!(lost["payout"], "0");
    assert_eq!(usdt(&app, alice.user_id).await, dec!(885));

    // The settlement is announced on the user channel with its inputs.
    let mut announced = Vec::new();
    for _ in 0..2 {
        let message = channel.next_of("SETTLEMENT").await;
        announced.push(message["data"]["id"].clone());
        assert!(message["data"]["settleTickSeq"].is_i64(), "{message}");
    }
    assert!(announced.contains(&up["id"]) && announced.contains(&down["data"]["id"]));

    // A tie: the settlement tick has the opening price; the stake comes back.
    tick(&app, 4, "100", now_ms()).await;
    let (status, tie) = bet(&app, &alice, "down", 1, "50").await;
    assert_eq!(status, 200, "{tie}");
    assert_eq!(tie["data"]["openTickSeq"], 4);
    let expiry = tie["data"]["closeTime"].as_i64().unwrap();
    tick(&app, 5, "100", expiry - 1).await;
    tick(&app, 6, "555", expiry + 1).await;
    let records = settled(&app, &alice, 3).await;
    let tied = records
        .iter()
        .find(|r| r["id"] == tie["data"]["id"])
        .unwrap();
    assert_eq!(tied["result"], "tie", "{tied}");
    assert_eq!(tied["settleTickSeq"], 5);
    assert_eq!(tied["profit"], "0");
    assert_eq!(tied["payout"], "50");
    assert_eq!(usdt(&app, alice.user_id).await, dec!(885));

    assert_eq!(seconds_entries(&app, "seconds_stake").await, 3);
    // The loss moves nothing at settlement.
    assert_eq!(seconds_entries(&app, "seconds_settle").await, 2);
    // A settled order is never settled again.
    let row = seconds_order::Entity::find_by_id(won["id"].as_i64().unwrap())
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    let again = backend::seconds::engine::settle_order(app.db(), &row)
        .await
        .unwrap();
    assert!(
        matches!(again, backend::seconds::engine::Settled::Before),
        "{again:?}"
    );
    assert_eq!(usdt(&app, alice.user_id).await, dec!(885));
    assert_sound(&app).await;

    // The operator's commands agree: the ledger is sound and every settlement is reproduced; a
    // stored result that the ticks do not give is reported.
    let run = |command: &str| {
        std::process::Command::new(env!("CARGO_BIN_EXE_backend"))
            .arg(command)
            .env("DATABASE_URL", app.database_url())
            .env("EXCHANGE_LOG", "error")
            .output()
            .expect("the command runs")
    };
    for command in ["audit", "seconds-replay"] {
        let clean = run(command);
        assert!(
            clean.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&clean.stderr)
        );
    }
    let mut tampered: seconds_order::ActiveModel = row.into();
    tampered.result = Set(Some("loss".into()));
    tampered.update(app.db()).await.unwrap();
    let dirty = run("seconds-replay");
    assert_eq!(dirty.status.code(), Some(1));
    assert!(
        String::from_utf8_lossy(&dirty.stdout)
            .contains(&format!("MISMATCH seconds order {}", won["id"])),
        "{}",
        String::from_utf8_lossy(&dirty.stdout)
    );
    app.stop().await;
}

#[tokio::test]
async fn bad_input_is_refused_in_the_users_language_and_changes_nothing() {
    let app = quiet_app().await;
    let bob = app.member("seconds-bob@example.com").await;
    app.credit(bob.user_id, "usdt", dec!(40)).await;
    tick(&app, 1, "100", now_ms()).await;
    let cases: [(&str, u32, &str, &str, &str); 8] = [
        ("btcusdt", 1, "10.5", "not_whole_number", "quantity"),
        ("btcusdt", 1, "5", "below_minimum", "quantity"),
        ("btcusdt", 1, "600", "above_maximum", "quantity"),
        ("btcusdt", 1, "ten", "invalid_number", "quantity"),
        ("btcusdt", 1, "0", "not_above_zero", "quantity"),
        (
            "btcusdt",
            7,
            "10",
            "seconds_period_unavailable",
            "periodSeconds",
        ),
        ("nopeusdt", 1, "10", "seconds_symbol_unavailable", "symbol"),
        ("btcusdt", 1, "100", "insufficient_balance", "quantity"),
    ];
    for (symbol, period, quantity, reason, field) in cases {
        let (status, body) = app
            .post(
                SUBMIT,
                Some(&json!({"symbol": symbol, "direction": "up", "periodSeconds": period, "quantity": quantity}).to_string()),
                &[("satoken", &bob.token), ("lang", "de")],
            )
            .await;
        assert_eq!(status, 400, "{quantity}: {body}");
        assert_eq!(body["data"]["reason"], reason, "{body}");
        assert_eq!(body["data"]["field"], field, "{body}");
        assert!(!body["msg"].as_str().unwrap().is_empty());
    }
    let (_, body) = app
        .post(
            SUBMIT,
            Some(&json!({"symbol": "btcusdt", "direction": "up", "periodSeconds": 7, "quantity": "10"}).to_string()),
            &[("satoken", &bob.token), ("lang", "de")],
        )
        .await;
    assert_eq!(body["msg"], "Die Laufzeit von 7 s wird nicht angeboten");
    let (_, body) = app
        .post(
            SUBMIT,
            Some(&json!({"symbol": "btcusdt", "direction": "up", "periodSeconds": 1, "quantity": "10.5"}).to_string()),
            &[("satoken", &bob.token), ("lang", "en")],
        )
        .await;
    assert_eq!(body["msg"], "The quantity must be a whole number");
    let (status, body) = app
        .post(
            SUBMIT,
            Some(&json!({"symbol": "btcusdt", "direction": "sideways", "periodSeconds": 1, "quantity": "10"}).to_string()),
            &[("satoken", &bob.token)],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["field"], "direction", "{body}");
    let (status, body) = app
        .post(
            SUBMIT,
            Some(&json!({"symbol": "btcusdt", "direction": "up", "periodSeconds": 1, "quantity": "10"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 401, "{body}");

    assert_eq!(usdt(&app, bob.user_id).await, dec!(40));
    assert_eq!(
        seconds_order::Entity::find().count(app.db()).await.unwrap(),
        0
    );
    assert_eq!(seconds_entries(&app, "seconds_stake").await, 0);

    // Without a recent tick there is no opening price: 503, nothing placed.
    let stale = spawn_app_with(|config| {
        config.simulator.enabled = false;
        periods(config);
    })
    .await;
    let carol = stale.member("seconds-carol@example.com").await;
    stale.credit(carol.user_id, "usdt", dec!(100)).await;
    let (status, body) = bet(&stale, &carol, "up", 1, "10").await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["data"]["reason"], "price_unavailable");
    assert_eq!(usdt(&stale, carol.user_id).await, dec!(100));
    stale.stop().await;
    assert_sound(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_retry_with_the_same_key_places_one_bet() {
    let app = quiet_app().await;
    let dora = app.member("seconds-dora@example.com").await;
    app.credit(dora.user_id, "usdt", dec!(100)).await;
    tick(&app, 1, "100", now_ms()).await;
    let body =
        json!({"symbol": "btcusdt", "direction": "up", "periodSeconds": 60, "quantity": "30"})
            .to_string();
    let headers = [
        ("satoken", dora.token.as_str()),
        ("Idempotency-Key", "bet-1"),
    ];
    let (status, first) = app.post(SUBMIT, Some(&body), &headers).await;
    assert_eq!(status, 200, "{first}");
    let (status, second) = app.post(SUBMIT, Some(&body), &headers).await;
    assert_eq!(status, 200, "{second}");
    assert_eq!(first["data"]["id"], second["data"]["id"]);
    assert_eq!(usdt(&app, dora.user_id).await, dec!(70));
    assert_eq!(
        seconds_order::Entity::find().count(app.db()).await.unwrap(),
        1
    );
    assert_sound(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn operators_can_switch_the_product_off() {
    let app = spawn_app_with(|config| {
        config.seconds.enabled = false;
        periods(config);
    })
    .await;
    let erin = app.member("seconds-erin@example.com").await;
    app.credit(erin.user_id, "usdt", dec!(100)).await;
    let (status, _, text) = app.get("/api/seconds/config").await;
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["data"]["enabled"], false);
    assert_eq!(body["data"]["periods"], json!([]));
    assert_eq!(body["data"]["symbols"], json!([]));
    let (status, body) = app
        .post(
            SUBMIT,
            Some(&json!({"symbol": "btcusdt", "direction": "up", "periodSeconds": 1, "quantity": "10"}).to_string()),
            &[("satoken", &erin.token), ("lang", "fr")],
        )
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(body["data"]["reason"], "seconds_disabled");
    assert_eq!(
        body["msg"],
        "Les contrats à la seconde ne sont pas proposés sur cette plateforme"
    );
    let (status, body) = app
        .post_as(&erin.token, "/api/seconds/order/list?scope=open", None)
        .await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(usdt(&app, erin.user_id).await, dec!(100));
    app.stop().await;
}

#[tokio::test]
async fn an_order_accepted_before_a_restart_settles_after_it_by_the_stored_series() {
    // The real simulator writes the ticks (every 50 ms).
    let app = spawn_app_with(periods).await;
    let fay = app.member("seconds-fay@example.com").await;
    app.credit(fay.user_id, "usdt", dec!(100)).await;
    let mut placed = None;
    for _ in 0..100 {
        let (status, body) = bet(&app, &fay, "up", 1, "20").await;
        if status == 200 {
            placed = Some(body);
            break;
        }
        // The simulator's first tick may not be stored yet.
        assert_eq!(status, 503, "{body}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let placed = placed.expect("a bet placed");
    let id = placed["data"]["id"].as_i64().unwrap();
    let expiry = placed["data"]["closeTime"].as_i64().unwrap();
    let (dir, postgres) = app.stop_keeping_data().await;
    // The expiry passes while the server is down.
    while now_ms() <= expiry + 200 {
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
    let app = spawn_app_in_with(dir, postgres, periods).await;
    let records = settled(&app, &fay, 1).await;
    let record = &records[0];
    assert_eq!(record["id"], id);
    // The settlement tick is the last one stored before the expiry (before the stop).
    let expected = market_tick::Entity::find()
        .filter(market_tick::Column::Symbol.eq("btcusdt"))
        .filter(market_tick::Column::TsMs.lte(expiry))
        .all(app.db())
        .await
        .unwrap()
        .into_iter()
        .max_by_key(|t| t.seq)
        .unwrap();
    assert_eq!(record["settleTickSeq"], expected.seq, "{record}");
    assert_eq!(record["closePrice"], expected.price);
    let open: Decimal = record["openPrice"].as_str().unwrap().parse().unwrap();
    let close: Decimal = expected.price.parse().unwrap();
    let result = settle::outcome(settle::Direction::Up, open, close);
    assert_eq!(record["result"], result.as_str());
    let expected_balance = match result {
        settle::Outcome::Win => dec!(117),
        settle::Outcome::Tie => dec!(100),
        settle::Outcome::Loss => dec!(80),
    };
    assert_eq!(usdt(&app, fay.user_id).await, expected_balance);
    assert_sound(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn retention_keeps_the_ticks_an_open_order_settles_from() {
    let app = quiet_app().await;
    let gus = app.member("seconds-gus@example.com").await;
    app.credit(gus.user_id, "usdt", dec!(100)).await;
    let opened = now_ms();
    tick(&app, 1, "100", opened).await;
    let (status, body) = bet(&app, &gus, "up", 60, "10").await;
    assert_eq!(status, 200, "{body}");
    // A cutoff past the opening tick is moved back to it, so pruning leaves the tick in place.
    let cutoff = backend::market::retention::protected_cutoff(app.db(), opened + 10_000)
        .await
        .unwrap();
    assert_eq!(cutoff, opened);
    backend::market::retention::prune_ticks(app.db(), cutoff)
        .await
        .unwrap();
    assert_eq!(
        market_tick::Entity::find().count(app.db()).await.unwrap(),
        1
    );
    app.stop().await;
}

#[tokio::test]
async fn holders_and_sizes_do_not_change_the_result() {
    let app = quiet_app().await;
    let small = app.member("seconds-small@example.com").await;
    let large = app.member("seconds-large@example.com").await;
    app.credit(small.user_id, "usdt", dec!(1000)).await;
    app.credit(large.user_id, "usdt", dec!(1000)).await;
    tick(&app, 1, "250.5", now_ms()).await;
    let mut expiries = Vec::new();
    for (member, stake) in [(&small, "10"), (&large, "500")] {
        let (status, body) = bet(&app, member, "down", 1, stake).await;
        assert_eq!(status, 200, "{body}");
        expiries.push(body["data"]["closeTime"].as_i64().unwrap());
    }
    tick(&app, 2, "250.4", *expiries.iter().min().unwrap()).await;
    tick(&app, 3, "300", expiries.iter().max().unwrap() + 1).await;
    let a = settled(&app, &small, 1).await.remove(0);
    let b = settled(&app, &large, 1).await.remove(0);
    for field in [
        "result",
        "closePrice",
        "settleTickSeq",
        "openTickSeq",
        "rule",
    ] {
        assert_eq!(a[field], b[field], "{field}");
    }
    assert_eq!(a["result"], "win");
    // The payout scales with the stake: 10 → 18.5, 500 → 925.
    assert_eq!(a["payout"], "18.5");
    assert_eq!(b["payout"], "925");
    assert_eq!(usdt(&app, small.user_id).await, dec!(1008.5));
    assert_eq!(usdt(&app, large.user_id).await, dec!(1425));
    assert_sound(&app).await;
    app.stop().await;
}
