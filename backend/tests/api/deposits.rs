//! Deposits over HTTP: the funding channels, claims with a screenshot (the caller's own image),
//! their history, the operator's review (credited once, 409 on a second review, even a concurrent
//! one), idempotency keys, and the refusals — each of which stores and posts nothing.

use backend::entity::{deposit, journal_entry};
use backend::funds::audit::audit;
use backend::funds::ledger::{self, AccountRef, House};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, spawn_app_with_empty_ledger};
use crate::kyc::{UPLOAD, operator, sample, upload_as, upload_sample};

/// `data.reason` of a failure.
pub fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

/// A decimal string of a body.
pub fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
        .parse()
        .unwrap()
}

/// The user's balance of `coin` in `bucket` (`funding`, `frozen`, …).
pub async fn balance(app: &TestApp, token: &str, coin: &str, bucket: &str) -> Decimal {
    let (status, body) = app.post_as(token, "/api/userCoin/getUserCoin", None).await;
    assert_eq!(status, 200, "{body}");
    let row = body["data"]["coins"]
        .as_array()
        .unwrap()
        .iter()
        .find(|c| c["coin"] == coin)
        .unwrap_or_else(|| panic!("no {coin} in {body}"))
        .clone();
    decimal(&row[bucket])
}

/// Asserts that the ledger is sound (what `backend audit` checks).
pub async fn assert_audit_clean(app: &TestApp) {
    let report = audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{:?}", report.problems);
}

/// Submits a deposit claim as `token`, with an optional `Idempotency-Key`.
pub async fn claim(app: &TestApp, token: &str, key: Option<&str>, body: Value) -> (u16, Value) {
    let mut headers = vec![("satoken", token)];
    if let Some(key) = key {
        headers.push(("Idempotency-Key", key));
    }
    app.post("/api/recharge/submit", Some(&body.to_string()), &headers)
        .await
}

pub fn usdt_claim(amount: &str, screenshot: i64) -> Value {
    json!({"coin": "USDT", "network": "trc20", "amount": amount, "screenshot": screenshot.to_string()})
}

pub async fn review(
    app: &TestApp,
    token: &str,
    id: i64,
    approve: bool,
    reason: Option<&str>,
) -> (u16, Value) {
    let mut body = json!({"approve": approve});
    if let Some(reason) = reason {
        body["reason"] = json!(reason);
    }
    app.post_as(
        token,
        &format!("/api/admin/deposits/{id}/review"),
        Some(body),
    )
    .await
}

async fn deposits_stored(app: &TestApp) -> u64 {
    deposit::Entity::find().count(app.db()).await.unwrap()
}

