//! The operators' writes to the content store: create and edit a text in any language (Markdown;
//! a new text is a draft), publish and unpublish it per language, pin an entry, delete a
//! translation or a whole entry. Every call needs the operator role. An edit marks the text as the
//! operator's (`origin = operator`), so no later start overwrites it. Publishing an announcement
//! is pushed on `/ws/business/notice` by [`super::announcer`].

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, DatabaseConnection,
    EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, TransactionTrait,
};

use super::store::Renderer;
use super::views::{AdminEntry, AdminEntryPage, AdminTranslation};
use super::{HELP_CATEGORIES, Kind, is_slug, origin, status};
use crate::clock::now_ms;
use crate::entity::{content_entry, content_translation, uploaded_file, user};
use crate::i18n::{Lang, Msg};
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::user::roles::{is_operator, require_operator};

/// What an operator writes: a new entry (no `id`: `kind` and `slug` required) or a text of an
/// existing one, in `lang`. Fields left `None` keep their value.
#[derive(Debug, Clone)]
pub struct Draft {
    /// The entry to edit; `None` creates one.
    pub id: Option<i64>,
    /// The kind of a new entry.
    pub kind: Option<Kind>,
    /// The slug of a new entry.
    pub slug: Option<String>,
    /// The language of the text.
    pub lang: Lang,
    /// Title, 1 to 200 characters.
    pub title: String,
    /// Summary.
    pub summary: String,
    /// Markdown body, not empty.
    pub body: String,
    /// A section's category or an article's section.
    pub parent_id: Option<i64>,
    /// An announcement's topic slug.
    pub topic: Option<String>,
    /// A help entry's category code.
    pub category: Option<String>,
    /// A topic's or rules page's `modelType`.
    pub model_type: Option<i32>,
    /// Order among siblings.
    pub position: Option<i32>,
    /// Among the popular ones.
    pub promoted: Option<bool>,
    /// The text lags behind English.
    pub outdated: Option<bool>,
}

fn admin_entry(
    entry: content_entry::Model,
    mut texts: Vec<content_translation::Model>,
) -> AdminEntry {
    texts.sort_by_key(|t| (t.lang != Lang::En.code(), t.lang.clone()));
    AdminEntry {
        id: entry.id,
        kind: entry.kind,
        slug: entry.slug,
        parent_id: entry.parent_id,
        topic: entry.topic,
        category: entry.category,
        model_type: entry.model_type,
        position: entry.position,
        pinned: entry.pinned,
        promoted: entry.promoted,
        published_at: entry.published_at,
        created_at: entry.created_at,
        updated_at: entry.updated_at,
        translations: texts
            .into_iter()
            .map(|t| AdminTranslation {
                lang: t.lang,
                title: t.title,
                summary: t.summary,
                body: t.body,
                status: t.status,
                outdated: t.outdated,
                origin: t.origin,
                updated_at: t.updated_at,
                published_at: t.published_at,
            })
            .collect(),
    }
}

/// Begins a write transaction that holds the write lock from its first statement: on SQLite a
/// transaction that reads first and writes later can be refused at the upgrade while another
/// connection writes (the effect of `BEGIN IMMEDIATE`, as the ledger does it); on PostgreSQL the
/// statement changes nothing.
pub(crate) async fn begin_write(
    db: &DatabaseConnection,
) -> Result<sea_orm::DatabaseTransaction, sea_orm::DbErr> {
    let txn = db.begin().await?;
    txn.execute_unprepared("UPDATE content_entry SET id = id WHERE id = -1")
        .await?;
    Ok(txn)
}

async fn entry_of(db: &impl ConnectionTrait, id: i64) -> Result<content_entry::Model, Refusal> {
    content_entry::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::ContentNotFound))
}

/// One entry with every translation.
pub async fn get(
    db: &DatabaseConnection,
    operator: &user::Model,
    id: i64,
) -> Result<AdminEntry, Refusal> {
    require_operator(operator)?;
    let entry = entry_of(db, id).await?;
    let texts = content_translation::Entity::find()
        .filter(content_translation::Column::EntryId.eq(id))
        .all(db)
        .await?;
    Ok(admin_entry(entry, texts))
}

