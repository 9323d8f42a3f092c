//! The content store: announcements by topic, the topic and rules pages of `/rule/index`, the help
//! centre, article categories → sections → articles (Zendesk's model), and the company page — per
//! language, with a visible fallback to English, draft or published.
//!
//! `shipped.rs` the texts the binary ships (`backend/content/<lang>/<kind>/<slug>.md`, embedded);
//! `seed.rs` puts them into the database at start without ever overwriting an operator's edit;
//! `render.rs` fills in the platform's live figures and turns Markdown into sanitised HTML, which
//! `markup_check.rs` scans independently for anything that could run;
//! `store.rs` the public reads (language fallback, paging, search); `forms.rs` the generic
//! `cgform` forms and dictionaries; `editor.rs` the operators' writes; `listing.rs` the new-pair
//! announcement of a listed coin; `announcer.rs` pushes published announcements on
//! `/ws/business/notice`; `api.rs` the public HTTP. The operators' HTTP is `admin/content_api.rs`.

pub mod announcer;
pub mod api;
pub mod editor;
pub mod forms;
pub mod listing;
pub mod markup_check;
pub mod render;
pub mod seed;
pub mod shipped;
pub mod store;
pub mod views;

/// What an entry of the store is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Kind {
    /// An article category (the top of the article tree).
    Category,
    /// A section of a category.
    Section,
    /// A topic of `/rule/index` (announcement topics, guides, legal pages), by `modelType`.
    Topic,
    /// A trading product's rules page of `/rule/index`, by `modelType`; the webapp adds the live
    /// settings.
    Rule,
    /// The company page (`/about/index`).
    Company,
    /// A help-centre entry.
    Help,
    /// An article of a section.
    Article,
    /// An announcement of a topic.
    Announcement,
}

impl Kind {
    /// Every kind, parents before children (the order of seeding).
    pub const ALL: [Kind; 8] = [
        Kind::Category,
        Kind::Section,
        Kind::Topic,
        Kind::Rule,
        Kind::Company,
        Kind::Help,
        Kind::Article,
        Kind::Announcement,
    ];

    /// The stored name, also the folder of its shipped files.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::Category => "category",
            Kind::Section => "section",
            Kind::Topic => "topic",
            Kind::Rule => "rule",
            Kind::Company => "company",
            Kind::Help => "help",
            Kind::Article => "article",
            Kind::Announcement => "announcement",
        }
    }

    /// The kind stored as `name`.
    pub fn parse(name: &str) -> Option<Kind> {
        Kind::ALL.into_iter().find(|kind| kind.as_str() == name)
    }

    /// The kind its parent must have, if it has one.
    pub fn parent_kind(self) -> Option<Kind> {
        match self {
            Kind::Section => Some(Kind::Category),
            Kind::Article => Some(Kind::Section),
            _ => None,
        }
    }
}

/// A translation's status.
pub mod status {
    /// Seen by operators only.
    pub const DRAFT: &str = "draft";
    /// Seen by everyone.
    pub const PUBLISHED: &str = "published";
}

/// Where a translation's text comes from.
pub mod origin {
    /// As shipped: a later release may update it.
    pub const SHIPPED: &str = "shipped";
    /// Edited or written by an operator: never overwritten by a start.
    pub const OPERATOR: &str = "operator";
}

/// The help-centre categories, in display order; their names are the messages
/// `help_category_<code>`.
pub const HELP_CATEGORIES: [&str; 5] = ["account", "funds", "trading", "security", "support"];

/// Whether `slug` is 1 to 96 lower-case letters, digits and single hyphens.
pub fn is_slug(slug: &str) -> bool {
    (1..=96).contains(&slug.len())
        && slug
            .bytes()
            .all(|b| b.is_ascii_lowercase() || b.is_ascii_digit() || b == b'-')
        && !slug.starts_with('-')
        && !slug.ends_with('-')
        && !slug.contains("--")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_round_trip_and_parents_come_first() {
        for kind in Kind::ALL {
            assert_eq!(Kind::parse(kind.as_str()), Some(kind));
            if let Some(parent) = kind.parent_kind() {
                let at = |k| Kind::ALL.iter().position(|x| *x == k);
                assert!(at(parent) < at(kind));
            }
        }
        assert_eq!(Kind::parse("template"), None);
    }

    #[test]
    fn slugs() {
        assert!(is_slug("new-pairs"));
        assert!(is_slug("listing-pepeusdt"));
        assert!(!is_slug("New"));
        assert!(!is_slug("-a"));
        assert!(!is_slug("a--b"));
        assert!(!is_slug(""));
        assert!(!is_slug("a/b"));
    }
}
