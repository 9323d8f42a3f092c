//! The security settings against the real app: step-up re-authentication, member codes and
//! contact binding, login log, devices, authenticator, fund password, anti-phishing code, API keys
//! and the password calls.

use backend::entity::{api_key, user, user_session};
use backend::user::totp;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, EntityTrait};
use serde_json::{Value, json};

use crate::helpers::{Member, PASSWORD, TestApp, spawn_app, urlencode};

/// The member-area prefix with the configured head (`coin`).
const M: &str = "/api/coin/coin";

/// `data.reason` of an answer.
fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

/// Confirms the login password and a security code on `member`'s session.
async fn reauth(app: &TestApp, member: &Member) {
    crate::helpers::confirm_identity(app, member).await;
}

/// The authenticator step now.
fn step_now() -> i64 {
    totp::step_of(backend::clock::now_ms() / 1000)
}

/// The code of `secret` at `step`.
pub(crate) fn code(secret: &str, step: i64) -> String {
    totp::code_at_step(secret, step).expect("a valid secret")
}

/// Starts binding an authenticator for `member` (already re-authenticated): the secret.
async fn start_totp(app: &TestApp, member: &Member) -> String {
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/member/getGoogleVerification/bind"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["secret"].as_str().expect("secret").to_owned()
}

/// Turns 2FA on for `member` (confirming the session first): the secret and the step whose code
/// the binding used up.
pub(crate) async fn enable_totp(app: &TestApp, member: &Member) -> (String, i64) {
    reauth(app, member).await;
    let secret = start_totp(app, member).await;
    let step = step_now();
    let (status, body) = app
        .get_as(
            &member.token,
            &format!(
                "{M}/member/googleVerificationBindingOrReset/{}/2",
                code(&secret, step)
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    (secret, step)
}

/// `POST /api/user/login`: status and body.
async fn try_login(
    app: &TestApp,
    account: &str,
    password: &str,
    totp: Option<&str>,
) -> (u16, Value) {
    let mut body = json!({"account": account, "password": password});
    if let Some(code) = totp {
        body["totpCode"] = json!(code);
    }
    app.post("/api/user/login", Some(&body.to_string()), &[])
        .await
}

/// The stored user row.
async fn stored_user(app: &TestApp, id: i64) -> user::Model {
    user::Entity::find_by_id(id)
        .one(app.db())
        .await
        .unwrap()
        .expect("the user")
}

/// Lets another code go to `to` within the same minute.
fn allow_code(app: &TestApp, to: &str) {
    app.state().limiter.clear(&format!("code:target:{to}"));
}

#[tokio::test]
async fn reauth_checks_the_password_and_the_second_factor_and_limits_failures() {
    let app = spawn_app().await;
    let member = app.member("rita@example.com").await;
    let path = format!("{M}/member/reauth");
    let confirm = |body: Value| app.post_as(&member.token, &path, Some(body));

    let (status, body) = confirm(json!({})).await;
    assert_eq!((status, reason(&body)), (400, "field_required"), "{body}");
    assert_eq!(body["data"]["field"], "password");
    // The password alone is not enough: without 2FA the e-mailed security code must come too.
    let (status, body) = confirm(json!({"password": PASSWORD})).await;
    assert_eq!(
        (status, reason(&body), body["data"]["field"].as_str()),
        (400, "security_code_required", Some("securityCode")),
        "{body}"
    );
    // An authenticator code is no substitute when none is bound.
    let (status, body) = confirm(json!({"password": PASSWORD, "totpCode": "123456"})).await;
    assert_eq!(reason(&body), "security_code_required", "{status} {body}");
    let code = crate::helpers::security_code(&app, &member).await;
    // A wrong password is named and leaves the code usable.
    let (status, body) = confirm(json!({"password": "Wrong1234", "securityCode": code})).await;
    assert_eq!((status, reason(&body)), (400, "wrong_password"), "{body}");
    assert_eq!(body["data"]["field"], "password");
    let wrong = if code == "000000" { "000001" } else { "000000" };
    let (status, body) = confirm(json!({"password": PASSWORD, "securityCode": wrong})).await;
    assert_eq!(
        (status, reason(&body), body["data"]["field"].as_str()),
        (400, "invalid_code", Some("securityCode")),
        "{body}"
    );

    let before = backend::clock::now_ms();
    let (status, body) = confirm(json!({"password": PASSWORD, "securityCode": code})).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Identity confirmed");
    let valid_until = body["data"]["validUntil"].as_i64().unwrap();
    assert!(
        (before + 299_000..=before + 310_000).contains(&valid_until),
        "{valid_until}"
    );
    let session = user_session::Entity::find()
        .all(app.db())
        .await
        .unwrap()
        .into_iter()
        .find(|s| s.user_id == member.user_id && s.reauth_at.is_some())
        .expect("the confirmed session");
    assert!(session.reauth_at.unwrap() >= before);

    // The code is spent.
    let (status, body) = confirm(json!({"password": PASSWORD, "securityCode": code})).await;
    assert_eq!((status, reason(&body)), (400, "invalid_code"), "{body}");

    // Five failures in 15 minutes lock confirmation, even with the right password and code.
    for _ in 0..4 {
        let (status, _) = confirm(json!({"password": "Wrong1234", "securityCode": "1"})).await;
        assert_eq!(status, 400);
    }
    let code = crate::helpers::security_code(&app, &member).await;
    let (status, body) = confirm(json!({"password": PASSWORD, "securityCode": code})).await;
    assert_eq!(
        (status, reason(&body)),
        (429, "too_many_requests"),
        "{body}"
    );
    assert!(
        body["msg"].as_str().unwrap().contains(" seconds"),
        "the wait is named: {body}"
    );
    app.stop().await;
}

#[tokio::test]
async fn sensitive_changes_need_a_recent_reauth_on_the_same_session() {
    let app = spawn_app().await;
    let member = app.member("sam@example.com").await;
    let other_device = app.login("sam@example.com", PASSWORD).await;
    let sensitive = |token: String| {
        let app = &app;
        async move {
            let mut answers = vec![
                app.post_as(
                    &token,
                    &format!("{M}/member/antiCode"),
                    Some(json!({"antiCode": "abcd1234"})),
                )
                .await,
                app.post_as(
                    &token,
                    &format!("{M}/member/api"),
                    Some(json!({"label": "bot", "permissions": ["read"]})),
                )
                .await,
                app.post_as(
                    &token,
                    &format!("{M}/member/tradePwd"),
                    Some(json!({"password": "123456", "confirmPassword": "123456"})),
                )
                .await,
                app.post_as(
                    &token,
                    "/api/user/tardPwdSet",
                    Some(json!({"password": "123456", "confirmPassword": "123456"})),
                )
                .await,
                app.post_as(
                    &token,
                    &format!("{M}/member/accountVerificationBinding"),
                    Some(json!({"type": "email", "account": "new@example.com", "code": "123456"})),
                )
                .await,
                app.get_as(&token, &format!("{M}/member/getGoogleVerification/bind"))
                    .await,
            ];
            for y in [1, 2] {
                answers.push(
                    app.get_as(
                        &token,
                        &format!("{M}/member/googleVerificationBindingOrReset/123456/{y}"),
                    )
                    .await,
                );
            }
            answers
        }
    };
    for (status, body) in sensitive(member.token.clone()).await {
        assert_eq!((status, reason(&body)), (400, "reauth_required"), "{body}");
    }
    // A confirmation on one device does not cover another.
    reauth(&app, &member).await;
    for (status, body) in sensitive(other_device.clone()).await {
        assert_eq!((status, reason(&body)), (400, "reauth_required"), "{body}");
    }
    // And it lasts five minutes.
    for session in user_session::Entity::find().all(app.db()).await.unwrap() {
        if session.reauth_at.is_some() {
            let mut active: user_session::ActiveModel = session.into();
            active.reauth_at = Set(Some(backend::clock::now_ms() - 5 * 60_000 - 1_000));
            active.update(app.db()).await.unwrap();
        }
    }
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/antiCode"),
            Some(json!({"antiCode": "abcd1234"})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "reauth_required"), "{body}");
    app.stop().await;
}

#[tokio::test]
async fn member_codes_bind_and_change_an_email_and_a_phone() {
    let app = spawn_app().await;
    let member = app.member("tina@example.com").await;
    app.member("taken@example.com").await;
    let send_email = |purpose: &'static str, email: &'static str| {
        let app = &app;
        let token = member.token.clone();
        async move {
            app.get_as(
                &token,
                &format!(
                    "{M}/open/send/email?purpose={purpose}&email={}",
                    urlencode(email)
                ),
            )
            .await
        }
    };
    let send_sms = |purpose: &'static str, phone: &'static str| {
        let app = &app;
        let token = member.token.clone();
        async move {
            app.get_as(
                &token,
                &format!(
                    "{M}/open/send/sms?purpose={purpose}&phone={}",
                    urlencode(phone)
                ),
            )
            .await
        }
    };

    // Errors of the code calls.
    let (status, body) = send_email("bind", "taken@example.com").await;
    assert_eq!((status, reason(&body)), (400, "contact_taken"), "{body}");
    let (status, body) = send_email("bind", "").await;
    assert_eq!((status, reason(&body)), (400, "field_required"), "{body}");
    assert_eq!(body["data"]["field"], "email");
    let (status, body) = send_email("bind", "not-an-address").await;
    assert_eq!((status, reason(&body)), (400, "email_format"), "{body}");
    let (status, body) = send_sms("bind", "12ab").await;
    assert_eq!((status, reason(&body)), (400, "phone_format"), "{body}");
    assert_eq!(body["data"]["field"], "phone");
    let (status, body) = send_sms("security", "").await;
    assert_eq!((status, reason(&body)), (400, "phone_not_bound"), "{body}");
    let (status, body) = send_email("other", "x@example.com").await;
    assert_eq!((status, reason(&body)), (400, "invalid_field"), "{body}");
    let (status, body) = app
        .get_as(
            &member.token,
            "/api/other/coin/open/send/email?purpose=security",
        )
        .await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");
    let (status, _, _) = app
        .get("/api/coin/coin/open/send/email?purpose=security")
        .await;
    assert_eq!(status, 401);

    // Bind a phone.
    let (status, body) = send_sms("bind", "+44 7700 900123").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["channel"], "sms");
    assert_eq!(body["msg"], "The verification code has been sent");
    let phone_code = app.last_code("+447700900123").await;
    let bind = |kind: &'static str, account: &'static str, code: String| {
        let app = &app;
        let token = member.token.clone();
        async move {
            app.post_as(
                &token,
                &format!("{M}/member/accountVerificationBinding"),
                Some(json!({"type": kind, "account": account, "code": code})),
            )
            .await
        }
    };
    reauth(&app, &member).await;
    let wrong = if phone_code == "000000" {
        "000001"
    } else {
        "000000"
    };
    let (status, body) = bind("phone", "+447700900123", wrong.to_owned()).await;
    assert_eq!((status, reason(&body)), (400, "invalid_code"), "{body}");
    let (status, body) = bind("phone", "+44 7700 900123", phone_code.clone()).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Bound successfully");
    assert_eq!(body["data"]["user"]["phone"], "+447700900123");
    assert_eq!(body["data"]["security"]["phoneBound"], true);
    // A code binds once.
    let (status, body) = bind("phone", "+447700900123", phone_code).await;
    assert_eq!((status, reason(&body)), (400, "invalid_code"), "{body}");

    // Change the e-mail address; the new one logs in, the old one no longer does.
    let (status, body) = send_email("bind", "Tina.New@Example.com").await;
    assert_eq!(status, 200, "{body}");
    let email_code = app.last_code("tina.new@example.com").await;
    let (status, body) = bind("email", "taken@example.com", email_code.clone()).await;
    assert_eq!((status, reason(&body)), (400, "contact_taken"), "{body}");
    let (status, body) = bind("email", "tina.new@example.com", email_code).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["user"]["email"], "tina.new@example.com");
    let (status, _) = try_login(&app, "tina.new@example.com", PASSWORD, None).await;
    assert_eq!(status, 200, "the new address logs in");
    let (status, _) = try_login(&app, "tina@example.com", PASSWORD, None).await;
    assert_eq!(status, 400);

    // A security code goes to the bound phone.
    allow_code(&app, "+447700900123");
    let (status, body) = send_sms("security", "").await;
    assert_eq!(status, 200, "{body}");
    assert!(app.last_code("+447700900123").await.len() == 6);
    app.stop().await;
}

