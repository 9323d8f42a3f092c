//! Earn products end to end: the operator's product calls, subscriptions and their refusals, the
//! quota race, the daily payouts across D+1/D+2, month ends and downtime, early redemption by the
//! product's rule, the replay, and a clean ledger audit after each.

use backend::clock::DAY_MS;
use backend::funds::ledger::{self, AccountRef, Bucket};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::helpers::{Member, TestApp, race_outcome, spawn_app};
use crate::kyc::operator;

/// A locked pledge product in USDT: 0.1 % a day for `days`, limits 10 to 1000, quota `quota`.
fn pledge(days: u32, quota: &str, rule: &str, start_at: i64) -> Value {
    json!({
        "kind": "pledge", "asset": "usdt", "names": {"en": "USDT pledge", "de": "USDT-Pfand"},
        "rate": "0.001", "rateBasis": "daily", "lockDays": days, "earlyRedemption": rule,
        "minAmount": "10", "maxAmount": "1000", "totalQuota": quota,
        "startAt": start_at, "endAt": start_at + 365 * DAY_MS,
    })
}

async fn create(app: &TestApp, ops: &str, product: Value) -> i64 {
    let (status, body) = app
        .post_as(ops, "/api/admin/earn/product/create", Some(product))
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["id"].as_i64().unwrap()
}

async fn subscribe(app: &TestApp, member: &Member, product: i64, amount: &str) -> (u16, Value) {
    app.post_as(
        &member.token,
        "/api/earn/subscribe",
        Some(json!({"productId": product, "amount": amount})),
    )
    .await
}

fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

async fn balance(app: &TestApp, user_id: i64, bucket: Bucket) -> Decimal {
    ledger::balance(app.db(), AccountRef::User { user_id, bucket }, "usdt")
        .await
        .unwrap()
}

async fn run(app: &TestApp) -> backend::earn::payout::Run {
    app.state().earn.run_due().await.expect("the payouts run")
}

async fn audit_and_replay(app: &TestApp) {
    assert!(
        backend::funds::audit::audit(app.db())
            .await
            .unwrap()
            .is_clean()
    );
    let mismatches = backend::earn::replay::replay(app.db()).await.unwrap();
    assert!(mismatches.is_empty(), "{mismatches:?}");
}

/// Moves the test clock to 10:00 UTC of the day after, so that each test starts mid-day.
fn to_mid_day(app: &TestApp) {
    let clock = &app.state().clock;
    let now = clock.now_ms();
    let next = (now.div_euclid(DAY_MS) + 1) * DAY_MS + 10 * 3_600_000;
    clock.advance(next - now);
}

/// An app at mid-day (see [`to_mid_day`]) and the token of its operator `ops@example.com`.
async fn earn_app() -> (TestApp, String) {
    let app = spawn_app().await;
    to_mid_day(&app);
    let ops = operator(&app, "ops@example.com").await;
    (app, ops)
}

/// The member `saver@example.com` with `usdt` USDT in the funding wallet.
async fn saver(app: &TestApp, usdt: Decimal) -> Member {
    let user = app.member("saver@example.com").await;
    app.credit(user.user_id, "usdt", usdt).await;
    user
}

/// `count` members `racer0@example.com`, … with 1,000 USDT each in the funding wallet.
async fn racers(app: &TestApp, count: usize) -> Vec<Member> {
    let mut members = Vec::new();
    for n in 0..count {
        let member = app.member(&format!("racer{n}@example.com")).await;
        app.credit(member.user_id, "usdt", dec!(1000)).await;
        members.push(member);
    }
    members
}

