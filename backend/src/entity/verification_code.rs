//! A one-time code sent by e-mail or SMS; stored as a SHA-256 hash.

use sea_orm::entity::prelude::*;

/// One `verification_code` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "verification_code")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// E-mail (lower case) or phone the code was sent to.
    pub target: String,
    /// `register`, `reset`, `bind` or `security`.
    pub purpose: String,
    /// Hex SHA-256 of target, purpose and code.
    pub code_hash: String,
    /// Guesses compared so far (each counted before it is compared, the right one included).
    pub attempts: i32,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub expires_at: i64,
    /// When it was used.
    pub consumed_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
