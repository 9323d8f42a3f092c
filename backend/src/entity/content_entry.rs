//! One item of the content store ([`crate::content`]): what all its languages share — its kind,
//! slug, place (parent, topic, category, `modelType`), order and flags. Its texts are
//! [`super::content_translation`] rows.

use sea_orm::entity::prelude::*;

/// One `content_entry` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "content_entry")]
pub struct Model {
    /// Row id: the id the public calls name, the same in every language.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `announcement`, `topic`, `rule`, `help`, `category`, `section`, `article` or `company`.
    pub kind: String,
    /// Unique within its kind (`deposit`, `new-pairs`, `listing-pepeusdt`).
    pub slug: String,
    /// A section's category, an article's section.
    pub parent_id: Option<i64>,
    /// An announcement's topic (the topic's slug).
    pub topic: Option<String>,
    /// A help-centre entry's category code (`account`, `funds`, …).
    pub category: Option<String>,
    /// The `modelType` of `/rule/index` a topic or rules page answers.
    pub model_type: Option<i32>,
    /// Order among its siblings, ascending.
    pub position: i32,
    /// An announcement listed before the others of its topic.
    pub pinned: bool,
    /// A help entry or article shown among the popular ones.
    pub promoted: bool,
    /// When a translation of it was last published, Unix milliseconds.
    pub published_at: Option<i64>,
    /// Created, Unix milliseconds.
    pub created_at: i64,
    /// Last changed, Unix milliseconds.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
