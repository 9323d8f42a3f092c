//! A shipped text seeded once (kind, slug, language): a later start seeds it no more, so what an
//! operator deleted stays deleted.

use sea_orm::entity::prelude::*;

/// One `content_seeded` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "content_seeded")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The entry's kind.
    pub kind: String,
    /// The entry's slug.
    pub slug: String,
    /// The language.
    pub lang: String,
    /// When, Unix milliseconds.
    pub seeded_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