#[tokio::test]
async fn channels_list_every_coin_with_a_valid_address() {
    let app = spawn_app().await;
    let member = app.member("channels@example.com").await;
    let (status, body) = app
        .get_as(&member.token, "/api/coin/coin/assets/getRechargeCurrency")
        .await;
    assert_eq!(status, 200, "{body}");
    let coins = body["data"]["coins"].as_array().unwrap();
    let names: Vec<&str> = coins.iter().map(|c| c["coin"].as_str().unwrap()).collect();
    assert_eq!(names, ["usdt", "btc", "eth"]);
    for coin in coins {
        for network in coin["networks"].as_array().unwrap() {
            let name = network["network"].as_str().unwrap();
            let address = network["address"].as_str().unwrap();
            assert_eq!(
                wasm_core::validate::validate_address(name, address),
                Ok(()),
                "{coin}"
            );
            assert!(decimal(&network["minWithdraw"]) > decimal(&network["withdrawFee"]));
            assert!(decimal(&network["minDeposit"]) > Decimal::ZERO);
        }
    }
    let (status, same) = app.get_as(&member.token, "/api/recharge/ga").await;
    assert_eq!((status, &same["data"]), (200, &body["data"]));

    let (status, body) = app
        .get_as(
            &member.token,
            "/api/coin/coin/assets/getDepositAddress/USDT",
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["coin"], "usdt");
    let networks: Vec<&str> = body["data"]["networks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|n| n["network"].as_str().unwrap())
        .collect();
    assert_eq!(networks, ["TRC20", "ERC20"]);
    assert_eq!(body["data"]["networks"][0]["withdrawFee"], "1");

    let (status, body) = app
        .get_as(
            &member.token,
            "/api/coin/coin/assets/getDepositAddress/doge",
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (404, "no_funding_channel"),
        "{body}"
    );
    assert_eq!(
        body["msg"],
        "Deposits and withdrawals are not available for DOGE"
    );
    let (status, _) = app
        .get_as(&member.token, "/api/other/coin/assets/getRechargeCurrency")
        .await;
    assert_eq!(status, 404);
    let (status, _) = app.get_as("", "/api/recharge/ga").await;
    assert_eq!(status, 401);
    app.stop().await;
}

#[tokio::test]
async fn a_passed_deposit_credits_funding_once() {
    let app = spawn_app_with_empty_ledger().await;
    let member = app.member("depositor@example.com").await;
    let ops = operator(&app, "ops@example.com").await;
    let ops_id = app.post_as(&ops, "/api/user/getInfo", None).await.1["data"]["user"]["userId"]
        .as_i64()
        .unwrap();
    let screenshot = upload_sample(&app, &member, "png").await;

    let (status, body) = claim(&app, &member.token, None, usdt_claim("150.5", screenshot)).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Deposit submitted for review");
    let record = &body["data"];
    let id = record["id"].as_i64().unwrap();
    assert_eq!(
        (
            record["coin"].as_str(),
            record["network"].as_str(),
            record["amount"].as_str(),
            record["status"].as_str(),
            record["screenshot"].as_str(),
        ),
        (
            Some("usdt"),
            Some("TRC20"),
            Some("150.5"),
            Some("review"),
            Some(screenshot.to_string().as_str())
        )
    );
    assert_eq!(record["address"], "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU7");
    assert!(record["reviewedAt"].is_null());
    let link = record["screenshotUrl"].as_str().unwrap();
    let (status, _, _) = app.get(link).await;
    assert_eq!(status, 200, "the screenshot link works");
    // A claim moves nothing.
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        Decimal::ZERO
    );
    let entries = journal_entry::Entity::find().count(app.db()).await.unwrap();

    for path in ["/api/recharge/list", "/api/coin/coin/assets/getRechargeLog"] {
        let (status, body) = app.post_as(&member.token, path, None).await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["total"], 1);
        assert_eq!(body["data"]["page"], 1);
        assert_eq!(body["data"]["pageSize"], 20);
        assert_eq!(body["data"]["records"][0]["id"], id);
    }
    let (_, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/assets/getRechargeLog",
            Some(json!({"type": 1, "status": "passed"})),
        )
        .await;
    assert_eq!(body["data"]["total"], 0, "{body}");

    let (status, body) = app
        .post_as(
            &ops,
            "/api/admin/deposits",
            Some(json!({"status": "review"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let listed = &body["data"]["records"][0];
    assert_eq!(
        (
            listed["id"].as_i64(),
            listed["userId"].as_i64(),
            listed["account"].as_str()
        ),
        (
            Some(id),
            Some(member.user_id),
            Some("depositor@example.com")
        )
    );
    let (status, _, _) = app.get(listed["screenshotUrl"].as_str().unwrap()).await;
    assert_eq!(status, 200, "the operator sees the screenshot");

    let (status, body) = review(&app, &ops, id, true, None).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Review saved");
    assert_eq!(body["data"]["status"], "passed");
    assert!(body["data"]["reviewedAt"].is_i64());
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(150.5)
    );
    assert_eq!(
        ledger::balance(
            app.db(),
            AccountRef::House(House::DepositsInTransit),
            "usdt"
        )
        .await
        .unwrap(),
        dec!(-150.5)
    );
    let row = deposit::Entity::find_by_id(id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(row.reviewed_by, Some(ops_id));
    let entry = journal_entry::Entity::find_by_id(row.entry_id.expect("the entry is kept"))
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (
            entry.kind.as_str(),
            entry.reference.as_str(),
            entry.user_id,
            entry.actor_id
        ),
        (
            "deposit",
            format!("deposit:{id}").as_str(),
            Some(member.user_id),
            Some(ops_id)
        )
    );

    // Reviewed twice: 409 either way, nothing moves.
    for approve in [true, false] {
        let (status, body) = review(&app, &ops, id, approve, Some("again")).await;
        assert_eq!(
            (status, reason(&body)),
            (409, "payment_already_reviewed"),
            "{body}"
        );
    }
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(150.5)
    );
    assert_eq!(
        journal_entry::Entity::find().count(app.db()).await.unwrap(),
        entries + 1
    );
    let (_, body) = app
        .post_as(
            &member.token,
            "/api/recharge/list",
            Some(json!({"status": "passed", "coin": "USDT"})),
        )
        .await;
    assert_eq!(body["data"]["records"][0]["status"], "passed", "{body}");
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_failed_deposit_needs_a_reason_and_credits_nothing() {
    let app = spawn_app_with_empty_ledger().await;
    let member = app.member("failing@example.com").await;
    let ops = operator(&app, "ops@example.com").await;
    let screenshot = upload_sample(&app, &member, "jpeg").await;
    let (status, body) = claim(
        &app,
        &member.token,
        None,
        json!({"coin": "btc", "network": "BTC", "amount": "0.015", "screenshot": screenshot.to_string()}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();

    for missing in [None, Some("   ")] {
        let (status, body) = review(&app, &ops, id, false, missing).await;
        assert_eq!(
            (status, reason(&body), body["data"]["field"].as_str()),
            (400, "reject_reason_required", Some("reason")),
            "{body}"
        );
    }
    let (status, body) = review(&app, &ops, id, false, Some(&"x".repeat(501))).await;
    assert_eq!((status, reason(&body)), (400, "too_long"), "{body}");
    let (status, body) = review(&app, &ops, id, false, Some("No payment arrived")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "failed");
    assert_eq!(body["data"]["reason"], "No payment arrived");
    let (status, body) = review(&app, &ops, id, true, None).await;
    assert_eq!(
        (status, reason(&body)),
        (409, "payment_already_reviewed"),
        "{body}"
    );

    let (_, body) = app.post_as(&member.token, "/api/recharge/list", None).await;
    assert_eq!(body["data"]["records"][0]["reason"], "No payment arrived");
    assert_eq!(
        balance(&app, &member.token, "btc", "funding").await,
        Decimal::ZERO
    );
    assert_eq!(
        journal_entry::Entity::find().count(app.db()).await.unwrap(),
        0
    );
    app.stop().await;
}

#[tokio::test]
async fn bad_claims_are_refused_and_store_nothing() {
    let app = spawn_app().await;
    let member = app.member("bad.claims@example.com").await;
    let other = app.member("someone.else@example.com").await;
    let png = upload_sample(&app, &member, "png").await;
    let pdf = upload_sample(&app, &member, "pdf").await;
    let theirs = upload_sample(&app, &other, "webp").await;
    let body = |coin: &str, network: &str, amount: &str, screenshot: String| json!({"coin": coin, "network": network, "amount": amount, "screenshot": screenshot});
    let cases = [
        (
            body("usdt", "TRC20", "ten", png.to_string()),
            400,
            "invalid_number",
            "amount",
        ),
        (
            body("usdt", "TRC20", "-20", png.to_string()),
            400,
            "invalid_number",
            "amount",
        ),
        (
            body("usdt", "TRC20", "0", png.to_string()),
            400,
            "not_above_zero",
            "amount",
        ),
        (
            body("usdt", "TRC20", "20.1234567", png.to_string()),
            400,
            "too_many_decimals",
            "amount",
        ),
        (
            body("usdt", "TRC20", "9.99", png.to_string()),
            400,
            "below_minimum",
            "amount",
        ),
        (
            body("doge", "TRC20", "20", png.to_string()),
            400,
            "no_funding_channel",
            "coin",
        ),
        (
            body("usdt", "BTC", "20", png.to_string()),
            400,
            "unsupported_network",
            "network",
        ),
        (
            body("usdt", "TRC20", "20", pdf.to_string()),
            400,
            "screenshot_not_image",
            "screenshot",
        ),
        (
            body("usdt", "TRC20", "20", theirs.to_string()),
            404,
            "not_found",
            "screenshot",
        ),
        (
            body("usdt", "TRC20", "20", "999999".into()),
            404,
            "not_found",
            "screenshot",
        ),
        (
            body("usdt", "TRC20", "20", "../../etc/passwd".into()),
            404,
            "not_found",
            "screenshot",
        ),
    ];
    for (request, status, why, field) in cases {
        let (got, answer) = claim(&app, &member.token, None, request.clone()).await;
        assert_eq!(
            (got, reason(&answer), answer["data"]["field"].as_str()),
            (status, why, Some(field)),
            "{request} → {answer}"
        );
    }
    // Someone else's upload answers exactly like a missing one.
    let (_, theirs_answer) = claim(
        &app,
        &member.token,
        None,
        body("usdt", "TRC20", "20", theirs.to_string()),
    )
    .await;
    let (_, missing_answer) = claim(
        &app,
        &member.token,
        None,
        body("usdt", "TRC20", "20", "999999".into()),
    )
    .await;
    assert_eq!(theirs_answer, missing_answer);
    let (status, answer) = app
        .post_as(
            &member.token,
            "/api/recharge/submit",
            Some(json!({"coin": "usdt", "network": "TRC20", "amount": "20"})),
        )
        .await;
    assert_eq!(
        (status, reason(&answer)),
        (400, "missing_field"),
        "{answer}"
    );
    let (status, answer) = app
        .post_as(
            &member.token,
            "/api/recharge/submit",
            Some(json!({"coin": "usdt", "network": "TRC20", "amount": 20, "screenshot": "1"})),
        )
        .await;
    assert_eq!(
        (status, reason(&answer), answer["data"]["field"].as_str()),
        (400, "invalid_field", Some("amount")),
        "{answer}"
    );
    assert_eq!(deposits_stored(&app).await, 0);

    // The upload's URL names the file too.
    let (status, answer) = claim(
        &app,
        &member.token,
        None,
        body(
            "usdt",
            "ERC20",
            "20",
            format!("/api/file/content/{png}?expires=1&sig=00"),
        ),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(answer["data"]["screenshot"], png.to_string());
    assert_eq!(deposits_stored(&app).await, 1);
    app.stop().await;
}

#[tokio::test]
async fn review_is_for_operators_and_lists_show_only_ones_own() {
    let app = spawn_app().await;
    let alice = app.member("alice.pay@example.com").await;
    let bob = app.member("bob.pay@example.com").await;
    let ops = operator(&app, "ops@example.com").await;
    let screenshot = upload_sample(&app, &alice, "png").await;
    let (_, body) = claim(&app, &alice.token, None, usdt_claim("20", screenshot)).await;
    let id = body["data"]["id"].as_i64().unwrap();

    // Bob sees none of Alice's deposits and cannot review them.
    let (_, body) = app.post_as(&bob.token, "/api/recharge/list", None).await;
    assert_eq!(body["data"]["total"], 0, "{body}");
    let (_, body) = app
        .post_as(&bob.token, "/api/coin/coin/assets/getRechargeLog", None)
        .await;
    assert_eq!(body["data"]["total"], 0, "{body}");
    let (status, body) = review(&app, &bob.token, id, true, None).await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    let (status, body) = app.post_as(&bob.token, "/api/admin/deposits", None).await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    let (status, _) = app.post("/api/admin/deposits", None, &[]).await;
    assert_eq!(status, 401);

    // Unknown ids, malformed ids and bodies.
    let (status, body) = review(&app, &ops, id + 1000, true, None).await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");
    let (status, body) = app
        .post_as(
            &ops,
            "/api/admin/deposits/abc/review",
            Some(json!({"approve": true})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    let (status, body) = app
        .post_as(
            &ops,
            &format!("/api/admin/deposits/{id}/review"),
            Some(json!({"approve": "yes"})),
        )
        .await;
    assert_eq!(
        (status, body["data"]["field"].as_str()),
        (400, Some("approve")),
        "{body}"
    );
    let (status, body) = app
        .post_as(&ops, "/api/admin/deposits", Some(json!({"status": "lost"})))
        .await;
    assert_eq!(status, 400, "{body}");

    // An operator's own claim is someone else's to review.
    let (status, body) = upload_as(
        &app,
        &ops,
        UPLOAD,
        "file",
        "mine.png",
        "image/png",
        sample("png", 256),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let own_shot = body["data"]["fileId"].as_i64().unwrap();
    let (_, body) = claim(&app, &ops, None, usdt_claim("30", own_shot)).await;
    let own = body["data"]["id"].as_i64().unwrap();
    let (status, body) = review(&app, &ops, own, true, None).await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");

    let (_, body) = app
        .post_as(&ops, "/api/admin/deposits", Some(json!({"pageSize": 1})))
        .await;
    assert_eq!(
        (
            body["data"]["total"].as_u64(),
            body["data"]["records"].as_array().map(Vec::len)
        ),
        (Some(2), Some(1)),
        "{body}"
    );
    assert_eq!(body["data"]["records"][0]["id"], own, "newest first");
    app.stop().await;
}

#[tokio::test]
async fn a_key_replays_the_claim_and_refuses_another_body() {
    let app = spawn_app().await;
    let member = app.member("idem.deposit@example.com").await;
    let screenshot = upload_sample(&app, &member, "png").await;
    let (status, first) = claim(
        &app,
        &member.token,
        Some("dep-1"),
        usdt_claim("25", screenshot),
    )
    .await;
    assert_eq!(status, 200, "{first}");
    let (status, again) = claim(
        &app,
        &member.token,
        Some("dep-1"),
        usdt_claim("25", screenshot),
    )
    .await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["data"]["id"], first["data"]["id"]);
    assert_eq!(again["data"]["createdAt"], first["data"]["createdAt"]);
    assert_eq!(deposits_stored(&app).await, 1);
    let (status, other) = claim(
        &app,
        &member.token,
        Some("dep-1"),
        usdt_claim("26", screenshot),
    )
    .await;
    assert_eq!(
        (status, reason(&other), other["data"]["field"].as_str()),
        (400, "idempotency_key_reused", Some("Idempotency-Key")),
        "{other}"
    );
    let (status, bad) = claim(
        &app,
        &member.token,
        Some("has space"),
        usdt_claim("25", screenshot),
    )
    .await;
    assert_eq!(
        (status, reason(&bad)),
        (400, "invalid_idempotency_key"),
        "{bad}"
    );
    let (status, _) = claim(
        &app,
        &member.token,
        Some("dep-2"),
        usdt_claim("25", screenshot),
    )
    .await;
    assert_eq!(status, 200);
    assert_eq!(deposits_stored(&app).await, 2);

    // Concurrent retries with one key store one claim and all get its answer.
    let retries = (0..10).map(|_| {
        claim(
            &app,
            &member.token,
            Some("dep-3"),
            usdt_claim("27", screenshot),
        )
    });
    let answers = futures_util::future::join_all(retries).await;
    let ids: std::collections::BTreeSet<i64> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, 200, "{body}");
            body["data"]["id"].as_i64().unwrap()
        })
        .collect();
    assert_eq!(ids.len(), 1);
    assert_eq!(deposits_stored(&app).await, 3);
    app.stop().await;
}

#[tokio::test]
async fn concurrent_reviews_credit_a_deposit_once() {
    let app = spawn_app().await;
    let member = app.member("race.deposit@example.com").await;
    let first = operator(&app, "ops1@example.com").await;
    let second = operator(&app, "ops2@example.com").await;
    let screenshot = upload_sample(&app, &member, "png").await;
    let (_, body) = claim(&app, &member.token, None, usdt_claim("40", screenshot)).await;
    let id = body["data"]["id"].as_i64().unwrap();
    let reviews = (0..20).map(|i| {
        let token = if i % 2 == 0 { &first } else { &second };
        review(&app, token, id, i % 3 != 2, Some("duplicate"))
    });
    let answers = futures_util::future::join_all(reviews).await;
    let ok: Vec<&Value> = answers
        .iter()
        .filter(|(status, _)| *status == 200)
        .map(|(_, body)| body)
        .collect();
    let conflicts = answers
        .iter()
        .filter(|(status, body)| *status == 409 && reason(body) == "payment_already_reviewed")
        .count();
    assert_eq!((ok.len(), conflicts), (1, 19), "{answers:?}");
    let expected = if ok[0]["data"]["status"] == "passed" {
        dec!(40)
    } else {
        Decimal::ZERO
    };
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        expected
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}
