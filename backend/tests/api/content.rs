//! The content store (`backend::content`): the help centre, forms and dictionaries, announcements,
//! pages, search and the popular entries, read in the reader's language with a marked English
//! fallback; drafts invisible; Markdown sanitised; the operators' calls refused to members;
//! publishing and listing a coin pushed on `/ws/business/notice`; the shipped texts seeded once,
//! operator edits and deletions kept across restarts.

use backend::content::markup_check::markup_risks;
use backend::content::seed;
use serde_json::{Value, json};

use crate::helpers::{Member, TestApp, spawn_app, spawn_app_in, spawn_app_with};
use crate::kyc::{operator, upload_sample};

/// `GET path` with the `lang` header.
async fn read(app: &TestApp, path: &str, lang: &str) -> (u16, Value) {
    let response = app
        .client
        .get(format!("{}{path}", app.base))
        .header("lang", lang)
        .send()
        .await
        .expect("answered");
    let status = response.status().as_u16();
    (status, response.json().await.expect("JSON"))
}

/// `POST path` with `body` and the `lang` header.
async fn post_lang(app: &TestApp, path: &str, body: Option<Value>, lang: &str) -> (u16, Value) {
    let body = body.map(|b| b.to_string());
    app.post(path, body.as_deref(), &[("lang", lang)]).await
}

/// Saves a text as `token`; asserts success and answers the entry.
async fn save(app: &TestApp, token: &str, body: Value) -> Value {
    let (status, answer) = app
        .post_as(token, "/api/admin/content/save", Some(body))
        .await;
    assert_eq!(status, 200, "{answer}");
    answer["data"].clone()
}

async fn publish(app: &TestApp, token: &str, id: i64, lang: &str) {
    let (status, body) = app
        .post_as(
            token,
            &format!("/api/admin/content/{id}/publish"),
            Some(json!({"lang": lang})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
}

fn help_id(records: &Value, slug: &str) -> i64 {
    records
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["slug"] == slug)
        .unwrap_or_else(|| panic!("no {slug} in {records}"))["id"]
        .as_i64()
        .unwrap()
}

#[tokio::test]
async fn the_help_centre_reads_in_the_readers_language_with_a_marked_fallback() {
    let app = spawn_app().await;
    let (status, body) = post_lang(&app, "/api/helpcenter/list", None, "en").await;
    assert_eq!(status, 200, "{body}");
    let records = &body["data"]["records"];
    assert!(body["data"]["total"].as_u64().unwrap() >= 12, "{body}");
    assert!(
        records
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["fallback"] == false && r["lang"] == "en")
    );
    let deposit = help_id(records, "deposit");
    // German ships; an operator takes it down: German readers get the English text, marked.
    let op = operator(&app, "content-op@example.com").await;
    let (_, shipped) = post_lang(&app, &format!("/api/helpCenterInfo/{deposit}"), None, "de").await;
    assert_eq!(
        (
            shipped["data"]["lang"].clone(),
            shipped["data"]["fallback"].clone()
        ),
        (json!("de"), json!(false)),
        "{shipped}"
    );
    let (status, _) = app
        .post_as(
            &op,
            &format!("/api/admin/content/{deposit}/unpublish"),
            Some(json!({"lang": "de"})),
        )
        .await;
    assert_eq!(status, 200);
    let (_, german) = post_lang(
        &app,
        "/api/helpcenter/list",
        Some(json!({"category": "funds"})),
        "de",
    )
    .await;
    let first = &german["data"]["records"][0];
    assert_eq!(first["slug"], "deposit", "{german}");
    assert_eq!(first["lang"], "en");
    assert_eq!(first["fallback"], true);
    // The operator writes and publishes new German.
    save(&app, &op, json!({"id": deposit, "lang": "de", "title": "Wie zahle ich ein?",
        "summary": "Münzen senden, dann die Einzahlung melden.", "body": "1. **Einzahlen** öffnen."})).await;
    publish(&app, &op, deposit, "de").await;
    let (status, info) =
        post_lang(&app, &format!("/api/helpCenterInfo/{deposit}"), None, "de").await;
    assert_eq!(status, 200, "{info}");
    assert_eq!(info["data"]["title"], "Wie zahle ich ein?");
    assert_eq!(info["data"]["lang"], "de");
    assert_eq!(info["data"]["fallback"], false);
    assert!(
        info["data"]["html"]
            .as_str()
            .unwrap()
            .contains("<strong>Einzahlen</strong>")
    );
    // English readers keep the English text, with the live figures filled in.
    let (_, english) = post_lang(&app, &format!("/api/helpCenterInfo/{deposit}"), None, "en").await;
    assert_eq!(english["data"]["lang"], "en");
    let html = english["data"]["html"].as_str().unwrap();
    assert!(html.contains("TRC20") && !html.contains("{{"), "{html}");
    // Unknown id, and an id of another kind, are 404 naming nothing found.
    for path in [
        "/api/helpCenterInfo/999999".to_owned(),
        "/api/helpCenterInfo/1".to_owned(),
    ] {
        let (status, body) = post_lang(&app, &path, None, "en").await;
        if status == 200 {
            assert_eq!(body["data"]["kind"], "help", "{path}");
            continue;
        }
        assert_eq!(status, 404, "{path}: {body}");
        assert_eq!(body["data"]["reason"], "content_not_found");
    }
    let (status, body) = post_lang(
        &app,
        "/api/helpcenter/list",
        Some(json!({"category": "bogus"})),
        "en",
    )
    .await;
    assert_eq!(
        (status, body["data"]["field"].clone()),
        (400, json!("category")),
        "{body}"
    );
    let (_, found) = post_lang(
        &app,
        "/api/helpcenter/list",
        Some(json!({"keyword": "ANTI-PHISHING"})),
        "en",
    )
    .await;
    assert_eq!(
        found["data"]["records"][0]["slug"], "anti-phishing-code",
        "{found}"
    );
    // A keyword also in an article counts help entries only, of the category asked for.
    let (_, found) = post_lang(
        &app,
        "/api/helpcenter/list",
        Some(json!({"keyword": "funding", "category": "trading"})),
        "en",
    )
    .await;
    let found = found["data"].clone();
    let records = found["records"].as_array().unwrap();
    assert!(!records.is_empty());
    assert_eq!(found["total"].as_u64().unwrap() as usize, records.len());
    assert!(
        records
            .iter()
            .all(|r| r["kind"] == "help" && r["category"] == "trading"),
        "{found}"
    );
    app.stop().await;
}

