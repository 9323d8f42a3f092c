//! The public reads of the content store: only published texts, each in the reader's language or,
//! when it has none, in English — marked as the fallback ([`ContentRecord::fallback`]). An entry
//! with neither is invisible. Lists are paged in the database with the bounds of
//! [`crate::paging`]; search reads the published help and article texts of the reader's language
//! and English (operators write those, so they stay few) and pages the matches.

use std::collections::HashMap;

use sea_orm::{
    ColumnTrait, ConnectionTrait, EntityTrait, Order, PaginatorTrait, QueryFilter, QueryOrder,
    QuerySelect, sea_query::Query,
};

use super::render::{self, Vars};
use super::views::{ContentDetail, ContentPage, ContentRecord};
use super::{Kind, status};
use crate::entity::{content_entry, content_translation};
use crate::i18n::{Lang, Msg};
use crate::kyc::files;
use crate::paging::{MAX_PAGE_SIZE, Paging};
use crate::refusal::Refusal;

/// How a reader's texts are turned into answers: the platform's figures and the key that signs
/// image links.
pub struct Renderer {
    /// The figures `{{name}}` stands for.
    pub vars: Vars,
    /// Signs the links of uploaded images.
    pub link_key: [u8; 32],
    /// Now, Unix milliseconds (image links expire 5 minutes later).
    pub now: i64,
}

impl Renderer {
    /// A list row.
    pub fn record(
        &self,
        entry: &content_entry::Model,
        text: &content_translation::Model,
        reader: Lang,
    ) -> ContentRecord {
        let summary = if text.summary.trim().is_empty() {
            render::plain_excerpt(&self.vars.fill(&text.body), 160)
        } else {
            self.vars.fill(&text.summary)
        };
        ContentRecord {
            id: entry.id,
            kind: entry.kind.clone(),
            slug: entry.slug.clone(),
            parent_id: entry.parent_id,
            topic: entry.topic.clone(),
            category: entry.category.clone(),
            model_type: entry.model_type,
            title: self.vars.fill(&text.title),
            summary,
            lang: text.lang.clone(),
            fallback: text.lang != reader.code(),
            outdated: text.outdated,
            position: entry.position,
            pinned: entry.pinned,
            promoted: entry.promoted,
            published_at: entry.published_at,
            created_at: entry.created_at,
            updated_at: entry.updated_at.max(text.updated_at),
        }
    }

    /// A detail: the row and its body as sanitised HTML.
    pub fn detail(
        &self,
        entry: &content_entry::Model,
        text: &content_translation::Model,
        reader: Lang,
    ) -> ContentDetail {
        let key = self.link_key;
        let now = self.now;
        let html = render::to_html(&self.vars.fill(&text.body), &move |id| {
            Some(files::sign_link(&key, id, now).url)
        });
        ContentDetail {
            record: self.record(entry, text, reader),
            html,
        }
    }
}

/// The column a list is ordered by.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum SortColumn {
    /// Entry id (creation order).
    #[default]
    Id,
    /// Position among siblings.
    Position,
    /// Creation time.
    CreatedAt,
    /// Last change.
    UpdatedAt,
    /// Last publication.
    PublishedAt,
}

impl SortColumn {
    fn column(self) -> content_entry::Column {
        match self {
            SortColumn::Id => content_entry::Column::Id,
            SortColumn::Position => content_entry::Column::Position,
            SortColumn::CreatedAt => content_entry::Column::CreatedAt,
            SortColumn::UpdatedAt => content_entry::Column::UpdatedAt,
            SortColumn::PublishedAt => content_entry::Column::PublishedAt,
        }
    }
}

/// How many rows: a page, or all of them up to [`MAX_PAGE_SIZE`] (the spec's page size -521).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Size {
    /// One page.
    Page(Paging),
    /// The first [`MAX_PAGE_SIZE`] rows: "all" for any list up to that length; `total` says
    /// whether there are more.
    All,
}

impl Size {
    fn paging(self) -> Paging {
        match self {
            Size::Page(paging) => paging,
            Size::All => Paging::new(Some(1), Some(MAX_PAGE_SIZE)),
        }
    }
}

/// Which entries a list holds and in which order.
#[derive(Debug, Clone, Default)]
pub struct Listing {
    /// Of these kinds.
    pub kinds: Vec<Kind>,
    /// Only children of this entry.
    pub parent_id: Option<i64>,
    /// Only announcements of this topic.
    pub topic: Option<String>,
    /// Only help entries of this category.
    pub category: Option<String>,
    /// Pinned entries first.
    pub pinned_first: bool,
    /// Then by this column.
    pub sort: SortColumn,
    /// Descending.
    pub descending: bool,
}

fn kind_names(kinds: &[Kind]) -> Vec<&'static str> {
    kinds.iter().map(|k| k.as_str()).collect()
}

