//! Withdrawals over HTTP: the per-session key, the sealed request (opened only with its own
//! session's key), the hold funding → frozen, the operator's review (sent with the fee to the house,
//! or returned; 409 on a second review, even a concurrent one), idempotency keys, the refusals —
//! each of which holds nothing — and 100 concurrent withdrawals of a whole balance, of which exactly
//! one goes through while the audit stays clean.

use backend::entity::{journal_entry, withdrawal};
use backend::funds::ledger::{self, AccountRef, House};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{EntityTrait, PaginatorTrait};
use serde_json::{Value, json};
use wasm_core::cipher;

use crate::deposits::{assert_audit_clean, balance, reason};
use crate::helpers::{
    FUND_PASSWORD, Member, PASSWORD, TestApp, security_code, set_fund_password, spawn_app,
};
use crate::kyc::operator;

/// A TRON address of a user (not the platform's deposit address).
pub const TRON: &str = "TR7NHqjeKQxGTCi8q8ZY4pL8otSzgjLj6t";
/// An Ethereum address of a user (EIP-55 checksummed).
const EVM: &str = "0xdbF03B407c01E7cD3CBea99509d93f8DDDC8C6FB";
/// A TRON transaction id: 64 hex digits.
pub const TX_ID: &str = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
const AAD: &str = "assets/withdrawal";
const SUBMIT: &str = "/api/coin/coin/assets/withdrawal";

/// A member with `amount` USDT in funding and a fund password.
pub async fn funded(app: &TestApp, account: &str, amount: Decimal) -> Member {
    let member = app.member(account).await;
    app.credit(member.user_id, "usdt", amount).await;
    set_fund_password(app, &member).await;
    member
}

/// The session's withdrawal key (base64).
async fn key_of(app: &TestApp, token: &str) -> String {
    let (status, body) = app
        .get_as(token, "/api/coin/coin/assets/getWithdrawalKey")
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["key"].as_str().unwrap().to_owned()
}

/// Seals `form` as the webapp does: a fresh random nonce every time.
fn seal(key: &str, form: &Value) -> String {
    let mut nonce = [0u8; cipher::NONCE_LEN];
    rand::fill(&mut nonce[..]);
    cipher::seal_text(key, &cipher::encode_base64(&nonce), AAD, &form.to_string()).unwrap()
}

pub fn form(coin: &str, network: &str, address: &str, amount: &str) -> Value {
    json!({"coin": coin, "network": network, "address": address, "amount": amount,
        "fundPassword": FUND_PASSWORD})
}

/// Posts the sealed `payload` as `token`, with an optional `Idempotency-Key`.
async fn post_payload(
    app: &TestApp,
    token: &str,
    key: Option<&str>,
    payload: &str,
) -> (u16, Value) {
    let mut headers = vec![("satoken", token)];
    if let Some(key) = key {
        headers.push(("Idempotency-Key", key));
    }
    app.post(
        SUBMIT,
        Some(&json!({"payload": payload}).to_string()),
        &headers,
    )
    .await
}

/// `form` with a fresh security code for `member` unless it brings a code already.
pub async fn authorised(app: &TestApp, member: &Member, form: &Value) -> Value {
    let mut form = form.clone();
    if form.get("securityCode").is_none() && form.get("totpCode").is_none() {
        form["securityCode"] = json!(security_code(app, member).await);
    }
    form
}

/// Seals `form` (with a fresh security code unless it brings a code) with the session's key and
/// submits it as `member`.
pub async fn withdraw(app: &TestApp, member: &Member, form: &Value) -> (u16, Value) {
    let form = authorised(app, member, form).await;
    let key = key_of(app, &member.token).await;
    post_payload(app, &member.token, None, &seal(&key, &form)).await
}

pub async fn review(app: &TestApp, token: &str, id: i64, body: Value) -> (u16, Value) {
    app.post_as(
        token,
        &format!("/api/admin/withdrawals/{id}/review"),
        Some(body),
    )
    .await
}

