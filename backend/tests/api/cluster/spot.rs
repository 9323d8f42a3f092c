//! Spot pairs in cluster mode, on three `backend serve` processes: one owner per pair; orders and
//! cancellations through every instance reach it; its `kill -9` mid-load hands the pair to another
//! instance within 5 s, with no acknowledged order lost or placed twice, the book equal to the
//! open orders and the audit clean.

use std::sync::Arc;
use std::time::{Duration, Instant};

use backend::cluster::Bus;

use super::processes::{
    Processes, acknowledged_ids, first_answer_after_kill, lease_holder, place_through,
    spread_settled,
};
use super::{Nats, shared_database};

/// The instance (`a`, `b`, `c`) holding `symbol`'s spot lease, waiting up to `within` for one
/// other than `not`.
async fn spot_owner(bus: &Bus, symbol: &str, not: Option<&str>, within: Duration) -> String {
    lease_holder(
        bus,
        backend::spot::ownership::LEASE_MS,
        &backend::spot::ownership::lease_name(symbol),
        not,
        within,
    )
    .await
}

/// Places the `n`th order of the load (a BTC/USDT limit order of 0.01 a few ticks around 50,000,
/// so many cross) with its own idempotency key through instance `n % 3`, retrying with the same
/// key through the next live instance while it is not answered; its answer (the order), or `None`
/// when no instance acknowledged it.
async fn place(
    apps: Arc<Vec<(String, reqwest::Client)>>,
    dead: Arc<std::sync::Mutex<Option<usize>>>,
    token: String,
    n: usize,
) -> Option<serde_json::Value> {
    let side = if n.is_multiple_of(2) { "buy" } else { "sell" };
    let price = 50000 + (n as i64 % 9) * 10 - 40;
    let body = serde_json::json!({"symbol": "btcusdt", "side": side, "orderType": "limit",
        "price": price.to_string(), "quantity": "0.01"});
    let key = format!("load-{n}");
    place_through(
        apps,
        dead,
        &token,
        "/api/currency/order/submit",
        &key,
        body,
        n,
    )
    .await
}

/// The open BTC/USDT orders in the database aggregated per side and price, as the book shows
/// them: `(side, price, remaining quantity)`.
async fn open_levels(db: &sea_orm::DatabaseConnection) -> Vec<(String, String, String)> {
    use backend::entity::spot_order;
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    let rows = spot_order::Entity::find()
        .filter(spot_order::Column::Symbol.eq("btcusdt"))
        .filter(spot_order::Column::Status.is_in(["waitDeal", "partDeal"]))
        .all(db)
        .await
        .expect("open orders");
    let mut levels = std::collections::BTreeMap::<(String, String), rust_decimal::Decimal>::new();
    for row in rows {
        let price: rust_decimal::Decimal = row.price.as_deref().unwrap_or("0").parse().unwrap();
        let quantity: rust_decimal::Decimal =
            row.quantity.as_deref().unwrap_or("0").parse().unwrap();
        let filled: rust_decimal::Decimal = row.filled_quantity.parse().unwrap();
        *levels
            .entry((row.side.clone(), price.normalize().to_string()))
            .or_default() += quantity - filled;
    }
    levels
        .into_iter()
        .map(|((side, price), quantity)| (side, price, quantity.normalize().to_string()))
        .collect()
}

