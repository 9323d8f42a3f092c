//! The market simulator in cluster mode: every instance runs this loop, and only the one holding
//! the lease [`LEASE`] simulates. It waits for the lease, builds the simulator from the database
//! exactly as a server does at start (the pairs, their stored candles and last tick), runs it
//! while it keeps the lease (checked before every tick) and, when it loses it, waits again. An
//! instance that dies stops renewing; its lease expires after [`lease_ttl_ms`] and another
//! instance takes over.

use std::sync::Arc;
use std::time::Duration;

use sea_orm::DatabaseConnection;
use tokio::sync::watch;

use super::MarketHub;
use super::simulator::{self, Ended, QuoteSink, Simulator};
use crate::config::SimulatorConfig;
use crate::lease::Lease;

/// The simulator's lease.
pub const LEASE: &str = "market_simulator";

/// How long the simulator's lease lasts from each renewal: three ticks, at least 3 seconds (it is
/// renewed every tick, so this is how long a dead owner's market stays silent).
pub fn lease_ttl_ms(config: &SimulatorConfig) -> i64 {
    (3 * config.tick_ms as i64).max(3_000)
}

/// Simulates while this instance holds `lease` (see the module), until `shutdown` changes.
pub async fn run(
    config: SimulatorConfig,
    lease: Arc<dyn Lease>,
    quote_sink: Arc<dyn QuoteSink>,
    db: DatabaseConnection,
    hub: Arc<MarketHub>,
    mut shutdown: watch::Receiver<bool>,
) {
    let look_every = Duration::from_millis((lease_ttl_ms(&config) / 3) as u64);
    loop {
        match lease.acquire().await {
            Ok(true) => match build_holding(&config, &lease, &quote_sink, &db, &hub).await {
                None => tracing::warn!("market simulator lease lost while starting"),
                Some(Err(error)) => tracing::error!(%error, "starting the market simulator failed"),
                Some(Ok(simulator)) => {
                    tracing::info!("this instance holds the market simulator's lease");
                    if simulator
                        .run(db.clone(), hub.clone(), shutdown.clone())
                        .await
                        == Ended::Shutdown
                    {
                        return;
                    }
                }
            },
            Ok(false) => {}
            Err(error) => tracing::warn!(%error, "market simulator lease"),
        }
        tokio::select! {
            _ = tokio::time::sleep(look_every) => {}
            _ = shutdown.changed() => return,
        }
    }
}

/// [`start`], renewing the lease meanwhile (a first start backfills a day of candles, which may
/// take longer than the lease lasts); `None` when the lease is lost before it is done.
async fn build_holding(
    config: &SimulatorConfig,
    lease: &Arc<dyn Lease>,
    quote_sink: &Arc<dyn QuoteSink>,
    db: &DatabaseConnection,
    hub: &MarketHub,
) -> Option<Result<Simulator, sea_orm::DbErr>> {
    let renew_every = Duration::from_millis((lease_ttl_ms(config) / 3) as u64);
    let build = start(config, lease, quote_sink, db, hub);
    tokio::pin!(build);
    loop {
        tokio::select! {
            built = &mut build => return Some(built),
            _ = tokio::time::sleep(renew_every) => {
                if !matches!(lease.acquire().await, Ok(true)) {
                    return None;
                }
            }
        }
    }
}

/// The simulator rebuilt from the database, as at a server's start.
async fn start(
    config: &SimulatorConfig,
    lease: &Arc<dyn Lease>,
    quote_sink: &Arc<dyn QuoteSink>,
    db: &DatabaseConnection,
    hub: &MarketHub,
) -> Result<Simulator, sea_orm::DbErr> {
    let pairs = simulator::load_pairs(db).await?;
    Ok(
        Simulator::start(pairs, config.seed, config.tick_ms, hub, db)
            .await?
            .with_quote_sink(quote_sink.clone())
            .with_lease(lease.clone()),
    )
}
