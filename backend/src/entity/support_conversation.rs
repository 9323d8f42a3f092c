//! A support conversation (`support_conversation` table): a user's, or a visitor's who left an
//! e-mail (then only the hash of its conversation token is kept), with its queue state.

use sea_orm::entity::prelude::*;

/// One `support_conversation` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "support_conversation")]
pub struct Model {
    /// Id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The logged-in customer; `None` for a visitor.
    pub user_id: Option<i64>,
    /// The visitor's e-mail (for the away e-mail); `None` for a user.
    pub visitor_email: Option<String>,
    /// SHA-256 (hex) of the visitor's conversation token; `None` for a user.
    pub visitor_token_hash: Option<String>,
    /// The customer's language (of the away e-mail), last seen.
    pub lang: String,
    /// `queued` (no operator), `assigned` or `closed`.
    pub status: String,
    /// The operator it is assigned to.
    pub operator_id: Option<i64>,
    /// Operator messages the customer has not read.
    pub customer_unread: i32,
    /// Customer messages the operators have not read.
    pub operator_unread: i32,
    /// Whether the away e-mail was sent since the customer last read.
    pub away_mailed: bool,
    /// Unix milliseconds of the last message (or of the creation).
    pub last_message_at: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the closing.
    pub closed_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