/// The condition "has a published text in `lang` or English".
fn visible_in(lang: Lang) -> sea_orm::sea_query::SimpleExpr {
    let mut langs = vec![lang.code()];
    if lang != Lang::En {
        langs.push(Lang::En.code());
    }
    content_entry::Column::Id.in_subquery(
        Query::select()
            .column(content_translation::Column::EntryId)
            .from(content_translation::Entity)
            .and_where(content_translation::Column::Status.eq(status::PUBLISHED))
            .and_where(content_translation::Column::Lang.is_in(langs))
            .to_owned(),
    )
}

/// The published text of each of `ids` in `lang`, else in English.
pub async fn texts_for(
    db: &impl ConnectionTrait,
    ids: &[i64],
    lang: Lang,
) -> Result<HashMap<i64, content_translation::Model>, sea_orm::DbErr> {
    if ids.is_empty() {
        return Ok(HashMap::new());
    }
    let rows = content_translation::Entity::find()
        .filter(content_translation::Column::EntryId.is_in(ids.iter().copied()))
        .filter(content_translation::Column::Status.eq(status::PUBLISHED))
        .filter(content_translation::Column::Lang.is_in([lang.code(), Lang::En.code()]))
        .all(db)
        .await?;
    let mut chosen: HashMap<i64, content_translation::Model> = HashMap::new();
    for row in rows {
        let better = chosen
            .get(&row.entry_id)
            .is_none_or(|current| current.lang != lang.code());
        if better {
            chosen.insert(row.entry_id, row);
        }
    }
    Ok(chosen)
}

/// A page of `listing` in the reader's language.
pub async fn page(
    db: &impl ConnectionTrait,
    renderer: &Renderer,
    listing: &Listing,
    size: Size,
    lang: Lang,
) -> Result<ContentPage, Refusal> {
    let mut select = content_entry::Entity::find()
        .filter(content_entry::Column::Kind.is_in(kind_names(&listing.kinds)))
        .filter(visible_in(lang));
    if let Some(parent) = listing.parent_id {
        select = select.filter(content_entry::Column::ParentId.eq(parent));
    }
    if let Some(topic) = &listing.topic {
        select = select.filter(content_entry::Column::Topic.eq(topic.as_str()));
    }
    if let Some(category) = &listing.category {
        select = select.filter(content_entry::Column::Category.eq(category.as_str()));
    }
    let total = select.clone().count(db).await?;
    if listing.pinned_first {
        select = select.order_by_desc(content_entry::Column::Pinned);
    }
    let direction = if listing.descending {
        Order::Desc
    } else {
        Order::Asc
    };
    select = select
        .order_by(listing.sort.column(), direction.clone())
        .order_by(content_entry::Column::Id, direction);
    let paging = size.paging();
    let entries = select
        .offset(paging.offset())
        .limit(paging.page_size)
        .all(db)
        .await?;
    let ids: Vec<i64> = entries.iter().map(|e| e.id).collect();
    let texts = texts_for(db, &ids, lang).await?;
    let records = entries
        .iter()
        .filter_map(|entry| {
            texts
                .get(&entry.id)
                .map(|text| renderer.record(entry, text, lang))
        })
        .collect();
    Ok(ContentPage {
        total,
        current: paging.page,
        size: paging.page_size,
        pages: total.div_ceil(paging.page_size),
        records,
    })
}

/// One visible entry of one of `kinds` by id, with its body.
pub async fn detail(
    db: &impl ConnectionTrait,
    renderer: &Renderer,
    kinds: &[Kind],
    id: i64,
    lang: Lang,
) -> Result<ContentDetail, Refusal> {
    let entry = content_entry::Entity::find_by_id(id)
        .filter(content_entry::Column::Kind.is_in(kind_names(kinds)))
        .one(db)
        .await?;
    render_one(db, renderer, entry, lang).await
}

async fn render_one(
    db: &impl ConnectionTrait,
    renderer: &Renderer,
    entry: Option<content_entry::Model>,
    lang: Lang,
) -> Result<ContentDetail, Refusal> {
    let entry = entry.ok_or_else(|| Refusal::not_found(Msg::ContentNotFound))?;
    let texts = texts_for(db, &[entry.id], lang).await?;
    let text = texts
        .get(&entry.id)
        .ok_or_else(|| Refusal::not_found(Msg::ContentNotFound))?;
    Ok(renderer.detail(&entry, text, lang))
}

/// The topic or rules page that answers `model_type`.
pub async fn by_model_type(
    db: &impl ConnectionTrait,
    renderer: &Renderer,
    model_type: i32,
    lang: Lang,
) -> Result<ContentDetail, Refusal> {
    let entry = content_entry::Entity::find()
        .filter(content_entry::Column::ModelType.eq(model_type))
        .filter(content_entry::Column::Kind.is_in(kind_names(&[Kind::Topic, Kind::Rule])))
        .order_by_asc(content_entry::Column::Id)
        .one(db)
        .await?;
    render_one(db, renderer, entry, lang).await
}

