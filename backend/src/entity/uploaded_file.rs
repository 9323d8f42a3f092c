//! A file a user uploaded, stored under a server-generated name.

use sea_orm::entity::prelude::*;

/// One `uploaded_file` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "uploaded_file")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner; nobody else can read it.
    pub user_id: i64,
    /// Server-generated file name in the upload folder.
    pub stored_name: String,
    /// MIME type detected from the magic bytes.
    pub content_type: String,
    /// Bytes.
    pub size: i64,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
