//! Tick retention: ticks older than the cutoff are deleted in batches, newer ones are kept.

use backend::entity::market_tick;
use backend::market::retention::{BATCH, prune_ticks};
use sea_orm::{ActiveValue::Set, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter};

use crate::helpers::spawn_app_with;

const DAY_MS: i64 = 86_400_000;
const NOW: i64 = 1_800_000_000_000;

fn tick(seq: i64, ts_ms: i64) -> market_tick::ActiveModel {
    market_tick::ActiveModel {
        symbol: Set("btcusdt".into()),
        seq: Set(seq),
        price: Set("97000.5".into()),
        volume: Set("0.25".into()),
        trade_count: Set(3),
        ts_ms: Set(ts_ms),
        ..Default::default()
    }
}

#[tokio::test]
async fn old_ticks_are_pruned_in_batches_and_recent_ones_kept() {
    let app = spawn_app_with(|config| config.simulator.enabled = false).await;
    let db = app.db();
    let old = 2 * BATCH + 123;
    let mut seq = 0;
    let mut rows = Vec::new();
    for _ in 0..old {
        seq += 1;
        rows.push(tick(seq, NOW - 8 * DAY_MS + seq));
    }
    for _ in 0..50 {
        seq += 1;
        rows.push(tick(seq, NOW - DAY_MS + seq));
    }
    for chunk in rows.chunks(1000) {
        market_tick::Entity::insert_many(chunk.to_vec())
            .exec(db)
            .await
            .unwrap();
    }

    let cutoff = NOW - 7 * DAY_MS;
    assert_eq!(prune_ticks(db, cutoff).await.unwrap(), old as u64);
    let left = market_tick::Entity::find().count(db).await.unwrap();
    assert_eq!(left, 50);
    let too_old = market_tick::Entity::find()
        .filter(market_tick::Column::TsMs.lt(cutoff))
        .count(db)
        .await
        .unwrap();
    assert_eq!(too_old, 0);
    // Nothing left to prune: a second pass deletes nothing.
    assert_eq!(prune_ticks(db, cutoff).await.unwrap(), 0);
    app.stop().await;
}