async fn house(app: &TestApp, account: House) -> Decimal {
    ledger::balance(app.db(), AccountRef::House(account), "usdt")
        .await
        .unwrap()
}

async fn withdrawals_stored(app: &TestApp) -> u64 {
    withdrawal::Entity::find().count(app.db()).await.unwrap()
}

#[tokio::test]
async fn the_key_belongs_to_its_session() {
    let app = spawn_app().await;
    let member = funded(&app, "keys@example.com", dec!(100)).await;
    let (status, body) = app
        .get_as(&member.token, "/api/coin/coin/assets/getWithdrawalKey")
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["algorithm"], "AES-256-GCM");
    assert_eq!(body["data"]["aad"], AAD);
    let key = body["data"]["key"].as_str().unwrap().to_owned();
    assert_eq!(cipher::decode_base64(&key, "key").unwrap().len(), 32);
    assert_eq!(key_of(&app, &member.token).await, key, "stable per session");
    let other_session = app.login("keys@example.com", PASSWORD).await;
    assert_ne!(
        key_of(&app, &other_session).await,
        key,
        "another session, another key"
    );

    // Sealed for one session, sent with another: refused, nothing held.
    let request = authorised(&app, &member, &form("usdt", "TRC20", TRON, "20")).await;
    let payload = seal(&key, &request);
    let (status, body) = post_payload(&app, &other_session, None, &payload).await;
    assert_eq!(
        (status, reason(&body), body["data"]["field"].as_str()),
        (400, "withdrawal_payload_invalid", Some("payload")),
        "{body}"
    );
    let (status, body) = post_payload(&app, &member.token, None, &payload).await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = app
        .get_as("", "/api/coin/coin/assets/getWithdrawalKey")
        .await;
    assert_eq!(status, 401);
    app.stop().await;
}

