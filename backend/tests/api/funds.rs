//! The first funds calls over HTTP: balances, moves between a user's buckets, transfers to other
//! users, idempotency keys, and concurrent spends of a whole balance (exactly one succeeds).

use backend::entity::journal_entry;
use rust_decimal_macros::dec;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{Value, json};

use crate::deposits::balance;
use crate::helpers::{FUND_PASSWORD, TestApp, race_outcome, set_fund_password, spawn_app};

fn coin<'a>(coins: &'a Value, name: &str) -> &'a Value {
    coins["data"]["coins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["coin"] == name)
        .unwrap_or_else(|| panic!("no {name} in {coins}"))
}

async fn post_keyed(
    app: &TestApp,
    token: &str,
    path: &str,
    key: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut headers = vec![("satoken", token)];
    if let Some(key) = key {
        headers.push(("Idempotency-Key", key));
    }
    app.post(path, Some(&body.to_string()), &headers).await
}

#[tokio::test]
async fn balances_list_every_asset_and_move_between_buckets() {
    let app = spawn_app().await;
    let member = app.member("funds@example.com").await;
    let (status, coins) = app
        .post_as(&member.token, "/api/userCoin/getUserCoin", None)
        .await;
    assert_eq!(status, 200, "{coins}");
    assert_eq!(
        coins["data"]["coins"].as_array().unwrap().len(),
        13,
        "12 listed coins and usdt"
    );
    assert_eq!(coin(&coins, "usdt")["total"], "0");

    app.credit(member.user_id, "usdt", dec!(1000)).await;
    let (status, body) = post_keyed(
        &app,
        &member.token,
        "/api/asset/transferFunds",
        None,
        json!({"coin": "USDT", "amount": "250.5", "from": "funding", "to": "trading"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["fromBalance"], "749.5");
    assert_eq!(body["data"]["toBalance"], "250.5");
    let (_, coins) = app
        .post_as(&member.token, "/api/userCoin/getUserCoin", None)
        .await;
    let usdt = coin(&coins, "usdt");
    assert_eq!(
        (
            usdt["funding"].as_str(),
            usdt["trading"].as_str(),
            usdt["total"].as_str()
        ),
        (Some("749.5"), Some("250.5"), Some("1000"))
    );
    app.stop().await;
}

#[tokio::test]
async fn bad_moves_are_refused_in_the_users_language_and_post_nothing() {
    let app = spawn_app().await;
    let member = app.member("badfunds@example.com").await;
    app.credit(member.user_id, "btc", dec!(0.5)).await;
    let entries = || async { journal_entry::Entity::find().count(app.db()).await.unwrap() };
    let before = entries().await;
    let cases = [
        (
            json!({"coin": "btc", "amount": "0.6", "from": "funding", "to": "earn"}),
            "insufficient_balance",
            "amount",
        ),
        (
            json!({"coin": "btc", "amount": "-1", "from": "funding", "to": "earn"}),
            "invalid_number",
            "amount",
        ),
        (
            json!({"coin": "btc", "amount": "0.000000001", "from": "funding", "to": "earn"}),
            "too_many_decimals",
            "amount",
        ),
        (
            json!({"coin": "btc", "amount": "abc", "from": "funding", "to": "earn"}),
            "invalid_number",
            "amount",
        ),
        (
            json!({"coin": "btc", "amount": "0", "from": "funding", "to": "earn"}),
            "not_above_zero",
            "amount",
        ),
        (
            json!({"coin": "nope", "amount": "1", "from": "funding", "to": "earn"}),
            "unknown_coin",
            "coin",
        ),
        (
            json!({"coin": "btc", "amount": "0.1", "from": "earn", "to": "earn"}),
            "same_bucket",
            "to",
        ),
    ];
    for (body, reason, field) in cases {
        let (status, answer) = app
            .post(
                "/api/asset/transferFunds",
                Some(&body.to_string()),
                &[("satoken", &member.token), ("lang", "de")],
            )
            .await;
        assert_eq!(
            (
                status,
                answer["data"]["reason"].as_str(),
                answer["data"]["field"].as_str()
            ),
            (400, Some(reason), Some(field)),
            "{body}: {answer}"
        );
    }
    let (_, answer) = app
        .post(
            "/api/asset/transferFunds",
            Some(
                &json!({"coin": "btc", "amount": "0.6", "from": "funding", "to": "earn"})
                    .to_string(),
            ),
            &[("satoken", &member.token), ("lang", "de")],
        )
        .await;
    assert_eq!(answer["msg"], "Unzureichendes Guthaben", "{answer}");
    assert_eq!(entries().await, before, "no posting at all");
    app.stop().await;
}

#[tokio::test]
async fn an_idempotency_key_replays_the_first_answer_and_refuses_another_body() {
    let app = spawn_app().await;
    let member = app.member("idem@example.com").await;
    app.credit(member.user_id, "usdt", dec!(100)).await;
    let body = json!({"coin": "usdt", "amount": "10", "from": "funding", "to": "trading"});
    let (s1, first) = post_keyed(
        &app,
        &member.token,
        "/api/asset/transferFunds",
        Some("move-1"),
        body.clone(),
    )
    .await;
    let (s2, again) = post_keyed(
        &app,
        &member.token,
        "/api/asset/transferFunds",
        Some("move-1"),
        body.clone(),
    )
    .await;
    assert_eq!((s1, s2), (200, 200), "{first} {again}");
    assert_eq!(first["data"], again["data"]);
    let (_, coins) = app
        .post_as(&member.token, "/api/userCoin/getUserCoin", None)
        .await;
    assert_eq!(coin(&coins, "usdt")["trading"], "10", "moved once");

    let other = json!({"coin": "usdt", "amount": "11", "from": "funding", "to": "trading"});
    let (status, answer) = post_keyed(
        &app,
        &member.token,
        "/api/asset/transferFunds",
        Some("move-1"),
        other,
    )
    .await;
    assert_eq!(
        (status, answer["data"]["reason"].as_str()),
        (400, Some("idempotency_key_reused")),
        "{answer}"
    );
    let (status, answer) = post_keyed(
        &app,
        &member.token,
        "/api/asset/transferFunds",
        Some("bad key"),
        body.clone(),
    )
    .await;
    assert_eq!(
        (status, answer["data"]["reason"].as_str()),
        (400, Some("invalid_idempotency_key")),
        "{answer}"
    );
    // Keys belong to their user: another user may use the same key.
    let second = app.member("idem2@example.com").await;
    app.credit(second.user_id, "usdt", dec!(10)).await;
    let (status, answer) = post_keyed(
        &app,
        &second.token,
        "/api/asset/transferFunds",
        Some("move-1"),
        body,
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    app.stop().await;
}

#[tokio::test]
async fn of_100_concurrent_moves_of_the_whole_balance_exactly_one_succeeds() {
    let app = spawn_app().await;
    let member = app.member("race@example.com").await;
    app.credit(member.user_id, "eth", dec!(3.25)).await;
    let body =
        json!({"coin": "eth", "amount": "3.25", "from": "funding", "to": "trading"}).to_string();
    let headers = [("satoken", member.token.as_str())];
    let requests = (0..100).map(|_| app.post("/api/asset/transferFunds", Some(&body), &headers));
    let answers = futures_util::future::join_all(requests).await;
    let (ok, refused, busy) = race_outcome(&answers, "insufficient_balance");
    assert_eq!((ok, refused + busy), (1, 99));
    assert_eq!(
        balance(&app, &member.token, "eth", "trading").await,
        dec!(3.25)
    );
    assert!(
        backend::funds::audit::audit(app.db())
            .await
            .unwrap()
            .is_clean()
    );
    app.stop().await;
}

#[tokio::test]
async fn transfers_to_other_users_need_the_fund_password_and_show_on_both_sides() {
    let app = spawn_app().await;
    let alice = app.member("alice.funds@example.com").await;
    let bob = app.member("bob.funds@example.com").await;
    app.credit(alice.user_id, "usdt", dec!(50)).await;
    let send = |to: &str, amount: &str, password: &str| json!({"coin": "usdt", "amount": amount, "toAccount": to, "fundPassword": password});
    // No fund password yet.
    let (status, answer) = post_keyed(
        &app,
        &alice.token,
        "/api/transfer/submit",
        None,
        send("bob.funds@example.com", "5", "x"),
    )
    .await;
    assert_eq!(
        (status, answer["data"]["reason"].as_str()),
        (400, Some("fund_password_not_set")),
        "{answer}"
    );
    set_fund_password(&app, &alice).await;
    for (to, password, reason) in [
        ("bob.funds@example.com", "Wrong#999", "wrong_fund_password"),
        ("alice.funds@example.com", FUND_PASSWORD, "self_transfer"),
        ("nobody@example.com", FUND_PASSWORD, "recipient_not_found"),
        ("999999", FUND_PASSWORD, "recipient_not_found"),
    ] {
        let (status, answer) = post_keyed(
            &app,
            &alice.token,
            "/api/transfer/submit",
            None,
            send(to, "5", password),
        )
        .await;
        assert_eq!(
            (status, answer["data"]["reason"].as_str()),
            (400, Some(reason)),
            "{to}: {answer}"
        );
    }
    let (status, answer) = post_keyed(
        &app,
        &alice.token,
        "/api/transfer/submit",
        Some("t-1"),
        send(&bob.user_id.to_string(), "20", FUND_PASSWORD),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (
            answer["data"]["balance"].as_str(),
            answer["data"]["toUserId"].as_i64()
        ),
        (Some("30"), Some(bob.user_id))
    );
    let (_, coins) = app
        .post_as(&bob.token, "/api/userCoin/getUserCoin", None)
        .await;
    assert_eq!(coin(&coins, "usdt")["funding"], "20");

    let (status, mine) = app.get_as(&alice.token, "/api/transfer/list").await;
    assert_eq!(status, 200, "{mine}");
    assert_eq!(mine["data"]["total"], 1);
    assert_eq!(mine["data"]["records"][0]["direction"], "out");
    let (_, theirs) = app
        .get_as(&bob.token, "/api/transfer/list?page=1&pageSize=5")
        .await;
    assert_eq!(theirs["data"]["records"][0]["direction"], "in");
    assert_eq!(theirs["data"]["records"][0]["counterpartId"], alice.user_id);
    let carol = app.member("carol.funds@example.com").await;
    let (_, none) = app.get_as(&carol.token, "/api/transfer/list").await;
    assert_eq!(none["data"]["total"], 0, "nobody else sees them");
    app.stop().await;
}

// 25 rather than 100: each request verifies the fund password with argon2id (19 MiB, by design
// slow), and 100 of them at once outlast the client's timeout on a busy 2-core machine. The
// 100-way races are `of_100_concurrent_moves_…` here and the ledger's own test.
#[tokio::test]
async fn of_25_concurrent_transfers_of_the_whole_balance_exactly_one_succeeds() {
    let app = spawn_app().await;
    let sender = app.member("sender.race@example.com").await;
    let receiver = app.member("receiver.race@example.com").await;
    set_fund_password(&app, &sender).await;
    app.credit(sender.user_id, "usdt", dec!(77.7)).await;
    let body = json!({"coin": "usdt", "amount": "77.7", "toAccount": receiver.account, "fundPassword": FUND_PASSWORD}).to_string();
    let headers = [("satoken", sender.token.as_str())];
    let requests = (0..25).map(|_| app.post("/api/transfer/submit", Some(&body), &headers));
    let answers = futures_util::future::join_all(requests).await;
    let ok = answers.iter().filter(|(status, _)| *status == 200).count();
    assert_eq!(
        ok,
        1,
        "{:?}",
        answers
            .iter()
            .find(|(s, b)| *s != 200 && b["data"]["reason"] != "insufficient_balance")
    );
    let (_, coins) = app
        .post_as(&receiver.token, "/api/userCoin/getUserCoin", None)
        .await;
    assert_eq!(coin(&coins, "usdt")["funding"], "77.7");
    assert!(
        backend::funds::audit::audit(app.db())
            .await
            .unwrap()
            .is_clean()
    );
    app.stop().await;
}
