//! Leases of periodic jobs, so that a job runs on one instance at a time: [`Lease`] is the small
//! trait a job asks, [`DbLease`] its implementation over the `job_lease` table — a row per job,
//! taken by one conditional UPDATE (`until` passed, or already ours) that the database serialises.
//! A holder that stops renewing loses the lease once `until` passes; another instance then takes it.

use futures_util::future::BoxFuture;
use sea_orm::{
    ColumnTrait, Condition, DatabaseConnection, DbErr, EntityTrait, QueryFilter, sea_query::Expr,
};

use crate::entity::job_lease;

/// Who runs a job now.
pub trait Lease: Send + Sync {
    /// Takes (or renews) the lease of `job` for `holder` until `now + ttl_ms`; `true` when held.
    fn try_take<'a>(
        &'a self,
        job: &'a str,
        holder: &'a str,
        now: i64,
        ttl_ms: i64,
    ) -> BoxFuture<'a, Result<bool, DbErr>>;
}

/// [`Lease`] over the `job_lease` table (the migrations create each job's row).
#[derive(Debug, Clone)]
pub struct DbLease(pub DatabaseConnection);

impl Lease for DbLease {
    fn try_take<'a>(
        &'a self,
        job: &'a str,
        holder: &'a str,
        now: i64,
        ttl_ms: i64,
    ) -> BoxFuture<'a, Result<bool, DbErr>> {
        Box::pin(async move {
            let taken = job_lease::Entity::update_many()
                .col_expr(job_lease::Column::Holder, Expr::value(holder))
                .col_expr(job_lease::Column::Until, Expr::value(now + ttl_ms))
                .filter(job_lease::Column::Name.eq(job))
                .filter(
                    Condition::any()
                        .add(job_lease::Column::Until.lte(now))
                        .add(job_lease::Column::Holder.eq(holder)),
                )
                .exec(&self.0)
                .await?;
            Ok(taken.rows_affected == 1)
        })
    }
}

/// A name for this instance's leases: random, fixed for the process.
pub fn instance_name() -> String {
    format!("instance-{:016x}", rand::random::<u64>())
}
