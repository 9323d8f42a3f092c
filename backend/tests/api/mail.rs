//! E-mail by SMTP: with an SMTP URL configured (here in production mode, so there is no outbox),
//! codes leave through lettre to a real SMTP conversation with a minimal in-test server.

use std::sync::{Arc, Mutex};

use serde_json::json;
use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;

use crate::helpers::{PASSWORD, spawn_app_with};

/// A one-purpose SMTP server: accepts every message and keeps its DATA.
async fn smtp_sink() -> (u16, Arc<Mutex<Vec<String>>>) {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let port = listener.local_addr().expect("address").port();
    let received = Arc::new(Mutex::new(Vec::new()));
    let store = received.clone();
    tokio::spawn(async move {
        loop {
            let Ok((socket, _)) = listener.accept().await else {
                return;
            };
            let store = store.clone();
            tokio::spawn(async move {
                let (read, mut write) = socket.into_split();
                let mut lines = BufReader::new(read).lines();
                write.write_all(b"220 sink ESMTP\r\n").await.ok();
                let mut in_data = false;
                let mut data = String::new();
                while let Ok(Some(line)) = lines.next_line().await {
                    if in_data {
                        if line == "." {
                            in_data = false;
                            store.lock().unwrap().push(std::mem::take(&mut data));
                            write.write_all(b"250 queued\r\n").await.ok();
                        } else {
                            data.push_str(&line);
                            data.push('\n');
                        }
                        continue;
                    }
                    let verb = line
                        .split_whitespace()
                        .next()
                        .unwrap_or_default()
                        .to_ascii_uppercase();
                    let reply: &[u8] = match verb.as_str() {
                        "EHLO" | "HELO" => b"250 sink\r\n",
                        "DATA" => {
                            in_data = true;
                            b"354 go on\r\n"
                        }
                        "QUIT" => {
                            write.write_all(b"221 bye\r\n").await.ok();
                            return;
                        }
                        _ => b"250 ok\r\n",
                    };
                    write.write_all(reply).await.ok();
                }
            });
        }
    });
    (port, received)
}

#[tokio::test]
async fn codes_go_out_by_smtp_and_registration_works_with_them() {
    let (port, received) = smtp_sink().await;
    let app = spawn_app_with(|config| {
        config.mode = backend::config::Mode::Production;
        config.mail.smtp_url = format!("smtp://127.0.0.1:{port}");
        config.mail.from = "Kestrel Exchange <no-reply@kestrel.test>".into();
    })
    .await;
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": "smtp@example.com", "type": "register"}).to_string()),
            &[("lang", "de")],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let message = received
        .lock()
        .unwrap()
        .first()
        .cloned()
        .expect("one e-mail was sent");
    assert!(message.contains("To: smtp@example.com"), "{message}");
    assert!(message.contains("Kestrel Exchange"), "{message}");
    let code = message
        .split(|c: char| !c.is_ascii_digit())
        .find(|word| word.len() == 6)
        .expect("a six-digit code")
        .to_owned();
    let (status, body) = app
        .post(
            "/api/user/register",
            Some(
                &json!({"account": "smtp@example.com", "password": PASSWORD,
                "confirmPassword": PASSWORD, "code": code})
                .to_string(),
            ),
            &[],
        )
        .await;
    assert_eq!(status, 200, "{body}");
    // Production has no dev outbox.
    let (status, _, _) = app.get("/api/dev/outbox").await;
    assert_eq!(status, 404);
    // Text messages need a provider this deployment does not have.
    let (status, body) = app
        .post(
            "/api/user/sendEmailCode",
            Some(&json!({"account": "+4915112345678", "type": "register"}).to_string()),
            &[],
        )
        .await;
    assert_eq!(status, 503, "{body}");
    assert_eq!(body["data"]["reason"], "sms_unavailable");
    app.stop().await;
}
