//! Which instance runs a periodic job: a [`Lease`] taken before each batch. [`DbLease`] is a
//! `job_lease` row taken or renewed by one conditional update while it is free, expired or
//! already this instance's, so of several instances exactly one holds it at a time; one that
//! stops lets it expire. (A message-bus lease can replace it behind the same trait.)

use futures_util::future::BoxFuture;
use sea_orm::{
    ActiveValue::Set,
    ColumnTrait, DatabaseConnection, DbErr, EntityTrait, QueryFilter,
    sea_query::{Expr, ExprTrait, OnConflict},
};

use crate::clock::now_ms;
use crate::entity::job_lease;

/// How long a lease lasts without renewal, unless [`DbLease::with_ttl`] says otherwise.
pub const LEASE_MS: i64 = 60_000;

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
