//! Which instance runs a periodic job (`job_lease` table): one row per job, taken or renewed by a
//! conditional update while it is free, expired or already the caller's.

use sea_orm::entity::prelude::*;

/// One `job_lease` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "job_lease")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The job (`earn_daily`).
    pub name: String,
    /// The instance holding it.
    pub holder: String,
    /// Held until, epoch ms (wall clock).
    pub expires_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
