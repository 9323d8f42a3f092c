//! Futures in cluster mode, on three `backend serve` processes: one instance owns every futures
//! engine (the lease `futures_engines`); orders, cancellations, leverage, take profit and stop
//! loss, stop orders, margin and the reads of the engines' memory reach it through every instance; it sees the marks of the simulator another
//! instance runs; its `kill -9` mid-load hands the engines to another instance within 5 s, with no
//! acknowledged order lost or placed twice, the positions the new owner shows equal to the
//! database and the audit clean.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use backend::cluster::Bus;
use backend::entity::{futures_order, futures_position};
use backend::funds::ledger::{AccountRef, Bucket};
use backend::futures::ownership;
use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter};
use serde_json::{Value, json};

use super::processes::{
    Processes, acknowledged_ids, first_answer_after_kill, lease_holder, place_through,
};
use super::{Nats, shared_database, simulator_holder};
use crate::helpers::{TestApp, credit_account_on};

const NAMES: [&str; 3] = ["a", "b", "c"];
const SUBMIT: &str = "/api/contract/order/submit";

/// The index of the instance holding the futures engines' lease, waiting up to `within` for one
/// other than `not`.
async fn futures_owner(bus: &Bus, not: Option<&str>, within: Duration) -> usize {
    let name = lease_holder(bus, ownership::LEASE_MS, ownership::LEASE, not, within).await;
    NAMES
        .iter()
        .position(|known| *known == name)
        .expect("one of the three")
}

fn decimal(value: &Value) -> Decimal {
    value
        .as_str()
        .unwrap_or_else(|| panic!("not a decimal string: {value}"))
        .parse::<Decimal>()
        .unwrap()
        .normalize()
}

