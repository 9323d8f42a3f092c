//! Security and money e-mails (issue 22, item 5): each event gives exactly one e-mail, in the
//! user's language, with their anti-phishing code, through the real mailer (the dev outbox here);
//! notices written while no server delivered them go out after a restart; a mail server that never
//! answers does not hold up a deposit, and a failed send waits for its retry.

use std::time::Duration;

use backend::entity::notification;
use backend::notify::{Kind, Notice};
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, QueryFilter};
use serde_json::{Value, json};

use crate::helpers::{
    FUND_PASSWORD, Member, PASSWORD, TestApp, set_fund_password, spawn_app, spawn_app_in,
};

const M: &str = "/api/coin/coin";
const ANTI_CODE: &str = "Nora2026";

/// Waits until every notification row is delivered (so that a second copy would be in the
/// outbox by now), then checks that `to` got exactly one message per subject, in German, with
/// the anti-phishing line.
async fn assert_each_once(app: &TestApp, to: &str, subjects: &[&str]) {
    for subject in subjects {
        app.mail_arrived(to, subject).await;
    }
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    while notification::Entity::find()
        .filter(notification::Column::SentAt.is_null())
        .one(app.db())
        .await
        .unwrap()
        .is_some()
    {
        assert!(tokio::time::Instant::now() < deadline, "undelivered rows");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let messages = app.outbox(to).await;
    for subject in subjects {
        let copies: Vec<&Value> = messages
            .iter()
            .filter(|message| message["subject"] == *subject)
            .collect();
        assert_eq!(copies.len(), 1, "{subject}: {messages:?}");
        let body = copies[0]["body"].as_str().unwrap();
        assert!(
            body.starts_with(&format!("Ihr Anti-Phishing-Code: {ANTI_CODE}\n")),
            "{body}"
        );
    }
}

/// A member with an anti-phishing code whose language is German: the last login asked for it.
async fn german_member(app: &TestApp, account: &str) -> Member {
    let mut member = app.member(account).await;
    crate::helpers::confirm_identity(app, &member).await;
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/antiCode"),
            Some(json!({"antiCode": ANTI_CODE})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = app
        .post(
            "/api/user/login",
            Some(&json!({"account": account, "password": PASSWORD}).to_string()),
            &[("lang", "de")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    member.token = body["data"]["satoken"].as_str().unwrap().to_owned();
    member
}

#[tokio::test]
async fn logins_from_new_devices_and_security_changes_each_send_one_email() {
    let app = spawn_app().await;
    let to = "nora@example.com";
    let member = german_member(&app, to).await;
    // Registration's own first login and the same device again sent nothing.
    assert!(
        app.outbox(to)
            .await
            .iter()
            .all(|message| !message["subject"].as_str().unwrap().contains("Anmeldung")),
    );

    // A new device.
    let (status, body) = app
        .post(
            "/api/user/login",
            Some(&json!({"account": to, "password": PASSWORD}).to_string()),
            &[
                (
                    "user-agent",
                    "Mozilla/5.0 (X11; Linux x86_64) Firefox/133.0",
                ),
                ("lang", "de"),
            ],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let login = app
        .mail_arrived(to, "Kestrel Exchange: neue Anmeldung bei Ihrem Konto")
        .await;
    let text = login[0]["body"].as_str().unwrap();
    assert!(text.contains("IP-Adresse: 127.0.0.1"), "{text}");
    assert!(text.contains(" UTC"), "{text}");
    assert!(!text.contains(&member.token), "no secret in a notice");

    // The fund password, set then changed.
    set_fund_password(&app, &member).await;
    let (status, body) = app
        .post_as(
            &member.token,
            &format!("{M}/member/tradePwd"),
            Some(
                json!({"password": "Fund#2027", "confirmPassword": "Fund#2027",
                "oldPassword": FUND_PASSWORD}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    // 2FA on, then off.
    let (status, body) = app
        .get_as(
            &member.token,
            &format!("{M}/member/getGoogleVerification/bind"),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let secret = body["data"]["secret"].as_str().unwrap().to_owned();
    let step = backend::user::totp::step_of(backend::clock::now_ms() / 1000);
    let code = |step| backend::user::totp::code_at_step(&secret, step).unwrap();
    for (y, step) in [(2, step), (1, step + 1)] {
        let (status, body) = app
            .get_as(
                &member.token,
                &format!(
                    "{M}/member/googleVerificationBindingOrReset/{}/{y}",
                    code(step)
                ),
            )
            .await;
        assert_eq!(status, 200, "{body}");
    }

    // The login password.
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/user/updatePwd",
            Some(json!({"oldPassword": PASSWORD, "password": "Newpass2026",
                "confirmPassword": "Newpass2026"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    assert_each_once(
        &app,
        to,
        &[
            "Kestrel Exchange: neue Anmeldung bei Ihrem Konto",
            "Kestrel Exchange: Fondspasswort festgelegt",
            "Kestrel Exchange: Fondspasswort geändert",
            "Kestrel Exchange: Google Authenticator aktiviert",
            "Kestrel Exchange: Google Authenticator deaktiviert",
            "Kestrel Exchange: Anmeldepasswort geändert",
        ],
    )
    .await;
    app.stop().await;
}

#[tokio::test]
async fn identity_reviews_deposits_and_withdrawals_each_send_one_email() {
    let app = spawn_app().await;
    let to = "otto@example.com";
    let member = german_member(&app, to).await;
    let ops = crate::kyc::operator(&app, "ops@example.com").await;

    // Identity: rejected with a reason, then approved.
    let (status, body) = crate::kyc::submit_basic(&app, &member.token).await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();
    let (status, body) =
        crate::kyc::review(&app, &ops, id, false, Some("Das Foto ist unscharf")).await;
    assert_eq!(status, 200, "{body}");
    let rejected = app
        .mail_arrived(to, "Kestrel Exchange: Identitätsprüfung abgelehnt")
        .await;
    assert!(
        rejected[0]["body"]
            .as_str()
            .unwrap()
            .contains("Grund: Das Foto ist unscharf"),
        "{rejected:?}"
    );
    crate::kyc::pass_basic(&app, &ops, &member).await;

    // A deposit credited.
    let screenshot = crate::kyc::upload_sample(&app, &member, "png").await;
    let (status, body) = crate::deposits::claim(
        &app,
        &member.token,
        None,
        crate::deposits::usdt_claim("150.5", screenshot),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let deposit = body["data"]["id"].as_i64().unwrap();
    let (status, body) = crate::deposits::review(&app, &ops, deposit, true, None).await;
    assert_eq!(status, 200, "{body}");
    let credited = app
        .mail_arrived(to, "Kestrel Exchange: Einzahlung gutgeschrieben")
        .await;
    assert!(
        credited[0]["body"]
            .as_str()
            .unwrap()
            .contains("150.5 USDT (TRC20)"),
        "{credited:?}"
    );

    // Withdrawals: one sent, one rejected.
    set_fund_password(&app, &member).await;
    let tron = crate::withdrawals::TRON;
    let mut ids = Vec::new();
    for amount in ["50", "20"] {
        let (status, body) = crate::withdrawals::withdraw(
            &app,
            &member,
            &crate::withdrawals::form("USDT", "trc20", tron, amount),
        )
        .await;
        assert_eq!(status, 200, "{body}");
        ids.push(body["data"]["id"].as_i64().unwrap());
    }
    let tx = "a1b2c3d4e5f60718293a4b5c6d7e8f90a1b2c3d4e5f60718293a4b5c6d7e8f90";
    let (status, body) =
        crate::withdrawals::review(&app, &ops, ids[0], json!({"approve": true, "txHash": tx}))
            .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = crate::withdrawals::review(
        &app,
        &ops,
        ids[1],
        json!({"approve": false, "reason": "Adresse gesperrt"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");

    let sent = app
        .mail_arrived(to, "Kestrel Exchange: Auszahlung gesendet")
        .await;
    let text = sent[0]["body"].as_str().unwrap();
    assert!(text.contains(&format!("Transaktions-Hash: {tx}")), "{text}");
    assert!(text.contains(tron), "{text}");
    let refused = app
        .mail_arrived(to, "Kestrel Exchange: Auszahlung abgelehnt")
        .await;
    assert!(
        refused[0]["body"]
            .as_str()
            .unwrap()
            .contains("Grund: Adresse gesperrt"),
        "{refused:?}"
    );
    let submitted = app
        .mail_arrived(to, "Kestrel Exchange: Auszahlungsantrag eingegangen")
        .await;
    assert_eq!(submitted.len(), 2, "one per withdrawal: {submitted:?}");
    let subjects = [
        "Kestrel Exchange: Identitätsprüfung abgelehnt",
        "Kestrel Exchange: Identitätsprüfung bestätigt",
        "Kestrel Exchange: Einzahlung gutgeschrieben",
        "Kestrel Exchange: Auszahlung gesendet",
        "Kestrel Exchange: Auszahlung abgelehnt",
        "Kestrel Exchange: Fondspasswort festgelegt",
    ];
    assert_each_once(&app, to, &subjects).await;
    // The rows record what they were for, and each is marked sent once.
    let rows = notification::Entity::find()
        .filter(notification::Column::UserId.eq(member.user_id))
        .all(app.db())
        .await
        .unwrap();
    assert!(
        rows.iter()
            .all(|row| row.sent_at.is_some() && row.attempts == 1)
    );
    app.stop().await;
}

#[tokio::test]
async fn notices_left_undelivered_go_out_after_a_restart() {
    let app = spawn_app().await;
    let to = "ruth@example.com";
    let member = german_member(&app, to).await;
    let url = app.database_url();
    let (dir, postgres) = app.stop_keeping_data().await;

    // Written while no server runs: one new, one whose delivering instance died holding it.
    let db = sea_orm::Database::connect(&url).await.unwrap();
    backend::notify::enqueue(&db, member.user_id, Notice::at(Kind::TotpEnabled, 0))
        .await
        .unwrap();
    notification::ActiveModel {
        user_id: Set(member.user_id),
        kind: Set(Kind::LoginPasswordChanged.as_str().to_owned()),
        params: Set(json!({"time": "2026-11-28 10:00:00 UTC"}).to_string()),
        created_at: Set(0),
        attempts: Set(1),
        next_attempt_at: Set(0),
        claimed_until: Set(Some(1)),
        ..Default::default()
    }
    .insert(&db)
    .await
    .unwrap();
    db.close().await.unwrap();

    let app = spawn_app_in(dir, postgres).await;
    assert_each_once(
        &app,
        to,
        &[
            "Kestrel Exchange: Google Authenticator aktiviert",
            "Kestrel Exchange: Anmeldepasswort geändert",
        ],
    )
    .await;
    app.stop().await;
}

/// A deposit of `user` (an operator account: production has no outbox for registration codes)
/// passed by `ops`; answers how long the review took.
async fn credit_deposit(app: &TestApp, user: &str, ops: &str) -> Duration {
    let token = crate::kyc::operator(app, user).await;
    let reviewer = crate::kyc::operator(app, ops).await;
    let (status, body) = crate::kyc::upload_as(
        app,
        &token,
        crate::kyc::UPLOAD,
        "file",
        "paid.png",
        "image/png",
        crate::kyc::sample("png", 256),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let screenshot = body["data"]["fileId"].as_i64().unwrap();
    let (status, body) = crate::deposits::claim(
        app,
        &token,
        None,
        crate::deposits::usdt_claim("20", screenshot),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    let id = body["data"]["id"].as_i64().unwrap();
    let started = std::time::Instant::now();
    let (status, body) = crate::deposits::review(app, &reviewer, id, true, None).await;
    assert_eq!(status, 200, "{body}");
    started.elapsed()
}

/// The one notification row, once `ready` holds for it (polling, at most 10 s).
async fn row_when(
    app: &TestApp,
    ready: impl Fn(&notification::Model) -> bool,
) -> notification::Model {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        let rows = notification::Entity::find().all(app.db()).await.unwrap();
        assert_eq!(rows.len(), 1, "{rows:?}");
        if ready(&rows[0]) {
            return rows[0].clone();
        }
        assert!(tokio::time::Instant::now() < deadline, "{rows:?}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

#[tokio::test]
async fn a_mail_server_that_never_answers_does_not_hold_up_the_money() {
    // Accepts connections and never says a word.
    let silent = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = silent.local_addr().unwrap().port();
    let held = tokio::spawn(async move {
        let mut sockets = Vec::new();
        while let Ok((socket, _)) = silent.accept().await {
            sockets.push(socket);
        }
    });
    let app = crate::helpers::spawn_app_with(|config| {
        config.mode = backend::config::Mode::Production;
        config.mail.smtp_url = format!("smtp://127.0.0.1:{port}");
        config.mail.from = "Kestrel Exchange <no-reply@kestrel.test>".into();
    })
    .await;
    let took = credit_deposit(&app, "slow-mail@example.com", "ops@example.com").await;
    assert!(
        took < Duration::from_secs(5),
        "the review waited for mail: {took:?}"
    );
    // The notice is being delivered (taken, counted), not sent, and the credit stands.
    let row = row_when(&app, |row| row.attempts == 1).await;
    assert!(
        row.sent_at.is_none() && row.claimed_until.is_some(),
        "{row:?}"
    );
    held.abort();
    app.stop().await;
}

#[tokio::test]
async fn a_failed_send_is_kept_for_a_later_retry() {
    // A port nobody listens on: the connection is refused at once.
    let closed = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = closed.local_addr().unwrap().port();
    drop(closed);
    let app = crate::helpers::spawn_app_with(|config| {
        config.mode = backend::config::Mode::Production;
        config.mail.smtp_url = format!("smtp://127.0.0.1:{port}");
        config.mail.from = "Kestrel Exchange <no-reply@kestrel.test>".into();
    })
    .await;
    credit_deposit(&app, "no-mail@example.com", "ops@example.com").await;
    let row = row_when(&app, |row| row.attempts == 1 && row.claimed_until.is_none()).await;
    let now = backend::clock::now_ms();
    assert!(row.sent_at.is_none() && row.failed_at.is_none(), "{row:?}");
    assert!(row.last_error.is_some(), "{row:?}");
    // Tried again after the first backoff (30 s), not before.
    let wait = row.next_attempt_at - now;
    assert!((20_000..=30_000).contains(&wait), "{wait} ms: {row:?}");
    app.stop().await;
}

#[tokio::test]
async fn the_language_follows_the_one_the_webapp_uses() {
    let app = spawn_app().await;
    let to = "lea@example.com";
    let member = app.member(to).await;
    // The webapp switched to French: its next getInfo says so.
    let (status, body) = app
        .post(
            "/api/user/getInfo",
            None,
            &[("satoken", member.token.as_str()), ("lang", "fr")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    set_fund_password(&app, &member).await;
    let notice = app
        .mail_arrived(to, "Kestrel Exchange : mot de passe des fonds défini")
        .await;
    assert!(
        notice[0]["body"]
            .as_str()
            .unwrap()
            .starts_with("Un mot de passe des fonds a été défini"),
        "{notice:?}"
    );
    app.stop().await;
}
