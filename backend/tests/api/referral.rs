//! The referral programme over HTTP: A invites B invites C invites D, D's fee pays C, B and A their
//! generations' shares of the fee after the security fund, in one batch entry, exactly once however
//! often or concurrently the batch runs; withheld rebates carry their reason; the invitation code
//! bound later (never oneself, never a cycle, within the window, before the first trade, one of two
//! at once); agents' rates; the reward centre's figures — with the ledger audit clean.

use backend::entity::{journal_entry, referral_rebate, user};
use backend::funds::audit;
use backend::funds::ledger::{self, AccountRef, House};
use backend::referral::batch::{HOUR_MS, Settings, run_batch};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter,
};
use serde_json::{Value, json};

use crate::helpers::{Member, PASSWORD, TestApp, spawn_app_with};

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
        .parse()
        .unwrap()
}

/// An app without the simulator nor the background batch (the tests run it at the hour they
/// choose), and with the same-address rule as `same_address` says.
pub async fn referral_app(same_address: bool) -> TestApp {
    spawn_app_with(|config| {
        config.simulator.enabled = false;
        config.referral.enabled = false;
        config.referral.withhold_same_address = same_address;
    })
    .await
}

fn settings(app: &TestApp) -> Settings {
    Settings::new(&app.state().config.referral, dec!(10))
}

/// The batch one hour from now (the fills made so far are in a past hour by then).
pub async fn run_next_hour(app: &TestApp) -> backend::referral::batch::Report {
    let now = backend::clock::now_ms() + HOUR_MS;
    run_batch(app.db(), &settings(app), now).await.unwrap()
}