#[tokio::test]
async fn the_login_log_pages_the_users_own_attempts_newest_first() {
    let app = spawn_app().await;
    let member = app.member("uma@example.com").await;
    app.member("victor@example.com").await;
    let (status, _) = try_login(&app, "uma@example.com", "Wrong1234", None).await;
    assert_eq!(status, 400);
    app.login("uma@example.com", PASSWORD).await;

    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/member/getLoginLog?page=1&pageSize=2"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    assert_eq!(data["total"], 3, "{body}");
    assert_eq!(
        (data["page"].as_u64(), data["pageSize"].as_u64()),
        (Some(1), Some(2))
    );
    let records = data["records"].as_array().unwrap();
    assert_eq!(records.len(), 2);
    assert_eq!(records[0]["success"], true);
    assert_eq!(records[1]["success"], false);
    assert!(records[0]["id"].as_i64() > records[1]["id"].as_i64());
    assert!(records[0]["createdAt"].as_i64().unwrap() > 0);
    assert_eq!(records[0]["ip"], "127.0.0.1");
    assert!(records[0]["userAgent"].is_string());

    let (_, body) = app
        .get_as(
            &member.token,
            &format!("{M}/member/getLoginLog?page=2&pageSize=2"),
        )
        .await;
    assert_eq!(body["data"]["records"].as_array().unwrap().len(), 1);
    let (_, body) = app
        .get_as(&member.token, &format!("{M}/member/getLoginLog"))
        .await;
    assert_eq!(body["data"]["pageSize"], 20);
    for query in ["pageSize=101", "pageSize=0", "page=0"] {
        let (status, body) = app
            .get_as(&member.token, &format!("{M}/member/getLoginLog?{query}"))
            .await;
        assert_eq!(
            (status, reason(&body)),
            (400, "invalid_field"),
            "{query}: {body}"
        );
    }
    app.stop().await;
}

