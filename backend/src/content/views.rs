//! The shapes the content calls answer: a record in a list, a detail with its HTML, and a page of
//! records. Every text says which language it is in and whether that is the reader's language or
//! the English fallback.

use poem_openapi::Object;

/// An entry as a list shows it: its text in the reader's language, else in English.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct ContentRecord {
    /// Entry id: the same in every language.
    pub id: i64,
    /// `announcement`, `topic`, `rule`, `help`, `category`, `section`, `article` or `company`.
    pub kind: String,
    /// Unique within its kind.
    pub slug: String,
    /// A section's category, an article's section.
    pub parent_id: Option<i64>,
    /// An announcement's topic (slug).
    pub topic: Option<String>,
    /// A help entry's category code.
    pub category: Option<String>,
    /// The `modelType` a topic or rules page answers.
    pub model_type: Option<i32>,
    /// Title, plain text.
    pub title: String,
    /// Summary, plain text.
    pub summary: String,
    /// The language of `title`, `summary` (and `html`).
    pub lang: String,
    /// `true` when the text is the English fallback because the reader's language has none.
    pub fallback: bool,
    /// Known to lag behind the English text.
    pub outdated: bool,
    /// Order among siblings.
    pub position: i32,
    /// Listed first.
    pub pinned: bool,
    /// Among the popular ones.
    pub promoted: bool,
    /// Last published, Unix milliseconds.
    pub published_at: Option<i64>,
    /// Created, Unix milliseconds.
    pub created_at: i64,
    /// Last changed, Unix milliseconds.
    pub updated_at: i64,
}

/// An entry with its body.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct ContentDetail {
    /// What a list shows.
    #[oai(flatten)]
    pub record: ContentRecord,
    /// The body as sanitised HTML (nothing in it runs; images are signed upload links valid for
    /// 5 minutes).
    pub html: String,
}

/// A page of records.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct ContentPage {
    /// Matching entries over all pages.
    pub total: u64,
    /// This page (1 for a `pageSize` of -521).
    pub current: u64,
    /// Rows per page used.
    pub size: u64,
    /// Number of pages.
    pub pages: u64,
    /// The rows.
    pub records: Vec<ContentRecord>,
}

/// An entry as an operator edits it: every translation, drafts included, with its Markdown.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct AdminEntry {
    /// Entry id.
    pub id: i64,
    /// Its kind.
    pub kind: String,
    /// Its slug.
    pub slug: String,
    /// A section's category, an article's section.
    pub parent_id: Option<i64>,
    /// An announcement's topic.
    pub topic: Option<String>,
    /// A help entry's category.
    pub category: Option<String>,
    /// A topic's or rules page's `modelType`.
    pub model_type: Option<i32>,
    /// Order among siblings.
    pub position: i32,
    /// Listed first.
    pub pinned: bool,
    /// Among the popular ones.
    pub promoted: bool,
    /// Last published, Unix milliseconds.
    pub published_at: Option<i64>,
    /// Created, Unix milliseconds.
    pub created_at: i64,
    /// Last changed, Unix milliseconds.
    pub updated_at: i64,
    /// Its texts, English first.
    pub translations: Vec<AdminTranslation>,
}

/// One language of an entry, as stored.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
#[oai(skip_serializing_if_is_none)]
pub struct AdminTranslation {
    /// Language code.
    pub lang: String,
    /// Title.
    pub title: String,
    /// Summary.
    pub summary: String,
    /// Markdown body, as written.
    pub body: String,
    /// `draft` or `published`.
    pub status: String,
    /// Known to lag behind English.
    pub outdated: bool,
    /// `shipped` (updated by later releases) or `operator` (never overwritten).
    pub origin: String,
    /// Last changed, Unix milliseconds.
    pub updated_at: i64,
    /// Last published, Unix milliseconds.
    pub published_at: Option<i64>,
}

/// A page of entries for operators.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct AdminEntryPage {
    /// Matching entries over all pages.
    pub total: u64,
    /// This page, newest first.
    pub records: Vec<AdminEntry>,
}
