//! Which instance runs a periodic job: a [`Lease`] taken before each batch. [`DbLease`] is a
//! `job_lease` row taken or renewed by one conditional update while it is free, expired or
//! already this instance's, so of several instances exactly one holds it at a time; one that
//! stops lets it expire. In cluster mode [`for_job`] gives the NATS lease
//! ([`crate::cluster::NatsLease`]) behind the same trait instead.

use std::sync::Arc;

use futures_util::future::BoxFuture;
use sea_orm::{
    ActiveValue::Set,
    ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter,
    sea_query::{Expr, ExprTrait, OnConflict},
};

use crate::clock::now_ms;
use crate::cluster::{Bus, NatsLease};
use crate::entity::job_lease;

/// The lease of job `name` for this instance, lasting `ttl_ms` from each renewal: on the cluster's
/// bus in cluster mode (`bus` given), a `job_lease` row otherwise.
pub fn for_job(
    db: &DatabaseConnection,
    bus: Option<&Arc<Bus>>,
    name: &'static str,
    ttl_ms: i64,
) -> Arc<dyn Lease> {
    match bus {
        Some(bus) => Arc::new(NatsLease::new(bus.clone(), name, ttl_ms)),
        None => Arc::new(DbLease::new(db.clone(), name).with_ttl(ttl_ms)),
    }
}

/// The lease of a singleton that runs unleased on its only instance outside cluster mode (the
/// market simulator, the seconds settlement, tick retention): a NATS lease in
/// cluster mode, `None` otherwise.
pub fn in_cluster(
    bus: Option<&Arc<Bus>>,
    name: &'static str,
    ttl_ms: i64,
) -> Option<Arc<dyn Lease>> {
    bus.map(|bus| Arc::new(NatsLease::new(bus.clone(), name, ttl_ms)) as Arc<dyn Lease>)
}

/// How long a lease lasts without renewal, unless [`DbLease::with_ttl`] says otherwise.
pub const LEASE_MS: i64 = 60_000;

/// Whether this instance may run a singleton guarded by `lease` (`job` names it in the log):
/// always without one (a lone instance), while it holds the lease otherwise; a failure to ask
/// counts as not holding it.
pub async fn holds(lease: Option<&Arc<dyn Lease>>, job: &str) -> bool {
    match lease {
        None => true,
        Some(lease) => lease.acquire().await.unwrap_or_else(|error| {
            tracing::warn!(%error, job, "lease");
            false
        }),
    }
}

/// A job's lease.
pub trait Lease: Send + Sync {
    /// Takes or renews the lease; whether this instance holds it now.
    fn acquire(&self) -> BoxFuture<'_, Result<bool, DbErr>>;
}

/// A `job_lease` row (see the module).
pub struct DbLease {
    db: DatabaseConnection,
    name: &'static str,
    holder: String,
    ttl_ms: i64,
}

impl DbLease {
    /// The lease of job `name` for this instance (a random holder id).
    pub fn new(db: DatabaseConnection, name: &'static str) -> Self {
        Self {
            db,
            name,
            holder: format!("{:016x}", rand::random::<u64>()),
            ttl_ms: LEASE_MS,
        }
    }

    /// The same lease held `ttl_ms` from each renewal instead of [`LEASE_MS`] (a job whose run may
    /// last longer than a minute).
    pub fn with_ttl(self, ttl_ms: i64) -> Self {
        Self { ttl_ms, ..self }
    }

    /// The lease of job `name` held as `holder` (tests play two instances).
    pub fn with_holder(db: DatabaseConnection, name: &'static str, holder: &str) -> Self {
        Self {
            db,
            name,
            holder: holder.to_owned(),
            ttl_ms: LEASE_MS,
        }
    }
}

impl Lease for DbLease {
    fn acquire(&self) -> BoxFuture<'_, Result<bool, DbErr>> {
        Box::pin(async move {
            let now = now_ms();
            job_lease::Entity::insert(job_lease::ActiveModel {
                name: Set(self.name.to_owned()),
                holder: Set(String::new()),
                expires_at: Set(0),
                ..Default::default()
            })
            .on_conflict(
                OnConflict::column(job_lease::Column::Name)
                    .do_nothing()
                    .to_owned(),
            )
            .exec_without_returning(&self.db)
            .await?;
            let taken = job_lease::Entity::update_many()
                .col_expr(job_lease::Column::Holder, Expr::value(self.holder.clone()))
                .col_expr(job_lease::Column::ExpiresAt, Expr::value(now + self.ttl_ms))
                .filter(job_lease::Column::Name.eq(self.name))
                .filter(
                    job_lease::Column::Holder
                        .eq(self.holder.clone())
                        .or(job_lease::Column::ExpiresAt.lt(now)),
                )
                .exec(&self.db)
                .await?;
            Ok(taken.rows_affected == 1)
        })
    }
}