#[tokio::test]
async fn devices_are_listed_renamed_and_revoked_by_their_owner_only() {
    let app = spawn_app().await;
    let alice = app.member("wendy@example.com").await;
    let bob = app.member("xavier@example.com").await;
    let phone = app.login("wendy@example.com", PASSWORD).await;

    let (status, body) = app
        .get_as(&alice.token, &format!("{M}/member/getLoginDevice"))
        .await;
    assert_eq!(status, 200, "{body}");
    let devices = body["data"].as_array().unwrap().clone();
    assert_eq!(devices.len(), 2, "{body}");
    assert_eq!(devices.iter().filter(|d| d["current"] == true).count(), 1);
    let current = devices.iter().find(|d| d["current"] == true).unwrap();
    let other = devices.iter().find(|d| d["current"] == false).unwrap();
    for field in [
        "deviceName",
        "ip",
        "userAgent",
        "createdAt",
        "lastSeenAt",
        "expiresAt",
    ] {
        assert!(!current[field].is_null(), "{field}");
    }
    let other_id = other["id"].as_i64().unwrap();

    // Bob cannot touch Alice's devices.
    let (status, body) = app
        .post_as(
            &bob.token,
            &format!("{M}/member/deleteDevice/{other_id}"),
            None,
        )
        .await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");
    let (status, body) = app
        .post_as(
            &bob.token,
            &format!("{M}/member/updateDevice"),
            Some(json!({"id": other_id, "deviceName": "mine"})),
        )
        .await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");

    let rename = |name: &'static str| {
        let app = &app;
        let token = alice.token.clone();
        async move {
            app.post_as(
                &token,
                &format!("{M}/member/updateDevice"),
                Some(json!({"id": other_id, "deviceName": name})),
            )
            .await
        }
    };
    let (status, body) = rename("   ").await;
    assert_eq!((status, reason(&body)), (400, "field_required"), "{body}");
    let (status, body) = rename("  Work phone ").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"], true);
    let (_, body) = app
        .get_as(&alice.token, &format!("{M}/member/getLoginDevice"))
        .await;
    assert!(
        body["data"]
            .as_array()
            .unwrap()
            .iter()
            .any(|d| d["deviceName"] == "Work phone"),
        "{body}"
    );

    let (status, body) = app
        .post_as(
            &alice.token,
            &format!("{M}/member/deleteDevice/{other_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = app.post_as(&phone, "/api/user/getInfo", None).await;
    assert_eq!(status, 401, "the revoked device is logged out");
    let (status, _) = app
        .post_as(
            &alice.token,
            &format!("{M}/member/deleteDevice/{other_id}"),
            None,
        )
        .await;
    assert_eq!(status, 404, "revoked once");
    let (status, _) = app
        .post_as(
            &alice.token,
            &format!("{M}/member/deleteDevice/999999"),
            None,
        )
        .await;
    assert_eq!(status, 404);

    // Removing the current device is a logout.
    let current_id = current["id"].as_i64().unwrap();
    let (status, _) = app
        .post_as(
            &alice.token,
            &format!("{M}/member/deleteDevice/{current_id}"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (status, _) = app.post_as(&alice.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 401);
    app.stop().await;
}

#[tokio::test]
async fn an_authenticator_is_bound_then_needed_to_log_in() {
    let app = spawn_app().await;
    let member = app.member("yara@example.com").await;
    reauth(&app, &member).await;
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/member/getGoogleVerification/other"),
        )
        .await;
    assert_eq!(status, 404, "{body}");
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/member/getGoogleVerification/bind"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let data = &body["data"];
    let secret = data["secret"].as_str().unwrap().to_owned();
    assert_eq!(secret.len(), 32);
    let uri = data["otpauthUri"].as_str().unwrap();
    assert!(
        uri.starts_with("otpauth://totp/Kestrel%20Exchange:yara%40example.com?secret="),
        "{uri}"
    );
    assert!(uri.contains(&secret));
    let qr = data["qrSvgDataUrl"].as_str().unwrap();
    let svg = data_encoding::BASE64
        .decode(
            qr.strip_prefix("data:image/svg+xml;base64,")
                .unwrap()
                .as_bytes(),
        )
        .unwrap();
    assert!(String::from_utf8(svg).unwrap().contains("<svg"));
    // Still pending: 2FA is off and login needs no code.
    assert!(!stored_user(&app, member.user_id).await.totp_enabled);
    // A second request replaces the pending secret.
    let secret = start_totp(&app, &member).await;

    let step = step_now();
    let bind = |code: String, y: u8| {
        let app = &app;
        let token = member.token.clone();
        async move {
            app.get_as(
                &token,
                &format!("{M}/member/googleVerificationBindingOrReset/{code}/{y}"),
            )
            .await
        }
    };
    let wrong = if code(&secret, step) == "000000" {
        "000001"
    } else {
        "000000"
    };
    let (status, body) = bind(wrong.to_owned(), 2).await;
    assert_eq!((status, reason(&body)), (400, "invalid_totp"), "{body}");
    let (status, body) = bind(code(&secret, step), 3).await;
    assert_eq!((status, reason(&body)), (400, "invalid_field"), "{body}");
    let (status, body) = bind(code(&secret, step), 1).await;
    assert_eq!((status, reason(&body)), (400, "totp_not_bound"), "{body}");
    let (status, body) = bind(code(&secret, step), 2).await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"], true);
    let (_, info) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(info["data"]["security"]["totpEnabled"], true);
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/member/getGoogleVerification/bind"),
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "totp_already_bound"),
        "{body}"
    );
    let (status, body) = bind(code(&secret, step), 2).await;
    assert_eq!(
        (status, reason(&body)),
        (400, "totp_already_bound"),
        "{body}"
    );

    // Login now needs a code, and the code used to bind is spent.
    let (status, body) = try_login(&app, "yara@example.com", PASSWORD, None).await;
    assert_eq!((status, reason(&body)), (400, "totp_required"), "{body}");
    let (status, body) = try_login(
        &app,
        "yara@example.com",
        PASSWORD,
        Some(&code(&secret, step)),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "invalid_totp"), "{body}");
    let (status, body) = try_login(
        &app,
        "yara@example.com",
        PASSWORD,
        Some(&code(&secret, step + 1)),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn an_authenticator_is_reset_with_a_fresh_code_and_confirms_reauth() {
    let app = spawn_app().await;
    let member = app.member("zoe@example.com").await;
    reauth(&app, &member).await;
    let secret = start_totp(&app, &member).await;
    let step = step_now();
    let path =
        |code: String, y: u8| format!("{M}/member/googleVerificationBindingOrReset/{code}/{y}");
    let (status, body) = app
        .get_as(&member.token, &path(code(&secret, step), 2))
        .await;
    assert_eq!(status, 200, "{body}");

    // With 2FA on, the password and an e-mailed code no longer confirm: the authenticator must.
    let security_code = crate::helpers::security_code(&app, &member).await;
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/reauth"),
            Some(json!({"password": PASSWORD, "securityCode": security_code})),
        )
        .await;
    assert_eq!(
        (status, reason(&body), body["data"]["field"].as_str()),
        (400, "totp_required", Some("totpCode")),
        "{body}"
    );
    // Nor does a code without the password.
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/reauth"),
            Some(json!({"totpCode": code(&secret, step + 1)})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "field_required"), "{body}");
    // The bind code cannot confirm again.
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/reauth"),
            Some(json!({"password": PASSWORD, "totpCode": code(&secret, step)})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "invalid_totp"), "{body}");
    let (status, body) = app
        .get_as(&member.token, &path(code(&secret, step), 1))
        .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "invalid_totp"),
        "reused: {body}"
    );

    // A fresh code with the password confirms, and is spent by that.
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/reauth"),
            Some(json!({"password": PASSWORD, "totpCode": code(&secret, step + 1)})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .get_as(&member.token, &path(code(&secret, step + 1), 1))
        .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "invalid_totp"),
        "reused: {body}"
    );

    // Another user resets with a fresh code.
    let member = app.member("zack@example.com").await;
    reauth(&app, &member).await;
    let secret = start_totp(&app, &member).await;
    let step = step_now();
    let (status, body) = app
        .get_as(&member.token, &path(code(&secret, step), 2))
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .get_as(&member.token, &path(code(&secret, step + 1), 1))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "The authenticator has been removed");
    let stored = stored_user(&app, member.user_id).await;
    assert!(!stored.totp_enabled);
    assert_eq!((stored.totp_secret, stored.totp_last_step), (None, None));
    let (status, body) = app
        .get_as(&member.token, &path(code(&secret, step), 1))
        .await;
    assert_eq!((status, reason(&body)), (400, "totp_not_bound"), "{body}");
    let (status, _) = try_login(&app, "zack@example.com", PASSWORD, None).await;
    assert_eq!(status, 200, "login needs no code again");
    app.stop().await;
}