#[tokio::test]
async fn drafts_are_invisible_until_published_and_after_unpublishing() {
    let app = spawn_app().await;
    let op = operator(&app, "drafts@example.com").await;
    let entry = save(
        &app,
        &op,
        json!({"kind": "help", "slug": "draft-entry", "lang": "en",
        "category": "support", "title": "A draft", "body": "Not yet."}),
    )
    .await;
    let id = entry["id"].as_i64().unwrap();
    assert_eq!(entry["translations"][0]["status"], "draft");
    let (status, body) = post_lang(&app, &format!("/api/helpCenterInfo/{id}"), None, "en").await;
    assert_eq!(status, 404, "a draft is not shown: {body}");
    let (_, list) = post_lang(
        &app,
        "/api/helpcenter/list",
        Some(json!({"pageSize": 100})),
        "en",
    )
    .await;
    assert!(!list.to_string().contains("draft-entry"));
    let (_, searched) = read(&app, "/api/content/search?q=A%20draft", "en").await;
    assert_eq!(searched["data"]["total"], 0, "{searched}");
    publish(&app, &op, id, "en").await;
    let (status, _) = post_lang(&app, &format!("/api/helpCenterInfo/{id}"), None, "en").await;
    assert_eq!(status, 200);
    let (status, _) = app
        .post_as(
            &op,
            &format!("/api/admin/content/{id}/unpublish"),
            Some(json!({"lang": "en"})),
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = post_lang(&app, &format!("/api/helpCenterInfo/{id}"), None, "en").await;
    assert_eq!(status, 404, "unpublished again");
    app.stop().await;
}

#[tokio::test]
async fn markdown_is_sanitised_and_images_come_only_from_operators_uploads() {
    let app = spawn_app().await;
    let op = operator(&app, "sanitise@example.com").await;
    let (_, sections) = read(
        &app,
        "/api/coin/cgform-api/getData/article_section?pageSize=-521",
        "en",
    )
    .await;
    let section = sections["data"]["records"][0]["id"].as_i64().unwrap();
    let evil = "Hi <script>alert(1)</script> <img src=x onerror=alert(2)>\n\n\
                [x](javascript:alert(3)) ![t](https://evil.example/t.png)";
    let entry = save(
        &app,
        &op,
        json!({"kind": "article", "slug": "evil", "lang": "en",
        "parentId": section, "title": "Evil", "body": evil}),
    )
    .await;
    let id = entry["id"].as_i64().unwrap();
    publish(&app, &op, id, "en").await;
    let (status, body) = read(
        &app,
        &format!("/api/coin/cgform-api/detailData/article/{id}"),
        "en",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let html = body["data"]["html"].as_str().unwrap();
    assert_eq!(markup_risks(html), Vec::<String>::new(), "{html}");
    assert!(html.contains("&lt;script&gt;"), "shown as text: {html}");
    assert!(!html.contains("evil.example"), "{html}");
    // A member's upload is refused; an operator's becomes a signed link.
    let member = app.member("uploader@example.com").await;
    let theirs = upload_sample(&app, &member, "png").await;
    let (status, refused) = app
        .post_as(
            &op,
            "/api/admin/content/save",
            Some(json!({"id": id, "lang": "en",
            "title": "Evil", "body": format!("![a](upload:{theirs})")})),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["data"]["reason"], "image_not_uploaded");
    let operator_member = Member {
        user_id: 0,
        token: op.clone(),
        account: "sanitise@example.com".into(),
    };
    let ours = upload_sample(&app, &operator_member, "png").await;
    save(
        &app,
        &op,
        json!({"id": id, "lang": "en", "title": "Evil",
        "body": format!("![chart](upload:{ours})")}),
    )
    .await;
    let (_, body) = read(
        &app,
        &format!("/api/coin/cgform-api/detailData/article/{id}"),
        "en",
    )
    .await;
    let html = body["data"]["html"].as_str().unwrap();
    assert!(
        html.contains(&format!("src=\"/api/file/content/{ours}?expires=")),
        "{html}"
    );
    let src = html
        .split("src=\"")
        .nth(1)
        .unwrap()
        .split('"')
        .next()
        .unwrap()
        .replace("&amp;", "&");
    let (status, _, _) = app.get(&src).await;
    assert_eq!(status, 200, "the signed link serves the image");
    app.stop().await;
}

#[tokio::test]
async fn forms_page_size_minus_521_column_order_and_unknown_names() {
    let app = spawn_app().await;
    let ids = |body: &Value| -> Vec<i64> {
        body["data"]["records"]
            .as_array()
            .unwrap()
            .iter()
            .map(|r| r["id"].as_i64().unwrap())
            .collect()
    };
    let (status, body) = read(&app, "/api/coin/cgform-api/getData/article", "en").await;
    assert_eq!(status, 200, "{body}");
    let default = ids(&body);
    assert!(default.len() >= 5);
    assert!(
        default.windows(2).all(|w| w[0] > w[1]),
        "id descending by default: {default:?}"
    );
    let (_, body) = read(
        &app,
        "/api/coin/cgform-api/getData/article?column=id&order=asc",
        "en",
    )
    .await;
    let ascending = ids(&body);
    assert!(ascending.windows(2).all(|w| w[0] < w[1]), "{ascending:?}");
    let (_, body) = read(
        &app,
        "/api/coin/cgform-api/getData/help_center?pageSize=2&pageNo=2",
        "en",
    )
    .await;
    assert_eq!(ids(&body).len(), 2);
    assert_eq!(
        (
            body["data"]["current"].clone(),
            body["data"]["size"].clone()
        ),
        (json!(2), json!(2))
    );
    let (_, body) = read(
        &app,
        "/api/coin/cgform-api/getData/help_center?pageSize=-521",
        "en",
    )
    .await;
    assert_eq!(
        body["data"]["size"], 100,
        "all, bounded by the largest page: {body}"
    );
    assert_eq!(
        ids(&body).len() as u64,
        body["data"]["total"].as_u64().unwrap()
    );
    for bad in ["0", "-1", "-520", "101", "-522", "x"] {
        let (status, body) = read(
            &app,
            &format!("/api/coin/cgform-api/getData/article?pageSize={bad}"),
            "en",
        )
        .await;
        assert_eq!(status, 400, "pageSize={bad}: {body}");
        assert_eq!(body["data"]["field"], "pageSize", "{bad}: {body}");
    }
    let (status, body) = read(
        &app,
        "/api/coin/cgform-api/getData/article?column=password",
        "en",
    )
    .await;
    assert_eq!(
        (status, body["data"]["field"].clone()),
        (400, json!("column")),
        "{body}"
    );
    let (status, body) = read(&app, "/api/coin/cgform-api/getData/users", "en").await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["data"]["reason"], "unknown_form");
    assert!(body["msg"].as_str().unwrap().contains("users"), "{body}");
    let (status, _) = read(&app, "/api/other/cgform-api/getData/article", "en").await;
    assert_eq!(status, 404, "another head");
    // Sections of a category, articles of a section.
    let (_, categories) = read(
        &app,
        "/api/coin/cgform-api/getData/article_category?column=position&order=asc",
        "en",
    )
    .await;
    let category = categories["data"]["records"][0].clone();
    assert_eq!(category["slug"], "getting-started");
    let (_, sections) = read(
        &app,
        &format!(
            "/api/coin/cgform-api/getData/article_section?parentId={}",
            category["id"]
        ),
        "en",
    )
    .await;
    assert!(
        sections["data"]["records"]
            .as_array()
            .unwrap()
            .iter()
            .all(|s| s["parentId"] == category["id"])
    );
    let article = default[0];
    let (status, body) = read(
        &app,
        &format!("/api/coin/cgform-api/detailData/article/{article}"),
        "en",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert!(body["data"]["html"].as_str().unwrap().starts_with('<'));
    for path in [
        format!("/api/coin/cgform-api/detailData/article_category/{article}"),
        "/api/coin/cgform-api/detailData/article/99999999".to_owned(),
        format!("/api/coin/cgform-api/detailData/nope/{article}"),
    ] {
        let (status, body) = read(&app, &path, "en").await;
        assert_eq!(status, 404, "{path}: {body}");
    }
    app.stop().await;
}

#[tokio::test]
async fn dictionaries_in_the_readers_language_and_unknown_ones() {
    let app = spawn_app().await;
    let (status, body) = read(
        &app,
        "/api/coin/sys/sys/dict/getDictItems/help_category",
        "de",
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"][0],
        json!({"value": "account", "text": "Konto", "title": "Konto"})
    );
    let (_, topics) = read(
        &app,
        "/api/coin/sys/sys/dict/getDictItems/announcement_topic",
        "en",
    )
    .await;
    assert_eq!(topics["data"].as_array().unwrap().len(), 14, "{topics}");
    let (_, types) = read(
        &app,
        "/api/coin/sys/sys/dict/getDictItems/rule_model_type",
        "en",
    )
    .await;
    let types = types["data"].as_array().unwrap();
    assert!(
        types
            .iter()
            .any(|t| t["value"] == "6" && t["text"] == "Spot trading rules")
    );
    assert_eq!(types.len(), 19);
    let (_, categories) = read(
        &app,
        "/api/coin/sys/sys/dict/getDictItems/article_category",
        "en",
    )
    .await;
    assert_eq!(categories["data"][0]["text"], "Getting started");
    let (status, body) = read(&app, "/api/coin/sys/sys/dict/getDictItems/sys_user", "en").await;
    assert_eq!(status, 404, "{body}");
    assert_eq!(body["data"]["reason"], "unknown_dict");
    app.stop().await;
}

#[tokio::test]
async fn community_links_come_from_the_configuration() {
    let app = spawn_app().await;
    let (status, body) = read(&app, "/api/common/qun", "en").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(
        body["data"],
        json!({"links": [], "supportEmail": "support@kestrel.exchange"})
    );
    app.stop().await;
    let app = spawn_app_with(|config| {
        config.platform.community = vec![backend::config::CommunityLink {
            name: "Telegram".into(),
            url: "https://t.me/kestrel_example".into(),
        }];
    })
    .await;
    let (_, body) = read(&app, "/api/common/qun", "en").await;
    assert_eq!(
        body["data"]["links"],
        json!([{"name": "Telegram", "url": "https://t.me/kestrel_example"}])
    );
    app.stop().await;
}

#[tokio::test]
async fn announcements_pages_company_search_and_popular() {
    let app = spawn_app().await;
    let (status, news) = read(&app, "/api/content/announcements?topic=news", "en").await;
    assert_eq!(status, 200, "{news}");
    let first = &news["data"]["records"][0];
    assert_eq!(first["pinned"], true, "pinned first: {news}");
    assert!(
        first["title"]
            .as_str()
            .unwrap()
            .starts_with("Kestrel Exchange is open"),
        "{first}"
    );
    let id = first["id"].as_i64().unwrap();
    // Every shipped text is translated: a Japanese reader reads Japanese.
    let (status, one) = read(&app, &format!("/api/content/announcements/{id}"), "ja").await;
    assert_eq!(status, 200);
    assert_eq!(
        (one["data"]["lang"].clone(), one["data"]["fallback"].clone()),
        (json!("ja"), json!(false))
    );
    let (status, page) = read(&app, "/api/content/page?modelType=7", "en").await;
    assert_eq!(status, 200, "{page}");
    assert_eq!(page["data"]["kind"], "rule");
    let html = page["data"]["html"].as_str().unwrap();
    assert!(
        html.contains("0.1%") && html.contains("<table>"),
        "live figures: {html}"
    );
    let (_, agreement) = read(&app, "/api/content/page?modelType=11", "en").await;
    assert_eq!(agreement["data"]["slug"], "user-agreement");
    let (status, _) = read(&app, "/api/content/page?modelType=99", "en").await;
    assert_eq!(status, 404);
    let (status, company) = read(&app, "/api/content/company", "en").await;
    assert_eq!(status, 200);
    assert_eq!(company["data"]["title"], "About Kestrel Exchange");
    let (_, found) = read(&app, "/api/content/search?q=funding", "en").await;
    let kinds: Vec<&str> = found["data"]["records"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["kind"].as_str().unwrap())
        .collect();
    assert!(
        kinds.contains(&"article") && kinds.contains(&"help"),
        "{found}"
    );
    assert_eq!(
        found["data"]["records"][0]["slug"], "how-funding-works",
        "a title match first"
    );
    let (status, _) = read(&app, "/api/content/search?q=", "en").await;
    assert_eq!(status, 400);
    // Popular: texts in the reader's language first. Everything ships in French; an operator
    // takes one French text down, and that entry falls behind the French ones, marked.
    let op = operator(&app, "popular@example.com").await;
    let (_, popular) = read(&app, "/api/content/popular", "fr").await;
    let records = popular["data"].as_array().unwrap();
    assert!(records.len() > 1, "{popular}");
    assert!(
        records
            .iter()
            .all(|r| r["lang"] == "fr" && r["fallback"] == false && r["promoted"] == true),
        "{popular}"
    );
    let first = records[0]["id"].as_i64().unwrap();
    let (status, _) = app
        .post_as(
            &op,
            &format!("/api/admin/content/{first}/unpublish"),
            Some(json!({"lang": "fr"})),
        )
        .await;
    assert_eq!(status, 200);
    let (_, popular) = read(&app, "/api/content/popular", "fr").await;
    let records = popular["data"].as_array().unwrap();
    let last = records.last().unwrap();
    assert_eq!(last["id"], first, "{popular}");
    assert_eq!(
        (last["lang"].clone(), last["fallback"].clone()),
        (json!("en"), json!(true))
    );
    assert_eq!(records[0]["lang"], "fr");
    let last = first;
    save(
        &app,
        &op,
        json!({"id": last, "lang": "fr", "title": "Texte français", "body": "Bonjour."}),
    )
    .await;
    publish(&app, &op, last, "fr").await;
    let (_, search) = read(&app, "/api/content/search?q=fran%C3%87ais", "fr").await;
    assert_eq!(
        search["data"]["records"][0]["id"], last,
        "any case, in the reader's language: {search}"
    );
    app.stop().await;
}

#[tokio::test]
async fn operator_calls_are_refused_to_members_and_visitors() {
    let app = spawn_app().await;
    let member = app.member("not-an-operator@example.com").await;
    let calls: [(&str, &str, Option<Value>); 8] = [
        ("get", "/api/admin/content/list", None),
        (
            "post",
            "/api/admin/content/preview",
            Some(json!({"body": "x"})),
        ),
        ("get", "/api/admin/content/1", None),
        (
            "post",
            "/api/admin/content/save",
            Some(
                json!({"lang": "en", "kind": "help", "slug": "x", "category": "support", "title": "x", "body": "x"}),
            ),
        ),
        (
            "post",
            "/api/admin/content/1/publish",
            Some(json!({"lang": "en"})),
        ),
        (
            "post",
            "/api/admin/content/1/unpublish",
            Some(json!({"lang": "en"})),
        ),
        (
            "post",
            "/api/admin/content/1/pin",
            Some(json!({"pinned": true})),
        ),
        ("post", "/api/admin/content/1/delete", Some(json!({}))),
    ];
    for (method, path, body) in calls {
        for (token, expected) in [(member.token.as_str(), 403), ("", 401)] {
            let (status, answer) = if method == "get" {
                app.get_as(token, path).await
            } else {
                app.post_as(token, path, body.clone()).await
            };
            assert_eq!(status, expected, "{method} {path}: {answer}");
        }
    }
    let (status, _) = post_lang(&app, "/api/helpCenterInfo/1", None, "en").await;
    assert_ne!(status, 500);
    app.stop().await;
}

#[tokio::test]
async fn operators_writes_refuse_bad_input() {
    let app = spawn_app().await;
    let op = operator(&app, "writes@example.com").await;
    let cases = [
        (
            json!({"kind": "help", "slug": "a", "lang": "en", "category": "support", "title": " ", "body": "x"}),
            400,
            "content_required",
            "title",
        ),
        (
            json!({"kind": "help", "slug": "a", "lang": "en", "category": "support", "title": "A", "body": ""}),
            400,
            "content_required",
            "body",
        ),
        (
            json!({"kind": "help", "slug": "Bad Slug", "lang": "en", "category": "support", "title": "A", "body": "x"}),
            400,
            "invalid_field",
            "slug",
        ),
        (
            json!({"kind": "help", "slug": "deposit", "lang": "en", "category": "support", "title": "A", "body": "x"}),
            409,
            "slug_taken",
            "slug",
        ),
        (
            json!({"kind": "help", "slug": "a", "lang": "en", "category": "nope", "title": "A", "body": "x"}),
            400,
            "unknown_parent",
            "category",
        ),
        (
            json!({"kind": "article", "slug": "a", "lang": "en", "parentId": 1, "title": "A", "body": "x"}),
            400,
            "unknown_parent",
            "parentId",
        ),
        (
            json!({"kind": "announcement", "slug": "a", "lang": "en", "topic": "gossip", "title": "A", "body": "x"}),
            400,
            "unknown_parent",
            "topic",
        ),
        (
            json!({"kind": "topic", "slug": "a", "lang": "en", "modelType": 6, "title": "A", "body": "x"}),
            409,
            "slug_taken",
            "modelType",
        ),
        (
            json!({"kind": "help", "slug": "a", "lang": "xx", "category": "support", "title": "A", "body": "x"}),
            400,
            "invalid_field",
            "lang",
        ),
    ];
    for (body, status, reason, field) in cases {
        let (got, answer) = app
            .post_as(&op, "/api/admin/content/save", Some(body.clone()))
            .await;
        assert_eq!(got, status, "{body}: {answer}");
        assert_eq!(answer["data"]["reason"], reason, "{body}: {answer}");
        assert_eq!(answer["data"]["field"], field, "{body}: {answer}");
    }
    let (status, answer) = app
        .post_as(
            &op,
            "/api/admin/content/99999/publish",
            Some(json!({"lang": "en"})),
        )
        .await;
    assert_eq!(status, 404, "{answer}");
    let (status, _) = app
        .get_as(&op, "/api/admin/content/list?kind=help&pageSize=5")
        .await;
    assert_eq!(status, 200);
    app.stop().await;
}

#[tokio::test]
async fn publishing_an_announcement_pushes_it_on_the_notice_channel() {
    let app = spawn_app().await;
    let op = operator(&app, "notice@example.com").await;
    let mut notices = app.notice_channel().await;
    let entry = save(
        &app,
        &op,
        json!({"kind": "announcement", "slug": "maintenance-window", "lang": "en",
        "topic": "maintenance", "title": "Maintenance on Sunday", "body": "Short."}),
    )
    .await;
    let id = entry["id"].as_i64().unwrap();
    save(
        &app,
        &op,
        json!({"id": id, "lang": "de", "title": "Wartung am Sonntag", "body": "Kurz."}),
    )
    .await;
    publish(&app, &op, id, "en").await;
    let notice = notices.next_of("ANNOUNCEMENT").await;
    assert_eq!(notice["data"]["id"], id, "{notice}");
    assert_eq!(notice["data"]["event"], "created");
    assert_eq!(notice["data"]["topic"], "maintenance");
    assert_eq!(
        notice["data"]["titles"],
        json!([{"lang": "en", "title": "Maintenance on Sunday"}])
    );
    publish(&app, &op, id, "de").await;
    let notice = notices.next_of("ANNOUNCEMENT").await;
    assert_eq!(notice["data"]["event"], "updated", "{notice}");
    assert_eq!(
        notice["data"]["titles"][1],
        json!({"lang": "de", "title": "Wartung am Sonntag"})
    );
    let (_, pinned) = app
        .post_as(
            &op,
            &format!("/api/admin/content/{id}/pin"),
            Some(json!({"pinned": true})),
        )
        .await;
    assert_eq!(pinned["data"]["pinned"], true);
    let (_, list) = read(&app, "/api/content/announcements?topic=maintenance", "de").await;
    assert_eq!(
        list["data"]["records"][0]["title"], "Wartung am Sonntag",
        "{list}"
    );
    app.stop().await;
}

#[tokio::test]
async fn listing_a_coin_publishes_a_new_pair_announcement() {
    use backend::common::service::{NewCoin, list_coin};
    let app = spawn_app().await;
    let mut notices = app.notice_channel().await;
    let coin = NewCoin {
        coin: "pepe".into(),
        reference_price: rust_decimal_macros::dec!(0.00001234),
        price_precision: 8,
        quantity_precision: 0,
        daily_volatility: rust_decimal_macros::dec!(0.08),
        contract: false,
        hot: false,
    };
    list_coin(app.db(), &coin).await.unwrap();
    let notice = notices.next_of("ANNOUNCEMENT").await;
    assert_eq!(notice["data"]["topic"], "new-pairs", "{notice}");
    assert_eq!(
        notice["data"]["titles"][0],
        json!({"lang": "en", "title": "New listing: PEPE/USDT"})
    );
    let id = notice["data"]["id"].as_i64().unwrap();
    let (_, list) = read(&app, "/api/content/announcements?topic=new-pairs", "en").await;
    assert_eq!(list["data"]["records"][0]["id"], id, "{list}");
    let (_, one) = read(&app, &format!("/api/content/announcements/{id}"), "en").await;
    let html = one["data"]["html"].as_str().unwrap();
    assert!(
        html.contains("symbol=pepeusdt") && html.contains("0.1%"),
        "{html}"
    );
    // Every shipped language of the template has its text.
    let (_, admin) = app
        .get_as(
            &operator(&app, "listing@example.com").await,
            &format!("/api/admin/content/{id}"),
        )
        .await;
    let shipped = backend::content::shipped::templates("new-pair")
        .unwrap()
        .len();
    assert_eq!(
        admin["data"]["translations"].as_array().unwrap().len(),
        shipped
    );
    app.stop().await;
}

#[tokio::test]
async fn seeding_is_idempotent_keeps_operator_edits_and_deletions() {
    use sea_orm::ConnectionTrait;
    let app = spawn_app().await;
    assert_eq!(
        seed::run(app.db()).await.unwrap(),
        seed::Seeded::default(),
        "nothing new"
    );
    let op = operator(&app, "seed@example.com").await;
    let (_, list) = post_lang(
        &app,
        "/api/helpcenter/list",
        Some(json!({"pageSize": 100})),
        "en",
    )
    .await;
    let records = &list["data"]["records"];
    let deposit = help_id(records, "deposit");
    let fees = help_id(records, "fees");
    let recovery = help_id(records, "account-recovery");
    save(
        &app,
        &op,
        json!({"id": deposit, "lang": "en", "title": "Depositing (our words)", "body": "Ours."}),
    )
    .await;
    let (status, _) = app
        .post_as(
            &op,
            &format!("/api/admin/content/{recovery}/delete"),
            Some(json!({})),
        )
        .await;
    assert_eq!(status, 200);
    // A text still as shipped whose file changed is brought up to date: simulate an old release.
    app.db()
        .execute_unprepared(&format!(
            "UPDATE content_translation SET title = 'Old', shipped_hash = 'old' WHERE entry_id = {fees}"
        ))
        .await
        .unwrap();
    let (dir, postgres) = app.stop_keeping_data().await;
    let app = spawn_app_in(dir, postgres).await;
    let read_title = |id: i64| {
        let app = &app;
        async move { post_lang(app, &format!("/api/helpCenterInfo/{id}"), None, "en").await }
    };
    let (_, body) = read_title(deposit).await;
    assert_eq!(
        body["data"]["title"], "Depositing (our words)",
        "an operator's edit is kept"
    );
    let (status, _) = read_title(recovery).await;
    assert_eq!(status, 404, "a deleted shipped entry stays deleted");
    let (_, body) = read_title(fees).await;
    assert_eq!(
        body["data"]["title"], "What are the fees?",
        "an unedited text follows the release"
    );
    assert_eq!(seed::run(app.db()).await.unwrap(), seed::Seeded::default());
    app.stop().await;
}

#[tokio::test]
async fn the_preview_renders_like_a_published_text_and_saves_nothing() {
    let app = spawn_app().await;
    let op = operator(&app, "preview@example.com").await;
    let (_, before) = app.get_as(&op, "/api/admin/content/list").await;
    let body =
        "## Fees\n\nMaker {{spot_maker_fee}} <script>alert(1)</script>\n\n[x](javascript:alert(2))";
    let (status, answer) = app
        .post_as(
            &op,
            "/api/admin/content/preview",
            Some(json!({"body": body})),
        )
        .await;
    assert_eq!(status, 200, "{answer}");
    let html = answer["data"]["html"].as_str().unwrap();
    assert!(html.contains("<h2>Fees</h2>"), "{html}");
    assert!(
        !html.contains("{{spot_maker_fee}}"),
        "figures filled: {html}"
    );
    assert_eq!(markup_risks(html), Vec::<String>::new(), "{html}");
    assert!(html.contains("&lt;script&gt;"), "shown as text: {html}");
    assert!(!html.contains("javascript"), "{html}");
    // Nothing was saved.
    let (_, after) = app.get_as(&op, "/api/admin/content/list").await;
    assert_eq!(before["data"]["total"], after["data"]["total"]);
    // An empty body and a member's upload are refused like a save.
    let (status, refused) = app
        .post_as(
            &op,
            "/api/admin/content/preview",
            Some(json!({"body": "  "})),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["data"]["reason"], "content_required");
    let member = app.member("preview-member@example.com").await;
    let theirs = upload_sample(&app, &member, "png").await;
    let (status, refused) = app
        .post_as(
            &op,
            "/api/admin/content/preview",
            Some(json!({"body": format!("![a](upload:{theirs})")})),
        )
        .await;
    assert_eq!(status, 400, "{refused}");
    assert_eq!(refused["data"]["reason"], "image_not_uploaded");
    app.stop().await;
}
