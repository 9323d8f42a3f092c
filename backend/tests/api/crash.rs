//! The server killed (SIGKILL) while spot orders are in flight, then started again on the same
//! database: every batch either committed whole or left no trace, so the ledger audit is clean, the
//! rebuilt books hold exactly the open orders (each cancels and releases what it held) and nothing
//! stays frozen.

use std::net::TcpListener;
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use backend::funds::audit;
use rust_decimal_macros::dec;
use sea_orm::{ConnectOptions, Database, DatabaseConnection};
use serde_json::Value;

use crate::helpers::{
    Member, TestApp, accepted, credit_on, crossing_orders_in_flight, external_app,
    fresh_postgres_database,
};

/// `backend serve` on `port` with `data_dir` (and `database_url`, when PostgreSQL), no simulator.
fn serve(data_dir: &std::path::Path, port: u16, database_url: &str) -> Child {
    Command::new(env!("CARGO_BIN_EXE_backend"))
        .arg("serve")
        .env("EXCHANGE_DATA_DIR", data_dir)
        .env("EXCHANGE_PORT", port.to_string())
        .env("EXCHANGE_SIM_ENABLED", "false")
        .env("EXCHANGE_WEBAPP_DIR", data_dir.join("webapp"))
        .env("EXCHANGE_LOG", "warn")
        .env("DATABASE_URL", database_url)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("the server starts")
}

async fn wait_until_up(app: &TestApp) {
    for _ in 0..300 {
        if let Ok(response) = app
            .client
            .post(format!("{}/api/common/getAllSetting", app.base))
            .send()
            .await
            && response.status().is_success()
        {
            return;
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    panic!("the server did not come up");
}

async fn connect(url: &str) -> DatabaseConnection {
    let mut options = ConnectOptions::new(url.to_owned());
    options.max_connections(2).sqlx_logging(false);
    Database::connect(options)
        .await
        .expect("the database opens")
}

fn free_port() -> u16 {
    TcpListener::bind("127.0.0.1:0")
        .and_then(|listener| listener.local_addr())
        .map(|addr| addr.port())
        .expect("a free port")
}

async fn open_orders(app: &TestApp, member: &Member) -> Vec<Value> {
    let (status, body) = app
        .post_as(
            &member.token,
            "/api/currency/order/orderList?scope=current&pageSize=100",
            None,
        )
        .await;
    assert_eq!(status, 200, "{body}");
    body["data"]["records"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_server_killed_under_load_restarts_with_its_books_equal_to_the_open_orders() {
    let dir = tempfile::tempdir().expect("temporary folder");
    let postgres = fresh_postgres_database().await;
    let database_url = postgres
        .as_ref()
        .map(|(url, _)| url.clone())
        .unwrap_or_else(|| {
            format!(
                "sqlite://{}?mode=rwc",
                dir.path().join("exchange.db").display()
            )
        });
    let port = free_port();
    let mut server = serve(dir.path(), port, &database_url);
    let base = format!("http://127.0.0.1:{port}");
    let app = external_app(base.clone(), dir, postgres);
    wait_until_up(&app).await;
    let db = connect(&database_url).await;
    let mut members = Vec::new();
    for n in 0..4 {
        let member = app.member(&format!("spot-kill-{n}@example.com")).await;
        credit_on(&db, member.user_id, "usdt", dec!(100000)).await;
        credit_on(&db, member.user_id, "btc", dec!(10)).await;
        members.push(member);
    }

    let flight = crossing_orders_in_flight(&app, &members, 300);
    // Kill once some orders are in, at least one answer has come back, and the rest are still
    // arriving. (An order is listed as soon as its batch commits, a moment before its answer is
    // written: killing on the listing alone could leave no answer at all.)
    for _ in 0..400 {
        if flight.iter().any(|task| task.is_finished())
            && !open_orders(&app, &members[0]).await.is_empty()
        {
            break;
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    server.kill().expect("SIGKILL");
    server.wait().expect("the server ended");
    let answered = accepted(flight).await;
    assert!(answered > 0, "no order was accepted before the kill");

    let mut server = serve(app.data_dir(), port, &database_url);
    wait_until_up(&app).await;
    let report = audit::audit(&db).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
    for member in &members {
        let token = app.login(&member.account, crate::helpers::PASSWORD).await;
        let member = Member {
            token,
            ..member.clone()
        };
        for order in open_orders(&app, &member).await {
            let (status, body) = app
                .post_as(
                    &member.token,
                    &format!("/api/currency/order/cancelOrder?id={}", order["id"]),
                    None,
                )
                .await;
            assert_eq!(status, 200, "{body}");
        }
        let (_, coins) = app
            .post_as(&member.token, "/api/userCoin/getUserCoin", None)
            .await;
        for coin in coins["data"]["coins"].as_array().unwrap() {
            assert_eq!(coin["frozen"], "0", "{coin}");
        }
    }
    let report = audit::audit(&db).await.unwrap();
    assert!(report.is_clean(), "{report:?}");
    server.kill().ok();
    server.wait().ok();
    db.close().await.ok();
    app.stop().await;
}
