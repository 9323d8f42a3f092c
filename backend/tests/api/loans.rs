//! Crypto loans over HTTP (issue 25): the `t_repay_type` dictionary and the rules' live figures,
//! products managed by operators, applications and every refusal (amount outside the limits, cycle
//! or way not offered, missing, foreign or disguised document, rules not accepted, identity or
//! credit too low, a second pending application — also two at once), the review (two operators
//! approving at once pay out once; a pool short of the principal; a rejection the user sees),
//! repayment (early in full at wasm-core's figure, the next instalment, more than owed, without
//! balance, idempotent), and the due sweep on the test clock across reminders, due times, grace and
//! overdue days. Every test ends with a clean ledger audit.

use backend::entity::{journal_entry, loan_instalment, notification};
use backend::funds::ledger::{self, AccountRef, House};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};
use wasm_core::loan::{LoanTerms, OverdueInput, RepayWay, early_repayment, overdue_penalty};

use crate::deposits::{assert_audit_clean, balance, decimal, reason};
use crate::helpers::{Member, TestApp, spawn_app_with};
use crate::kyc::{UPLOAD, operator, upload_as, upload_sample};

const DAY: i64 = 86_400_000;

/// The app with the background sweep effectively off: the tests sweep on the test clock.
async fn app() -> TestApp {
    spawn_app_with(|config| config.loans.sweep_every_ms = 3_600_000).await
}

/// A product form: USDT, 100 to 10,000, 30 and 60 days, 0.05 % a day, the three ways, 0.15 % a
/// day penalty after 3 grace days, open to anyone.
fn product() -> Value {
    json!({
        "coin": "usdt", "scale": 2, "minAmount": "100", "maxAmount": "10000",
        "cycles": [30, 60], "dayRate": "0.0005",
        "repayWays": ["maturity", "interest_daily", "equal_instalments"],
        "institution": "Kestrel Lending Ltd", "penaltyDayRate": "0.0015", "graceDays": 3,
        "minCreditScore": 0, "kycLevel": 0,
        "names": {"en": "Quick loan", "de": "Schnellkredit"}, "enabled": true
    })
}

async fn create_product(app: &TestApp, ops: &str, form: Value) -> i64 {
    let (status, body) = app
        .post_as(ops, "/api/admin/loans/products", Some(form))
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["id"].as_i64().unwrap()
}

