//! Tick retention: stored ticks older than `simulator.tick_retention_days` are deleted every hour,
//! oldest first, in batches of at most [`BATCH`] rows so the database's write lock is never held
//! for long (on SQLite the ledger waits for it).
//!
//! Ticks are stored in time order, so the oldest rows have the smallest ids: each batch deletes
//! the old rows of one id window starting at the smallest id, and the pass ends at the first
//! window whose first row is recent enough to keep. Every step is a primary-key range scan; no
//! index on the timestamp is needed.
//!
//! Seconds contracts settle from this series: the cutoff never passes the opening tick of the
//! oldest open seconds order ([`protected_cutoff`]), so an order still waiting for its settlement
//! (even one left open across a long outage) finds its ticks; a settled order keeps its opening and
//! settlement ticks in its own row.

use std::time::Duration;

use sea_orm::{
    ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
};

use crate::entity::{market_tick, seconds_order};

/// How often old ticks are pruned.
pub const PRUNE_EVERY: Duration = Duration::from_secs(3600);
/// The most rows one delete statement removes.
pub const BATCH: i64 = 5_000;
/// Milliseconds in a day.
const DAY_MS: i64 = 86_400_000;

/// The time before which ticks are deleted at `now_ms`, or `None` when every tick is kept.
pub fn cutoff(now_ms: i64, retention_days: u32) -> Option<i64> {
    (retention_days > 0).then(|| now_ms - i64::from(retention_days) * DAY_MS)
}

/// `cutoff_ms` moved back, if needed, to the opening tick of the oldest open seconds order: the
/// ticks an open order still settles from are never deleted.
pub async fn protected_cutoff(db: &DatabaseConnection, cutoff_ms: i64) -> Result<i64, DbErr> {
    let oldest_open: Option<i64> = seconds_order::Entity::find()
        .select_only()
        .column(seconds_order::Column::OpenTickMs)
        .filter(seconds_order::Column::Status.eq("open"))
        .order_by_asc(seconds_order::Column::OpenTickMs)
        .limit(1)
        .into_tuple()
        .one(db)
        .await?;
    Ok(oldest_open.map_or(cutoff_ms, |open| cutoff_ms.min(open)))
}

/// Deletes every tick older than `cutoff_ms`; returns how many were deleted.
pub async fn prune_ticks(db: &DatabaseConnection, cutoff_ms: i64) -> Result<u64, DbErr> {
    let mut deleted = 0;
    loop {
        let oldest: Option<(i64, i64)> = market_tick::Entity::find()
            .select_only()
            .column(market_tick::Column::Id)
            .column(market_tick::Column::TsMs)
            .order_by_asc(market_tick::Column::Id)
            .limit(1)
            .into_tuple()
            .one(db)
            .await?;
        let Some((first_id, _)) = oldest.filter(|&(_, ts)| ts < cutoff_ms) else {
            return Ok(deleted);
        };
        let result = market_tick::Entity::delete_many()
            .filter(market_tick::Column::Id.lt(first_id + BATCH))
            .filter(market_tick::Column::TsMs.lt(cutoff_ms))
            .exec(db)
            .await?;
        deleted += result.rows_affected;
        // Let the writers that queued behind this batch go first.
        tokio::task::yield_now().await;
    }
}

/// The job's lease in cluster mode.
pub const LEASE: &str = "tick_retention";
/// How long its lease lasts from each renewal: two periods, so only its holder prunes.
pub const LEASE_MS: i64 = 2 * PRUNE_EVERY.as_millis() as i64;

/// Prunes at start and then every [`PRUNE_EVERY`] until `shutdown` changes; does nothing when
/// `retention_days` is 0. With a `lease` (cluster mode) only while this instance holds it.
pub async fn run(
    db: DatabaseConnection,
    retention_days: u32,
    lease: Option<std::sync::Arc<dyn crate::lease::Lease>>,
    mut shutdown: tokio::sync::watch::Receiver<bool>,
) {
    if retention_days == 0 {
        return;
    }
    let mut every = tokio::time::interval(PRUNE_EVERY);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = every.tick() => {
                if let Some(lease) = &lease
                    && !matches!(lease.acquire().await, Ok(true))
                {
                    continue;
                }
                let Some(cutoff) = cutoff(crate::clock::now_ms(), retention_days) else { return };
                let pruned = match protected_cutoff(&db, cutoff).await {
                    Ok(cutoff) => prune_ticks(&db, cutoff).await,
                    Err(error) => Err(error),
                };
                match pruned {
                    Ok(0) => {}
                    Ok(deleted) => tracing::info!(deleted, retention_days, "old ticks pruned"),
                    Err(error) => tracing::error!(%error, "pruning old ticks failed"),
                }
            }
            _ = shutdown.changed() => return,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cutoff_is_the_retention_before_now() {
        assert_eq!(cutoff(10 * DAY_MS, 7), Some(3 * DAY_MS));
        assert_eq!(cutoff(10 * DAY_MS, 0), None);
    }
}