/// The BTC/USDT mark `app` answers (through the owner of the engines), once there is one.
async fn mark_through(app: &TestApp, within: Duration) -> Decimal {
    let deadline = Instant::now() + within;
    loop {
        let (status, _, text) = app
            .get("/api/contract/coin/fundingInfo?symbol=btcusdt")
            .await;
        let body: Value = serde_json::from_str(&text).unwrap_or_default();
        if status == 200 && body["data"]["markPrice"].as_str().is_some() {
            let mark = decimal(&body["data"]["markPrice"]);
            if mark > Decimal::ZERO {
                return mark;
            }
        }
        assert!(
            Instant::now() < deadline,
            "no mark within {within:?}: {body}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// The user's open positions as `(id, side, size)`: what `app` shows, and what the database holds.
async fn positions_shown(app: &TestApp, token: &str) -> Vec<(i64, String, Decimal)> {
    let (status, body) = app
        .post_as(token, "/api/contract/position/list?scope=current", None)
        .await;
    assert_eq!(status, 200, "{body}");
    let mut shown: Vec<_> = body["data"]
        .as_array()
        .expect("positions")
        .iter()
        .map(|p| {
            (
                p["id"].as_i64().expect("an id"),
                p["side"].as_str().expect("a side").to_owned(),
                decimal(&p["openInterest"]),
            )
        })
        .collect();
    shown.sort();
    shown
}

async fn positions_stored(db: &DatabaseConnection, user_id: i64) -> Vec<(i64, String, Decimal)> {
    let mut stored: Vec<_> = futures_position::Entity::find()
        .filter(futures_position::Column::UserId.eq(user_id))
        .filter(futures_position::Column::Status.eq("open"))
        .all(db)
        .await
        .expect("positions")
        .into_iter()
        .map(|row| {
            (
                row.id,
                row.side,
                row.size.parse::<Decimal>().unwrap().normalize(),
            )
        })
        .collect();
    stored.sort();
    stored
}

#[tokio::test]
async fn one_owner_runs_the_futures_engines_takes_forwarded_commands_and_a_new_owner_serves_after_a_kill()
 {
    let nats = Nats::start().await;
    let database = shared_database().await;
    // The simulator runs on `c` alone; `a`, up first, takes the engines.
    let mut cluster = Processes::start_with(&nats, &database.0, Some("c")).await;
    let bus = Bus::connect(&nats.cluster("test"))
        .await
        .expect("NATS answers");
    let db = sea_orm::Database::connect(database.0.clone())
        .await
        .expect("PostgreSQL answers");
    let owner = futures_owner(&bus, None, Duration::from_secs(10)).await;
    let others = [(owner + 1) % 3, (owner + 2) % 3];

    // The owner's engines see the marks of a simulator that runs on another instance; a read
    // through a non-owner is answered from the owner's memory.
    let mark = mark_through(&cluster.apps[others[0]], Duration::from_secs(15)).await;
    let simulating = simulator_holder(&nats).await.expect("a simulator runs");
    assert_ne!(simulating, NAMES[owner], "the simulator runs on the owner");

    let mut members = Vec::new();
    for n in 0..3 {
        let member = cluster.apps[0]
            .member(&format!("cluster-futures-{n}@example.com"))
            .await;
        let trading = AccountRef::User {
            user_id: member.user_id,
            bucket: Bucket::Trading,
        };
        credit_account_on(&db, member.user_id, trading, "usdt", Decimal::from(100_000)).await;
        members.push(member);
    }
    let tokens: Vec<String> = members.iter().map(|m| m.token.clone()).collect();
    let apps: Arc<Vec<(String, reqwest::Client)>> = Arc::new(
        cluster
            .apps
            .iter()
            .map(|app| (app.base.clone(), app.client.clone()))
            .collect(),
    );
    let dead = Arc::new(std::sync::Mutex::new(None));

    // Leverage set through a non-owner, then read through the other one.
    let (status, body) = cluster.apps[others[0]]
        .post_as(
            &tokens[0],
            "/api/contract/position/leverage",
            Some(json!({"symbol": "btcusdt", "leverage": "20"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    let (status, body) = cluster.apps[others[1]]
        .post_as(
            &tokens[0],
            "/api/contract/position/leverage",
            Some(json!({"symbol": "btcusdt"})),
        )
        .await;
    assert_eq!(
        (status, decimal(&body["data"]["leverage"])),
        (200, Decimal::from(20)),
        "{body}"
    );

    // Resting limit orders (far below the mark) through all three instances, each cancelled
    // through another one.
    let low = (mark * Decimal::new(8, 1)).floor();
    for (n, token) in tokens.iter().enumerate() {
        let order = place_through(
            apps.clone(),
            dead.clone(),
            token,
            SUBMIT,
            &format!("futures-rest-{n}"),
            json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit",
                "price": low.to_string(), "quantity": "0.01"}),
            n,
        )
        .await
        .expect("acknowledged");
        assert_eq!(order["status"], "waitDeal", "{order}");
        let (status, body) = cluster.apps[(n + 1) % 3]
            .post_as(
                token,
                &format!("/api/contract/order/canCelOrder?id={}", order["id"]),
                None,
            )
            .await;
        assert_eq!(
            (status, &body["data"]["status"]),
            (200, &json!("cancelled")),
            "{body}"
        );
    }

    // Load through all three: 12 clients placing 10 market orders of 0.01 each, one after
    // another, each with its own key; the owner is killed once 30 are acknowledged.
    let acks = Arc::new(AtomicUsize::new(0));
    let load: Vec<_> = (0..12)
        .map(|worker| {
            let (apps, dead, acks) = (apps.clone(), dead.clone(), acks.clone());
            let token = tokens[worker % 3].clone();
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for k in 0..10 {
                    let n = worker + 12 * k;
                    let side = if n % 3 == 0 { "sell" } else { "buy" };
                    let body = json!({"symbol": "btcusdt", "side": side,
                        "orderType": "market", "quantity": "0.01"});
                    let key = format!("futures-load-{n}");
                    let answer =
                        place_through(apps.clone(), dead.clone(), &token, SUBMIT, &key, body, n)
                            .await;
                    acks.fetch_add(1, Ordering::SeqCst);
                    answers.push(answer);
                }
                answers
            })
        })
        .collect();
    while acks.load(Ordering::SeqCst) < 30 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    *dead.lock().unwrap() = Some(owner);
    cluster.kill(owner);
    let killed = Instant::now();
    let next = futures_owner(&bus, Some(NAMES[owner]), Duration::from_secs(8)).await;
    // The new owner serves: an order through a surviving instance is answered.
    let probe = first_answer_after_kill(
        &cluster.apps[others[0]],
        &tokens[0],
        SUBMIT,
        json!({"symbol": "btcusdt", "side": "buy", "orderType": "market", "quantity": "0.01"}),
        killed,
        NAMES[next],
    )
    .await;
    assert!(probe["data"]["id"].as_i64().is_some(), "{probe}");
    // No acknowledged order lost, none placed twice: each key placed exactly one stored order.
    let acknowledged = acknowledged_ids(load).await;
    let stored = futures_order::Entity::find()
        .filter(futures_order::Column::Id.is_in(acknowledged.clone()))
        .count(&db)
        .await
        .expect("count");
    assert_eq!(
        stored as usize,
        acknowledged.len(),
        "an acknowledged order is lost"
    );
    let users: Vec<i64> = members.iter().map(|m| m.user_id).collect();
    let all = futures_order::Entity::find()
        .filter(futures_order::Column::UserId.is_in(users))
        .count(&db)
        .await
        .expect("count");
    // 3 resting orders, 120 of the load and the probe: nothing more.
    assert_eq!(all, 124, "an order was placed twice");

    // Take profit and stop loss, a stop order and its cancellation, and margin, through the
    // survivor that does not own the engines.
    let forwarder = (0..3)
        .find(|i| *i != owner && *i != next)
        .expect("a survivor");
    let through = &cluster.apps[forwarder];
    let (high, low) = ((mark * Decimal::TWO).floor(), (mark / Decimal::TWO).floor());
    let (status, body) = through
        .post_as(
            &tokens[1],
            "/api/contract/position/stopOrder",
            Some(
                json!({"symbol": "btcusdt", "takeProfitPrice": high.to_string(),
                "stopLossPrice": low.to_string()}),
            ),
        )
        .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(decimal(&body["data"]["takeProfitPrice"]), high, "{body}");
    let (status, body) = through
        .post_as(
            &tokens[2],
            "/api/contract/loss/sett",
            Some(json!({"symbol": "btcusdt", "triggerPrice": low.to_string(),
                "quantity": "0.01"})),
        )
        .await;
    assert_eq!(
        (status, &body["data"]["direction"]),
        (200, &json!("below")),
        "{body}"
    );
    let (status, body) = cluster.apps[next]
        .post_as(
            &tokens[2],
            &format!("/api/contract/loss/cancel?id={}", body["data"]["id"]),
            None,
        )
        .await;
    assert_eq!(
        (status, &body["data"]["status"]),
        (200, &json!("cancelled")),
        "{body}"
    );
    let (status, body) = through
        .post_as(
            &tokens[2],
            "/api/contract/position/margin",
            Some(json!({"symbol": "btcusdt", "direction": "add", "amount": "10"})),
        )
        .await;
    assert_eq!(status, 200, "{body}");

    // The positions the new owner's engines hold, seen through the new owner and through the
    // other survivor, equal the database's.
    let readers = [next, forwarder];
    for member in &members {
        let stored = positions_stored(&db, member.user_id).await;
        assert!(
            !stored.is_empty(),
            "the load left user {} flat",
            member.user_id
        );
        for reader in readers {
            let shown = positions_shown(&cluster.apps[reader], &member.token).await;
            assert_eq!(shown, stored, "through {}", NAMES[reader]);
        }
    }
    let report = backend::funds::audit::audit(&db).await.expect("audited");
    assert!(report.is_clean(), "{report:?}");
}
