//! Registration, login, sessions and `getInfo` against the real app.

use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::json;

use crate::helpers::{PASSWORD, spawn_app};

#[tokio::test]
async fn register_login_get_info_and_logout() {
    let app = spawn_app().await;
    let member = app.member("Alice@Example.com").await;
    let (status, body) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["user"]["userId"], member.user_id);
    assert_eq!(data["user"]["email"], "alice@example.com");
    assert_eq!(data["is_merchant"], 1);
    assert_eq!(data["security"]["fundPasswordSet"], false);
    assert_eq!(data["kycLevel"], 0);
    assert!(data["avatar"].as_str().unwrap().ends_with(".svg"));
    assert_eq!(data["user"]["inviteCode"].as_str().unwrap().len(), 8);

    let (status, body) = app.post_as(&member.token, "/api/user/logout", None).await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["code"], 401);
    assert_eq!(body["data"]["reason"], "unauthorized");
    app.stop().await;
}

#[tokio::test]
async fn member_calls_need_a_live_token() {
    let app = spawn_app().await;
    for token in ["", "made-up", &"x".repeat(500)] {
        let (status, body) = app.post_as(token, "/api/user/getInfo", None).await;
        assert_eq!(status, 401, "{token:?}: {body}");
        assert_eq!(body["code"], 401);
    }
    let (status, body) = app.post("/api/user/getInfo", None, &[("lang", "de")]).await;
    assert_eq!(status, 401);
    assert_eq!(body["msg"], "Bitte melden Sie sich erneut an", "{body}");
    app.stop().await;
}

#[tokio::test]
async fn registration_checks_password_code_and_invitation() {
    let app = spawn_app().await;
    let register = |body: serde_json::Value| {
        let app = &app;
        async move {
            app.post("/api/user/register", Some(&body.to_string()), &[])
                .await
        }
    };
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": "bob@example.com", "type": "register"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["channel"], "email");
    let code = app.last_code("bob@example.com").await;

    let (status, body) = register(json!({"account": "bob@example.com", "password": "short",
        "confirmPassword": "short", "code": code}))
    .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("password_format")),
        "{body}"
    );
    assert_eq!(body["msg"], "Invalid password format");
    assert_eq!(body["data"]["field"], "password");

    let (status, body) = register(json!({"account": "bob@example.com", "password": PASSWORD,
        "confirmPassword": "Secret124", "code": code}))
    .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("password_mismatch")),
        "{body}"
    );

    let (status, body) = register(json!({"account": "bob@example.com", "password": PASSWORD,
        "confirmPassword": PASSWORD, "code": code, "inviteCode": "NOPE2345"}))
    .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("invalid_invite_code")),
        "{body}"
    );

    let wrong = if code == "000000" { "000001" } else { "000000" };
    let (status, body) = register(json!({"account": "bob@example.com", "password": PASSWORD,
        "confirmPassword": PASSWORD, "code": wrong}))
    .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("invalid_code")),
        "{body}"
    );

    let (status, body) = register(json!({"account": "bob@example.com", "password": PASSWORD,
        "confirmPassword": PASSWORD, "code": code}))
    .await;
    assert_eq!(status, 200, "{body}");
    // Registering the address again says it is registered (not that the code is wrong).
    let (status, body) = register(json!({"account": "bob@example.com", "password": PASSWORD,
        "confirmPassword": PASSWORD, "code": code}))
    .await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("account_already_registered")),
        "{body}"
    );
    assert_eq!(body["data"]["field"], "account");
    app.stop().await;
}

