//! The funds reports over HTTP: bills with every filter, paging and the CSV export; balances valued
//! per bucket and per coin; rates; moves between buckets; earn income; each user sees only their
//! own.

use backend::funds::ledger::{self, AccountRef, Bucket, House, NewEntry, Posting};
use rust_decimal::Decimal;
use rust_decimal_macros::dec;
use serde_json::{Value, json};

use crate::helpers::{Member, TestApp, spawn_app};

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
        .parse()
        .unwrap()
}

async fn bills(app: &TestApp, member: &Member, query: Value) -> Value {
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/assets/getMyBill",
            Some(query),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"].clone()
}

/// 1000 USDT deposited, 300 moved to trading, 0.5 ETH deposited.
async fn funded_member(app: &TestApp, account: &str) -> Member {
    let member = app.member(account).await;
    app.credit(member.user_id, "usdt", dec!(1000)).await;
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/asset/transferFunds",
            Some(json!({"coin": "usdt", "amount": "300", "from": "funding", "to": "trading"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    app.credit(member.user_id, "eth", dec!(0.5)).await;
    member
}

#[tokio::test]
async fn bills_list_every_change_with_filters_and_pages() {
    let app = spawn_app().await;
    let member = funded_member(&app, "bills@example.com").await;
    let other = funded_member(&app, "other-bills@example.com").await;

    let all = bills(&app, &member, json!({})).await;
    // deposit usdt, the move (two postings), deposit eth.
    assert_eq!(all["total"], 4, "{all}");
    let records = all["records"].as_array().unwrap();
    assert_eq!(records[0]["kind"], "deposit");
    assert_eq!(records[0]["coin"], "eth");
    assert_eq!(decimal(&records[0]["amount"]), dec!(0.5));
    let moves: Vec<&Value> = records
        .iter()
        .filter(|r| r["kind"] == "bucket_transfer")
        .collect();
    assert_eq!(moves.len(), 2);
    assert_eq!(moves[0]["entryId"], moves[1]["entryId"]);
    let out = moves.iter().find(|r| r["bucket"] == "funding").unwrap();
    assert_eq!(decimal(&out["amount"]), dec!(-300));
    assert_eq!(decimal(&out["balance"]), dec!(700));

    let usdt_funding = bills(&app, &member, json!({"coin": "USDT", "bucket": "funding"})).await;
    assert_eq!(usdt_funding["total"], 2);
    let deposits = bills(&app, &member, json!({"kind": "deposit"})).await;
    assert_eq!(deposits["total"], 2);
    let page = bills(&app, &member, json!({"page": 2, "pageSize": 3})).await;
    assert_eq!(
        (
            page["total"].as_u64(),
            page["records"].as_array().unwrap().len()
        ),
        (Some(4), 1)
    );
    let future = bills(&app, &member, json!({"startTime": 4_102_444_800_000_i64})).await;
    assert_eq!(future["total"], 0);
    let past = bills(&app, &member, json!({"endTime": 1})).await;
    assert_eq!(past["total"], 0);

    // Each user sees only their own.
    let theirs = bills(&app, &other, json!({})).await;
    assert_eq!(theirs["total"], 4);
    let ids = |v: &Value| -> Vec<Value> {
        v["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].clone())
            .collect()
    };
    assert!(ids(&theirs).iter().all(|id| !ids(&all).contains(id)));

    // Bad input.
    for (query, field) in [
        (json!({"coin": "nope"}), "coin"),
        (json!({"kind": "DROP TABLE"}), "kind"),
        (json!({"pageSize": 101}), "pageSize"),
        (json!({"bucket": "house"}), "bucket"),
    ] {
        let (status, body) = app
            .post_as(
                &member.token,
                "/api/coin/coin/assets/getMyBill",
                Some(query.clone()),
            )
            .await;
        assert_eq!(status, 400, "{query}: {body}");
        assert_eq!(body["data"]["field"], field, "{query}: {body}");
    }
    let (status, _) = app
        .post_as(
            &member.token,
            "/api/other/coin/assets/getMyBill",
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 404);
    app.stop().await;
}

#[tokio::test]
async fn bills_export_as_csv_in_the_users_time() {
    let app = spawn_app().await;
    let member = funded_member(&app, "csv@example.com").await;
    let (status, body) = app
        .get_as(
            &member.token,
            "/api/coin/coin/assets/getMyBillCsv?coin=usdt&offsetMinutes=480",
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["rows"], 3);
    let file_name = data["fileName"].as_str().unwrap();
    assert!(
        file_name.starts_with("bills-") && file_name.ends_with(".csv"),
        "{file_name}"
    );
    let csv = data["csv"].as_str().unwrap();
    let lines: Vec<&str> = csv.split("\r\n").filter(|l| !l.is_empty()).collect();
    assert_eq!(lines[0], "time,type,coin,account,amount,balance,entry,memo");
    assert_eq!(lines.len(), 4);
    let transfer_out = lines
        .iter()
        .find(|l| l.contains(",bucket_transfer,USDT,funding,-300,700,"))
        .unwrap_or_else(|| panic!("{csv}"));
    // MM/DD/YYYY HH:mm:ss, then the memo naming both buckets.
    let time = transfer_out.split(',').next().unwrap();
    assert_eq!(time.len(), 19, "{time}");
    assert_eq!((&time[2..3], &time[5..6], &time[10..11]), ("/", "/", " "));
    assert!(
        transfer_out.ends_with("funding → trading"),
        "{transfer_out}"
    );

    let (status, _) = app
        .get_as(
            &member.token,
            "/api/coin/coin/assets/getMyBillCsv?offsetMinutes=9999",
        )
        .await;
    assert_eq!(status, 400);
    app.stop().await;
}

#[tokio::test]
async fn balances_are_valued_per_bucket_and_per_coin() {
    let app = spawn_app().await;
    let member = funded_member(&app, "valued@example.com").await;

    let (status, _, rates) = app.get("/api/coin/coin/assets/getCoinRate").await;
    assert_eq!(status, 200, "{rates}");
    let rates: Value = serde_json::from_str(&rates).unwrap();
    let rate = |coin: &str| {
        rates["data"]["rates"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["coin"] == coin)
            .cloned()
            .unwrap_or_else(|| panic!("no {coin} in {rates}"))
    };
    assert_eq!(decimal(&rate("usdt")["usdt"]), dec!(1));
    assert!(decimal(&rate("btc")["usdt"]) > dec!(1000));
    assert!(rate("btc")["ts"].as_i64().unwrap() > 0);

    let (status, body) = app
        .get_as(&member.token, "/api/coin/coin/assets/getWalletAccount")
        .await;
    assert_eq!(status, 200, "{body}");
    let buckets = body["data"]["buckets"].as_array().unwrap();
    let value = |name: &str| {
        buckets
            .iter()
            .find(|b| b["bucket"] == name)
            .map(|b| b["value"].clone())
            .unwrap()
    };
    assert_eq!(decimal(&value("trading")["usdt"]), dec!(300));
    assert_eq!(decimal(&value("earn")["usdt"]), dec!(0));
    // Funding holds 700 USDT and 0.5 ETH at a live price.
    let funding = decimal(&value("funding")["usdt"]);
    assert!(funding > dec!(700), "{body}");
    let total = decimal(&body["data"]["total"]["usdt"]);
    assert!((total - funding - dec!(300)).abs() <= dec!(0.01), "{body}");
    assert!(decimal(&body["data"]["total"]["btc"]) > dec!(0));

    let (status, body) = app
        .get_as(
            &member.token,
            "/api/coin/coin/assets/getMyBalance?type=trading",
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let coins = body["data"]["coins"].as_array().unwrap();
    assert_eq!(coins.len(), 1, "{body}");
    assert_eq!(
        (coins[0]["coin"].as_str(), decimal(&coins[0]["available"])),
        (Some("usdt"), dec!(300))
    );

    let (status, body) = app
        .post_as(
            &member.token,
            "/api/coin/coin/assets/getCurrencyAccount",
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let coins = body["data"]["coins"].as_array().unwrap();
    assert!(coins.len() >= 8, "every asset is listed: {body}");
    let usdt = coins.iter().find(|c| c["coin"] == "usdt").unwrap();
    assert_eq!(decimal(&usdt["available"]), dec!(700));
    assert_eq!(decimal(&usdt["value"]["usdt"]), dec!(700));

    let (status, _) = app
        .get_as(
            &member.token,
            "/api/coin/coin/assets/getMyBalance?type=house",
        )
        .await;
    assert_eq!(status, 400);
    let (status, _, _) = app.get("/api/coin/coin/assets/getWalletAccount").await;
    assert_eq!(status, 401);
    app.stop().await;
}

#[tokio::test]
async fn moves_between_buckets_and_earn_income_are_listed() {
    let app = spawn_app().await;
    let member = funded_member(&app, "trans@example.com").await;
    let (status, body) = app
        .get_as(&member.token, "/api/coin/coin/wallet/trans?pageSize=10")
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["total"], 1);
    let record = &body["data"]["records"][0];
    assert_eq!(
        (record["from"].as_str(), record["to"].as_str()),
        (Some("funding"), Some("trading"))
    );
    assert_eq!(decimal(&record["amount"]), dec!(300));

    let (status, body) = app
        .post_as(&member.token, "/api/financial/personalIncome", None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["coins"], json!([]));
    assert_eq!(decimal(&body["data"]["total"]["usdt"]), dec!(0));

    // Income an earn product credits (paid by the house).
    let entry = NewEntry {
        kind: "earn_income".into(),
        reference: "test".into(),
        user_id: Some(member.user_id),
        actor_id: None,
        memo: String::new(),
        postings: Posting::transfer(
            AccountRef::House(House::MarketMaker),
            AccountRef::User {
                user_id: member.user_id,
                bucket: Bucket::Earn,
            },
            "usdt",
            dec!(1.25),
        )
        .to_vec(),
    };
    ledger::post(app.db(), &entry).await.unwrap();
    let (_, body) = app
        .post_as(&member.token, "/api/financial/personalIncome", None)
        .await;
    assert_eq!(
        decimal(&body["data"]["total"]["usdt"]),
        dec!(1.25),
        "{body}"
    );
    assert_eq!(decimal(&body["data"]["yesterday"]["usdt"]), dec!(1.25));
    assert_eq!(body["data"]["coins"][0]["coin"], "usdt");
    app.stop().await;
}
