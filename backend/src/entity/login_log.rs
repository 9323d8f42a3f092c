//! One login attempt on an existing account.

use sea_orm::entity::prelude::*;

/// One `login_log` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "login_log")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The account.
    pub user_id: i64,
    /// IP address.
    pub ip: String,
    /// User agent.
    pub user_agent: String,
    /// Whether the password was right.
    pub success: bool,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
