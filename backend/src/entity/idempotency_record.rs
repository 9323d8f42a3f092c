//! The first answer of a money-moving call, by the caller's `Idempotency-Key`.

use sea_orm::entity::prelude::*;

/// One `idempotency_record` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "idempotency_record")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The caller.
    pub user_id: i64,
    /// The `Idempotency-Key` header.
    pub key: String,
    /// The operation it was used for.
    pub operation: String,
    /// Hex SHA-256 of the operation and the request body.
    pub request_hash: String,
    /// The `data` of the first answer, as JSON.
    pub response: String,
    /// The journal entry posted.
    pub entry_id: i64,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
