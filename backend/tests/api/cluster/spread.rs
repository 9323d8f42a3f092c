//! Spreading the spot pairs (docs/operations.md, "Cluster mode: spot pairs"): three `backend
//! serve` processes started one after another end up owning at most ceil(pairs / 3) pairs each,
//! while orders on every pair are answered during the moves.

use std::sync::Arc;
use std::time::{Duration, Instant};

use backend::cluster::Bus;

use super::processes::{Processes, shares, spot_holders, spread_settled};
use super::{Nats, shared_database};

/// A resting buy of every spot pair, half its reference price, for about 20 USDT: `(symbol,
/// price, quantity)`.
async fn resting_buys(db: &sea_orm::DatabaseConnection) -> Vec<(String, String, String)> {
    use backend::entity::coin;
    use rust_decimal::{Decimal, RoundingStrategy};
    use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};
    coin::Entity::find()
        .filter(coin::Column::SpotEnabled.eq(true))
        .all(db)
        .await
        .expect("the pairs")
        .into_iter()
        .map(|pair| {
            let reference: Decimal = pair.reference_price.parse().expect("a price");
            let price = (reference / Decimal::TWO).round_dp(pair.price_precision as u32);
            let quantity = (Decimal::from(20) / price).round_dp_with_strategy(
                pair.quantity_precision as u32,
                RoundingStrategy::AwayFromZero,
            );
            (pair.symbol, price.to_string(), quantity.to_string())
        })
        .collect()
}

#[tokio::test]
async fn instances_started_one_after_another_spread_the_spot_pairs_while_trading_goes_on() {
    let nats = Nats::start().await;
    let database = shared_database().await;
    let bus = Bus::connect(&nats.cluster("test"))
        .await
        .expect("NATS answers");
    let db = sea_orm::Database::connect(database.0.clone())
        .await
        .expect("PostgreSQL answers");
    let mut cluster = Processes::none();
    cluster.launch(&nats, &database.0, "a", false).await;
    let buys = resting_buys(&db).await;
    let pairs = buys.len();
    assert!(pairs >= 6, "{pairs} pairs listed");
    // Alone, the first instance takes every pair.
    let deadline = Instant::now() + Duration::from_secs(20);
    while shares(&spot_holders(&bus).await, pairs) != (vec![pairs, 0, 0], true) {
        assert!(Instant::now() < deadline, "{:?}", spot_holders(&bus).await);
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let member = cluster.apps[0].member("cluster-spread@example.com").await;
    crate::helpers::credit_on(
        &db,
        member.user_id,
        "usdt",
        rust_decimal_macros::dec!(1000000),
    )
    .await;

    // Orders on every pair, one after another through the first instance, while the others
    // join: the pairs that move are answered by their new owners through it.
    let base = (cluster.apps[0].base.clone(), cluster.apps[0].client.clone());
    let moving = Arc::new(std::sync::atomic::AtomicBool::new(true));
    let placed = Arc::new(std::sync::atomic::AtomicUsize::new(0));
    let load = tokio::spawn({
        let (moving, placed, token) = (moving.clone(), placed.clone(), member.token.clone());
        async move {
            let (base, client) = base;
            let mut answers = Vec::new();
            let mut n = 0;
            while moving.load(std::sync::atomic::Ordering::SeqCst) {
                let (symbol, price, quantity) = &buys[n % buys.len()];
                let body = serde_json::json!({"symbol": symbol, "side": "buy",
                    "orderType": "limit", "price": price, "quantity": quantity});
                let deadline = Instant::now() + Duration::from_secs(15);
                let answered = loop {
                    let response = client
                        .post(format!("{base}/api/currency/order/submit"))
                        .header("satoken", &token)
                        .header("Idempotency-Key", format!("spread-{n}"))
                        .json(&body)
                        .send()
                        .await;
                    if let Ok(response) = response
                        && response.status().as_u16() == 200
                        && let Ok(value) = response.json::<serde_json::Value>().await
                    {
                        break value["data"]["id"].as_i64();
                    }
                    if Instant::now() >= deadline {
                        break None;
                    }
                    tokio::time::sleep(Duration::from_millis(20)).await;
                };
                answers.push((symbol.clone(), answered));
                placed.fetch_add(1, std::sync::atomic::Ordering::SeqCst);
                n += 1;
            }
            answers
        }
    });
    cluster.launch(&nats, &database.0, "b", false).await;
    cluster.launch(&nats, &database.0, "c", false).await;
    let joined = Instant::now();
    spread_settled(&bus, pairs, Duration::from_secs(30)).await;
    eprintln!(
        "pairs spread {:?} {:?} after the third joined",
        shares(&spot_holders(&bus).await, pairs).0,
        joined.elapsed()
    );
    // One more order on every pair, now on their new owners, before the load stops.
    let spread_at = placed.load(std::sync::atomic::Ordering::SeqCst);
    while placed.load(std::sync::atomic::Ordering::SeqCst) < spread_at + pairs + 1 {
        assert!(!load.is_finished(), "the load stopped");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    moving.store(false, std::sync::atomic::Ordering::SeqCst);
    let answers = load.await.expect("joined");
    let unanswered: Vec<_> = answers.iter().filter(|(_, id)| id.is_none()).collect();
    assert!(unanswered.is_empty(), "orders not answered: {unanswered:?}");
    let moved: std::collections::BTreeSet<_> = spot_holders(&bus)
        .await
        .into_iter()
        .filter(|(_, holder)| holder != "a")
        .map(|(symbol, _)| symbol)
        .collect();
    assert!(
        answers.iter().any(|(symbol, _)| moved.contains(symbol)),
        "no order on a moved pair"
    );
    use backend::entity::spot_order;
    use sea_orm::{EntityTrait, PaginatorTrait};
    let stored = spot_order::Entity::find().count(&db).await.expect("count");
    assert_eq!(
        stored as usize,
        answers.len(),
        "an order lost or placed twice"
    );
}