#[tokio::test]
async fn a_locked_position_accrues_from_d1_is_paid_from_d2_and_matures() {
    let (app, ops) = earn_app().await;
    let user = saver(&app, dec!(500)).await;
    let now = app.state().clock.now_ms();
    let product = create(&app, &ops, pledge(3, "100000", "deduct", now - DAY_MS)).await;

    let (status, preview) = app
        .post_as(
            &user.token,
            "/api/earn/preview",
            Some(json!({"productId": product, "amount": "100"})),
        )
        .await;
    assert_eq!(status, 200, "{preview}");
    let day = now.div_euclid(DAY_MS) * DAY_MS;
    assert_eq!(preview["data"]["valueDate"], day + DAY_MS);
    assert_eq!(preview["data"]["nextPayDate"], day + 2 * DAY_MS);
    assert_eq!(preview["data"]["deliveryDate"], day + 4 * DAY_MS);
    assert_eq!(preview["data"]["estimatedDaily"], "0.1");
    assert_eq!(preview["data"]["estimatedTotal"], "0.3");

    let (status, body) = subscribe(&app, &user, product, "100").await;
    assert_eq!(status, 200, "{body}");
    let position = body["data"]["id"].as_i64().unwrap();
    assert_eq!(
        balance(&app, user.user_id, Bucket::Funding).await,
        dec!(400)
    );
    assert_eq!(balance(&app, user.user_id, Bucket::Earn).await, dec!(100));

    // The same day and D+1: nothing paid yet.
    assert_eq!(run(&app).await.payouts, 0);
    app.state().clock.advance(DAY_MS);
    assert_eq!(run(&app).await.payouts, 0);
    // D+2: the first day is paid, once however often the job runs.
    app.state().clock.advance(DAY_MS);
    assert_eq!(run(&app).await.payouts, 1);
    assert_eq!(run(&app).await.payouts, 0);
    assert_eq!(
        balance(&app, user.user_id, Bucket::Funding).await,
        dec!(400.1)
    );
    let (_, orders) = app
        .post_as(&user.token, "/api/mingOrder/list", Some(json!({})))
        .await;
    let order = &orders["data"]["records"][0];
    assert_eq!(order["id"], position);
    assert_eq!(order["paidDays"], 1);
    assert_eq!(order["rewardSoFar"], "0.1");
    assert_eq!(order["nextPayAmount"], "0.1");
    assert_eq!(order["canRedeemEarly"], true);
    assert_eq!(order["redeemAmountNow"], "99.9");

    // D+4: the last two days and the principal.
    app.state().clock.advance(2 * DAY_MS);
    let done = run(&app).await;
    assert_eq!((done.payouts, done.matured), (2, 1));
    assert_eq!(
        balance(&app, user.user_id, Bucket::Funding).await,
        dec!(500.3)
    );
    assert_eq!(balance(&app, user.user_id, Bucket::Earn).await, dec!(0));
    let (_, orders) = app
        .post_as(
            &user.token,
            "/api/mingOrder/list",
            Some(json!({"status": "completed"})),
        )
        .await;
    assert_eq!(orders["data"]["records"][0]["status"], "completed");
    assert_eq!(orders["data"]["records"][0]["returned"], "100");

    // Income is real, and each payout is an earn_income bill.
    let (_, income) = app
        .post_as(&user.token, "/api/financial/personalIncome", None)
        .await;
    assert_eq!(income["data"]["coins"][0]["total"], "0.3");
    let (_, bills) = app
        .post_as(
            &user.token,
            "/api/coin/coin/assets/getMyBill",
            Some(json!({"kind": "earn_income"})),
        )
        .await;
    assert_eq!(bills["data"]["total"], 3, "{bills}");
    audit_and_replay(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn days_missed_while_down_are_all_paid_across_a_month_end() {
    let (app, ops) = earn_app().await;
    let user = saver(&app, dec!(1000)).await;
    let now = app.state().clock.now_ms();
    let product = create(&app, &ops, pledge(40, "100000", "keep", now - DAY_MS)).await;
    let (status, body) = subscribe(&app, &user, product, "1000").await;
    assert_eq!(status, 200, "{body}");
    // 35 days without a run (whatever the month, this crosses a month end), then one run.
    app.state().clock.advance(35 * DAY_MS);
    let caught_up = run(&app).await;
    assert_eq!((caught_up.payouts, caught_up.matured), (34, 0));
    assert_eq!(balance(&app, user.user_id, Bucket::Funding).await, dec!(34));
    // Early redemption keeping the rewards (the product's rule) returns the whole principal.
    let (status, preview) = app
        .post_as(
            &user.token,
            &format!("/api/earn/redeem/preview?id={}", body["data"]["id"]),
            None,
        )
        .await;
    assert_eq!(status, 200, "{preview}");
    assert_eq!(preview["data"]["returned"], "1000");
    assert_eq!(preview["data"]["deduction"], "0");
    let (status, redeemed) = app
        .post_as(
            &user.token,
            "/api/earn/redeem",
            Some(json!({"id": body["data"]["id"]})),
        )
        .await;
    assert_eq!(status, 200, "{redeemed}");
    assert_eq!(redeemed["data"]["status"], "redeemed");
    assert_eq!(
        balance(&app, user.user_id, Bucket::Funding).await,
        dec!(1034)
    );
    app.state().clock.advance(DAY_MS);
    assert_eq!(run(&app).await.payouts, 0);
    audit_and_replay(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn early_redemption_deducts_paid_rewards_or_is_refused_by_the_rule() {
    let (app, ops) = earn_app().await;
    let user = saver(&app, dec!(300)).await;
    let now = app.state().clock.now_ms();
    let deduct = create(&app, &ops, pledge(30, "100000", "deduct", now - DAY_MS)).await;
    let locked = create(&app, &ops, pledge(30, "100000", "forbidden", now - DAY_MS)).await;
    let (_, first) = subscribe(&app, &user, deduct, "100").await;
    let (_, second) = subscribe(&app, &user, locked, "100").await;
    app.state().clock.advance(4 * DAY_MS);
    assert_eq!(run(&app).await.payouts, 6);
    // Three days paid on each: 0.3 deducted from the first.
    let (_, preview) = app
        .post_as(
            &user.token,
            &format!("/api/earn/redeem/preview?id={}", first["data"]["id"]),
            None,
        )
        .await;
    assert_eq!(preview["data"]["rewardsPaid"], "0.3");
    assert_eq!(preview["data"]["returned"], "99.7");
    let (status, body) = app
        .post_as(
            &user.token,
            "/api/earn/redeem",
            Some(json!({"id": first["data"]["id"]})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["returned"], "99.7");
    assert_eq!(body["data"]["deduction"], "0.3");
    // Again: closed.
    let (status, body) = app
        .post_as(
            &user.token,
            "/api/earn/redeem",
            Some(json!({"id": first["data"]["id"]})),
        )
        .await;
    assert_eq!((status, reason(&body)), (409, "earn_position_closed"));
    let (status, body) = app
        .post_as(
            &user.token,
            "/api/earn/redeem",
            Some(json!({"id": second["data"]["id"]})),
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (403, "earn_early_redemption_forbidden")
    );
    // 300 − 200 + 0.6 paid + 99.7 back.
    assert_eq!(
        balance(&app, user.user_id, Bucket::Funding).await,
        dec!(200.3)
    );
    audit_and_replay(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn subscriptions_are_refused_by_every_rule() {
    let (app, ops) = earn_app().await;
    let user = saver(&app, dec!(35)).await;
    let now = app.state().clock.now_ms();
    let mut limited = pledge(7, "100000", "deduct", now - DAY_MS);
    limited["perUserQuota"] = json!("40");
    limited["maxSubscriptions"] = json!(2);
    let product = create(&app, &ops, limited).await;
    for (amount, status, why) in [
        ("5", 400, "earn_below_minimum"),
        ("1001", 400, "earn_above_maximum"),
        ("60", 400, "earn_user_limit"),
        ("11.123456789", 400, "invalid_field"),
    ] {
        let (got, body) = subscribe(&app, &user, product, amount).await;
        assert_eq!((got, reason(&body)), (status, why), "{amount}: {body}");
    }
    let (got, body) = subscribe(&app, &user, product, "30").await;
    assert_eq!(got, 200, "{body}");
    // 5 left: within the limits, above the balance.
    let (got, body) = subscribe(&app, &user, product, "10").await;
    assert_eq!(
        (got, reason(&body)),
        (400, "insufficient_balance"),
        "{body}"
    );
    app.credit(user.user_id, "usdt", dec!(100)).await;
    let (got, body) = subscribe(&app, &user, product, "15").await;
    assert_eq!((got, reason(&body)), (400, "earn_user_limit"), "{body}");
    let (got, _) = subscribe(&app, &user, product, "10").await;
    assert_eq!(got, 200);
    let (got, body) = subscribe(&app, &user, product, "10").await;
    assert_eq!(
        (got, reason(&body)),
        (400, "earn_subscription_limit"),
        "{body}"
    );

    // Not started, paused, ended, VIP only, unknown.
    let later = create(&app, &ops, pledge(7, "100000", "deduct", now + DAY_MS)).await;
    let (got, body) = subscribe(&app, &user, later, "10").await;
    assert_eq!((got, reason(&body)), (400, "earn_not_started"));
    let open = create(&app, &ops, pledge(7, "100000", "deduct", now - DAY_MS)).await;
    let (got, body) = app
        .post_as(&ops, &format!("/api/admin/earn/product/{open}/pause"), None)
        .await;
    assert_eq!(got, 200, "{body}");
    assert_eq!(body["data"]["status"], "paused");
    let (got, body) = subscribe(&app, &user, open, "10").await;
    assert_eq!((got, reason(&body)), (400, "earn_paused"));
    app.post_as(&ops, &format!("/api/admin/earn/product/{open}/end"), None)
        .await;
    let (got, body) = subscribe(&app, &user, open, "10").await;
    assert_eq!((got, reason(&body)), (400, "earn_ended"));
    let mut member_zone = pledge(7, "100000", "deduct", now - DAY_MS);
    member_zone["kind"] = json!("wealth");
    member_zone["tab"] = json!("member");
    let vip = create(&app, &ops, member_zone).await;
    let (got, body) = subscribe(&app, &user, vip, "10").await;
    assert_eq!((got, reason(&body)), (403, "earn_vip_only"));
    let (got, body) = subscribe(&app, &user, 999_999, "10").await;
    assert_eq!((got, reason(&body)), (404, "earn_product_not_found"));
    // A user may not operate.
    let (got, _) = app
        .post_as(
            &user.token,
            "/api/admin/earn/product/create",
            Some(pledge(7, "1", "deduct", now)),
        )
        .await;
    assert_eq!(got, 403);
    audit_and_replay(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_hundred_racing_subscriptions_sell_exactly_what_fits() {
    let (app, ops) = earn_app().await;
    let now = app.state().clock.now_ms();
    // Quota 1000: 66 subscriptions of 15 fit (990), the 67th would not.
    let product = create(&app, &ops, pledge(7, "1000", "deduct", now - DAY_MS)).await;
    let members = racers(&app, 10).await;
    let mut flight = Vec::new();
    for n in 0..100 {
        let member = members[n % members.len()].clone();
        let client = app.client.clone();
        let url = format!("{}/api/earn/subscribe", app.base);
        flight.push(tokio::spawn(async move {
            let response = client
                .post(url)
                .header("satoken", member.token)
                .header("content-type", "application/json")
                .body(json!({"productId": product, "amount": "15"}).to_string())
                .send()
                .await
                .expect("answered");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("JSON"))
        }));
    }
    let mut answers = Vec::new();
    for task in flight {
        answers.push(task.await.unwrap());
    }
    let (ok, refused, busy) = race_outcome(&answers, "earn_quota_exhausted");
    assert_eq!(ok + refused + busy, 100);
    let (_, detail) = app
        .post(&format!("/api/earn/product/detail?id={product}"), None, &[])
        .await;
    let sold: Decimal = detail["data"]["soldAmount"]
        .as_str()
        .unwrap()
        .parse()
        .unwrap();
    assert_eq!(sold, Decimal::from(15 * ok as i64));
    assert!(sold <= dec!(1000) && sold > dec!(985), "sold {sold}");
    assert_eq!(
        detail["data"]["lastAmount"],
        (dec!(1000) - sold).to_string()
    );
    audit_and_replay(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn products_are_listed_by_kind_and_a_rate_change_keeps_running_positions() {
    let (app, ops) = earn_app().await;
    let user = saver(&app, dec!(100)).await;
    let now = app.state().clock.now_ms();
    let first = create(&app, &ops, pledge(10, "100000", "deduct", now - DAY_MS)).await;
    let second = create(&app, &ops, pledge(20, "100000", "deduct", now - DAY_MS)).await;
    let (status, list) = app.post("/api/pledge/list", Some("{}"), &[]).await;
    assert_eq!(status, 200, "{list}");
    let ids: Vec<i64> = list["data"]["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| p["id"].as_i64().unwrap())
        .collect();
    assert_eq!(ids, vec![second, first]);
    let (_, list) = app
        .post(
            "/api/pledge/list",
            Some(r#"{"column":"lockDays","order":"asc"}"#),
            &[("lang", "de")],
        )
        .await;
    assert_eq!(list["data"]["records"][0]["id"], first);
    assert_eq!(list["data"]["records"][0]["name"], "USDT-Pfand");
    let (_, list) = app.post("/api/defi/list", None, &[]).await;
    assert_eq!(list["data"]["total"], 0);
    let (status, _) = app.post("/api/nothing/list", None, &[]).await;
    assert_eq!(status, 400);

    let (_, position) = subscribe(&app, &user, first, "100").await;
    let mut changed = pledge(10, "100000", "deduct", now - DAY_MS);
    changed["rate"] = json!("0.002");
    let (status, body) = app
        .post_as(
            &ops,
            &format!("/api/admin/earn/product/{first}/update"),
            Some(changed),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_ne!(
        body["data"]["rateVersionId"],
        position["data"]["rateVersionId"]
    );
    app.state().clock.advance(2 * DAY_MS);
    run(&app).await;
    // Still 0.1 a day: the rate it was sold at.
    assert_eq!(
        balance(&app, user.user_id, Bucket::Funding).await,
        dec!(0.1)
    );
    audit_and_replay(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn only_the_lease_holder_pays() {
    use backend::lease::{DbLease, Lease};
    let app = spawn_app().await;
    let other = DbLease::with_holder(app.db().clone(), backend::earn::payout::JOB, "other");
    // The app's own engine holds the lease after a run; another instance cannot take it.
    run(&app).await;
    assert!(!other.acquire().await.unwrap());
    app.stop().await;
}

/// Every line of position `id`'s statement, read 2 lines a page, and the last page's answer.
async fn statement_lines(app: &TestApp, member: &Member, id: i64) -> (Vec<Value>, Value) {
    let mut lines = Vec::new();
    let mut page = 1;
    loop {
        let (status, body) = app
            .post_as(
                &member.token,
                "/api/earn/statement",
                Some(json!({"id": id, "page": page, "pageSize": 2})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
        let got = body["data"]["lines"].as_array().unwrap().clone();
        if got.is_empty() {
            return (lines, body["data"].clone());
        }
        lines.extend(got);
        page += 1;
    }
}

fn dec_of(value: &Value) -> Decimal {
    value.as_str().unwrap().parse().unwrap()
}

/// Checks that the statement of position `id` adds up and matches the ledger: each line's entry
/// moves the user's funding account by the line's amount (the subscription out, rewards and the
/// close in), the running totals are the sums of the lines, and principal + rewards − deduction =
/// what came back = what the funding account got. Returns the lines' kinds.
async fn assert_statement_matches_ledger(app: &TestApp, member: &Member, id: i64) -> Vec<String> {
    use backend::entity::journal_posting;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

    let (lines, last) = statement_lines(app, member, id).await;
    assert_eq!(last["total"].as_u64().unwrap() as usize, lines.len());
    let postings = |entry: i64| {
        journal_posting::Entity::find()
            .filter(journal_posting::Column::EntryId.eq(entry))
            .all(app.db())
    };
    let principal = dec_of(&last["principal"]);
    let subscription = postings(lines[0]["entryId"].as_i64().unwrap())
        .await
        .unwrap();
    let funding = subscription
        .iter()
        .find(|p| p.amount.parse::<Decimal>().unwrap() == -principal)
        .expect("the subscription takes the principal from the funding account")
        .account_id;
    let (mut rewards, mut deduction, mut came_back, mut on_ledger) =
        (Decimal::ZERO, Decimal::ZERO, Decimal::ZERO, Decimal::ZERO);
    for (seq, line) in lines.iter().enumerate() {
        assert_eq!(line["seq"].as_u64().unwrap() as usize, seq);
        let amount = dec_of(&line["amount"]);
        let expected = match line["kind"].as_str().unwrap() {
            "subscription" => -amount,
            "reward" => {
                assert_eq!(line["day"].as_u64().unwrap() as usize, seq);
                assert!(line["rateVersionId"].as_i64().is_some());
                rewards += amount;
                came_back += amount;
                amount
            }
            _ => {
                deduction += dec_of(&line["deduction"]);
                came_back += amount;
                amount
            }
        };
        if let Some(entry) = line["entryId"].as_i64() {
            let moved: Decimal = postings(entry)
                .await
                .unwrap()
                .iter()
                .filter(|p| p.account_id == funding)
                .map(|p| p.amount.parse::<Decimal>().unwrap())
                .sum();
            assert_eq!(moved, expected, "line {line}");
            on_ledger += moved;
        } else {
            assert!(amount.is_zero(), "only a zero reward posts nothing: {line}");
        }
        assert_eq!(dec_of(&line["rewardsTotal"]), rewards, "line {line}");
        assert_eq!(dec_of(&line["deductionTotal"]), deduction, "line {line}");
        assert_eq!(dec_of(&line["cameBackTotal"]), came_back, "line {line}");
        assert_eq!(dec_of(&line["principalTotal"]), principal, "line {line}");
    }
    assert_eq!(dec_of(&last["rewards"]), rewards);
    assert_eq!(dec_of(&last["deduction"]), deduction);
    assert_eq!(dec_of(&last["cameBack"]), came_back);
    assert_eq!(principal + rewards - deduction, came_back);
    assert_eq!(on_ledger, came_back - principal);
    lines
        .iter()
        .map(|l| l["kind"].as_str().unwrap().to_owned())
        .collect()
}

#[tokio::test]
async fn a_statement_adds_up_to_the_ledger_for_a_redeemed_and_a_matured_position() {
    let (app, ops) = earn_app().await;
    let user = app.member("saver@example.com").await;
    let other = app.member("other@example.com").await;
    app.credit(user.user_id, "usdt", dec!(1000)).await;
    let now = app.state().clock.now_ms();
    let deduct = create(&app, &ops, pledge(30, "100000", "deduct", now - DAY_MS)).await;
    let short = create(&app, &ops, pledge(3, "100000", "deduct", now - DAY_MS)).await;
    let (_, redeemed) = subscribe(&app, &user, deduct, "123.45").await;
    let (_, matured) = subscribe(&app, &user, short, "100").await;
    let (redeemed, matured) = (
        redeemed["data"]["id"].as_i64().unwrap(),
        matured["data"]["id"].as_i64().unwrap(),
    );
    app.state().clock.advance(6 * DAY_MS);
    run(&app).await;
    let (status, body) = app
        .post_as(
            &user.token,
            "/api/earn/redeem",
            Some(json!({"id": redeemed})),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    let kinds = assert_statement_matches_ledger(&app, &user, redeemed).await;
    assert_eq!(kinds.first().unwrap(), "subscription");
    assert_eq!(kinds.iter().filter(|k| *k == "reward").count(), 5);
    assert_eq!(kinds.last().unwrap(), "redemption");
    let kinds = assert_statement_matches_ledger(&app, &user, matured).await;
    assert_eq!(
        kinds,
        ["subscription", "reward", "reward", "reward", "maturity"]
    );
    // The funding account: 1000 − both principals + everything that came back.
    let (_, one) = statement_lines(&app, &user, redeemed).await;
    let (_, two) = statement_lines(&app, &user, matured).await;
    assert_eq!(
        balance(&app, user.user_id, Bucket::Funding).await,
        dec!(1000) - dec!(223.45) + dec_of(&one["cameBack"]) + dec_of(&two["cameBack"])
    );
    // Another user's position is not found; a page past the end is empty.
    let (status, body) = app
        .post_as(
            &other.token,
            "/api/earn/statement",
            Some(json!({"id": redeemed})),
        )
        .await;
    assert_eq!((status, reason(&body)), (404, "earn_position_not_found"));
    let (status, body) = app
        .post_as(
            &user.token,
            "/api/earn/statement",
            Some(json!({"id": matured, "page": 9, "pageSize": 2})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["lines"], json!([]));
    audit_and_replay(&app).await;
    app.stop().await;
}

async fn sold_and_quota(app: &TestApp, product: i64) -> (Decimal, Decimal) {
    let (_, detail) = app
        .post(&format!("/api/earn/product/detail?id={product}"), None, &[])
        .await;
    (
        dec_of(&detail["data"]["soldAmount"]),
        dec_of(&detail["data"]["subscriAmount"]),
    )
}

#[tokio::test]
async fn redeeming_a_flexible_position_frees_its_quota_and_a_locked_one_does_not() {
    let (app, ops) = earn_app().await;
    let user = app.member("saver@example.com").await;
    let other = app.member("other@example.com").await;
    app.credit(user.user_id, "usdt", dec!(1000)).await;
    app.credit(other.user_id, "usdt", dec!(1000)).await;
    let now = app.state().clock.now_ms();
    let mut flexible = pledge(30, "100", "keep", now - DAY_MS);
    flexible["flexible"] = json!(true);
    flexible["maxAmount"] = json!("100");
    flexible["perUserQuota"] = json!("100");
    let flexible = create(&app, &ops, flexible).await;
    let mut locked = pledge(30, "100", "deduct", now - DAY_MS);
    locked["maxAmount"] = json!("100");
    let locked = create(&app, &ops, locked).await;

    for product in [flexible, locked] {
        let (status, body) = subscribe(&app, &user, product, "100").await;
        assert_eq!(status, 200, "{body}");
        let (status, body) = subscribe(&app, &other, product, "10").await;
        assert_eq!((status, reason(&body)), (400, "earn_quota_exhausted"));
        let id = body_id(&app, &user, product).await;
        app.state().clock.advance(DAY_MS);
        let (status, body) = app
            .post_as(&user.token, "/api/earn/redeem", Some(json!({"id": id})))
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // The flexible product's quota and the user's own limit are free again.
    assert_eq!(sold_and_quota(&app, flexible).await, (dec!(0), dec!(100)));
    let (status, body) = subscribe(&app, &user, flexible, "100").await;
    assert_eq!(status, 200, "{body}");
    // The locked product's round stays sold.
    assert_eq!(sold_and_quota(&app, locked).await, (dec!(100), dec!(100)));
    let (status, body) = subscribe(&app, &other, locked, "10").await;
    assert_eq!((status, reason(&body)), (400, "earn_quota_exhausted"));
    audit_and_replay(&app).await;
    app.stop().await;
}

/// The id of `member`'s newest position in `product`.
async fn body_id(app: &TestApp, member: &Member, product: i64) -> i64 {
    let (_, orders) = app
        .post_as(
            &member.token,
            "/api/mingOrder/list",
            Some(json!({"productId": product})),
        )
        .await;
    orders["data"]["records"][0]["id"].as_i64().unwrap()
}

#[tokio::test]
async fn a_quota_cut_racing_subscriptions_never_leaves_more_sold_than_the_quota() {
    let (app, ops) = earn_app().await;
    let now = app.state().clock.now_ms();
    let product = create(&app, &ops, pledge(7, "1000", "deduct", now - DAY_MS)).await;
    let members = racers(&app, 10).await;
    let mut flight = Vec::new();
    for n in 0..80 {
        let client = app.client.clone();
        let (url, token, body) = if n % 8 == 4 {
            // Cut the quota to 300 while subscriptions of 10 are landing.
            let mut cut = pledge(7, "300", "deduct", now - DAY_MS);
            cut["names"] = json!({"en": format!("USDT pledge {n}")});
            (
                format!("{}/api/admin/earn/product/{product}/update", app.base),
                ops.clone(),
                cut,
            )
        } else {
            let member = &members[n % members.len()];
            (
                format!("{}/api/earn/subscribe", app.base),
                member.token.clone(),
                json!({"productId": product, "amount": "10"}),
            )
        };
        flight.push(tokio::spawn(async move {
            let response = client
                .post(url)
                .header("satoken", token)
                .header("content-type", "application/json")
                .body(body.to_string())
                .send()
                .await
                .expect("answered");
            let status = response.status().as_u16();
            (status, response.json::<Value>().await.expect("JSON"))
        }));
    }
    let mut cuts = 0;
    for task in flight {
        let (status, body) = task.await.unwrap();
        let reason = reason(&body).to_owned();
        match (status, reason.as_str()) {
            (200, _) => {}
            (400, "earn_quota_exhausted") => {}
            (400, "invalid_field") => assert_eq!(body["data"]["field"], "totalQuota"),
            (503, "service_busy" | "ledger_busy") => {}
            _ => panic!("an unexpected answer: {status} {body}"),
        }
        if status == 200 && body["data"]["subscriAmount"].is_string() {
            cuts += 1;
        }
    }
    let (sold, quota) = sold_and_quota(&app, product).await;
    assert!(
        sold <= quota,
        "sold {sold} over the quota {quota} ({cuts} cuts)"
    );
    audit_and_replay(&app).await;
    app.stop().await;
}
