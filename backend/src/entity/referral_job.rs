//! The hourly referral batch's state (`referral_job` table, one row, id 1): the cursors of the
//! fills already rebated (the job's lease is its `job_lease` row, `crate::lease`).

use sea_orm::entity::prelude::*;

/// The `referral_job` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "referral_job")]
pub struct Model {
    /// Always 1.
    #[sea_orm(primary_key, auto_increment = false)]
    pub id: i64,
    /// The last `spot_trade` id processed.
    pub spot_cursor: i64,
    /// The last `futures_fill` journal entry id processed.
    pub futures_cursor: i64,
    /// When the last batch ran (the clock's time), Unix milliseconds.
    pub last_run_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