#[tokio::test]
async fn the_fund_password_is_set_then_changed_with_the_old_one() {
    let app = spawn_app().await;
    let member = app.member("adam@example.com").await;
    reauth(&app, &member).await;
    let set = |path: &'static str, body: Value| {
        let app = &app;
        let token = member.token.clone();
        async move {
            let path = if path.starts_with("/api/user") {
                path.to_owned()
            } else {
                format!("{M}{path}")
            };
            app.post_as(&token, &path, Some(body)).await
        }
    };
    let trade = "/member/tradePwd";
    let (status, body) = set(
        trade,
        json!({"password": "12345", "confirmPassword": "12345"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "password_format"), "{body}");
    let (status, body) = set(
        trade,
        json!({"password": "trade#1", "confirmPassword": "trade#2"}),
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "password_mismatch"),
        "{body}"
    );
    // The login password is refused as the fund password.
    let (status, body) = set(
        trade,
        json!({"password": PASSWORD, "confirmPassword": PASSWORD}),
    )
    .await;
    assert_eq!(
        (status, reason(&body), body["data"]["field"].as_str()),
        (400, "fund_password_same_as_login", Some("password")),
        "{body}"
    );
    let (status, body) = set(
        trade,
        json!({"password": "trade#1", "confirmPassword": "trade#1"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Fund password saved");
    let (_, info) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(info["data"]["security"]["fundPasswordSet"], true);

    let (status, body) = set(
        trade,
        json!({"password": "trade#2", "confirmPassword": "trade#2"}),
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "fund_password_already_set"),
        "{body}"
    );
    let (status, body) = set(
        "/api/user/tardPwdSet",
        json!({"password": "trade#2", "confirmPassword": "trade#2", "oldPassword": "trade#9"}),
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "wrong_fund_password"),
        "{body}"
    );
    assert_eq!(body["data"]["field"], "oldPassword");
    let (status, body) = set(
        trade,
        json!({"password": "trade#1", "confirmPassword": "trade#1", "oldPassword": "trade#1"}),
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "password_unchanged"),
        "{body}"
    );
    let (status, body) = set(
        "/api/user/tardPwdSet",
        json!({"password": "trade#2", "confirmPassword": "trade#2", "oldPassword": "trade#1"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let stored = stored_user(&app, member.user_id).await;
    let hash = stored.fund_password_hash.unwrap();
    assert!(hash.starts_with("$argon2id$"));
    assert!(backend::user::password::verify("trade#2", &hash));

    // And the fund password is refused as the new login password.
    let (status, body) = set(
        "/api/user/tardPwdSet",
        json!({"password": "Fundpass2026", "confirmPassword": "Fundpass2026", "oldPassword": "trade#2"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = set(
        "/api/user/updatePwd",
        json!({"oldPassword": PASSWORD, "password": "Fundpass2026", "confirmPassword": "Fundpass2026"}),
    )
    .await;
    assert_eq!(
        (status, reason(&body), body["data"]["field"].as_str()),
        (400, "login_password_same_as_fund", Some("password")),
        "{body}"
    );
    let stored = stored_user(&app, member.user_id).await;
    assert!(backend::user::password::verify(
        PASSWORD,
        &stored.password_hash
    ));
    app.stop().await;
}

#[tokio::test]
async fn the_anti_code_is_checked_and_shown_in_every_code_email() {
    let app = spawn_app().await;
    let member = app.member("bella@example.com").await;
    reauth(&app, &member).await;
    let path = format!("{M}/member/antiCode");
    for bad in [
        "abc",
        "abc!def",
        "this-is-not-valid",
        "abcdefghijklmnopqrstu",
    ] {
        let (status, body) = app
            .post_as(&member.token, &path, Some(json!({"antiCode": bad})))
            .await;
        assert_eq!(
            (status, reason(&body)),
            (400, "anti_code_format"),
            "{bad}: {body}"
        );
    }
    let (status, body) = app
        .post_as(&member.token, &path, Some(json!({"antiCode": "Kestrel42"})))
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, info) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(info["data"]["security"]["antiCodeSet"], true);
    assert_eq!(
        stored_user(&app, member.user_id).await.anti_code.as_deref(),
        Some("Kestrel42")
    );

    // A security code to the bound address.
    allow_code(&app, "bella@example.com");
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/open/send/email?purpose=security"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let message = app.last_message("bella@example.com").await;
    assert!(
        message["body"].as_str().unwrap().contains("Kestrel42"),
        "{message}"
    );
    // A bind code to a new address.
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/open/send/email?purpose=bind&email=bella2%40example.com"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let message = app.last_message("bella2@example.com").await;
    assert!(
        message["body"].as_str().unwrap().contains("Kestrel42"),
        "{message}"
    );
    // A reset code asked for by a visitor.
    allow_code(&app, "bella@example.com");
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": "bella@example.com", "type": "reset"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let message = app.last_message("bella@example.com").await;
    assert!(
        message["body"].as_str().unwrap().contains("Kestrel42"),
        "{message}"
    );
    app.stop().await;
}

#[tokio::test]
async fn api_keys_are_created_listed_and_deleted_by_their_owner_only() {
    let app = spawn_app().await;
    let alice = app.member("carla@example.com").await;
    let bob = app.member("dan@example.com").await;
    reauth(&app, &alice).await;
    let create = |body: Value| {
        let app = &app;
        let token = alice.token.clone();
        async move {
            app.post_as(&token, &format!("{M}/member/api"), Some(body))
                .await
        }
    };

    let (status, body) = create(json!({"label": "bot", "permissions": ["read", "admin"]})).await;
    assert_eq!(
        (status, reason(&body)),
        (400, "invalid_permission"),
        "{body}"
    );
    assert!(body["msg"].as_str().unwrap().contains("admin"), "{body}");
    let (status, body) = create(json!({"label": "bot", "permissions": []})).await;
    assert_eq!((status, reason(&body)), (400, "field_required"), "{body}");
    let (status, body) = create(json!({"label": "  ", "permissions": ["read"]})).await;
    assert_eq!((status, reason(&body)), (400, "field_required"), "{body}");
    let (status, body) = create(
        json!({"label": "bot", "permissions": ["read"], "ipWhitelist": ["10.0.0.1", "10.0.0.300"]}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "invalid_ip"), "{body}");
    assert!(
        body["msg"].as_str().unwrap().contains("10.0.0.300"),
        "{body}"
    );
    let many: Vec<String> = (1..=21).map(|i| format!("10.0.0.{i}")).collect();
    let (status, body) =
        create(json!({"label": "bot", "permissions": ["read"], "ipWhitelist": many})).await;
    assert_eq!((status, reason(&body)), (400, "too_many_ips"), "{body}");

    let (status, body) = create(
        json!({"label": " trading bot ", "permissions": ["trade", "read"],
        "ipWhitelist": ["10.0.0.1", "2001:DB8::1"]}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();
    let access_key = body["data"]["accessKey"].as_str().unwrap().to_owned();
    let secret = body["data"]["secret"].as_str().unwrap().to_owned();
    assert_eq!(secret.len(), 43, "256 bits");
    let stored = api_key::Entity::find_by_id(id)
        .one(app.db())
        .await
        .unwrap()
        .unwrap();
    assert_eq!(
        stored.secret_hash,
        backend::user::sha256_hex(&[secret.as_bytes()])
    );
    assert_ne!(stored.secret_hash, secret);

    let (status, body) = app.get_as(&alice.token, &format!("{M}/member/apis")).await;
    assert_eq!(status, 200, "{body}");
    let keys = body["data"].as_array().unwrap();
    assert_eq!(keys.len(), 1);
    assert_eq!(keys[0]["accessKey"], access_key.as_str());
    assert_eq!(keys[0]["label"], "trading bot");
    assert_eq!(keys[0]["permissions"], json!(["read", "trade"]));
    assert_eq!(keys[0]["ipWhitelist"], json!(["10.0.0.1", "2001:db8::1"]));
    assert!(keys[0]["createdAt"].as_i64().unwrap() > 0);
    assert!(keys[0].get("secret").is_none(), "{body}");
    assert!(!body.to_string().contains(&secret));
    let (_, body) = app.get_as(&bob.token, &format!("{M}/member/apis")).await;
    assert_eq!(body["data"], json!([]));

    // Bob cannot delete Alice's key.
    let (status, body) = app
        .get_as(&bob.token, &format!("{M}/member/api/del?id={id}"))
        .await;
    assert_eq!((status, reason(&body)), (404, "not_found"), "{body}");

    // At most 20 live keys.
    for i in 2..=20 {
        let (status, body) =
            create(json!({"label": format!("key {i}"), "permissions": ["read"]})).await;
        assert_eq!(status, 200, "{body}");
    }
    let (status, body) = create(json!({"label": "one too many", "permissions": ["read"]})).await;
    assert_eq!((status, reason(&body)), (400, "api_key_limit"), "{body}");
    assert!(body["msg"].as_str().unwrap().contains("20"), "{body}");

    let (status, body) = app
        .get_as(&alice.token, &format!("{M}/member/api/del?id={id}"))
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"], true);
    let (status, _) = app
        .get_as(&alice.token, &format!("{M}/member/api/del?id={id}"))
        .await;
    assert_eq!(status, 404, "deleted once");
    let (_, body) = app.get_as(&alice.token, &format!("{M}/member/apis")).await;
    assert_eq!(body["data"].as_array().unwrap().len(), 19);
    assert!(!body.to_string().contains(&access_key));
    let (status, body) = create(json!({"label": "room again", "permissions": ["withdraw"]})).await;
    assert_eq!(status, 200, "{body}");
    app.stop().await;
}

#[tokio::test]
async fn changing_the_password_logs_out_the_other_devices() {
    let app = spawn_app().await;
    let member = app.member("emma@example.com").await;
    let laptop = app.login("emma@example.com", PASSWORD).await;
    let tablet = app.login("emma@example.com", PASSWORD).await;
    let change = |path: &'static str, body: Value| {
        let app = &app;
        let token = member.token.clone();
        async move { app.post_as(&token, path, Some(body)).await }
    };
    // A security change: the old password alone does not do.
    let (status, body) = change(
        "/api/user/updatePwd",
        json!({"oldPassword": PASSWORD, "password": "Newpass123", "confirmPassword": "Newpass123"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "reauth_required"), "{body}");
    reauth(&app, &member).await;
    let (status, body) = change(
        "/api/user/updatePwd",
        json!({"oldPassword": "Wrong1234", "password": "Newpass123", "confirmPassword": "Newpass123"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "wrong_password"), "{body}");
    assert_eq!(body["data"]["field"], "oldPassword");
    let (status, body) = change(
        "/api/user/updatePwd",
        json!({"oldPassword": PASSWORD, "password": PASSWORD, "confirmPassword": PASSWORD}),
    )
    .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "password_unchanged"),
        "{body}"
    );
    let (status, body) = change(
        "/api/user/updatePwd",
        json!({"oldPassword": PASSWORD, "password": "weak", "confirmPassword": "weak"}),
    )
    .await;
    assert_eq!((status, reason(&body)), (400, "password_format"), "{body}");

    let (status, body) = change(
        "/api/user/updatePwd",
        json!({"oldPassword": PASSWORD, "password": "Newpass123", "confirmPassword": "Newpass123"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Password changed, please log in again");
    for token in [&laptop, &tablet] {
        let (status, _) = app.post_as(token, "/api/user/getInfo", None).await;
        assert_eq!(status, 401, "other devices are logged out");
    }
    let (status, _) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 200, "this device stays");
    let (status, _) = try_login(&app, "emma@example.com", PASSWORD, None).await;
    assert_eq!(status, 400, "the old password no longer works");

    // The profile page's path does the same.
    let phone = app.login("emma@example.com", "Newpass123").await;
    let (status, body) = change(
        "/api/blade-user/update-password",
        json!({"oldPassword": "Newpass123", "password": "Third1234", "confirmPassword": "Third1234"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = app.post_as(&phone, "/api/user/getInfo", None).await;
    assert_eq!(status, 401);
    app.login("emma@example.com", "Third1234").await;
    app.stop().await;
}

#[tokio::test]
async fn the_password_is_changed_with_a_security_code() {
    let app = spawn_app().await;
    let member = app.member("fiona@example.com").await;
    let laptop = app.login("fiona@example.com", PASSWORD).await;
    let path = "/api/user/updateUserLoginPwd";
    // No code asked for yet.
    let (status, body) = app
        .post_as(
            &member.token,
            path,
            Some(json!({"code": "123456", "password": "Newpass123", "confirmPassword": "Newpass123"})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "invalid_code"), "{body}");

    allow_code(&app, "fiona@example.com");
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/open/send/email?purpose=security"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["channel"], "email");
    let code = app.last_code("fiona@example.com").await;
    let (status, body) = app
        .post_as(
            &member.token,
            path,
            Some(json!({"code": code, "password": PASSWORD, "confirmPassword": PASSWORD})),
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (400, "password_unchanged"),
        "{body}"
    );
    let (status, body) = app
        .post_as(
            &member.token,
            path,
            Some(json!({"code": code, "password": "Newpass123", "confirmPassword": "Newpass123"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, _) = app.post_as(&laptop, "/api/user/getInfo", None).await;
    assert_eq!(status, 401);
    let (status, _) = app.post_as(&member.token, "/api/user/getInfo", None).await;
    assert_eq!(status, 200);
    app.login("fiona@example.com", "Newpass123").await;
    // The code was used.
    let (status, body) = app
        .post_as(
            &member.token,
            path,
            Some(json!({"code": code, "password": "Third1234", "confirmPassword": "Third1234"})),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "invalid_code"), "{body}");
    app.stop().await;
}

#[tokio::test]
async fn with_2fa_on_a_password_change_by_code_needs_the_authenticator_too() {
    let app = spawn_app().await;
    let member = app.member("gwen@example.com").await;
    let (secret, step) = enable_totp(&app, &member).await;
    let path = "/api/user/updateUserLoginPwd";
    let new = |security: &str, totp: Option<String>| {
        let mut body =
            json!({"code": security, "password": "Newpass123", "confirmPassword": "Newpass123"});
        if let Some(totp) = totp {
            body["totpCode"] = json!(totp);
        }
        body
    };
    let security = crate::helpers::security_code(&app, &member).await;
    let (status, body) = app
        .post_as(&member.token, path, Some(new(&security, None)))
        .await;
    assert_eq!(
        (status, reason(&body), body["data"]["field"].as_str()),
        (400, "totp_required", Some("totpCode")),
        "{body}"
    );
    // A used authenticator code is refused (the e-mailed code went with it: ask again).
    let (status, body) = app
        .post_as(
            &member.token,
            path,
            Some(new(&security, Some(code(&secret, step)))),
        )
        .await;
    assert_eq!((status, reason(&body)), (400, "invalid_totp"), "{body}");
    let security = crate::helpers::security_code(&app, &member).await;
    let (status, body) = app
        .post_as(
            &member.token,
            path,
            Some(new(&security, Some(code(&secret, step + 1)))),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // The new password is right: the login asks for the authenticator next.
    let (status, body) = try_login(&app, "gwen@example.com", "Newpass123", None).await;
    assert_eq!((status, reason(&body)), (400, "totp_required"), "{body}");
    app.stop().await;
}

#[tokio::test]
async fn a_reset_with_the_outbox_code_logs_out_everywhere() {
    let app = spawn_app().await;
    let member = app.member("gina@example.com").await;
    let laptop = app.login("gina@example.com", PASSWORD).await;
    allow_code(&app, "gina@example.com");
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": "gina@example.com", "type": "reset"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let code = app.last_code("gina@example.com").await;
    let reset = |account: &'static str, code: &str, password: &'static str| {
        let app = &app;
        let body = json!({"account": account, "code": code, "password": password,
            "confirmPassword": password})
        .to_string();
        async move { app.post("/api/user/backPwd", Some(&body), &[]).await }
    };

    let wrong = if code == "000000" { "000001" } else { "000000" };
    let (wrong_status, wrong_body) = reset("gina@example.com", wrong, "Newpass123").await;
    let (unknown_status, unknown_body) = reset("nobody@example.com", &code, "Newpass123").await;
    assert_eq!(
        (wrong_status, reason(&wrong_body)),
        (400, "invalid_code"),
        "{wrong_body}"
    );
    assert_eq!(
        (unknown_status, &unknown_body),
        (wrong_status, &wrong_body),
        "an unknown account fails like a wrong code"
    );
    let (status, body) = reset("gina@example.com", &code, "weak").await;
    assert_eq!((status, reason(&body)), (400, "password_format"), "{body}");

    let (status, body) = reset("gina@example.com", &code, "Newpass123").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["msg"], "Password changed, please log in again");
    for token in [&member.token, &laptop] {
        let (status, _) = app.post_as(token, "/api/user/getInfo", None).await;
        assert_eq!(status, 401, "every session ends");
    }
    let (status, _) = try_login(&app, "gina@example.com", PASSWORD, None).await;
    assert_eq!(status, 400);
    app.login("gina@example.com", "Newpass123").await;
    let (status, body) = reset("gina@example.com", &code, "Third1234").await;
    assert_eq!(
        (status, reason(&body)),
        (400, "invalid_code"),
        "used once: {body}"
    );
    app.stop().await;
}

#[tokio::test]
async fn wrong_old_passwords_count_against_the_confirmation_limit() {
    let app = spawn_app().await;
    let member = app.member("hana@example.com").await;
    reauth(&app, &member).await;
    for _ in 0..5 {
        let (status, _) = app
            .post_as(
                &member.token,
                "/api/user/updatePwd",
                Some(json!({"oldPassword": "Wrong1234", "password": "Newpass123",
                    "confirmPassword": "Newpass123"})),
            )
            .await;
        assert_eq!(status, 400);
    }
    let code = crate::helpers::security_code(&app, &member).await;
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/reauth"),
            Some(json!({"password": PASSWORD, "securityCode": code})),
        )
        .await;
    assert_eq!(
        (status, reason(&body)),
        (429, "too_many_requests"),
        "{body}"
    );
    app.stop().await;
}
