//! A support chat message (`support_message` table).

use sea_orm::entity::prelude::*;

/// One `support_message` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "support_message")]
pub struct Model {
    /// Id (increasing: the order of the conversation).
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The conversation.
    pub conversation_id: i64,
    /// `customer` or `operator`.
    pub author: String,
    /// The operator who wrote it.
    pub operator_id: Option<i64>,
    /// The text (may be empty when an image is attached).
    pub body: String,
    /// The attached image (`uploaded_file`), checked by the upload path.
    pub file_id: Option<i64>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