#[tokio::test]
async fn an_invitation_code_links_the_new_account() {
    let app = spawn_app().await;
    let inviter = app.member("inviter@example.com").await;
    let (_, info) = app.post_as(&inviter.token, "/api/user/getInfo", None).await;
    let invite = info["data"]["user"]["inviteCode"]
        .as_str()
        .unwrap()
        .to_lowercase();
    app.post(
        "/api/user/sendEmailCode",
        Some(&json!({"account": "+49 151 1234567", "type": "register"}).to_string()),
        &[],
    )
    .await;
    let code = app.last_code("+491511234567").await;
    let (status, body) = app
        .post(
            "/api/user/register",
            Some(
                &json!({"account": "+49 (151) 123-4567", "password": PASSWORD,
            "confirmPassword": PASSWORD, "code": code, "inviteCode": invite})
                .to_string(),
            ),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let token = app.login("+491511234567", PASSWORD).await;
    let (_, info) = app.post_as(&token, "/api/user/getInfo", None).await;
    assert_eq!(info["data"]["user"]["phone"], "+491511234567");
    let stored =
        backend::entity::user::Entity::find_by_id(info["data"]["user"]["userId"].as_i64().unwrap())
            .one(app.db())
            .await
            .unwrap()
            .unwrap();
    assert_eq!(stored.invited_by, Some(inviter.user_id));
    assert!(stored.password_hash.starts_with("$argon2id$"));
    app.stop().await;
}

#[tokio::test]
async fn codes_for_taken_or_unknown_accounts_reveal_nothing() {
    let app = spawn_app().await;
    app.member("carol@example.com").await;
    // Registration used this minute's code for carol; start a new minute.
    app.state().limiter.clear("code:target:carol@example.com");
    let send = |account: &'static str, kind: &'static str| {
        let app = &app;
        async move {
            app.post(
                "/api/user/sendEmailCode",
                Some(&json!({"account": account, "type": kind}).to_string()),
                &[("lang", "fr")],
            )
            .await
        }
    };
    let (taken_status, taken) = send("carol@example.com", "register").await;
    let (free_status, free) = send("dave@example.com", "register").await;
    let (unknown_status, unknown) = send("nobody@example.com", "reset").await;
    assert_eq!((taken_status, free_status, unknown_status), (200, 200, 200));
    assert_eq!(taken, free);
    assert_eq!(free, unknown);
    // The owner of the taken address is told, without a code; the unknown address gets nothing.
    let notice = app.last_message("carol@example.com").await;
    assert!(
        !notice["body"]
            .as_str()
            .unwrap()
            .chars()
            .any(|c| c.is_ascii_digit()),
        "{notice}"
    );
    assert!(app.last_message("nobody@example.com").await.is_null());
    // Whoever then submits the form for the taken address is told it is registered, in their
    // language, whatever code they typed.
    let (status, body) = app
        .post(
            "/api/user/register",
            Some(
                &json!({"account": "carol@example.com", "password": "Secret123",
                    "confirmPassword": "Secret123", "code": "123456"})
                .to_string(),
            ),
            &[("lang", "fr")],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["data"]["reason"], "account_already_registered");
    assert_eq!(body["data"]["field"], "account");
    assert!(
        body["msg"].as_str().unwrap().contains("déjà inscrit"),
        "{body}"
    );
    // One code per address per minute.
    let (status, body) = send("dave@example.com", "register").await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["data"]["reason"], "too_many_requests");
    let wait = body["data"]["retryAfterSecs"]
        .as_u64()
        .expect("retryAfterSecs");
    assert!((1..=60).contains(&wait), "{body}");
    app.stop().await;
}

#[tokio::test]
async fn login_failures_do_not_tell_accounts_apart_and_are_limited() {
    let app = spawn_app().await;
    app.member("erin@example.com").await;
    let login = |account: &'static str, password: &'static str| {
        let app = &app;
        async move {
            app.post(
                "/api/user/login",
                Some(&json!({"account": account, "password": password}).to_string()),
                &[],
            )
            .await
        }
    };
    let (s1, wrong_password) = login("erin@example.com", "Wrong1234").await;
    let (s2, no_account) = login("ghost@example.com", "Wrong1234").await;
    assert_eq!((s1, s2), (400, 400));
    assert_eq!(wrong_password, no_account);
    assert_eq!(wrong_password["data"]["reason"], "invalid_credentials");
    for _ in 0..4 {
        login("erin@example.com", "Wrong1234").await;
    }
    // Not locked: from now on a sign-in also needs a code sent to the account — asked the same
    // way for an account that does not exist, before any password is checked.
    let (status, body) = login("erin@example.com", PASSWORD).await;
    assert_eq!(
        (status, body["data"]["reason"].as_str()),
        (400, Some("login_verification_required")),
        "{body}"
    );
    for _ in 0..4 {
        login("ghost@example.com", "Wrong1234").await;
    }
    let (_, ghost) = login("ghost@example.com", PASSWORD).await;
    assert_eq!(ghost, body);
    let failures = backend::entity::login_log::Entity::find()
        .filter(backend::entity::login_log::Column::Success.eq(false))
        .count(app.db())
        .await
        .unwrap();
    assert_eq!(
        failures, 5,
        "failed logins of an existing account are logged"
    );
    app.stop().await;
}

#[tokio::test]
async fn every_login_is_its_own_device_session() {
    let app = spawn_app().await;
    let member = app.member("frank@example.com").await;
    let second = app.login("frank@example.com", PASSWORD).await;
    assert_ne!(member.token, second);
    app.post_as(&second, "/api/user/logout", None).await;
    let (status, _) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 200, "logging out one device keeps the others");
    app.stop().await;
}