#[tokio::test]
async fn one_owner_per_spot_pair_takes_forwarded_orders_and_a_new_owner_serves_after_a_kill() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let mut cluster = Processes::start(&nats, &database.0).await;
    let bus = Bus::connect(&nats.cluster("test"))
        .await
        .expect("NATS answers");
    let db = sea_orm::Database::connect(database.0.clone())
        .await
        .expect("PostgreSQL answers");
    // The instances spread the pairs as they come up: the first takes every pair, then hands
    // some over. The owner to kill is the one once that is done.
    let pairs = {
        use backend::entity::coin;
        use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
        coin::Entity::find()
            .filter(coin::Column::SpotEnabled.eq(true))
            .count(&db)
            .await
            .expect("count") as usize
    };
    spread_settled(&bus, pairs, Duration::from_secs(20)).await;
    let owner_name = spot_owner(&bus, "btcusdt", None, Duration::from_secs(10)).await;
    let owner = ["a", "b", "c"]
        .iter()
        .position(|name| *name == owner_name)
        .expect("one of the three");
    let mut tokens = Vec::new();
    for n in 0..3 {
        let member = cluster.apps[0]
            .member(&format!("cluster-spot-{n}@example.com"))
            .await;
        crate::helpers::credit_on(
            &db,
            member.user_id,
            "usdt",
            rust_decimal_macros::dec!(100000),
        )
        .await;
        crate::helpers::credit_on(&db, member.user_id, "btc", rust_decimal_macros::dec!(10)).await;
        tokens.push(member.token);
    }
    let apps: Arc<Vec<(String, reqwest::Client)>> = Arc::new(
        cluster
            .apps
            .iter()
            .map(|app| (app.base.clone(), app.client.clone()))
            .collect(),
    );
    let dead = Arc::new(std::sync::Mutex::new(None));

    // Orders and cancellations through all three instances, before any kill: the non-owners
    // forward them and the owner's answers come back. The hop is timed.
    let mut hop = Vec::new();
    let mut direct = Vec::new();
    for n in 0..30 {
        let started = Instant::now();
        let order = place(apps.clone(), dead.clone(), tokens[n % 3].clone(), 1000 + n)
            .await
            .expect("acknowledged");
        let through = (1000 + n) % 3;
        if through == owner {
            direct.push(started.elapsed());
        } else {
            hop.push(started.elapsed());
        }
        assert_eq!(order["symbol"], "btcusdt", "{order}");
    }
    // A replay through another instance answers the first order and places nothing.
    let again = place(apps.clone(), dead.clone(), tokens[0].clone(), 1000).await;
    assert!(again.is_some_and(|order| order["symbol"] == "btcusdt"));
    let mut cancelled = 0;
    for (index, token) in tokens.iter().enumerate() {
        let (status, body) = cluster.apps[index]
            .post_as(
                token,
                "/api/currency/order/orderList?scope=current&pageSize=100",
                None,
            )
            .await;
        assert_eq!(status, 200, "{body}");
        if let Some(open) = body["data"]["records"].as_array().and_then(|r| r.first()) {
            let through = (index + 1) % 3;
            let (status, body) = cluster.apps[through]
                .post_as(
                    token,
                    &format!("/api/currency/order/cancelOrder?id={}", open["id"]),
                    None,
                )
                .await;
            assert_eq!(status, 200, "{body}");
            cancelled += 1;
        }
    }
    assert!(cancelled > 0, "nothing rested to cancel");
    hop.sort();
    direct.sort();
    eprintln!(
        "spot order round trip at p50: {:?} through the owner, {:?} forwarded ({} and {} orders)",
        direct.get(direct.len() / 2),
        hop.get(hop.len() / 2),
        direct.len(),
        hop.len()
    );

    // Load through all three (12 clients placing 10 orders each, one after another); the owner
    // is killed once 30 are acknowledged, while the rest are still coming.
    let acks = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    // How long each order of the load waited for its answer.
    let waits = Arc::new(std::sync::Mutex::new(Vec::new()));
    let load: Vec<_> = (0..12)
        .map(|worker| {
            let (apps, dead, acks, waits) =
                (apps.clone(), dead.clone(), acks.clone(), waits.clone());
            let token = tokens[worker % 3].clone();
            tokio::spawn(async move {
                let mut answers = Vec::new();
                for k in 0..10 {
                    let sent = Instant::now();
                    let answer =
                        place(apps.clone(), dead.clone(), token.clone(), worker + 12 * k).await;
                    waits.lock().unwrap().push(sent.elapsed());
                    acks.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                    answers.push(answer);
                }
                answers
            })
        })
        .collect();
    while acks.load(std::sync::atomic::Ordering::SeqCst) < 30 {
        tokio::time::sleep(Duration::from_millis(2)).await;
    }
    *dead.lock().unwrap() = Some(owner);
    cluster.kill(owner);
    let killed = Instant::now();
    let next = spot_owner(&bus, "btcusdt", Some(&owner_name), Duration::from_secs(8)).await;
    // The new owner serves: an order through a surviving instance is answered.
    let survivor = (owner + 1) % 3;
    let probe = first_answer_after_kill(
        &cluster.apps[survivor],
        &tokens[0],
        "/api/currency/order/submit",
        serde_json::json!({"symbol": "btcusdt", "side": "buy", "orderType": "limit",
            "price": "40000", "quantity": "0.01"}),
        killed,
        &next,
    )
    .await;
    assert!(probe["data"]["id"].as_i64().is_some(), "{probe}");
    let acknowledged = acknowledged_ids(load).await;
    // Orders forwarded to the owner as it died are not left to the 5 s answer timeout: the
    // survivors see the owner gone (its presence expires) and try again against the next one.
    let longest = waits
        .lock()
        .unwrap()
        .iter()
        .max()
        .copied()
        .unwrap_or_default();
    eprintln!("the longest wait of an order of the load: {longest:?}");
    assert!(
        longest < Duration::from_secs(5),
        "an order of the load waited {longest:?}"
    );
    use backend::entity::spot_order;
    use sea_orm::{ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};
    let stored = spot_order::Entity::find()
        .filter(spot_order::Column::Id.is_in(acknowledged.clone()))
        .count(&db)
        .await
        .expect("count");
    assert_eq!(
        stored as usize,
        acknowledged.len(),
        "an acknowledged order is lost"
    );
    let all = spot_order::Entity::find()
        .filter(spot_order::Column::Symbol.eq("btcusdt"))
        .count(&db)
        .await
        .expect("count");
    // 30 before the kill, 120 of the load and the probe: nothing more.
    assert_eq!(all, 151, "an order was placed twice");

    // The new owner's book equals the open orders in the database.
    let next_index = ["a", "b", "c"]
        .iter()
        .position(|name| *name == next)
        .expect("one of the three");
    let expected = open_levels(&db).await;
    let deadline = Instant::now() + Duration::from_secs(5);
    loop {
        let (status, depth) = cluster.apps[next_index]
            .post(
                "/api/market/depth",
                Some(&serde_json::json!({"symbol": "btcusdt", "limit": 50}).to_string()),
                &[],
            )
            .await;
        assert_eq!(status, 200, "{depth}");
        let side = |name: &str, side: &str| -> Vec<(String, String, String)> {
            depth["data"][name]
                .as_array()
                .cloned()
                .unwrap_or_default()
                .iter()
                .map(|level| {
                    let number = |v: &serde_json::Value| {
                        let text = v
                            .as_str()
                            .map(str::to_owned)
                            .unwrap_or_else(|| v.to_string());
                        text.parse::<rust_decimal::Decimal>()
                            .unwrap()
                            .normalize()
                            .to_string()
                    };
                    (side.to_owned(), number(&level[0]), number(&level[1]))
                })
                .collect()
        };
        let mut book = side("bids", "buy");
        book.extend(side("asks", "sell"));
        book.sort();
        if book == expected {
            break;
        }
        assert!(
            Instant::now() < deadline,
            "the book {book:?} is not the open orders {expected:?}"
        );
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let report = backend::funds::audit::audit(&db).await.expect("audited");
    assert!(report.is_clean(), "{report:?}");
}