#[tokio::test]
async fn a_passed_withdrawal_sends_received_and_pays_the_fee() {
    let app = spawn_app().await;
    let member = funded(&app, "sender@example.com", dec!(100)).await;
    let ops = operator(&app, "ops@example.com").await;

    let (status, body) = withdraw(&app, &member, &form("USDT", "trc20", TRON, "50.5")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Withdrawal submitted for review");
    let record = &body["data"];
    let id = record["id"].as_i64().unwrap();
    assert_eq!(
        (
            record["coin"].as_str(),
            record["network"].as_str(),
            record["address"].as_str(),
            record["amount"].as_str(),
            record["fee"].as_str(),
            record["received"].as_str(),
            record["status"].as_str(),
        ),
        (
            Some("usdt"),
            Some("TRC20"),
            Some(TRON),
            Some("50.5"),
            Some("1"),
            Some("49.5"),
            Some("review")
        )
    );
    assert!(record["txHash"].is_null());
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(49.5)
    );
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        dec!(50.5)
    );
    let held = withdrawal::Entity::find_by_id(id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    let hold = journal_entry::Entity::find_by_id(held.hold_entry_id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        (hold.kind.as_str(), hold.user_id),
        ("withdrawal", Some(member.user_id))
    );

    for path in [
        "/api/withdraw/list",
        "/api/coin/coin/assets/getWithdrawalLog",
    ] {
        let (status, body) = app
            .post_as(&member.token, path, Some(json!({"coin": "usdt"})))
            .await;
        assert_eq!(status, 200, "{body}");
        assert_eq!(body["data"]["total"], 1);
        assert_eq!(body["data"]["records"][0]["id"], id);
    }
    let (status, body) = app
        .post_as(
            &ops,
            "/api/admin/withdrawals",
            Some(json!({"status": "review"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let listed = &body["data"]["records"][0];
    assert_eq!(
        (
            listed["id"].as_i64(),
            listed["account"].as_str(),
            listed["received"].as_str()
        ),
        (Some(id), Some("sender@example.com"), Some("49.5"))
    );
    assert_eq!(listed["holdEntryId"], held.hold_entry_id);

    // Passing needs the transaction hash.
    // Passing needs a transaction id of the withdrawal's network (TRON: 64 hex digits, no 0x).
    for (tx_hash, why) in [
        (None, "tx_hash_required"),
        (Some("has space"), "invalid_tx_hash"),
        (Some("abc"), "invalid_tx_hash"),
        (
            Some("0xa1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90"),
            "invalid_tx_hash",
        ),
    ] {
        let mut body = json!({"approve": true});
        if let Some(tx_hash) = tx_hash {
            body["txHash"] = json!(tx_hash);
        }
        let (status, answer) = review(&app, &ops, id, body).await;
        assert_eq!(
            (status, reason(&answer), answer["data"]["field"].as_str()),
            (400, why, Some("txHash")),
            "{answer}"
        );
    }
    let tx = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    let (status, body) = review(&app, &ops, id, json!({"approve": true, "txHash": tx})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        (
            body["data"]["status"].as_str(),
            body["data"]["txHash"].as_str()
        ),
        (Some("passed"), Some(tx))
    );
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(49.5)
    );
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        Decimal::ZERO
    );
    assert_eq!(house(&app, House::WithdrawalsInTransit).await, dec!(49.5));
    assert_eq!(house(&app, House::Fees).await, dec!(1));
    let row = withdrawal::Entity::find_by_id(id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    assert!(row.reviewed_by.is_some() && row.reviewed_at.is_some());
    for (entry_id, kind) in [
        (row.settle_entry_id, "withdrawal"),
        (row.fee_entry_id, "fee"),
    ] {
        let entry = journal_entry::Entity::find_by_id(entry_id.expect("entry kept"))
            .one(app.db())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            (entry.kind.as_str(), entry.reference.clone(), entry.actor_id),
            (kind, format!("withdrawal:{id}"), row.reviewed_by)
        );
    }

    // Reviewed twice: 409 either way, nothing moves.
    for body in [
        json!({"approve": true, "txHash": "0xother"}),
        json!({"approve": false, "reason": "late"}),
    ] {
        let (status, answer) = review(&app, &ops, id, body).await;
        assert_eq!(
            (status, reason(&answer)),
            (409, "payment_already_reviewed"),
            "{answer}"
        );
    }
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(49.5)
    );
    assert_eq!(house(&app, House::Fees).await, dec!(1));
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_failed_withdrawal_returns_the_whole_amount() {
    let app = spawn_app().await;
    let member = funded(&app, "returned@example.com", dec!(100)).await;
    let ops = operator(&app, "ops@example.com").await;
    let (status, body) = withdraw(&app, &member, &form("usdt", "ERC20", EVM, "30")).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["fee"], "5");
    assert_eq!(body["data"]["received"], "25");
    let id = body["data"]["id"].as_i64().unwrap();
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(70)
    );

    let (status, answer) = review(&app, &ops, id, json!({"approve": false})).await;
    assert_eq!(
        (status, reason(&answer), answer["data"]["field"].as_str()),
        (400, "reject_reason_required", Some("reason")),
        "{answer}"
    );
    let (status, answer) = review(
        &app,
        &ops,
        id,
        json!({"approve": false, "reason": "Address is on a sanctions list"}),
    )
    .await;
    assert_eq!(status, 200, "{answer}");
    assert_eq!(
        (
            answer["data"]["status"].as_str(),
            answer["data"]["reason"].as_str()
        ),
        (Some("failed"), Some("Address is on a sanctions list"))
    );
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(100)
    );
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        Decimal::ZERO
    );
    assert_eq!(house(&app, House::Fees).await, Decimal::ZERO);
    let row = withdrawal::Entity::find_by_id(id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    let refund = journal_entry::Entity::find_by_id(row.settle_entry_id.unwrap())
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(refund.kind, "withdrawal_refund");
    assert_eq!(row.fee_entry_id, None);
    let (status, answer) =
        review(&app, &ops, id, json!({"approve": true, "txHash": "0xabc"})).await;
    assert_eq!(
        (status, reason(&answer)),
        (409, "payment_already_reviewed"),
        "{answer}"
    );
    let (_, body) = app
        .post_as(
            &member.token,
            "/api/withdraw/list",
            Some(json!({"status": "failed"})),
        )
        .await;
    assert_eq!(
        body["data"]["records"][0]["reason"],
        "Address is on a sanctions list"
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn bad_requests_are_refused_and_hold_nothing() {
    let app = spawn_app().await;
    let member = funded(&app, "bad.withdraw@example.com", dec!(100)).await;
    app.credit(member.user_id, "btc", dec!(0.5)).await;
    let mut wrong_password = form("usdt", "TRC20", TRON, "20");
    wrong_password["fundPassword"] = json!("Wrong#999");
    let platform_address = app
        .state()
        .config
        .funds
        .channels
        .iter()
        .find(|c| c.network == "TRC20")
        .expect("a TRC20 channel")
        .address
        .clone();
    let cases = [
        (
            form("usdt", "TRC20", TRON, "twenty"),
            "invalid_number",
            "amount",
        ),
        (
            form("usdt", "TRC20", TRON, "-20"),
            "invalid_number",
            "amount",
        ),
        (
            form("usdt", "TRC20", TRON, "20.1234567"),
            "too_many_decimals",
            "amount",
        ),
        (
            form("usdt", "TRC20", TRON, "9.5"),
            "below_minimum",
            "amount",
        ),
        (
            form("usdt", "TRC20", TRON, "100.01"),
            "insufficient_balance",
            "amount",
        ),
        (
            form(
                "btc",
                "BTC",
                "bc1qw508d6qejxtdg4y5r3zarvary0c5xw7kv8f3t4",
                "0.5000001",
            ),
            "insufficient_balance",
            "amount",
        ),
        (
            form("doge", "TRC20", TRON, "20"),
            "no_funding_channel",
            "coin",
        ),
        (
            form("usdt", "BTC", TRON, "20"),
            "unsupported_network",
            "network",
        ),
        (
            form("usdt", "TRC20", EVM, "20"),
            "invalid_address",
            "address",
        ),
        (
            form("usdt", "ERC20", TRON, "20"),
            "invalid_address",
            "address",
        ),
        (
            form("usdt", "TRC20", "TLa2f6VPqDgRE67v1736s7bJ8Ray5wYjU8", "20"),
            "invalid_address",
            "address",
        ),
        (
            // The platform's own deposit address: the money would credit nobody.
            form("usdt", "TRC20", &platform_address, "20"),
            "withdraw_to_platform_address",
            "address",
        ),
        (wrong_password, "wrong_fund_password", "fundPassword"),
        (
            json!({"coin": "usdt", "network": "TRC20", "address": TRON, "amount": "20"}),
            "missing_field",
            "fundPassword",
        ),
        (
            json!({"coin": "usdt", "network": "TRC20", "address": TRON, "amount": 20, "fundPassword": FUND_PASSWORD}),
            "invalid_field",
            "amount",
        ),
        (
            json!({"coin": "usdt", "network": "TRC20", "address": TRON, "amount": "20", "fundPassword": FUND_PASSWORD, "to": "x"}),
            "unknown_field",
            "to",
        ),
    ];
    for (mut request, why, field) in cases {
        // Refused before the code is looked at (but the balance is held after it): none is sent.
        if why != "insufficient_balance" {
            request["securityCode"] = json!("000000");
        }
        let (status, answer) = withdraw(&app, &member, &request).await;
        assert_eq!(
            (status, reason(&answer), answer["data"]["field"].as_str()),
            (400, why, Some(field)),
            "{request} → {answer}"
        );
    }
    let (status, answer) = withdraw(&app, &member, &form("usdt", "TRC20", TRON, "100.01")).await;
    assert_eq!(answer["msg"], "Insufficient balance", "{status} {answer}");

    // Payloads that do not open.
    let key = key_of(&app, &member.token).await;
    let sealed = seal(&key, &form("usdt", "TRC20", TRON, "20"));
    let mut tampered = cipher::decode_base64(&sealed, "p").unwrap();
    let last = tampered.len() - 1;
    tampered[last] ^= 1;
    let wrong_aad = cipher::seal_text(
        &key,
        &cipher::encode_base64(&[1; 12]),
        "assets/other",
        &form("usdt", "TRC20", TRON, "20").to_string(),
    )
    .unwrap();
    let plain_json = form("usdt", "TRC20", TRON, "20").to_string();
    for payload in [
        "not base64!".to_owned(),
        cipher::encode_base64(&tampered),
        wrong_aad,
        cipher::encode_base64(plain_json.as_bytes()),
        String::new(),
    ] {
        let (status, answer) = post_payload(&app, &member.token, None, &payload).await;
        assert_eq!(
            (status, reason(&answer), answer["data"]["field"].as_str()),
            (400, "withdrawal_payload_invalid", Some("payload")),
            "{payload} → {answer}"
        );
    }
    // The request is JSON with the sealed payload only.
    let (status, answer) = app
        .post_as(
            &member.token,
            SUBMIT,
            Some(form("usdt", "TRC20", TRON, "20")),
        )
        .await;
    assert_eq!(
        (status, reason(&answer)),
        (400, "unknown_field"),
        "{answer}"
    );

    assert_eq!(withdrawals_stored(&app).await, 0);
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(100)
    );
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        Decimal::ZERO
    );

    // Without a fund password the request is refused too.
    let unset = app.member("no.fund.password@example.com").await;
    app.credit(unset.user_id, "usdt", dec!(50)).await;
    let (status, answer) = withdraw(&app, &unset, &form("usdt", "TRC20", TRON, "20")).await;
    assert_eq!(
        (status, reason(&answer)),
        (400, "fund_password_not_set"),
        "{answer}"
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn review_is_for_operators_and_lists_show_only_ones_own() {
    let app = spawn_app().await;
    let alice = funded(&app, "alice.out@example.com", dec!(100)).await;
    let bob = app.member("bob.out@example.com").await;
    let (_, body) = withdraw(&app, &alice, &form("usdt", "TRC20", TRON, "20")).await;
    let id = body["data"]["id"].as_i64().unwrap();

    for path in [
        "/api/withdraw/list",
        "/api/coin/coin/assets/getWithdrawalLog",
    ] {
        let (_, body) = app.post_as(&bob.token, path, None).await;
        assert_eq!(body["data"]["total"], 0, "{body}");
    }
    let (status, body) = review(
        &app,
        &bob.token,
        id,
        json!({"approve": true, "txHash": "0x1"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    let (status, body) = app
        .post_as(&bob.token, "/api/admin/withdrawals", None)
        .await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");

    // An operator cannot pass their own withdrawal.
    let ops = operator(&app, "alice.out@example.com").await;
    let (status, body) = review(&app, &ops, id, json!({"approve": true, "txHash": TX_ID})).await;
    assert_eq!((status, reason(&body)), (403, "forbidden"), "{body}");
    let other_ops = operator(&app, "ops2@example.com").await;
    let (status, body) = review(
        &app,
        &other_ops,
        id + 1000,
        json!({"approve": false, "reason": "x"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");
    let (status, body) = review(
        &app,
        &other_ops,
        id,
        json!({"approve": true, "txHash": TX_ID}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        balance(&app, &alice.token, "usdt", "frozen").await,
        Decimal::ZERO
    );
    app.stop().await;
}

#[tokio::test]
async fn a_key_replays_the_withdrawal_and_refuses_another_request() {
    let app = spawn_app().await;
    let member = funded(&app, "idem.out@example.com", dec!(100)).await;
    let key = key_of(&app, &member.token).await;
    let request = authorised(&app, &member, &form("usdt", "TRC20", TRON, "40")).await;
    let (status, first) =
        post_payload(&app, &member.token, Some("w-1"), &seal(&key, &request)).await;
    assert_eq!(status, 200, "{first}");
    // A retry sealed again (a new nonce) is the same request, and needs no unused code.
    let (status, again) =
        post_payload(&app, &member.token, Some("w-1"), &seal(&key, &request)).await;
    assert_eq!(status, 200, "{again}");
    assert_eq!(again["data"], first["data"]);
    assert_eq!(withdrawals_stored(&app).await, 1);
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        dec!(40)
    );

    let other = authorised(&app, &member, &form("usdt", "TRC20", TRON, "41")).await;
    let (status, answer) =
        post_payload(&app, &member.token, Some("w-1"), &seal(&key, &other)).await;
    assert_eq!(
        (status, reason(&answer), answer["data"]["field"].as_str()),
        (400, "idempotency_key_reused", Some("Idempotency-Key")),
        "{answer}"
    );
    assert_eq!(withdrawals_stored(&app).await, 1);
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        dec!(40)
    );

    // Concurrent retries with one key hold once and all get its answer.
    let request = authorised(&app, &member, &form("usdt", "TRC20", TRON, "10")).await;
    let payloads: Vec<String> = (0..10).map(|_| seal(&key, &request)).collect();
    let retries = payloads
        .iter()
        .map(|payload| post_payload(&app, &member.token, Some("w-2"), payload));
    let answers = futures_util::future::join_all(retries).await;
    let ids: std::collections::BTreeSet<i64> = answers
        .iter()
        .map(|(status, body)| {
            assert_eq!(*status, 200, "{body}");
            body["data"]["id"].as_i64().unwrap()
        })
        .collect();
    assert_eq!(ids.len(), 1);
    assert_eq!(withdrawals_stored(&app).await, 2);
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        dec!(50)
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn of_100_concurrent_withdrawals_of_the_whole_balance_exactly_one_succeeds() {
    let app = spawn_app().await;
    let member = funded(&app, "race.out@example.com", dec!(100)).await;
    let key = key_of(&app, &member.token).await;
    // All with the one code, without idempotency keys (a client that sends again and again).
    let request = authorised(&app, &member, &form("usdt", "TRC20", TRON, "100")).await;
    let payloads: Vec<String> = (0..100).map(|_| seal(&key, &request)).collect();
    let requests = payloads
        .iter()
        .map(|payload| post_payload(&app, &member.token, None, payload));
    let answers = futures_util::future::join_all(requests).await;
    let mut ok = 0;
    for (status, body) in &answers {
        match (*status, reason(body)) {
            (200, _) => ok += 1,
            // The code is used once; the balance is held once; wrong guesses are limited;
            // a saturated database answers busy. Each changed nothing.
            (400, "invalid_code" | "insufficient_balance")
            | (429, "too_many_requests")
            | (503, "service_busy" | "ledger_busy") => {}
            other => panic!("unexpected answer {other:?}: {body}"),
        }
    }
    assert_eq!(ok, 1, "{answers:?}");
    assert_eq!(withdrawals_stored(&app).await, 1);
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        Decimal::ZERO
    );
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        dec!(100)
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn concurrent_reviews_settle_a_withdrawal_once() {
    let app = spawn_app().await;
    let member = funded(&app, "race.review@example.com", dec!(100)).await;
    let first = operator(&app, "ops1@example.com").await;
    let second = operator(&app, "ops2@example.com").await;
    // Two withdrawals, so the frozen balance could pay a second settlement of the first.
    let (_, body) = withdraw(&app, &member, &form("usdt", "TRC20", TRON, "30")).await;
    let id = body["data"]["id"].as_i64().unwrap();
    let (status, _) = withdraw(&app, &member, &form("usdt", "TRC20", TRON, "30")).await;
    assert_eq!(status, 200);
    let reviews = (0..20).map(|i| {
        let token = if i % 2 == 0 { &first } else { &second };
        let body = if i % 3 == 2 {
            json!({"approve": false, "reason": "duplicate"})
        } else {
            json!({"approve": true, "txHash": format!("{i:064x}")})
        };
        review(&app, token, id, body)
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
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        dec!(30)
    );
    let funding = balance(&app, &member.token, "usdt", "funding").await;
    if ok[0]["data"]["status"] == "passed" {
        assert_eq!(funding, dec!(40));
        assert_eq!(house(&app, House::Fees).await, dec!(1));
    } else {
        assert_eq!(funding, dec!(70));
        assert_eq!(house(&app, House::Fees).await, Decimal::ZERO);
    }
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_withdrawal_needs_the_second_factor_used_once_and_only_when_it_holds() {
    let app = spawn_app().await;
    let member = funded(&app, "factor.out@example.com", dec!(100)).await;
    let key = key_of(&app, &member.token).await;
    let send = |request: Value| {
        let (app, token, payload) = (&app, member.token.clone(), seal(&key, &request));
        async move { post_payload(app, &token, None, &payload).await }
    };
    let refused = |answer: &(u16, Value)| {
        let (status, body) = answer;
        (
            *status,
            reason(body).to_owned(),
            body["data"]["field"].clone(),
        )
    };

    // Without 2FA the e-mailed security code is required and checked.
    let answer = send(form("usdt", "TRC20", TRON, "20")).await;
    assert_eq!(
        refused(&answer),
        (400, "security_code_required".into(), json!("securityCode")),
        "{answer:?}"
    );
    let code = security_code(&app, &member).await;
    let wrong = if code == "000000" { "000001" } else { "000000" };
    let mut request = form("usdt", "TRC20", TRON, "20");
    request["securityCode"] = json!(wrong);
    let answer = send(request).await;
    assert_eq!(
        refused(&answer),
        (400, "invalid_code".into(), json!("securityCode")),
        "{answer:?}"
    );
    // A hold that fails leaves the code usable; a hold that commits uses it up.
    let mut request = form("usdt", "TRC20", TRON, "100.01");
    request["securityCode"] = json!(code);
    let answer = send(request).await;
    assert_eq!(refused(&answer).1, "insufficient_balance", "{answer:?}");
    let mut request = form("usdt", "TRC20", TRON, "20");
    request["securityCode"] = json!(code);
    let answer = send(request.clone()).await;
    assert_eq!(answer.0, 200, "{answer:?}");
    let answer = send(request).await;
    assert_eq!(refused(&answer).1, "invalid_code", "used: {answer:?}");
    assert_eq!(withdrawals_stored(&app).await, 1);

    // With 2FA on, only the authenticator's current code authorises.
    let (secret, step) = crate::security::enable_totp(&app, &member).await;
    let answer = send(authorised(&app, &member, &form("usdt", "TRC20", TRON, "20")).await).await;
    assert_eq!(
        refused(&answer),
        (400, "totp_required".into(), json!("totpCode")),
        "{answer:?}"
    );
    let mut request = form("usdt", "TRC20", TRON, "20");
    request["totpCode"] = json!(crate::security::code(&secret, step + 1));
    let answer = send(request.clone()).await;
    assert_eq!(answer.0, 200, "{answer:?}");
    let answer = send(request).await;
    assert_eq!(
        refused(&answer),
        (400, "invalid_totp".into(), json!("totpCode")),
        "used: {answer:?}"
    );
    assert_eq!(withdrawals_stored(&app).await, 2);
    assert_eq!(
        balance(&app, &member.token, "usdt", "frozen").await,
        dec!(40)
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}
