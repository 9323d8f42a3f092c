//! Merchants over HTTP: the application (its checks, one open application per user), the
//! operator's rejection with the reason the user sees, the approval race (of many operators'
//! decisions at once exactly one wins), `is_merchant` = 2, the merchant tool's customers and the
//! merchant's own generation-1 rate in a rebate paid by the referral batch.

use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::deposits::{decimal, reason};
use crate::helpers::{Member, TestApp};
use crate::kyc::operator;
use crate::referral::{
    invite_code, invited, maker_sale, referral_app, run_next_hour, usdt, verify,
};

fn form() -> Value {
    json!({"businessName": "Kestrel Coffee", "contact": "shop@example.com",
        "business": "Coffee beans, paid in USDT", "countries": "DE, FR"})
}

async fn apply(app: &TestApp, member: &Member, body: Value) -> (u16, Value) {
    app.post_as(&member.token, "/api/merchant/apply", Some(body))
        .await
}

async fn decide(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    app.post_as(token, "/api/admin/merchants/decide", Some(body))
        .await
}

async fn mine(app: &TestApp, member: &Member) -> Value {
    let (status, body) = app.get_as(&member.token, "/api/merchant/mine").await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

async fn is_merchant(app: &TestApp, member: &Member) -> i64 {
    let (status, body) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 200, "{body}");
    body["data"]["is_merchant"]
        .as_i64()
        .unwrap_or_else(|| panic!("no is_merchant in {body}"))
}

#[tokio::test]
async fn apply_reject_with_a_reason_apply_again_and_one_of_racing_approvals_wins() {
    let app = referral_app(false).await;
    let shop = app.member("merchant.shop@example.com").await;
    let first = operator(&app, "merchant.ops1@example.com").await;
    let second = operator(&app, "merchant.ops2@example.com").await;

    // An empty field stores nothing.
    let mut bad = form();
    bad["countries"] = json!("  ");
    let (status, body) = apply(&app, &shop, bad).await;
    assert_eq!(
        (status, reason(&body)),
        (400, "merchant_form_invalid"),
        "{body}"
    );
    assert!(mine(&app, &shop).await["application"].is_null());

    let (status, body) = apply(&app, &shop, form()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["status"], "pending");
    // One open application per user.
    let (status, body) = apply(&app, &shop, form()).await;
    assert_eq!((status, reason(&body)), (409, "merchant_application_open"));

    // Operators only; a rejection needs a reason, which the user then reads.
    let (status, _) = decide(
        &app,
        &shop.token,
        json!({"userId": shop.user_id, "approve": true}),
    )
    .await;
    assert_eq!(status, 403);
    let (status, body) = decide(
        &app,
        &first,
        json!({"userId": shop.user_id, "approve": false}),
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "reject_reason_required"),
        "{body}"
    );
    let (status, body) = decide(
        &app,
        &first,
        json!({"userId": shop.user_id, "approve": false, "reason": "Business not verifiable"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let state = mine(&app, &shop).await;
    assert_eq!(state["application"]["status"], "rejected");
    assert_eq!(state["application"]["reason"], "Business not verifiable");
    assert_eq!(state["isMerchant"], 1);
    assert_eq!(is_merchant(&app, &shop).await, 1);
    let (status, body) = app.get_as(&shop.token, "/api/merchant/customers").await;
    assert_eq!((status, reason(&body)), (404, "not_a_merchant"));

    // Applying again reopens the application.
    let (status, body) = apply(&app, &shop, form()).await;
    assert_eq!(status, 200, "{body}");
    assert!(mine(&app, &shop).await["application"]["reason"].is_null());

    // Twenty decisions from two operators at once: exactly one wins.
    let decisions = (0..20).map(|i| {
        let token = if i % 2 == 0 { &first } else { &second };
        decide(
            &app,
            token,
            json!({"userId": shop.user_id, "approve": true, "rebateRate": "0.5"}),
        )
    });
    let answers = futures_util::future::join_all(decisions).await;
    let won = answers.iter().filter(|(s, _)| *s == 200).count();
    let lost = answers
        .iter()
        .filter(|(s, b)| *s == 409 && reason(b) == "merchant_decided")
        .count();
    assert_eq!((won, lost), (1, 19), "{answers:?}");
    let state = mine(&app, &shop).await;
    assert_eq!(state["application"]["status"], "approved");
    assert_eq!(decimal(&state["application"]["rebateRate"]), dec!(0.5));
    assert_eq!(state["isMerchant"], 2);
    assert_eq!(is_merchant(&app, &shop).await, 2);
    // Approved: no second application.
    let (status, _) = apply(&app, &shop, form()).await;
    assert_eq!(status, 409);

    let (status, body) = app
        .get_as(&first, "/api/admin/merchants?status=approved")
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["total"], 1);
    app.stop().await;
}

#[tokio::test]
async fn a_merchants_own_rate_pays_its_generation_one_and_its_tool_lists_the_customer() {
    let app = referral_app(false).await;
    let shop = app.member("rate.shop@example.com").await;
    let ops = operator(&app, "rate.ops@example.com").await;
    let (status, body) = apply(&app, &shop, form()).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = decide(
        &app,
        &ops,
        json!({"userId": shop.user_id, "approve": true, "rebateRate": "0.5"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let customer = invited(
        &app,
        "rate.customer@example.com",
        &invite_code(&app, &shop).await,
    )
    .await;
    verify(&app, &customer).await;
    let buyer = app.member("rate.buyer@example.com").await;
    app.credit(customer.user_id, "btc", dec!(1)).await;
    app.credit(buyer.user_id, "usdt", dec!(10000)).await;
    maker_sale(&app, &customer, &buyer, "0.05").await;

    // The customer's maker fee 2.5 USDT: 0.25 to the fund, 2.25 left; the merchant's 50 % of it
    // (not the configured 20 %, 0.45).
    let report = run_next_hour(&app).await;
    assert_eq!(report.paid, 1);
    assert_eq!(usdt(&app, shop.user_id).await, dec!(1.125));

    let (status, body) = app.get_as(&shop.token, "/api/merchant/customers").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["total"], 1);
    let row = &body["data"]["records"][0];
    assert_eq!(row["account"], "ra***@example.com");
    assert_eq!(row["rebates"][0]["coin"], "usdt");
    assert_eq!(decimal(&row["rebates"][0]["amount"]), dec!(1.125));

    // A changed rate holds from the next batch on; a non-merchant has none.
    let (status, body) = app
        .post_as(
            &ops,
            "/api/admin/merchants/rate",
            Some(json!({"userId": buyer.user_id, "rebateRate": "0.1"})),
        )
        .await;
    assert_eq!((status, reason(&body)), (404, "not_a_merchant"));
    let (status, body) = app
        .post_as(
            &ops,
            "/api/admin/merchants/rate",
            Some(json!({"userId": shop.user_id, "rebateRate": "1"})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "merchant_rate_invalid"));
    app.stop().await;
}
