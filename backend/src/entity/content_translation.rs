//! The text of a [`super::content_entry`] in one language: Markdown, draft or published.

use sea_orm::entity::prelude::*;

/// One `content_translation` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "content_translation")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The entry it translates.
    pub entry_id: i64,
    /// Language code (`en`, `zh-CN`, …).
    pub lang: String,
    /// Title, plain text.
    pub title: String,
    /// One or two sentences for lists, plain text.
    pub summary: String,
    /// Markdown, rendered and sanitised on output.
    pub body: String,
    /// `draft` (operators only) or `published`.
    pub status: String,
    /// Known to lag behind the English text.
    pub outdated: bool,
    /// `shipped` (as the binary ships it, updated by a later release) or `operator` (edited by an
    /// operator: never overwritten by a start).
    pub origin: String,
    /// SHA-256 of the shipped file it was seeded from, hex.
    pub shipped_hash: Option<String>,
    /// Created, Unix milliseconds.
    pub created_at: i64,
    /// Last changed, Unix milliseconds.
    pub updated_at: i64,
    /// Last published, Unix milliseconds.
    pub published_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
