//! Seeding the shipped texts into the database at start (every start, every instance).
//!
//! An item appears once, the first time a binary that ships it starts: its entry (from the
//! English file) and each of its translations, published. Each (kind, slug, language) seeded is
//! recorded in `content_seeded`, so what an operator deleted is not seeded again. A translation an
//! operator has edited (`origin = operator`) is never touched; one still as shipped is updated when
//! a later release ships a changed file. Running it twice changes nothing.

use std::collections::{HashMap, HashSet};

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, DatabaseConnection, DatabaseTransaction, EntityTrait,
};

use super::shipped::{self, ShippedError, ShippedItem};
use super::{Kind, origin, status};
use crate::clock::now_ms;
use crate::entity::{content_entry, content_seeded, content_translation};
use crate::i18n::Lang;

/// Why seeding failed.
#[derive(Debug, thiserror::Error)]
pub enum SeedError {
    /// A shipped file is not right.
    #[error(transparent)]
    Shipped(#[from] ShippedError),
    /// The database failed.
    #[error("seeding the content: {0}")]
    Db(#[from] sea_orm::DbErr),
}

/// What one seeding did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Seeded {
    /// Entries created.
    pub entries: usize,
    /// Translations created.
    pub translations: usize,
    /// Translations still as shipped, updated to a changed shipped file.
    pub updated: usize,
}

/// Seeds every shipped item that is not in the database yet (see the module doc). Another
/// instance seeding at the same moment makes one transaction fail on the unique keys; it is run
/// once more, and then finds the rows there.
pub async fn run(db: &DatabaseConnection) -> Result<Seeded, SeedError> {
    let items = shipped::items()?;
    match seed_once(db, &items).await {
        Ok(done) => Ok(done),
        Err(error) => {
            tracing::warn!(%error, "seeding the content again");
            Ok(seed_once(db, &items).await?)
        }
    }
}

async fn seed_once(
    db: &DatabaseConnection,
    items: &[ShippedItem],
) -> Result<Seeded, sea_orm::DbErr> {
    let txn = super::editor::begin_write(db).await?;
    let mut done = Seeded::default();
    let mut entries: HashMap<(String, String), i64> = content_entry::Entity::find()
        .all(&txn)
        .await?
        .into_iter()
        .map(|e| ((e.kind, e.slug), e.id))
        .collect();
    let mut seeded: HashSet<(String, String, String)> = content_seeded::Entity::find()
        .all(&txn)
        .await?
        .into_iter()
        .map(|s| (s.kind, s.slug, s.lang))
        .collect();
    let translations: HashMap<(i64, String), content_translation::Model> =
        content_translation::Entity::find()
            .all(&txn)
            .await?
            .into_iter()
            .map(|t| ((t.entry_id, t.lang.clone()), t))
            .collect();
    let now = now_ms();
    for item in items {
        let kind = item.kind.as_str().to_owned();
        let key = (kind.clone(), item.slug.clone());
        let seed_key = (kind.clone(), item.slug.clone(), item.lang.code().to_owned());
        let entry_id = match entries.get(&key) {
            Some(id) => *id,
            None => {
                let english_seeded =
                    seeded.contains(&(kind.clone(), item.slug.clone(), "en".to_owned()));
                if item.lang != Lang::En || english_seeded {
                    // Deleted by an operator (or its original is): stays deleted.
                    continue;
                }
                let id = insert_entry(&txn, item, &entries, now).await?;
                done.entries += 1;
                entries.insert(key, id);
                id
            }
        };
        match translations.get(&(entry_id, item.lang.code().to_owned())) {
            Some(existing) => {
                if existing.origin == origin::SHIPPED
                    && existing.shipped_hash.as_deref() != Some(item.hash.as_str())
                {
                    let mut row: content_translation::ActiveModel = existing.clone().into();
                    row.title = Set(item.front.title.clone());
                    row.summary = Set(item.front.summary.clone());
                    row.body = Set(item.body.clone());
                    row.shipped_hash = Set(Some(item.hash.clone()));
                    row.updated_at = Set(now);
                    row.update(&txn).await?;
                    done.updated += 1;
                }
            }
            None if !seeded.contains(&seed_key) => {
                content_translation::ActiveModel {
                    entry_id: Set(entry_id),
                    lang: Set(item.lang.code().to_owned()),
                    title: Set(item.front.title.clone()),
                    summary: Set(item.front.summary.clone()),
                    body: Set(item.body.clone()),
                    status: Set(status::PUBLISHED.to_owned()),
                    outdated: Set(false),
                    origin: Set(origin::SHIPPED.to_owned()),
                    shipped_hash: Set(Some(item.hash.clone())),
                    created_at: Set(now),
                    updated_at: Set(now),
                    published_at: Set(Some(now)),
                    ..Default::default()
                }
                .insert(&txn)
                .await?;
                done.translations += 1;
            }
            None => continue,
        }
        if seeded.insert(seed_key.clone()) {
            content_seeded::ActiveModel {
                kind: Set(seed_key.0),
                slug: Set(seed_key.1),
                lang: Set(seed_key.2),
                seeded_at: Set(now),
                ..Default::default()
            }
            .insert(&txn)
            .await?;
        }
    }
    txn.commit().await?;
    if done != Seeded::default() {
        tracing::info!(
            entries = done.entries,
            translations = done.translations,
            updated = done.updated,
            "content seeded"
        );
    }
    Ok(done)
}

async fn insert_entry(
    txn: &DatabaseTransaction,
    item: &ShippedItem,
    entries: &HashMap<(String, String), i64>,
    now: i64,
) -> Result<i64, sea_orm::DbErr> {
    let front = &item.front;
    let parent_slug = match item.kind {
        Kind::Section => front.category.as_deref(),
        Kind::Article => front.section.as_deref(),
        _ => None,
    };
    let parent_id = item
        .kind
        .parent_kind()
        .zip(parent_slug)
        .and_then(|(kind, slug)| {
            entries
                .get(&(kind.as_str().to_owned(), slug.to_owned()))
                .copied()
        });
    let entry = content_entry::ActiveModel {
        kind: Set(item.kind.as_str().to_owned()),
        slug: Set(item.slug.clone()),
        parent_id: Set(parent_id),
        topic: Set(front.topic.clone()),
        category: Set((item.kind == Kind::Help)
            .then(|| front.category.clone())
            .flatten()),
        model_type: Set(front.model_type),
        position: Set(front.position.unwrap_or(0)),
        pinned: Set(front.pinned.unwrap_or(false)),
        promoted: Set(front.promoted.unwrap_or(false)),
        published_at: Set(Some(now)),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(txn)
    .await?;
    Ok(entry.id)
}