/// The entry of `kind` named `slug` (the company page is `company/about`).
pub async fn by_slug(
    db: &impl ConnectionTrait,
    renderer: &Renderer,
    kind: Kind,
    slug: &str,
    lang: Lang,
) -> Result<ContentDetail, Refusal> {
    let entry = content_entry::Entity::find()
        .filter(content_entry::Column::Kind.eq(kind.as_str()))
        .filter(content_entry::Column::Slug.eq(slug))
        .one(db)
        .await?;
    render_one(db, renderer, entry, lang).await
}

/// The visible help entries and articles with a text in the reader's language or English, each
/// with the text the reader gets.
async fn readable(
    db: &impl ConnectionTrait,
    lang: Lang,
    kinds: &[Kind],
    promoted_only: bool,
) -> Result<Vec<(content_entry::Model, content_translation::Model)>, sea_orm::DbErr> {
    let mut select = content_entry::Entity::find()
        .filter(content_entry::Column::Kind.is_in(kind_names(kinds)))
        .filter(visible_in(lang));
    if promoted_only {
        select = select.filter(content_entry::Column::Promoted.eq(true));
    }
    let entries = select.all(db).await?;
    let ids: Vec<i64> = entries.iter().map(|e| e.id).collect();
    let mut texts = texts_for(db, &ids, lang).await?;
    Ok(entries
        .into_iter()
        .filter_map(|entry| texts.remove(&entry.id).map(|text| (entry, text)))
        .collect())
}

/// What a search looks through: help entries and articles by default.
#[derive(Debug, Clone, Copy)]
pub struct SearchScope<'a> {
    /// Entries of these kinds.
    pub kinds: &'a [Kind],
    /// Only help entries of this category.
    pub category: Option<&'a str>,
}

impl Default for SearchScope<'_> {
    fn default() -> Self {
        Self {
            kinds: &[Kind::Help, Kind::Article],
            category: None,
        }
    }
}

/// Entries of `scope` whose text (in the reader's language, else English) contains `query` in
/// any case (all of them for an empty query): title matches first, then by position.
pub async fn search(
    db: &impl ConnectionTrait,
    renderer: &Renderer,
    query: &str,
    scope: SearchScope<'_>,
    paging: Paging,
    lang: Lang,
) -> Result<ContentPage, Refusal> {
    let needle = query.trim().to_lowercase();
    let mut matches: Vec<(bool, content_entry::Model, content_translation::Model)> =
        readable(db, lang, scope.kinds, false)
            .await?
            .into_iter()
            .filter(|(entry, _)| {
                scope
                    .category
                    .is_none_or(|c| entry.category.as_deref() == Some(c))
            })
            .filter_map(|(entry, text)| {
                let title = renderer
                    .vars
                    .fill(&text.title)
                    .to_lowercase()
                    .contains(&needle);
                let rest = text.summary.to_lowercase().contains(&needle)
                    || text.body.to_lowercase().contains(&needle);
                (title || rest).then_some((title, entry, text))
            })
            .collect();
    matches.sort_by(|a, b| {
        (!a.0, a.2.lang != lang.code(), a.1.position, a.1.id).cmp(&(
            !b.0,
            b.2.lang != lang.code(),
            b.1.position,
            b.1.id,
        ))
    });
    let total = matches.len() as u64;
    let records = matches
        .iter()
        .skip(usize::try_from(paging.offset()).unwrap_or(usize::MAX))
        .take(paging.page_size as usize)
        .map(|(_, entry, text)| renderer.record(entry, text, lang))
        .collect();
    Ok(ContentPage {
        total,
        current: paging.page,
        size: paging.page_size,
        pages: total.div_ceil(paging.page_size),
        records,
    })
}

/// The promoted help entries and articles, those written in the reader's language first (the
/// English fallbacks after them), then by position; at most `limit`.
pub async fn popular(
    db: &impl ConnectionTrait,
    renderer: &Renderer,
    limit: u64,
    lang: Lang,
) -> Result<Vec<ContentRecord>, Refusal> {
    let mut rows = readable(db, lang, &[Kind::Help, Kind::Article], true).await?;
    rows.sort_by(|a, b| {
        (a.1.lang != lang.code(), a.0.position, a.0.id).cmp(&(
            b.1.lang != lang.code(),
            b.0.position,
            b.0.id,
        ))
    });
    Ok(rows
        .iter()
        .take(limit as usize)
        .map(|(entry, text)| renderer.record(entry, text, lang))
        .collect())
}
