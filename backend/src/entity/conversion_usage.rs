//! What a user converted on one UTC day (`conversion_usage` table), valued in USDT, counted
//! against the daily conversion limit.

use sea_orm::entity::prelude::*;

/// One `conversion_usage` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "conversion_usage")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The user.
    pub user_id: i64,
    /// The UTC day, as whole days since the epoch.
    pub day: i64,
    /// The USDT value converted that day, a decimal string.
    pub used_usdt: String,
    /// Incremented by every update (compare-and-swap).
    pub version: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
