//! One rate an earn product has had (`earn_rate_version` table). A rate change adds a version; a
//! position records the version it was sold at and keeps it to its end.

use sea_orm::entity::prelude::*;

/// One `earn_rate_version` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "earn_rate_version")]
pub struct Model {
    /// Version id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The product.
    pub product_id: i64,
    /// The rate (decimal text, a fraction).
    pub rate: String,
    /// `daily` or `apr`.
    pub rate_basis: String,
    /// The operator who set it.
    pub actor_id: Option<i64>,
    /// When it was set, epoch ms.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