pub async fn invite_code(app: &TestApp, member: &Member) -> String {
    user::Entity::find_by_id(member.user_id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap()
        .invite_code
}

/// Registers `account` with `code` as its invitation code, logs in.
pub async fn invited(app: &TestApp, account: &str, code: &str) -> Member {
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": account, "type": "register"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let sent = app.last_code(account).await;
    let (status, body) = app
        .post(
            "/api/user/register",
            Some(
                &json!({"account": account, "password": PASSWORD, "confirmPassword": PASSWORD,
                    "code": sent, "inviteCode": code})
                .to_string(),
            ),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let user_id = body["data"]["userId"].as_i64().unwrap();
    Member {
        user_id,
        token: app.login(account, PASSWORD).await,
        account: account.to_owned(),
    }
}

async fn set_user(app: &TestApp, user_id: i64, change: impl FnOnce(&mut user::ActiveModel)) {
    let mut row: user::ActiveModel = user::Entity::find_by_id(user_id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap()
        .into();
    change(&mut row);
    row.update(app.db()).await.unwrap();
}

pub async fn verify(app: &TestApp, member: &Member) {
    set_user(app, member.user_id, |u| u.kyc_level = Set(1)).await;
}

/// A → B → C → D, D verified.
async fn chain(app: &TestApp) -> [Member; 4] {
    let a = app.member("ref-a@example.com").await;
    let b = invited(app, "ref-b@example.com", &invite_code(app, &a).await).await;
    let c = invited(app, "ref-c@example.com", &invite_code(app, &b).await).await;
    let d = invited(app, "ref-d@example.com", &invite_code(app, &c).await).await;
    verify(app, &d).await;
    [a, b, c, d]
}

/// `seller` sells `quantity` BTC at 50,000 (resting, the maker: its fee is in USDT) to a fresh
/// buyer's market order.
pub async fn maker_sale(app: &TestApp, seller: &Member, buyer: &Member, quantity: &str) {
    let (status, body) = app
        .post_as(
            &seller.token,
            "/api/currency/order/submit",
            Some(
                json!({"symbol": "btcusdt", "side": "sell", "orderType": "limit",
                "price": "50000", "quantity": quantity}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let amount: Decimal = quantity.parse::<Decimal>().unwrap() * dec!(50000);
    let (status, body) = app
        .post_as(
            &buyer.token,
            "/api/currency/order/submit",
            Some(
                json!({"symbol": "btcusdt", "side": "buy", "orderType": "market",
                "quoteAmount": amount.to_string()}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "dealTotol", "{body}");
}

pub async fn usdt(app: &TestApp, user_id: i64) -> Decimal {
    ledger::balance(app.db(), AccountRef::funding(user_id), "usdt")
        .await
        .unwrap()
}

async fn assert_audit_clean(app: &TestApp) {
    let report = audit::audit(app.db()).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
}

async fn rebate_entries(app: &TestApp) -> u64 {
    journal_entry::Entity::find()
        .filter(journal_entry::Column::Kind.eq("referral_rebate"))
        .count(app.db())
        .await
        .unwrap()
}

#[tokio::test]
async fn three_generations_are_paid_exactly_once_from_the_fee_after_the_fund() {
    let app = referral_app(false).await;
    let [a, b, c, d] = chain(&app).await;
    let buyer = app.member("ref-buyer@example.com").await;
    app.credit(d.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(10000)).await;
    maker_sale(&app, &d, &buyer, "0.05").await;

    // The fill is in the current hour: the batch of now leaves it.
    let early = run_batch(app.db(), &settings(&app), backend::clock::now_ms())
        .await
        .unwrap();
    assert_eq!(early.fills, 0);
    assert_eq!(usdt(&app, c.user_id).await, dec!(0));

    // D's maker fee 2.5 USDT: 0.25 to the fund, 2.25 left; 20 %, 10 %, 5 % of it.
    let report = run_next_hour(&app).await;
    assert_eq!(report.fills, 1);
    assert_eq!(report.paid, 3);
    assert_eq!(report.entries.len(), 1);
    assert_eq!(usdt(&app, c.user_id).await, dec!(0.45));
    assert_eq!(usdt(&app, b.user_id).await, dec!(0.225));
    assert_eq!(usdt(&app, a.user_id).await, dec!(0.1125));
    let fees = ledger::balance(app.db(), AccountRef::House(House::Fees), "usdt")
        .await
        .unwrap();
    assert_eq!(fees, dec!(2.25) - dec!(0.7875));
    // The buyer (no inviter) earns nobody anything; nothing is paid twice.
    let again = run_next_hour(&app).await;
    assert_eq!(again, Default::default());
    assert_eq!(rebate_entries(&app).await, 1);
    assert_eq!(usdt(&app, a.user_id).await, dec!(0.1125));

    // A's statement drills down to the fill.
    let (status, body) = app
        .get_as(&a.token, "/api/referral/statement?generation=3")
        .await;
    assert_eq!(status, 200, "{body}");
    let line = &body["data"]["records"][0];
    assert_eq!(body["data"]["total"], 1, "{body}");
    assert_eq!(line["source"], "spot");
    assert_eq!(line["symbol"], "btcusdt");
    assert_eq!(line["generation"], 3);
    assert_eq!(line["coin"], "usdt");
    assert_eq!(decimal(&line["fee"]), dec!(2.5));
    assert_eq!(decimal(&line["feeAfterFund"]), dec!(2.25));
    assert_eq!(decimal(&line["rate"]), dec!(0.05));
    assert_eq!(decimal(&line["amount"]), dec!(0.1125));
    assert_eq!(line["status"], "paid");
    assert_eq!(line["entryId"], json!(report.entries[0]));
    assert!(line["member"].as_str().unwrap().starts_with("re***@"));
    let fill_id = line["fillId"].as_i64().unwrap();
    let trade = backend::entity::spot_trade::Entity::find_by_id(fill_id)
        .one(app.db())
        .await
        .unwrap()
        .expect("the line's fill");
    assert_eq!(trade.maker_user_id, Some(d.user_id));

    // The reward centre and the bill.
    let (status, body) = app.get_as(&a.token, "/api/referral/summary").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["members"], json!([1, 1, 1]), "{body}");
    assert_eq!(body["data"]["totalReward"][0]["coin"], "usdt");
    assert_eq!(
        decimal(&body["data"]["totalReward"][0]["amount"]),
        dec!(0.1125)
    );
    assert_eq!(
        body["data"]["promoteLink"],
        format!("/i&{}", invite_code(&app, &a).await)
    );
    let (status, body) = app
        .get_as(&c.token, "/api/referral/members?generation=1")
        .await;
    assert_eq!(status, 200, "{body}");
    let member = &body["data"]["records"][0];
    assert_eq!(member["userId"], d.user_id);
    assert_eq!(decimal(&member["totolInvestValue"]), dec!(2500));
    assert_eq!(decimal(&member["rebateAmount"][0]["amount"]), dec!(0.45));
    let (status, body) = app
        .post_as(
            &c.token,
            "/api/coin/coin/assets/getMyBill",
            Some(json!({"kind": "referral_rebate"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let bill = &body["data"]["records"][0];
    assert_eq!(bill["kind"], "referral_rebate", "{body}");
    assert!(bill["detail"]["rebatedUntil"].as_i64().is_some(), "{body}");
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn withheld_rebates_say_why_and_post_nothing() {
    let app = referral_app(true).await;
    let a = app.member("wh-a@example.com").await;
    let b = invited(&app, "wh-b@example.com", &invite_code(&app, &a).await).await;
    let buyer = app.member("wh-buyer@example.com").await;
    app.credit(b.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(10000)).await;
    // Unverified first.
    maker_sale(&app, &b, &buyer, "0.01").await;
    let report = run_next_hour(&app).await;
    assert_eq!((report.paid, report.withheld), (0, 1));
    assert!(report.entries.is_empty());
    // Verified, but every test account logs in from 127.0.0.1: the same address.
    verify(&app, &b).await;
    maker_sale(&app, &b, &buyer, "0.01").await;
    let report = run_next_hour(&app).await;
    assert_eq!((report.paid, report.withheld), (0, 1));
    assert_eq!(usdt(&app, a.user_id).await, dec!(0));
    assert_eq!(rebate_entries(&app).await, 0);
    let (status, body) = app.get_as(&a.token, "/api/referral/statement").await;
    assert_eq!(status, 200, "{body}");
    let reasons: Vec<&str> = body["data"]["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|l| {
            assert_eq!(l["status"], "withheld");
            assert_eq!(decimal(&l["amount"]), dec!(0));
            l["withheldReason"].as_str().unwrap()
        })
        .collect();
    assert_eq!(reasons, ["same_address", "not_verified"]);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn agents_rates_replace_the_configured_ones_and_the_sum_is_capped() {
    let app = referral_app(false).await;
    let [a, b, c, d] = chain(&app).await;
    let ops = app.member("ref-ops@example.com").await;
    set_user(&app, ops.user_id, |u| u.role = Set("operator".into())).await;
    let buyer = app.member("ag-buyer@example.com").await;
    app.credit(d.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(10000)).await;

    // Only operators; rates that reach the fee are refused.
    let set = |who: &Member, user_id: i64, rates: Value| {
        let token = who.token.clone();
        let app = &app;
        async move {
            app.post_as(
                &token,
                "/api/admin/referral/agent",
                Some(json!({"userId": user_id, "rates": rates})),
            )
            .await
        }
    };
    let (status, _) = set(&a, a.user_id, json!(["0.3", "0.1", "0.1"])).await;
    assert_eq!(status, 403);
    let (status, body) = set(&ops, a.user_id, json!(["0.5", "0.3", "0.2"])).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["msg"],
        "Each rate must be at least 0 and together they must stay below 100%"
    );
    // C takes 90 % of generation 1, B 90 % of generation 2: only 10 % is left for B.
    let (status, body) = set(&ops, c.user_id, json!(["0.9", "0", "0"])).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = set(&ops, b.user_id, json!(["0", "0.9", "0"])).await;
    assert_eq!(status, 200, "{body}");

    maker_sale(&app, &d, &buyer, "0.05").await;
    run_next_hour(&app).await;
    assert_eq!(usdt(&app, c.user_id).await, dec!(2.025));
    assert_eq!(usdt(&app, b.user_id).await, dec!(0.225));
    assert_eq!(usdt(&app, a.user_id).await, dec!(0));
    let (status, body) = app
        .post_as(&c.token, "/api/agentActivityInfo/getAgentInfo", None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["isAgent"], true);
    assert_eq!(
        decimal(&body["data"]["commissions"][0]["amount"]),
        dec!(2.025)
    );
    let (status, body) = app
        .post_as(&b.token, "/api/agentActivityInfo/getAgentList", None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["total"], 2, "{body}");
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_burst_of_fills_and_concurrent_batches_pay_each_rebate_once() {
    let app = referral_app(false).await;
    let [a, b, c, d] = chain(&app).await;
    let buyer = app.member("burst-buyer@example.com").await;
    app.credit(d.user_id, "btc", dec!(10)).await;
    app.credit(buyer.user_id, "usdt", dec!(1000000)).await;
    let fills = 12;
    let mut sales = Vec::new();
    for _ in 0..fills {
        sales.push(maker_sale(&app, &d, &buyer, "0.01"));
    }
    futures_util::future::join_all(sales).await;
    let now = backend::clock::now_ms() + HOUR_MS;
    let s = settings(&app);
    let (one, two, three) = tokio::join!(
        run_batch(app.db(), &s, now),
        run_batch(app.db(), &s, now),
        run_batch(app.db(), &s, now),
    );
    let paid: usize = [one, two, three].into_iter().map(|r| r.unwrap().paid).sum();
    assert_eq!(paid, fills * 3);
    let rows = referral_rebate::Entity::find()
        .count(app.db())
        .await
        .unwrap();
    assert_eq!(rows as usize, fills * 3);
    // Each fill: a 0.5 USDT fee, 0.45 after the fund.
    let n = Decimal::from(fills as u64);
    assert_eq!(usdt(&app, c.user_id).await, dec!(0.09) * n);
    assert_eq!(usdt(&app, b.user_id).await, dec!(0.045) * n);
    assert_eq!(usdt(&app, a.user_id).await, dec!(0.0225) * n);
    assert_audit_clean(&app).await;
    app.stop().await;
}

#[tokio::test]
async fn a_chunk_of_thousands_of_rebates_stays_within_the_statement_limits() {
    use backend::entity::spot_trade;
    use backend::funds::ledger::{NewEntry, Posting};
    let app = referral_app(false).await;
    let [a, b, c, d] = chain(&app).await;
    let buyer = app.member("bulk-buyer@example.com").await;
    app.credit(d.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(10000)).await;
    maker_sale(&app, &d, &buyer, "0.01").await;
    // 1,500 more fills like the real one, read in one chunk: 4,503 rebate rows bind more
    // variables than one statement may carry on SQLite or PostgreSQL.
    let trade = spot_trade::Entity::find()
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    let copies = (0..1_500)
        .map(|_| {
            let mut row = spot_trade::ActiveModel::from(trade.clone());
            row.id = sea_orm::ActiveValue::NotSet;
            row
        })
        .collect();
    backend::db::insert_in_chunks(app.db(), copies)
        .await
        .unwrap();
    // Their fees, which the copies did not earn, so the fee income can pay their rebates.
    let fees = NewEntry {
        kind: "deposit".into(),
        reference: "test-fees".into(),
        user_id: None,
        actor_id: None,
        memo: String::new(),
        postings: Posting::transfer(
            AccountRef::House(House::DepositsInTransit),
            AccountRef::House(House::Fees),
            "usdt",
            dec!(1000),
        )
        .to_vec(),
    };
    ledger::post(app.db(), &fees).await.unwrap();

    let report = run_next_hour(&app).await;
    assert_eq!(report.fills, 1_501);
    assert_eq!(report.paid, 1_501 * 3);
    assert_eq!(report.entries.len(), 1);
    let n = dec!(1501);
    assert_eq!(usdt(&app, c.user_id).await, dec!(0.09) * n);
    assert_eq!(usdt(&app, b.user_id).await, dec!(0.045) * n);
    assert_eq!(usdt(&app, a.user_id).await, dec!(0.0225) * n);
    app.stop().await;
}

#[tokio::test]
async fn a_code_binds_later_only_within_the_rules() {
    let app = referral_app(false).await;
    let a = app.member("bind-a@example.com").await;
    let b = invited(&app, "bind-b@example.com", &invite_code(&app, &a).await).await;
    let lone = app.member("bind-lone@example.com").await;
    let bind = |who: &Member, code: String| {
        let token = who.token.clone();
        let app = &app;
        async move {
            app.post_as(
                &token,
                "/api/referral/bind",
                Some(json!({"inviteCode": code})),
            )
            .await
        }
    };
    // Not oneself; not someone one invited (a cycle); not when one has an inviter.
    let (status, body) = bind(&a, invite_code(&app, &a).await).await;
    assert_eq!(
        (status, body["msg"].as_str()),
        (400, Some("You cannot use your own invitation code"))
    );
    let (status, body) = bind(&a, invite_code(&app, &b).await).await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(
        body["msg"],
        "This code belongs to someone you invited, directly or indirectly"
    );
    let (status, _) = bind(&b, invite_code(&app, &lone).await).await;
    assert_eq!(status, 409);
    // Two binds at once: one wins.
    let c1 = app.member("bind-c1@example.com").await;
    let c2 = app.member("bind-c2@example.com").await;
    let (one, two) = tokio::join!(
        bind(&lone, invite_code(&app, &c1).await),
        bind(&lone, invite_code(&app, &c2).await)
    );
    let mut statuses = [one.0, two.0];
    statuses.sort();
    assert_eq!(statuses, [200, 409], "{one:?} {two:?}");
    // lone's code was bound under c1 or c2; its three generations are recorded.
    let (status, body) = app.get_as(&lone.token, "/api/referral/summary").await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"]["invitedBy"].as_i64().is_some());
    // Two roots binding into each other's trees at once: never both (no cycle).
    let x = app.member("bind-x@example.com").await;
    let y = app.member("bind-y@example.com").await;
    let (one, two) = tokio::join!(
        bind(&x, invite_code(&app, &y).await),
        bind(&y, invite_code(&app, &x).await)
    );
    assert_eq!(
        [one.0, two.0].iter().filter(|s| **s == 200).count(),
        1,
        "{one:?} {two:?}"
    );
    // After the window, or after a trade: refused.
    let late = app.member("bind-late@example.com").await;
    set_user(&app, late.user_id, |u| {
        u.created_at = Set(backend::clock::now_ms() - 8 * backend::clock::DAY_MS)
    })
    .await;
    let (status, body) = bind(&late, invite_code(&app, &a).await).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        body["msg"],
        "An invitation code can be added only within 7 days of registration"
    );
    let trader = app.member("bind-trader@example.com").await;
    let buyer = app.member("bind-buyer@example.com").await;
    app.credit(trader.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(10000)).await;
    maker_sale(&app, &trader, &buyer, "0.01").await;
    let (status, body) = bind(&trader, invite_code(&app, &a).await).await;
    assert_eq!(status, 403, "{body}");
    assert_eq!(
        body["msg"],
        "An invitation code can be added only before your first trade"
    );
    app.stop().await;
}