/// Entries (of `kind`, when given), newest first, with every translation.
pub async fn list(
    db: &DatabaseConnection,
    operator: &user::Model,
    kind: Option<Kind>,
    paging: Paging,
) -> Result<AdminEntryPage, Refusal> {
    require_operator(operator)?;
    let mut select = content_entry::Entity::find();
    if let Some(kind) = kind {
        select = select.filter(content_entry::Column::Kind.eq(kind.as_str()));
    }
    let total = select.clone().count(db).await?;
    let entries = select
        .order_by_desc(content_entry::Column::Id)
        .offset(paging.offset())
        .limit(paging.page_size)
        .all(db)
        .await?;
    let ids: Vec<i64> = entries.iter().map(|e| e.id).collect();
    let mut texts = content_translation::Entity::find()
        .filter(content_translation::Column::EntryId.is_in(ids))
        .all(db)
        .await?;
    let records = entries
        .into_iter()
        .map(|entry| {
            let (mine, rest): (Vec<_>, Vec<_>) =
                texts.drain(..).partition(|t| t.entry_id == entry.id);
            texts = rest;
            admin_entry(entry, mine)
        })
        .collect();
    Ok(AdminEntryPage { total, records })
}

/// Refuses a body whose Markdown images are not uploads of an operator (`![alt](upload:ID)`).
async fn check_images(db: &impl ConnectionTrait, body: &str) -> Result<(), Refusal> {
    // Only Markdown link targets name an upload; the word elsewhere in a text is just a word.
    for part in body.split("](upload:").skip(1) {
        let digits: String = part.chars().take_while(char::is_ascii_digit).collect();
        let refused = || {
            Refusal::invalid(Msg::ImageNotUploaded)
                .with_field("body")
                .with_param("id", digits.clone())
        };
        let id: i64 = digits.parse().map_err(|_| refused())?;
        let file = uploaded_file::Entity::find_by_id(id).one(db).await?;
        let owner = match file {
            Some(file) => user::Entity::find_by_id(file.user_id).one(db).await?,
            None => None,
        };
        if !owner.as_ref().is_some_and(is_operator) {
            return Err(refused());
        }
    }
    Ok(())
}

/// The body `markdown` as readers would see it (its figures filled, sanitised, images as signed
/// links), without saving anything: the editor's preview. Images must be uploads of an operator
/// (`image_not_uploaded` otherwise), like a save.
pub async fn preview(
    db: &impl ConnectionTrait,
    operator: &user::Model,
    renderer: &Renderer,
    markdown: &str,
) -> Result<String, Refusal> {
    require_operator(operator)?;
    if markdown.trim().is_empty() {
        return Err(Refusal::invalid(Msg::ContentRequired).with_field("body"));
    }
    check_images(db, markdown).await?;
    let key = renderer.link_key;
    let now = renderer.now;
    Ok(super::render::to_html(
        &renderer.vars.fill(markdown),
        &move |id| Some(crate::kyc::files::sign_link(&key, id, now).url),
    ))
}

/// Checks where a new or edited entry of `kind` sits (parent, topic, category, `modelType`).
async fn check_place(
    db: &impl ConnectionTrait,
    kind: Kind,
    self_id: Option<i64>,
    draft: &Draft,
) -> Result<(), Refusal> {
    let unknown = |field: &str| Refusal::invalid(Msg::UnknownParent).with_field(field);
    match kind.parent_kind() {
        Some(parent_kind) => {
            let parent = match draft.parent_id {
                Some(id) => content_entry::Entity::find_by_id(id).one(db).await?,
                None if self_id.is_some() => return Ok(()),
                None => None,
            };
            if parent.is_none_or(|p| p.kind != parent_kind.as_str()) {
                return Err(unknown("parentId"));
            }
        }
        None if draft.parent_id.is_some() => return Err(unknown("parentId")),
        None => {}
    }
    if kind == Kind::Announcement && (self_id.is_none() || draft.topic.is_some()) {
        let topic = draft.topic.as_deref().unwrap_or_default();
        let found = content_entry::Entity::find()
            .filter(content_entry::Column::Kind.eq(Kind::Topic.as_str()))
            .filter(content_entry::Column::Slug.eq(topic))
            .one(db)
            .await?;
        if found.is_none() {
            return Err(unknown("topic"));
        }
    }
    if kind == Kind::Help && (self_id.is_none() || draft.category.is_some()) {
        let category = draft.category.as_deref().unwrap_or_default();
        if !HELP_CATEGORIES.contains(&category) {
            return Err(unknown("category"));
        }
    }
    if matches!(kind, Kind::Topic | Kind::Rule) && (self_id.is_none() || draft.model_type.is_some())
    {
        let model_type = draft
            .model_type
            .ok_or_else(|| Refusal::invalid(Msg::MissingField).with_field("modelType"))?;
        let taken = content_entry::Entity::find()
            .filter(content_entry::Column::ModelType.eq(model_type))
            .filter(content_entry::Column::Kind.is_in([Kind::Topic.as_str(), Kind::Rule.as_str()]))
            .all(db)
            .await?
            .into_iter()
            .any(|e| Some(e.id) != self_id);
        if taken {
            return Err(Refusal::conflict(Msg::SlugTaken).with_field("modelType"));
        }
    }
    Ok(())
}

