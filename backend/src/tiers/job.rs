//! The periodic tier recompute: every `[tiers] recompute_minutes`, the instance holding the job's
//! lease (`crate::lease::DbLease`, row [`JOB`]) recomputes every user's tiers at the shared clock's
//! time; every instance then reloads its VIP set from the database, so all engines follow. A
//! deposit's credit recomputes its owner at once (`funds::deposits_api`), so an account tier never
//! waits for the job.

use std::sync::Arc;
use std::time::Duration;

use sea_orm::{DatabaseConnection, DbErr};
use tokio::sync::watch;

use super::FeeDiscounts;
use super::service::recompute_all;
use crate::clock::Clock;
use crate::config::TiersConfig;
use crate::funds::prices::Rates;
use crate::lease::Lease;
use crate::market::MarketHub;

/// The job's name in `job_lease`.
pub const JOB: &str = "tier_recompute";

/// One run: recomputes every user at `now` with the live prices; how many users.
pub async fn run_once(
    db: &DatabaseConnection,
    hub: &MarketHub,
    config: &TiersConfig,
    discounts: &FeeDiscounts,
    now: i64,
) -> Result<usize, DbErr> {
    let rates = Rates::live(db, hub)
        .await
        .map_err(|e| DbErr::Custom(format!("{e:?}")))?;
    recompute_all(db, config, &rates, discounts, now).await
}

/// How long the job's lease lasts from each renewal: two periods, so that of instances started
/// at different times only the holder runs in a period.
pub fn lease_ttl_ms(config: &TiersConfig) -> i64 {
    2 * config.recompute_minutes.max(1) as i64 * 60_000
}

/// The background job every instance starts (see the module), run while it holds `lease` (job
/// [`JOB`], [`lease_ttl_ms`]); it stops on shutdown.
pub async fn run(
    db: DatabaseConnection,
    hub: Arc<MarketHub>,
    config: TiersConfig,
    discounts: Arc<FeeDiscounts>,
    clock: Clock,
    lease: Arc<dyn Lease>,
    mut shutdown: watch::Receiver<bool>,
) {
    let period = config.recompute_minutes.max(1) * 60;
    let mut tick = tokio::time::interval(Duration::from_secs(period));
    loop {
        tokio::select! {
            _ = tick.tick() => {}
            _ = shutdown.changed() => return,
        }
        match lease.acquire().await {
            Ok(true) => {
                if let Err(error) = run_once(&db, &hub, &config, &discounts, clock.now_ms()).await {
                    tracing::warn!(?error, "tier recompute failed; the next run retries");
                }
            }
            Ok(false) => {}
            Err(error) => tracing::warn!(%error, "tier recompute lease"),
        }
        if let Err(error) = discounts.reload(&db).await {
            tracing::warn!(%error, "reloading the VIP set");
        }
    }
}
