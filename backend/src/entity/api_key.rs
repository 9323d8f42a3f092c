//! An API key; the secret is shown once and stored as a SHA-256 hash.

use sea_orm::entity::prelude::*;

/// One `api_key` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "api_key")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// The user's label.
    pub label: String,
    /// Public key id.
    pub access_key: String,
    /// Hex SHA-256 of the secret.
    pub secret_hash: String,
    /// Comma-separated: `read`, `trade`, `withdraw`.
    pub permissions: String,
    /// Comma-separated IP addresses; empty: any.
    pub ip_whitelist: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// When it was deleted.
    pub deleted_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