async fn fund_pool(app: &TestApp, ops: &str, amount: &str) {
    let (status, body) = app
        .post_as(
            ops,
            "/api/admin/loans/pool/fund",
            Some(json!({"coin": "usdt", "amount": amount})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

/// The three identity images of `member`.
async fn documents(app: &TestApp, member: &Member) -> Value {
    json!({
        "documents": "upload",
        "frontFileId": upload_sample(app, member, "png").await,
        "backFileId": upload_sample(app, member, "jpeg").await,
        "holdFileId": upload_sample(app, member, "webp").await,
    })
}

fn application(product: i64, amount: &str, cycle: u32, way: &str, docs: &Value) -> Value {
    let mut body = json!({"productId": product, "amount": amount, "cycleDays": cycle,
        "repayWay": way, "acceptRules": true});
    for (name, value) in docs.as_object().unwrap() {
        body[name] = value.clone();
    }
    body
}

async fn apply(app: &TestApp, member: &Member, body: Value) -> (u16, Value) {
    app.post_as(&member.token, "/api/loan/apply", Some(body))
        .await
}

async fn review(app: &TestApp, ops: &str, id: i64, approve: bool) -> (u16, Value) {
    let mut body = json!({"approve": approve});
    if !approve {
        body["reason"] = json!("the photo of the document is blurred");
    }
    app.post_as(
        ops,
        &format!("/api/admin/loans/applications/{id}/review"),
        Some(body),
    )
    .await
}

/// A member with an approved loan of `amount` USDT for `cycle` days repaid `way`; its id.
async fn borrower(
    app: &TestApp,
    ops: &str,
    product: i64,
    account: &str,
    amount: &str,
    cycle: u32,
    way: &str,
) -> (Member, i64) {
    let member = app.member(account).await;
    let docs = documents(app, &member).await;
    let (status, body) = apply(
        app,
        &member,
        application(product, amount, cycle, way, &docs),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();
    let (status, body) = review(app, ops, id, true).await;
    assert_eq!(status, 200, "{body}");
    (member, id)
}

async fn entries(app: &TestApp, kind: &str) -> u64 {
    journal_entry::Entity::find()
        .filter(journal_entry::Column::Kind.eq(kind))
        .count(app.db())
        .await
        .unwrap()
}

async fn notices(app: &TestApp, user_id: i64, kind: &str) -> u64 {
    notification::Entity::find()
        .filter(notification::Column::UserId.eq(user_id))
        .filter(notification::Column::Kind.eq(kind))
        .count(app.db())
        .await
        .unwrap()
}

async fn sweep(app: &TestApp) -> backend::loans::sweep::SweepReport {
    let state = app.state();
    backend::loans::sweep::sweep(
        app.db(),
        &state.loan_events,
        &state.config.loans,
        state.clock.now_ms(),
    )
    .await
    .expect("the sweep runs")
}

async fn detail(app: &TestApp, member: &Member, id: i64) -> Value {
    let (status, body) = app.get_as(&member.token, &format!("/api/loan/{id}")).await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

async fn preview(app: &TestApp, member: &Member, id: i64, body: Value) -> Value {
    let (status, answer) = app
        .post_as(
            &member.token,
            &format!("/api/loan/{id}/repay/preview"),
            Some(body),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    answer["data"].clone()
}

async fn repay(
    app: &TestApp,
    member: &Member,
    id: i64,
    key: Option<&str>,
    body: Value,
) -> (u16, Value) {
    let mut headers = vec![("satoken", member.token.as_str())];
    if let Some(key) = key {
        headers.push(("Idempotency-Key", key));
    }
    app.post(
        &format!("/api/loan/{id}/repay"),
        Some(&body.to_string()),
        &headers,
    )
    .await
}

fn terms(principal: Decimal, cycle: u32, way: RepayWay, start: i64) -> LoanTerms {
    LoanTerms {
        principal,
        day_rate: dec!(0.0005),
        cycle_days: cycle,
        repay_way: way,
        start_time: start,
        scale: 2,
    }
}

#[tokio::test]
async fn the_dictionary_rules_and_products_speak_the_readers_language() {
    let app = app().await;
    let ops = operator(&app, "ops@example.com").await;
    let (_, english) = app.post("/api/common/type/t_repay_type", None, &[]).await;
    let (_, german) = app
        .post("/api/common/type/t_repay_type", None, &[("lang", "de")])
        .await;
    let values: Vec<&str> = english["data"]
        .as_array()
        .unwrap()
        .iter()
        .map(|w| w["value"].as_str().unwrap())
        .collect();
    assert_eq!(values, ["maturity", "interest_daily", "equal_instalments"]);
    assert_ne!(english["data"][0]["name"], german["data"][0]["name"]);

    let id = create_product(&app, &ops, product()).await;
    let response = app
        .client
        .get(format!("{}/api/loan/rules", app.base))
        .header("lang", "de")
        .send()
        .await
        .unwrap();
    let rules: Value = response.json().await.unwrap();
    let listed = &rules["data"]["products"][0];
    assert_eq!(listed["id"], id);
    assert_eq!(listed["name"], "Schnellkredit");
    assert_eq!(listed["penaltyDayRate"], "0.0015");
    assert_eq!(listed["graceDays"], 3);
    assert_eq!(rules["data"]["remindDaysBefore"], 3);

    // A bad form names its field; a user may not manage products.
    let mut bad = product();
    bad["cycles"] = json!([30, 45]);
    let (status, body) = app
        .post_as(&ops, "/api/admin/loans/products", Some(bad))
        .await;
    assert_eq!(
        (status, body["data"]["field"].as_str()),
        (400, Some("cycles")),
        "{body}"
    );
    let member = app.member("user@example.com").await;
    let (status, _) = app
        .post_as(&member.token, "/api/admin/loans/products", Some(product()))
        .await;
    assert_eq!(status, 403);

    // A new account scores the model's base and may borrow half the maximum.
    let (status, body) = app.get_as(&member.token, "/api/loan/products").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"][0]["yourMaxAmount"], "5000");
    assert_eq!(body["data"][0]["eligible"], true);
    let (_, credit) = app.get_as(&member.token, "/api/loan/credit").await;
    assert_eq!(credit["data"]["score"], 50);
    assert_eq!(credit["data"]["factors"][0]["key"], "base");
    app.stop().await;
}

#[tokio::test]
async fn bad_applications_are_refused_and_store_nothing() {
    let app = app().await;
    let ops = operator(&app, "ops@example.com").await;
    let id = create_product(&app, &ops, product()).await;
    let member = app.member("user@example.com").await;
    let docs = documents(&app, &member).await;
    let refused = |body: Value, status: u16, why: &'static str| {
        let (app, member) = (&app, &member);
        async move {
            let (got, answer) = apply(app, member, body).await;
            assert_eq!((got, reason(&answer)), (status, why), "{answer}");
            answer
        }
    };
    // Below the minimum; above what a score of 50 allows (half of 10,000).
    let answer = refused(
        application(id, "99", 30, "maturity", &docs),
        400,
        "loan_amount_out_of_range",
    )
    .await;
    assert!(answer["msg"].as_str().unwrap().contains("5000"), "{answer}");
    refused(
        application(id, "5000.01", 30, "maturity", &docs),
        400,
        "loan_amount_out_of_range",
    )
    .await;
    refused(
        application(id, "100.001", 30, "maturity", &docs),
        400,
        "invalid_field",
    )
    .await;
    refused(
        application(id, "1000", 14, "maturity", &docs),
        400,
        "loan_cycle_not_offered",
    )
    .await;
    refused(
        application(id, "1000", 30, "weekly", &docs),
        400,
        "loan_way_not_offered",
    )
    .await;
    let mut no_rules = application(id, "1000", 30, "maturity", &docs);
    no_rules["acceptRules"] = json!(false);
    refused(no_rules, 400, "loan_rules_not_accepted").await;
    // Documents: missing, another user's, a PDF where a photo belongs, none to reuse from KYC.
    let mut missing = application(id, "1000", 30, "maturity", &docs);
    missing.as_object_mut().unwrap().remove("holdFileId");
    let answer = refused(missing, 400, "loan_document_required").await;
    assert_eq!(answer["data"]["field"], "holdFileId");
    let other = app.member("other@example.com").await;
    let mut foreign = application(id, "1000", 30, "maturity", &docs);
    foreign["frontFileId"] = json!(upload_sample(&app, &other, "png").await);
    refused(foreign, 404, "not_found").await;
    let mut pdf = application(id, "1000", 30, "maturity", &docs);
    pdf["holdFileId"] = json!(upload_sample(&app, &member, "pdf").await);
    refused(pdf, 415, "loan_document_not_image").await;
    let mut kyc = application(id, "1000", 30, "maturity", &json!({"documents": "kyc"}));
    kyc["documents"] = json!("kyc");
    refused(kyc, 400, "loan_kyc_documents_missing").await;
    // A disguised document never becomes an upload at all (checked by content, as for KYC).
    let (status, _) = upload_as(
        &app,
        &member.token,
        UPLOAD,
        "file",
        "passport.png",
        "image/png",
        b"<html>not a photo</html>".to_vec(),
    )
    .await;
    assert_eq!(status, 415);
    // Identity level and credit score.
    let mut strict = product();
    strict["kycLevel"] = json!(2);
    let kyc_product = create_product(&app, &ops, strict).await;
    refused(
        application(kyc_product, "1000", 30, "maturity", &docs),
        403,
        "loan_kyc_required",
    )
    .await;
    let mut picky = product();
    picky["minCreditScore"] = json!(90);
    let picky = create_product(&app, &ops, picky).await;
    refused(
        application(picky, "1000", 30, "maturity", &docs),
        403,
        "loan_credit_too_low",
    )
    .await;
    // A withdrawn product.
    let mut closed = product();
    closed["enabled"] = json!(false);
    let closed = create_product(&app, &ops, closed).await;
    refused(
        application(closed, "1000", 30, "maturity", &docs),
        400,
        "loan_product_closed",
    )
    .await;
    let stored = backend::entity::loan_application::Entity::find()
        .count(app.db())
        .await
        .unwrap();
    assert_eq!(stored, 0, "nothing was stored");

    // One pending application per product: the second is refused; two at once, exactly one.
    let (status, body) = apply(
        &app,
        &member,
        application(id, "1000", 30, "maturity", &docs),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "pending");
    assert_eq!(body["data"]["documentUrls"].as_array().unwrap().len(), 3);
    refused(
        application(id, "2000", 60, "maturity", &docs),
        409,
        "loan_application_pending",
    )
    .await;
    let racer = app.member("racer@example.com").await;
    let racer_docs = documents(&app, &racer).await;
    let body = application(id, "1000", 30, "maturity", &racer_docs);
    let (a, b) = tokio::join!(apply(&app, &racer, body.clone()), apply(&app, &racer, body));
    let mut statuses = [a.0, b.0];
    statuses.sort_unstable();
    assert_eq!(statuses, [200, 409], "{} {}", a.1, b.1);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn an_approval_pays_out_once_and_a_rejection_says_why() {
    let app = app().await;
    let ops = operator(&app, "ops@example.com").await;
    let second = operator(&app, "ops2@example.com").await;
    let id = create_product(&app, &ops, product()).await;
    let member = app.member("user@example.com").await;
    let docs = documents(&app, &member).await;
    let (_, body) = apply(
        &app,
        &member,
        application(id, "1000", 30, "maturity", &docs),
    )
    .await;
    let application_id = body["data"]["id"].as_i64().unwrap();

    // The operators see the documents, the score and the history.
    let (status, queue) = app.get_as(&ops, "/api/admin/loans/applications").await;
    assert_eq!(status, 200, "{queue}");
    let record = &queue["data"]["records"][0];
    assert_eq!(record["application"]["id"], application_id);
    assert_eq!(record["credit"]["score"], 50);
    assert_eq!(record["record"]["loans"], 0);
    assert_eq!(record["history"][0]["toStatus"], "pending");
    let (status, _) = app
        .get_as(&member.token, "/api/admin/loans/applications")
        .await;
    assert_eq!(status, 403);

    // An empty pool cannot pay out; nothing changes.
    let (status, body) = review(&app, &ops, application_id, true).await;
    assert_eq!(
        (status, reason(&body)),
        (409, "loan_pool_insufficient"),
        "{body}"
    );
    fund_pool(&app, &ops, "1500").await;

    // Two operators at once: one disbursement.
    let (a, b) = tokio::join!(
        review(&app, &ops, application_id, true),
        review(&app, &second, application_id, true)
    );
    let mut outcomes = [
        (a.0, reason(&a.1).to_owned()),
        (b.0, reason(&b.1).to_owned()),
    ];
    outcomes.sort();
    assert_eq!(outcomes[0].0, 200, "{} {}", a.1, b.1);
    assert_eq!(
        (outcomes[1].0, outcomes[1].1.as_str()),
        (409, "loan_already_reviewed")
    );
    assert_eq!(entries(&app, "loan_disburse").await, 1);
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(1000)
    );
    let pool = ledger::balance(app.db(), AccountRef::House(House::Lending), "usdt")
        .await
        .unwrap();
    assert_eq!(pool, dec!(500));
    assert_eq!(notices(&app, member.user_id, "loan_approved").await, 1);

    // The loan is listed and detailed with the frozen terms and the wasm-core schedule.
    let (_, list) = app
        .get_as(&member.token, "/api/loan/list?status=active")
        .await;
    assert_eq!(list["data"]["total"], 1);
    let loan = detail(&app, &member, application_id).await;
    assert_eq!(loan["loan"]["institution"], "Kestrel Lending Ltd");
    assert_eq!(loan["loan"]["totalInterest"], "15");
    assert_eq!(loan["instalments"][0]["amount"], "1015");
    assert_eq!(loan["history"].as_array().unwrap().len(), 3);
    // A later product change does not rewrite the running loan.
    let mut dearer = product();
    dearer["dayRate"] = json!("0.001");
    let (status, _) = app
        .post_as(
            &ops,
            &format!("/api/admin/loans/products/{id}"),
            Some(dearer),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(
        detail(&app, &member, application_id).await["loan"]["dayRate"],
        "0.0005"
    );

    // A rejection needs a reason, which the user sees (and is mailed).
    let other = app.member("other@example.com").await;
    let other_docs = documents(&app, &other).await;
    let (_, body) = apply(
        &app,
        &other,
        application(id, "500", 30, "maturity", &other_docs),
    )
    .await;
    let rejected = body["data"]["id"].as_i64().unwrap();
    let (status, body) = app
        .post_as(
            &ops,
            &format!("/api/admin/loans/applications/{rejected}/review"),
            Some(json!({"approve": false})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "loan_reason_required"));
    let (status, _) = review(&app, &ops, rejected, false).await;
    assert_eq!(status, 200);
    let (_, mine) = app
        .get_as(&other.token, "/api/loan/applications?status=rejected")
        .await;
    assert_eq!(
        mine["data"]["records"][0]["reason"],
        "the photo of the document is blurred"
    );
    assert_eq!(notices(&app, other.user_id, "loan_rejected").await, 1);
    let (status, body) = review(&app, &ops, rejected, true).await;
    assert_eq!((status, reason(&body)), (409, "loan_already_reviewed"));
    // Another user's loan is not found.
    let (status, _) = app
        .get_as(&other.token, &format!("/api/loan/{application_id}"))
        .await;
    assert_eq!(status, 404);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn early_repayment_costs_what_wasm_core_says_and_is_idempotent() {
    let app = app().await;
    let ops = operator(&app, "ops@example.com").await;
    let id = create_product(&app, &ops, product()).await;
    fund_pool(&app, &ops, "10000").await;
    let (member, loan) = borrower(&app, &ops, id, "user@example.com", "1000", 30, "maturity").await;
    let start = detail(&app, &member, loan).await["loan"]["startTime"]
        .as_i64()
        .unwrap();

    // Two and a half days later: three loan days begun.
    app.state().clock.advance(5 * DAY / 2);
    let quote = preview(&app, &member, loan, json!({"mode": "full"})).await;
    let at = quote["atTime"].as_i64().unwrap();
    let expected = early_repayment(&terms(dec!(1000), 30, RepayWay::Maturity, start), at).unwrap();
    assert_eq!(decimal(&quote["amount"]), expected.amount);
    assert_eq!(decimal(&quote["interest"]), dec!(1.5));
    assert_eq!(decimal(&quote["interestSaved"]), expected.interest_saved);
    assert_eq!(quote["stage"], "early");

    // Without the interest on hand: refused, nothing moves.
    let (status, body) = repay(
        &app,
        &member,
        loan,
        None,
        json!({"mode": "full", "amount": "1001.5"}),
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "insufficient_balance"),
        "{body}"
    );
    app.credit(member.user_id, "usdt", dec!(10)).await;
    // More than owed; less than it costs.
    let (status, body) = repay(
        &app,
        &member,
        loan,
        None,
        json!({"mode": "full", "amount": "1001.51"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "loan_repay_above_owed"));
    let (status, body) = repay(
        &app,
        &member,
        loan,
        None,
        json!({"mode": "full", "amount": "1001"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "loan_repay_amount_changed"));
    let (status, body) = repay(
        &app,
        &member,
        loan,
        None,
        json!({"mode": "instalments", "count": 2, "amount": "1"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "loan_repay_above_owed"));

    let request = json!({"mode": "full", "amount": "1001.5"});
    let (status, first) = repay(&app, &member, loan, Some("repay-1"), request.clone()).await;
    assert_eq!(status, 200, "{first}");
    assert_eq!(first["data"]["status"], "settled");
    let (status, again) = repay(&app, &member, loan, Some("repay-1"), request).await;
    assert_eq!((status, &again["data"]), (200, &first["data"]));
    assert_eq!(entries(&app, "loan_repay").await, 1);
    assert_eq!(
        balance(&app, &member.token, "usdt", "funding").await,
        dec!(8.5)
    );
    let (status, body) = repay(
        &app,
        &member,
        loan,
        None,
        json!({"mode": "full", "amount": "1"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (409, "loan_settled"));

    // The pool has its principal back; the interest is fee income; the bill says so.
    let pool = ledger::balance(app.db(), AccountRef::House(House::Lending), "usdt")
        .await
        .unwrap();
    assert_eq!(pool, dec!(10000));
    let (_, bills) = app
        .post_as(
            &member.token,
            "/api/coin/coin/assets/getMyBill",
            Some(json!({"kind": "loan_repay"})),
        )
        .await;
    let bill = &bills["data"]["records"][0];
    assert_eq!(bill["detail"]["loanId"], loan);
    assert_eq!(bill["detail"]["stage"], "early");
    assert_eq!(decimal(&bill["detail"]["interest"]), dec!(1.5));
    let settled = detail(&app, &member, loan).await;
    assert_eq!(settled["loan"]["status"], "settled");
    assert!(settled["repayInFull"].is_null());
    assert_eq!(
        settled["history"].as_array().unwrap().last().unwrap()["reason"],
        "early"
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn the_sweep_reminds_deducts_and_charges_the_penalty_day_by_day() {
    let app = app().await;
    let ops = operator(&app, "ops@example.com").await;
    let id = create_product(&app, &ops, product()).await;
    fund_pool(&app, &ops, "10000").await;
    // One borrower who will have enough at the due time, one who will not.
    let (payer, paid_loan) =
        borrower(&app, &ops, id, "payer@example.com", "1000", 30, "maturity").await;
    let (late, late_loan) =
        borrower(&app, &ops, id, "late@example.com", "1000", 30, "maturity").await;
    app.credit(payer.user_id, "usdt", dec!(15)).await;
    let due = detail(&app, &late, late_loan).await["instalments"][0]["dueTime"]
        .as_i64()
        .unwrap();

    // Nothing is due yet: the sweep touches no loan.
    assert_eq!(sweep(&app).await.looked, 0);
    // Three days before: one reminder each, sent once.
    app.state().clock.advance(27 * DAY);
    let report = sweep(&app).await;
    assert_eq!((report.looked, report.reminders), (2, 2));
    assert_eq!(sweep(&app).await.looked, 0);
    assert_eq!(notices(&app, late.user_id, "loan_due_soon").await, 1);

    // The due time: the payer's instalment is deducted (settled); the late one goes overdue.
    app.state().clock.advance(3 * DAY);
    let report = sweep(&app).await;
    assert_eq!(
        (report.deducted, report.settled, report.overdue_notices),
        (1, 1, 1)
    );
    assert_eq!(
        detail(&app, &payer, paid_loan).await["loan"]["status"],
        "settled"
    );
    assert_eq!(
        balance(&app, &payer.token, "usdt", "funding").await,
        dec!(0)
    );
    let late_detail = detail(&app, &late, late_loan).await;
    assert_eq!(late_detail["loan"]["status"], "overdue");
    assert_eq!(late_detail["instalments"][0]["status"], "overdue");
    assert_eq!(late_detail["instalments"][0]["penalty"], "0");
    assert_eq!(notices(&app, late.user_id, "loan_overdue").await, 1);

    // Within the grace days: no penalty. Then the published rate for each day begun.
    for day in 1..=5 {
        app.state().clock.advance(DAY);
        sweep(&app).await;
        let now = app.state().clock.now_ms();
        let expected = overdue_penalty(&OverdueInput {
            amount: dec!(1015),
            penalty_day_rate: dec!(0.0015),
            grace_days: 3,
            due_time: due,
            at_time: now,
            scale: 2,
        })
        .unwrap();
        let shown = detail(&app, &late, late_loan).await;
        assert_eq!(
            decimal(&shown["instalments"][0]["penalty"]),
            expected.penalty,
            "day {day}"
        );
        let stored = loan_instalment::Entity::find()
            .filter(loan_instalment::Column::LoanId.eq(late_loan))
            .one(app.db())
            .await
            .unwrap()
            .unwrap();
        assert_eq!(
            stored.penalty.parse::<Decimal>().unwrap(),
            expected.penalty,
            "day {day}"
        );
        // The clock runs on past the due time, so `day` days later day `day + 1` has begun:
        // the three grace days end during day 3.
        assert_eq!(expected.penalty.is_zero(), day <= 2, "day {day}");
    }
    assert_eq!(
        notices(&app, late.user_id, "loan_overdue").await,
        1,
        "sent once"
    );
    let (_, credit) = app.get_as(&late.token, "/api/loan/credit").await;
    assert!(credit["data"]["score"].as_i64().unwrap() < 50, "{credit}");

    // Funds arrive: the next day's sweep deducts the amount and the penalty; settled.
    app.credit(late.user_id, "usdt", dec!(100)).await;
    app.state().clock.advance(DAY);
    let now = app.state().clock.now_ms();
    let penalty = overdue_penalty(&OverdueInput {
        amount: dec!(1015),
        penalty_day_rate: dec!(0.0015),
        grace_days: 3,
        due_time: due,
        at_time: now,
        scale: 2,
    })
    .unwrap()
    .penalty;
    let report = sweep(&app).await;
    assert_eq!(report.settled, 1);
    assert_eq!(
        balance(&app, &late.token, "usdt", "funding").await,
        dec!(1100) - dec!(1015) - penalty
    );
    let settled = detail(&app, &late, late_loan).await;
    assert_eq!(settled["loan"]["status"], "settled");
    assert_eq!(decimal(&settled["loan"]["penaltyPaid"]), penalty);
    assert_eq!(sweep(&app).await.looked, 0);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn instalments_are_repaid_one_at_a_time_and_never_beyond_the_debt() {
    let app = app().await;
    let ops = operator(&app, "ops@example.com").await;
    let id = create_product(&app, &ops, product()).await;
    fund_pool(&app, &ops, "10000").await;
    let (member, loan) = borrower(
        &app,
        &ops,
        id,
        "user@example.com",
        "1000",
        60,
        "equal_instalments",
    )
    .await;
    app.credit(member.user_id, "usdt", dec!(100)).await;
    let schedule = detail(&app, &member, loan).await["instalments"].clone();
    assert_eq!(schedule.as_array().unwrap().len(), 2);
    let first = schedule[0]["amount"].as_str().unwrap().to_owned();
    let quote = preview(
        &app,
        &member,
        loan,
        json!({"mode": "instalments", "count": 1}),
    )
    .await;
    assert_eq!(quote["amount"], first.as_str());
    assert_eq!(quote["instalments"], json!([1]));
    let (status, body) = repay(
        &app,
        &member,
        loan,
        None,
        json!({"mode": "instalments", "count": 1, "amount": first}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "active");
    let after = detail(&app, &member, loan).await;
    assert_eq!(after["instalments"][0]["status"], "paid");
    assert_eq!(after["instalments"][1]["status"], "pending");
    // One instalment left: two is more than owed.
    let (status, body) = repay(
        &app,
        &member,
        loan,
        None,
        json!({"mode": "instalments", "count": 2, "amount": "1"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "loan_repay_above_owed"));
    // The first due time passes without a sweep deduction (already paid): nothing overdue.
    app.state().clock.advance(31 * DAY);
    sweep(&app).await;
    assert_eq!(
        detail(&app, &member, loan).await["loan"]["status"],
        "active"
    );
    assert_audit_clean(&app).await;
    app.stop().await;
}
