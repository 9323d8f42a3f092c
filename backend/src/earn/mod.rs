//! Earn products: pledge (staking) mining, DeFi liquidity mining and wealth products, on the
//! double-entry ledger.
//!
//! - [`products`]: the operator's products (kinds, tabs, names per language, rate versions,
//!   quotas, schedule, status) and the rules that say whether one is open to a user now.
//! - [`subscribe`]: a subscription — funding → earn in one journal entry, the quota and the
//!   per-user limits checked and recorded by conditional updates in the same transaction.
//! - [`payout`]: the daily job — each due accrual day paid to the funding bucket (`earn_income`),
//!   matured principals returned (`earn_maturity`), in batches that each commit whole; a day is paid
//!   once (`earn_payout` is unique per position and day), missed days are caught up, and one
//!   instance runs it at a time ([`crate::lease`]).
//! - [`redeem`]: early redemption and its preview, by the position's rule.
//! - [`statement`]: a position's statement, every line with its journal entry and running totals.
//! - [`terms`]: a position's terms for wasm-core's `earn_schedule`, and its figures now.
//! - [`replay`]: `backend earn-replay`, every stored payout recomputed.
//! - `api.rs`: the user's calls; the operator's are `admin::earn_api`.
//!
//! Every figure comes from `wasm_core::earn`, the function the webapp's preview runs.

pub mod api;
pub mod payout;
pub mod products;
pub mod redeem;
pub mod replay;
pub mod statement;
pub mod subscribe;
pub mod terms;
pub mod views;

use std::sync::Arc;
use std::time::Duration;

use sea_orm::DatabaseConnection;
use tokio::sync::{Mutex, broadcast, watch};

use crate::clock::Clock;
use crate::db::Writer;
use crate::refusal::Refusal;
use crate::user::events::UserEvent;

/// How often each instance looks for due payouts.
const RUN_EVERY: Duration = Duration::from_secs(30);

/// The earn job and the users' earn messages.
pub struct EarnEngine {
    db: DatabaseConnection,
    writer: Writer,
    clock: Clock,
    lease: Arc<dyn crate::lease::Lease>,
    events: broadcast::Sender<Arc<UserEvent>>,
    running: Mutex<()>,
}

impl EarnEngine {
    /// The engine over `db` (batches written through `writer`), reading days from `clock`, and its
    /// periodic task, run while this instance holds `lease` (job [`payout::JOB`]), stopped by
    /// `shutdown`.
    pub fn start(
        db: DatabaseConnection,
        writer: Writer,
        clock: Clock,
        lease: Arc<dyn crate::lease::Lease>,
        shutdown: watch::Receiver<bool>,
    ) -> Arc<Self> {
        let engine = Arc::new(Self {
            db,
            writer,
            clock,
            lease,
            events: broadcast::channel(4096).0,
            running: Mutex::new(()),
        });
        tokio::spawn(engine.clone().run(shutdown));
        engine
    }

    async fn run(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let mut every = tokio::time::interval(RUN_EVERY);
        loop {
            tokio::select! {
                _ = every.tick() => {
                    if let Err(error) = self.run_due().await {
                        tracing::error!(?error, "earn payouts failed; retrying later");
                    }
                }
                _ = shutdown.changed() => break,
            }
        }
    }

    /// Pays every accrual day due by the clock's now and returns matured principals, if this
    /// instance holds the job's lease (see [`payout::run_due`]).
    pub async fn run_due(&self) -> Result<payout::Run, Refusal> {
        let _one_at_a_time = self.running.lock().await;
        payout::run_due(
            &self.writer,
            self.lease.as_ref(),
            self.clock.now_ms(),
            payout::BATCH,
            &|event| {
                // No receiver is not an error: the user is not watching.
                let _ = self.events.send(Arc::new(event));
            },
        )
        .await
    }

    /// The clock the rules read.
    pub fn clock(&self) -> &Clock {
        &self.clock
    }

    /// The database.
    pub fn db(&self) -> &DatabaseConnection {
        &self.db
    }

    /// Publishes `event` on its user's channel.
    pub fn publish(&self, event: UserEvent) {
        let _ = self.events.send(Arc::new(event));
    }

    /// The users' `earnPayout` and `earnOrder` messages.
    pub fn subscribe_user_events(&self) -> broadcast::Receiver<Arc<UserEvent>> {
        self.events.subscribe()
    }
}