/// Creates an entry or edits a text (see [`Draft`]); a new text is a draft, an edited one keeps
/// its status. Answers the entry with every translation.
pub async fn save(
    db: &DatabaseConnection,
    operator: &user::Model,
    draft: Draft,
) -> Result<AdminEntry, Refusal> {
    require_operator(operator)?;
    let title = draft.title.trim().to_owned();
    if title.is_empty() || title.chars().count() > 200 {
        return Err(Refusal::invalid(Msg::ContentRequired).with_field("title"));
    }
    if draft.body.trim().is_empty() {
        return Err(Refusal::invalid(Msg::ContentRequired).with_field("body"));
    }
    check_images(db, &draft.body).await?;
    let now = now_ms();
    let txn = begin_write(db).await?;
    let entry = match draft.id {
        Some(id) => {
            let entry = entry_of(&txn, id).await?;
            let kind = Kind::parse(&entry.kind).ok_or_else(|| Refusal::internal("stored kind"))?;
            check_place(&txn, kind, Some(id), &draft).await?;
            let mut row: content_entry::ActiveModel = entry.into();
            if let Some(parent) = draft.parent_id {
                row.parent_id = Set(Some(parent));
            }
            if draft.topic.is_some() {
                row.topic = Set(draft.topic.clone());
            }
            if draft.category.is_some() {
                row.category = Set(draft.category.clone());
            }
            if draft.model_type.is_some() {
                row.model_type = Set(draft.model_type);
            }
            if let Some(position) = draft.position {
                row.position = Set(position);
            }
            if let Some(promoted) = draft.promoted {
                row.promoted = Set(promoted);
            }
            row.updated_at = Set(now);
            row.update(&txn).await?
        }
        None => {
            let kind = draft
                .kind
                .ok_or_else(|| Refusal::invalid(Msg::MissingField).with_field("kind"))?;
            let slug = draft.slug.clone().unwrap_or_default();
            if !is_slug(&slug) {
                return Err(Refusal::invalid(Msg::InvalidField).with_field("slug"));
            }
            let taken = content_entry::Entity::find()
                .filter(content_entry::Column::Kind.eq(kind.as_str()))
                .filter(content_entry::Column::Slug.eq(slug.as_str()))
                .one(&txn)
                .await?;
            if taken.is_some() {
                return Err(Refusal::conflict(Msg::SlugTaken).with_field("slug"));
            }
            check_place(&txn, kind, None, &draft).await?;
            content_entry::ActiveModel {
                kind: Set(kind.as_str().to_owned()),
                slug: Set(slug),
                parent_id: Set(draft.parent_id),
                topic: Set(draft.topic.clone().filter(|_| kind == Kind::Announcement)),
                category: Set(draft.category.clone().filter(|_| kind == Kind::Help)),
                model_type: Set(draft
                    .model_type
                    .filter(|_| matches!(kind, Kind::Topic | Kind::Rule))),
                position: Set(draft.position.unwrap_or(0)),
                pinned: Set(false),
                promoted: Set(draft.promoted.unwrap_or(false)),
                published_at: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
                ..Default::default()
            }
            .insert(&txn)
            .await?
        }
    };
    let existing = content_translation::Entity::find()
        .filter(content_translation::Column::EntryId.eq(entry.id))
        .filter(content_translation::Column::Lang.eq(draft.lang.code()))
        .one(&txn)
        .await?;
    match existing {
        Some(text) => {
            let mut row: content_translation::ActiveModel = text.into();
            row.title = Set(title);
            row.summary = Set(draft.summary.trim().to_owned());
            row.body = Set(draft.body);
            row.outdated = Set(draft.outdated.unwrap_or(false));
            row.origin = Set(origin::OPERATOR.to_owned());
            row.updated_at = Set(now);
            row.update(&txn).await?;
        }
        None => {
            content_translation::ActiveModel {
                entry_id: Set(entry.id),
                lang: Set(draft.lang.code().to_owned()),
                title: Set(title),
                summary: Set(draft.summary.trim().to_owned()),
                body: Set(draft.body),
                status: Set(status::DRAFT.to_owned()),
                outdated: Set(draft.outdated.unwrap_or(false)),
                origin: Set(origin::OPERATOR.to_owned()),
                shipped_hash: Set(None),
                created_at: Set(now),
                updated_at: Set(now),
                published_at: Set(None),
                ..Default::default()
            }
            .insert(&txn)
            .await?;
        }
    }
    txn.commit().await?;
    get(db, operator, entry.id).await
}

