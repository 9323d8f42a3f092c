//! What one user bought of one earn product (`earn_holding` table), counted against the per-user
//! limits by a conditional update inside the subscription's transaction.

use sea_orm::entity::prelude::*;

/// One `earn_holding` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "earn_holding")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The product.
    pub product_id: i64,
    /// The user.
    pub user_id: i64,
    /// Bought in all, units of 10⁻⁸.
    pub units: i64,
    /// Subscriptions made.
    pub count: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
