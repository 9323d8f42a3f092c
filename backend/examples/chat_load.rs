//! The support chat under load (`make bench-chat`; figures in docs/benchmarks.md).
//!
//! One server in this process (a fresh SQLite file, the market simulator off), `CONVERSATIONS`
//! (1,000) visitor conversations, each with its customer socket open on `/ws/support/customer`.
//! `OPERATORS` (8) operators then answer every conversation once over HTTP (`POST
//! /api/admin/support/conversations/{id}/send`), `CONCURRENCY` (32) answers in flight at a time.
//! Measured per message: the delivery latency, from the moment the operator's request is sent to
//! the moment the customer's socket receives the message (the HTTP request, the stored message and
//! the live push together). Fails when a customer misses their answer or receives another's.

use std::collections::HashMap;
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use tokio::sync::{Mutex, Semaphore, mpsc};
use tokio_tungstenite::tungstenite::Message;

fn env(name: &str, default: usize) -> usize {
    std::env::var(name)
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(default)
}

fn percentile(sorted: &[Duration], p: f64) -> Duration {
    let index = ((sorted.len() as f64 * p).ceil() as usize).clamp(1, sorted.len()) - 1;
    sorted[index]
}

#[tokio::main]
async fn main() {
    let conversations = env("CONVERSATIONS", 1_000);
    let operators = env("OPERATORS", 8);
    let concurrency = env("CONCURRENCY", 32);
    let dir = tempfile::tempdir().expect("a temporary folder");
    let config = backend::config::Config {
        host: "127.0.0.1".into(),
        port: 0,
        data_dir: dir.path().to_path_buf(),
        webapp_dir: dir.path().join("webapp"),
        simulator: backend::config::SimulatorConfig {
            enabled: false,
            ..Default::default()
        },
        ..backend::config::Config::default()
    };
    let app = backend::app::start(config).await.expect("the app starts");
    let base = format!("http://{}", app.addr);
    let db = app.state.db.clone();
    let client = reqwest::Client::builder()
        .pool_max_idle_per_host(concurrency)
        .build()
        .expect("a client");

    let mut tokens = Vec::new();
    for n in 0..operators {
        let email = format!("ops{n}@bench.test");
        backend::admin::service::create_operator(&db, &email, "Bench2026xx")
            .await
            .expect("an operator");
        let body: serde_json::Value = client
            .post(format!("{base}/api/user/login"))
            .json(&serde_json::json!({"account": email, "password": "Bench2026xx"}))
            .send()
            .await
            .expect("login answers")
            .json()
            .await
            .expect("JSON");
        tokens.push(
            body["data"]["satoken"]
                .as_str()
                .expect("a session")
                .to_owned(),
        );
    }

    // The conversations (through the service: the visitors' start is rate-limited per address)
    // and their customers' sockets, each reporting what it receives.
    let setup = Instant::now();
    let (arrivals, mut arrived) = mpsc::unbounded_channel::<(usize, String, Instant)>();
    let mut ids = Vec::with_capacity(conversations);
    let ws_base = base.replace("http://", "ws://");
    for i in 0..conversations {
        let opened = backend::support::conversations::open_for_visitor(
            &db,
            &format!("visitor{i}@bench.test"),
            backend::i18n::Lang::En,
        )
        .await
        .expect("a conversation");
        ids.push(opened.conversation.id);
        let (socket, _) = tokio_tungstenite::connect_async(format!(
            "{ws_base}/ws/support/customer?token={}",
            opened.token
        ))
        .await
        .expect("the customer channel opens");
        let arrivals = arrivals.clone();
        tokio::spawn(async move {
            let (_, mut stream) = socket.split();
            while let Some(Ok(frame)) = stream.next().await {
                if let Message::Text(text) = frame {
                    let at = Instant::now();
                    let value: serde_json::Value = serde_json::from_str(&text).expect("JSON");
                    if value["type"] == "message" {
                        let body = value["data"]["body"]
                            .as_str()
                            .unwrap_or_default()
                            .to_owned();
                        if arrivals.send((i, body, at)).is_err() {
                            return;
                        }
                    }
                }
            }
        });
    }
    drop(arrivals);
    println!(
        "setup: {conversations} conversations with their sockets open in {:.1} s",
        setup.elapsed().as_secs_f64()
    );

    let started: Arc<Mutex<HashMap<usize, Instant>>> = Arc::default();
    let gate = Arc::new(Semaphore::new(concurrency));
    let run = Instant::now();
    let mut sends = Vec::with_capacity(conversations);
    for (i, id) in ids.iter().copied().enumerate() {
        let permit = gate.clone().acquire_owned().await.expect("the gate");
        let (client, base, started) = (client.clone(), base.clone(), started.clone());
        let token = tokens[i % tokens.len()].clone();
        sends.push(tokio::spawn(async move {
            started.lock().await.insert(i, Instant::now());
            let response = client
                .post(format!("{base}/api/admin/support/conversations/{id}/send"))
                .header("satoken", token)
                .json(&serde_json::json!({"body": format!("answer {i}")}))
                .send()
                .await
                .expect("the answer is sent");
            assert_eq!(response.status(), 200, "answer {i}");
            drop(permit);
        }));
    }
    for send in sends {
        send.await.expect("a send task");
    }
    let mut latencies = Vec::with_capacity(conversations);
    while latencies.len() < conversations {
        let (i, body, at) = tokio::time::timeout(Duration::from_secs(30), arrived.recv())
            .await
            .expect("every answer arrives within 30 s")
            .expect("the sockets are open");
        assert_eq!(
            body,
            format!("answer {i}"),
            "customer {i} got another's message"
        );
        let start = started.lock().await[&i];
        latencies.push(at.duration_since(start));
    }
    let elapsed = run.elapsed();
    latencies.sort();
    let ms = |d: Duration| d.as_secs_f64() * 1000.0;
    println!(
        "delivered {} answers ({operators} operators, {concurrency} in flight) in {:.2} s: {:.0} messages/s",
        latencies.len(),
        elapsed.as_secs_f64(),
        latencies.len() as f64 / elapsed.as_secs_f64()
    );
    println!(
        "delivery latency: p50 {:.1} ms, p95 {:.1} ms, p99 {:.1} ms, max {:.1} ms (goal: p99 < 200 ms)",
        ms(percentile(&latencies, 0.50)),
        ms(percentile(&latencies, 0.95)),
        ms(percentile(&latencies, 0.99)),
        ms(*latencies.last().expect("a latency"))
    );
    app.stop().await;
}