/// Publishes (`true`) or takes back to draft (`false`) the text of entry `id` in `lang`.
/// Publishing stamps the text and the entry with the time (an announcement is then pushed on the
/// notice channel).
pub async fn set_published(
    db: &DatabaseConnection,
    operator: &user::Model,
    id: i64,
    lang: Lang,
    published: bool,
) -> Result<AdminEntry, Refusal> {
    require_operator(operator)?;
    let now = now_ms();
    let txn = begin_write(db).await?;
    let entry = entry_of(&txn, id).await?;
    let text = content_translation::Entity::find()
        .filter(content_translation::Column::EntryId.eq(id))
        .filter(content_translation::Column::Lang.eq(lang.code()))
        .one(&txn)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::ContentNotFound))?;
    let mut row: content_translation::ActiveModel = text.into();
    row.updated_at = Set(now);
    if published {
        row.status = Set(status::PUBLISHED.to_owned());
        row.published_at = Set(Some(now));
        let mut entry_row: content_entry::ActiveModel = entry.into();
        entry_row.published_at = Set(Some(now));
        entry_row.updated_at = Set(now);
        entry_row.update(&txn).await?;
    } else {
        row.status = Set(status::DRAFT.to_owned());
    }
    row.update(&txn).await?;
    txn.commit().await?;
    get(db, operator, id).await
}

/// Pins or unpins entry `id` (an announcement is then listed before the others of its topic).
pub async fn set_pinned(
    db: &DatabaseConnection,
    operator: &user::Model,
    id: i64,
    pinned: bool,
) -> Result<AdminEntry, Refusal> {
    require_operator(operator)?;
    let entry = entry_of(db, id).await?;
    let mut row: content_entry::ActiveModel = entry.into();
    row.pinned = Set(pinned);
    row.updated_at = Set(now_ms());
    row.update(db).await?;
    get(db, operator, id).await
}

/// Deletes the text of entry `id` in `lang`, or the whole entry with every text when `lang` is
/// `None` (or when its last text goes). A shipped text deleted is not seeded again.
pub async fn delete(
    db: &DatabaseConnection,
    operator: &user::Model,
    id: i64,
    lang: Option<Lang>,
) -> Result<(), Refusal> {
    require_operator(operator)?;
    let txn = begin_write(db).await?;
    entry_of(&txn, id).await?;
    let mut texts = content_translation::Entity::delete_many()
        .filter(content_translation::Column::EntryId.eq(id));
    if let Some(lang) = lang {
        texts = texts.filter(content_translation::Column::Lang.eq(lang.code()));
    }
    let removed = texts.exec(&txn).await?.rows_affected;
    if lang.is_some() && removed == 0 {
        return Err(Refusal::not_found(Msg::ContentNotFound));
    }
    let left = content_translation::Entity::find()
        .filter(content_translation::Column::EntryId.eq(id))
        .count(&txn)
        .await?;
    if left == 0 {
        content_entry::Entity::delete_by_id(id).exec(&txn).await?;
    }
    txn.commit().await?;
    Ok(())
}
