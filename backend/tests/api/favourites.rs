//! A member's favourite markets: `GET /api/market/favourites`, `POST /api/market/favourites`
//! (add or remove one) and `POST /api/market/favourites/merge` (the browser's list on the first
//! login): member-only, per user, listed pairs of the right market only, no duplicates.

use serde_json::{Value, json};

use crate::helpers::spawn_app;

const PATH: &str = "/api/market/favourites";
const MERGE: &str = "/api/market/favourites/merge";

/// `[(market, symbol)]` of an answer's `data`.
fn entries(body: &Value) -> Vec<(String, String)> {
    body["data"]
        .as_array()
        .unwrap_or_else(|| panic!("a list: {body}"))
        .iter()
        .map(|f| {
            (
                f["market"].as_str().expect("market").to_owned(),
                f["symbol"].as_str().expect("symbol").to_owned(),
            )
        })
        .collect()
}

fn pairs(list: &[(&str, &str)]) -> Vec<(String, String)> {
    list.iter()
        .map(|(m, s)| ((*m).to_owned(), (*s).to_owned()))
        .collect()
}

#[tokio::test]
async fn favourites_need_a_session() {
    let app = spawn_app().await;
    let (status, _, text) = app.get(PATH).await;
    assert_eq!(status, 401, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(body["code"], 401);

    let (status, body) = app
        .post(
            PATH,
            Some(&json!({"symbol": "btcusdt", "favourite": true}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = app
        .post(MERGE, Some(&json!({"favourites": []}).to_string()), &[])
        .await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = app
        .post(
            PATH,
            Some(&json!({"symbol": "btcusdt", "favourite": true}).to_string()),
            &[("satoken", "not-a-session")],
        )
        .await;
    assert_eq!(status, 401, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn members_add_and_remove_favourites_and_get_them_back_in_order() {
    let app = spawn_app().await;
    let member = app.member("fav@example.com").await;

    let (status, body) = app.get_as(&member.token, PATH).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["code"], 200);
    assert!(entries(&body).is_empty());

    // `market` defaults to spot; the symbol is any case and answered in lower case.
    let (status, body) = app
        .post_as(
            &member.token,
            PATH,
            Some(json!({"symbol": " BTCUSDT ", "favourite": true})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(entries(&body), pairs(&[("spot", "btcusdt")]));

    for (market, symbol) in [("contract", "ethusdt"), ("flash", "solusdt")] {
        let (status, body) = app
            .post_as(
                &member.token,
                PATH,
                Some(json!({"symbol": symbol, "market": market, "favourite": true})),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }
    // Adding one again changes nothing.
    let (status, body) = app
        .post_as(
            &member.token,
            PATH,
            Some(json!({"symbol": "btcusdt", "market": "spot", "favourite": true})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        entries(&body),
        pairs(&[
            ("spot", "btcusdt"),
            ("contract", "ethusdt"),
            ("flash", "solusdt")
        ])
    );

    // Removing takes exactly that market; removing an absent one is fine.
    let (status, body) = app
        .post_as(
            &member.token,
            PATH,
            Some(json!({"symbol": "ethusdt", "market": "contract", "favourite": false})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .post_as(
            &member.token,
            PATH,
            Some(json!({"symbol": "ethusdt", "market": "spot", "favourite": false})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        entries(&body),
        pairs(&[("spot", "btcusdt"), ("flash", "solusdt")])
    );

    let (status, body) = app.get_as(&member.token, PATH).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        entries(&body),
        pairs(&[("spot", "btcusdt"), ("flash", "solusdt")])
    );

    // Another member has a list of their own.
    let other = app.member("other-fav@example.com").await;
    let (status, body) = app.get_as(&other.token, PATH).await;
    assert_eq!(status, 200, "{body}");
    assert!(entries(&body).is_empty());
    app.stop().await;
}

#[tokio::test]
async fn only_listed_pairs_of_the_market_are_accepted() {
    let app = spawn_app().await;
    let member = app.member("fav-bad@example.com").await;

    // No such pair: 404 naming the field.
    let (status, body) = app
        .post_as(
            &member.token,
            PATH,
            Some(json!({"symbol": "nopeusdt", "favourite": true})),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["code"], 404);
    assert_eq!(body["data"]["field"], "symbol");
    assert!(body["msg"].as_str().unwrap().contains("nopeusdt"), "{body}");

    // DOT/USDT is a spot pair without a perpetual.
    let (status, body) = app
        .post_as(
            &member.token,
            PATH,
            Some(json!({"symbol": "dotusdt", "market": "contract", "favourite": true})),
        )
        .await;
    assert_eq!(status, 404, "{body}");

    // Unknown market, missing flag, wrong type, unknown field: 400 naming the field.
    for (request, field) in [
        (
            json!({"symbol": "btcusdt", "market": "margin", "favourite": true}),
            "market",
        ),
        (json!({"symbol": "btcusdt"}), "favourite"),
        (
            json!({"symbol": "btcusdt", "favourite": "yes"}),
            "favourite",
        ),
        (
            json!({"symbol": "btcusdt", "favourite": true, "extra": 1}),
            "extra",
        ),
        (json!({"symbol": "", "favourite": true}), "symbol"),
    ] {
        let (status, body) = app.post_as(&member.token, PATH, Some(request)).await;
        assert_eq!(status, 400, "{body}");
        assert_eq!(body["data"]["field"], field, "{body}");
    }

    let (status, body) = app.get_as(&member.token, PATH).await;
    assert_eq!(status, 200, "{body}");
    assert!(entries(&body).is_empty());
    app.stop().await;
}

#[tokio::test]
async fn merging_adds_the_new_listed_favourites_once() {
    let app = spawn_app().await;
    let member = app.member("fav-merge@example.com").await;
    let (status, body) = app
        .post_as(
            &member.token,
            PATH,
            Some(json!({"symbol": "ethusdt", "favourite": true})),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    let (status, body) = app
        .post_as(
            &member.token,
            MERGE,
            Some(json!({"favourites": [
                {"market": "spot", "symbol": "ETHUSDT"},
                {"market": "spot", "symbol": "btcusdt"},
                {"market": "spot", "symbol": "btcusdt"},
                {"market": "contract", "symbol": "solusdt"},
                {"market": "spot", "symbol": "gone-usdt"},
                {"market": "contract", "symbol": "dotusdt"}
            ]})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let list = entries(&body);
    assert_eq!(list.len(), 3, "{body}");
    assert_eq!(list[0], ("spot".to_owned(), "ethusdt".to_owned()));
    assert!(list.contains(&("spot".to_owned(), "btcusdt".to_owned())));
    assert!(list.contains(&("contract".to_owned(), "solusdt".to_owned())));

    // Merging the same list again changes nothing.
    let (status, body) = app
        .post_as(
            &member.token,
            MERGE,
            Some(json!({"favourites": [{"market": "spot", "symbol": "btcusdt"}]})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(entries(&body), list);

    // More than 200 at once is refused, naming the list.
    let many: Vec<Value> = (0..201)
        .map(|_| json!({"market": "spot", "symbol": "btcusdt"}))
        .collect();
    let (status, body) = app
        .post_as(&member.token, MERGE, Some(json!({ "favourites": many })))
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["field"], "favourites", "{body}");

    // A bad entry names its place in the list.
    let (status, body) = app
        .post_as(
            &member.token,
            MERGE,
            Some(json!({"favourites": [{"market": "spot", "symbol": "btcusdt"}, {"market": "x", "symbol": "btcusdt"}]})),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["field"], "favourites[1].market", "{body}");
    app.stop().await;
}

#[tokio::test]
async fn user_coin_save_and_cancel_collect_markets_beside_get_user_coin() {
    let app = spawn_app().await;
    let member = app.member("usercoin@example.com").await;
    let (status, body) = app
        .post(
            "/api/userCoin/save",
            Some(&json!({"symbol": "btcusdt"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 401, "{body}");

    let (status, body) = app
        .post_as(
            &member.token,
            "/api/userCoin/save",
            Some(json!({"symbol": "ETHUSDT"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/userCoin/save",
            Some(json!({"symbol": "btcusdt", "market": "contract"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        entries(&body),
        pairs(&[("spot", "ethusdt"), ("contract", "btcusdt")])
    );
    // The same list as the favourites call.
    let (_, listed) = app.get_as(&member.token, PATH).await;
    assert_eq!(entries(&listed), entries(&body));

    let (status, body) = app
        .post_as(
            &member.token,
            "/api/userCoin/cancel",
            Some(json!({"symbol": "ethusdt"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(entries(&body), pairs(&[("contract", "btcusdt")]));

    let (status, body) = app
        .post_as(
            &member.token,
            "/api/userCoin/save",
            Some(json!({"symbol": "nopeusdt"})),
        )
        .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (404, Some("unknown_symbol")),
        "{body}"
    );
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/userCoin/delete",
            Some(json!({"symbol": "btcusdt"})),
        )
        .await;
    assert_eq!(status, 400, "an unknown action: {body}");

    // The fixed `getUserCoin` path still answers the balances.
    let (status, body) = app
        .post_as(&member.token, "/api/userCoin/getUserCoin", None)
        .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"]["coins"].is_array(), "{body}");
    app.stop().await;
}
