//! A periodic job's lease (`job_lease` table): which instance runs the job until when.

use sea_orm::entity::prelude::*;

/// One `job_lease` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "job_lease")]
pub struct Model {
    /// The job (`loan_sweep`).
    #[sea_orm(primary_key, auto_increment = false)]
    pub name: String,
    /// The instance holding it (empty when never taken).
    pub holder: String,
    /// Until when, Unix milliseconds.
    pub until: i64,
}

/// No relations.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
