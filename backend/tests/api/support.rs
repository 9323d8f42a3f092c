//! The live support chat over HTTP and WebSocket (issue 27): two customers never see each other's
//! conversation (users by session, visitors by token, on the HTTP reads and on the channel); an
//! operator sees only queued conversations and their own; attachments are images from the
//! checked upload path of the sender only; the away e-mail goes once per absence and never to a
//! connected customer; messages arrive live on both sides; sending is rate-limited.

use serde_json::{Value, json};

use crate::helpers::{TestApp, spawn_app, urlencode};
use crate::kyc::{UPLOAD, operator, upload_as, upload_sample};

const SUBJECT: &str = "Kestrel Exchange: support has answered you";

/// The dev outbox's messages to `to` with the away subject.
async fn away_mails(app: &TestApp, to: &str) -> usize {
    let (status, _, text) = app
        .get(&format!("/api/dev/outbox?to={}", urlencode(to)))
        .await;
    assert_eq!(status, 200, "{text}");
    let body: Value = serde_json::from_str(&text).unwrap();
    body["data"]
        .as_array()
        .cloned()
        .unwrap_or_default()
        .iter()
        .filter(|message| message["subject"] == SUBJECT)
        .count()
}

/// Opens a visitor's conversation for `email`: (conversation id, token).
async fn visitor(app: &TestApp, email: &str) -> (i64, String) {
    let (status, body) = app
        .post(
            "/api/support/visitor/start",
            Some(&json!({"email": email}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    (
        body["data"]["conversation"]["id"].as_i64().unwrap(),
        body["data"]["token"].as_str().unwrap().to_owned(),
    )
}

async fn visitor_send(app: &TestApp, token: &str, text: &str) -> (u16, Value) {
    app.post(
        "/api/support/visitor/send",
        Some(&json!({"body": text}).to_string()),
        &[("supportToken", token)],
    )
    .await
}

async fn visitor_thread(app: &TestApp, token: &str) -> (u16, Value) {
    let response = app
        .client
        .get(format!("{}/api/support/visitor/thread", app.base))
        .header("supportToken", token)
        .send()
        .await
        .unwrap();
    let status = response.status().as_u16();
    (status, response.json().await.unwrap())
}

async fn user_send(app: &TestApp, token: &str, body: Value) -> (u16, Value) {
    app.post_as(token, "/api/support/send", Some(body)).await
}

fn bodies(thread: &Value) -> Vec<String> {
    thread["data"]["messages"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["body"].as_str().unwrap().to_owned())
        .collect()
}

async fn answer(app: &TestApp, ops: &str, id: i64, text: &str) -> (u16, Value) {
    app.post_as(
        ops,
        &format!("/api/admin/support/conversations/{id}/send"),
        Some(json!({"body": text})),
    )
    .await
}

fn reason(body: &Value) -> &str {
    body["data"]["reason"].as_str().unwrap_or_default()
}

#[tokio::test]
async fn two_customers_never_see_each_others_conversation() {
    let app = spawn_app().await;
    let alice = app.member("alice@example.com").await;
    let bob = app.member("bob@example.com").await;
    let (status, _) = user_send(&app, &alice.token, json!({"body": "alice here"})).await;
    assert_eq!(status, 200);
    let (status, _) = user_send(&app, &bob.token, json!({"body": "bob here"})).await;
    assert_eq!(status, 200);
    let (_, a) = app.get_as(&alice.token, "/api/support/thread").await;
    let (_, b) = app.get_as(&bob.token, "/api/support/thread").await;
    assert_eq!(bodies(&a), ["alice here"]);
    assert_eq!(bodies(&b), ["bob here"]);
    assert_ne!(
        a["data"]["conversation"]["id"],
        b["data"]["conversation"]["id"]
    );

    // Visitors: each token opens only its own conversation; a made-up one opens none.
    let (_, first) = visitor(&app, "v1@example.com").await;
    let (_, second) = visitor(&app, "v2@example.com").await;
    visitor_send(&app, &first, "first visitor").await;
    visitor_send(&app, &second, "second visitor").await;
    let (_, one) = visitor_thread(&app, &first).await;
    assert_eq!(bodies(&one), ["first visitor"]);
    let (status, _) = visitor_thread(&app, "not-a-token").await;
    assert_eq!(status, 401);

    // Live: bob's channel carries bob's messages and nothing of alice's.
    let mut channel = app
        .channel(&format!("/ws/support/customer?satoken={}", bob.token))
        .await;
    user_send(&app, &alice.token, json!({"body": "alice again"})).await;
    user_send(&app, &bob.token, json!({"body": "bob again"})).await;
    let message = channel.next_of("message").await;
    assert_eq!(message["data"]["body"], "bob again");
    // A visitor's channel with a wrong token is refused before the upgrade.
    let refused = tokio_tungstenite::connect_async(format!(
        "{}/ws/support/customer?token=nope",
        app.base.replace("http://", "ws://")
    ))
    .await;
    assert!(refused.is_err());
    app.stop().await;
}

#[tokio::test]
async fn an_operator_sees_only_queued_conversations_and_their_own() {
    let app = spawn_app().await;
    let first = operator(&app, "ops1@example.com").await;
    let second = operator(&app, "ops2@example.com").await;
    let (id, token) = visitor(&app, "guest@example.com").await;
    visitor_send(&app, &token, "help please").await;

    let (_, queued) = app
        .get_as(&second, "/api/admin/support/conversations?queue=queued")
        .await;
    assert_eq!(queued["data"]["total"], 1, "{queued}");
    assert_eq!(queued["data"]["records"][0]["contact"], "guest@example.com");
    assert_eq!(
        queued["data"]["records"][0]["conversation"]["operatorUnread"],
        1
    );

    let (status, body) = app
        .post_as(
            &first,
            &format!("/api/admin/support/conversations/{id}/assign"),
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Now it is the first operator's: gone from the queue, invisible and untouchable for the second.
    let (_, queued) = app
        .get_as(&second, "/api/admin/support/conversations?queue=queued")
        .await;
    assert_eq!(queued["data"]["total"], 0);
    let (_, mine) = app
        .get_as(&second, "/api/admin/support/conversations?queue=mine")
        .await;
    assert_eq!(mine["data"]["total"], 0);
    let (status, _) = app
        .get_as(
            &second,
            &format!("/api/admin/support/conversations/{id}/messages"),
        )
        .await;
    assert_eq!(status, 404);
    let (status, _) = answer(&app, &second, id, "me too").await;
    assert_eq!(status, 404);
    let (status, _) = app
        .post_as(
            &second,
            &format!("/api/admin/support/conversations/{id}/assign"),
            None,
        )
        .await;
    assert_eq!(status, 404);
    let (_, mine) = app
        .get_as(&first, "/api/admin/support/conversations?queue=mine")
        .await;
    assert_eq!(mine["data"]["total"], 1);
    let (status, thread) = app
        .get_as(
            &first,
            &format!("/api/admin/support/conversations/{id}/messages"),
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(bodies(&thread), ["help please"]);

    // A customer is no operator.
    let member = app.member("user@example.com").await;
    let (status, _) = app
        .get_as(&member.token, "/api/admin/support/conversations")
        .await;
    assert_eq!(status, 403);
    let refused = tokio_tungstenite::connect_async(format!(
        "{}/ws/support/operator?satoken={}",
        app.base.replace("http://", "ws://"),
        member.token
    ))
    .await;
    assert!(refused.is_err());

    // Closed: in the closed queue for everyone; the visitor's token refuses new messages.
    let (status, _) = app
        .post_as(
            &first,
            &format!("/api/admin/support/conversations/{id}/close"),
            None,
        )
        .await;
    assert_eq!(status, 200);
    let (_, closed) = app
        .get_as(&second, "/api/admin/support/conversations?queue=closed")
        .await;
    assert_eq!(closed["data"]["total"], 1);
    let (status, body) = visitor_send(&app, &token, "still there?").await;
    assert_eq!(status, 409, "{body}");
    assert_eq!(reason(&body), "support_conversation_closed");
    app.stop().await;
}

#[tokio::test]
async fn attachments_are_images_the_sender_uploaded_through_the_checked_path() {
    let app = spawn_app().await;
    let alice = app.member("alice@example.com").await;
    let bob = app.member("bob@example.com").await;
    let picture = upload_sample(&app, &alice, "png").await;
    let (status, body) =
        user_send(&app, &alice.token, json!({"body": "", "fileId": picture})).await;
    assert_eq!(status, 200, "{body}");
    let (_, thread) = app.get_as(&alice.token, "/api/support/thread").await;
    let url = thread["data"]["messages"][0]["imageUrl"].as_str().unwrap();
    assert!(
        url.starts_with(&format!("/api/file/content/{picture}?")),
        "{url}"
    );
    let (status, _, _) = app.get(url).await;
    assert_eq!(status, 200);

    // A PDF passed the upload checks but is no image.
    let pdf = upload_sample(&app, &alice, "pdf").await;
    let (status, body) = user_send(&app, &alice.token, json!({"body": "x", "fileId": pdf})).await;
    assert_eq!(status, 415, "{body}");
    assert_eq!(reason(&body), "support_attachment_not_image");
    // Another user's image is not there for bob.
    let (status, _) = user_send(&app, &bob.token, json!({"body": "x", "fileId": picture})).await;
    assert_eq!(status, 404);
    // A disguised file never gets a file id (the upload path refuses it).
    let (status, _) = upload_as(
        &app,
        &alice.token,
        UPLOAD,
        "file",
        "cat.png",
        "image/png",
        b"<script>alert(1)</script>".to_vec(),
    )
    .await;
    assert_eq!(status, 415);
    // Visitors have no uploads; empty and overlong texts are refused.
    let (_, token) = visitor(&app, "guest@example.com").await;
    let (status, body) = app
        .post(
            "/api/support/visitor/send",
            Some(&json!({"body": "", "fileId": picture}).to_string()),
            &[("supportToken", token.as_str())],
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(reason(&body), "support_attachment_login");
    let (status, body) = visitor_send(&app, &token, "   ").await;
    assert_eq!(status, 400);
    assert_eq!(reason(&body), "support_message_empty");
    let (status, body) = visitor_send(&app, &token, &"x".repeat(2001)).await;
    assert_eq!(status, 400);
    assert_eq!(reason(&body), "support_message_too_long");
    app.stop().await;
}

#[tokio::test]
async fn the_away_email_goes_once_per_absence_and_never_to_a_connected_customer() {
    let app = spawn_app().await;
    let ops = operator(&app, "ops@example.com").await;
    let email = "guest@example.com";
    let (id, token) = visitor(&app, email).await;
    visitor_send(&app, &token, "hello?").await;

    // Away: two answers, one e-mail.
    answer(&app, &ops, id, "Hello, how can we help?").await;
    let (status, body) = answer(&app, &ops, id, "Are you still there?").await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["data"]["conversation"]["customerUnread"], 2);
    assert_eq!(away_mails(&app, email).await, 1);
    let (_, _, outbox) = app
        .get(&format!("/api/dev/outbox?to={}", urlencode(email)))
        .await;
    assert!(outbox.contains("Hello, how can we help?"), "{outbox}");

    // Connected: the answer arrives live and no e-mail goes.
    let (status, body) = app
        .post(
            "/api/support/visitor/read",
            None,
            &[("supportToken", token.as_str())],
        )
        .await;
    assert_eq!(status, 200);
    assert_eq!(body["data"]["customerUnread"], 0);
    let mut channel = app
        .channel(&format!("/ws/support/customer?token={token}"))
        .await;
    answer(&app, &ops, id, "Live answer").await;
    let message = channel.next_of("message").await;
    assert_eq!(message["data"]["body"], "Live answer");
    assert_eq!(message["data"]["author"], "operator");
    assert_eq!(away_mails(&app, email).await, 1);

    // Gone again after reading: the next answer mails once more.
    drop(channel);
    let deadline = tokio::time::Instant::now() + std::time::Duration::from_secs(10);
    while app.state().support.customer_present(id) {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the socket never closed"
        );
        tokio::task::yield_now().await;
    }
    answer(&app, &ops, id, "One more thing").await;
    assert_eq!(away_mails(&app, email).await, 2);
    app.stop().await;
}

#[tokio::test]
async fn the_operator_reads_a_visitor_live_and_sending_is_rate_limited() {
    let app = spawn_app().await;
    let ops = operator(&app, "ops@example.com").await;
    let mut inbox = app
        .channel(&format!("/ws/support/operator?satoken={ops}"))
        .await;
    let (id, token) = visitor(&app, "guest@example.com").await;
    let (status, _) = visitor_send(&app, &token, "message 1").await;
    assert_eq!(status, 200);
    let message = inbox.next_of("message").await;
    assert_eq!(message["data"]["body"], "message 1");
    assert_eq!(message["data"]["conversationId"], id);
    for n in 2..=10 {
        let (status, _) = visitor_send(&app, &token, &format!("message {n}")).await;
        assert_eq!(status, 200);
    }
    let (status, body) = visitor_send(&app, &token, "message 11").await;
    assert_eq!(status, 429, "{body}");
    // Pages are bounded and page back.
    let (_, page) = app
        .get_as(
            &ops,
            &format!("/api/admin/support/conversations/{id}/messages?limit=4"),
        )
        .await;
    assert_eq!(
        bodies(&page),
        ["message 7", "message 8", "message 9", "message 10"]
    );
    assert_eq!(page["data"]["more"], true);
    let first = page["data"]["messages"][0]["id"].as_i64().unwrap();
    let (_, older) = app
        .get_as(
            &ops,
            &format!("/api/admin/support/conversations/{id}/messages?limit=100&before={first}"),
        )
        .await;
    assert_eq!(older["data"]["messages"].as_array().unwrap().len(), 6);
    assert_eq!(older["data"]["more"], false);
    let (status, _) = app
        .get_as(
            &ops,
            &format!("/api/admin/support/conversations/{id}/messages?limit=101"),
        )
        .await;
    assert_eq!(status, 400);
    app.stop().await;
}
