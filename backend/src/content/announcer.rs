//! Pushes every announcement published (by an operator, by a coin's listing, from any instance or
//! the `add-coin` command) on `/ws/business/notice` as an `ANNOUNCEMENT` message.
//!
//! Each instance looks every [`POLL`] for announcements whose last publication is within the last
//! [`WINDOW_MS`] and pushes each publication once to its own clients: the database is the only
//! thing instances share, and a publication that commits late (a long transaction) is still in the
//! window. What was published before the instance started is not pushed.

use std::{collections::HashMap, sync::Arc, time::Duration};

use sea_orm::{ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter};
use serde::Serialize;
use tokio::sync::watch;

use super::render::Vars;
use super::{Kind, status};
use crate::clock::now_ms;
use crate::entity::{content_entry, content_translation};
use crate::market::MarketHub;

/// How often the database is looked at.
pub const POLL: Duration = Duration::from_millis(500);
/// How far back a publication is looked for, milliseconds.
pub const WINDOW_MS: i64 = 30_000;

/// The `data` of an `ANNOUNCEMENT` message.
#[derive(Debug, Clone, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AnnouncementNotice {
    /// Entry id (`GET /api/content/announcements/{id}`).
    pub id: i64,
    /// `created` for its first publication, `updated` for a later one.
    pub event: &'static str,
    /// Its topic (slug).
    pub topic: Option<String>,
    /// Listed first.
    pub pinned: bool,
    /// When it was published, Unix milliseconds.
    pub published_at: i64,
    /// Its title in every language it is published in (`en` always first when present).
    pub titles: Vec<NoticeTitle>,
}

/// A title in one language.
#[derive(Debug, Clone, Serialize)]
pub struct NoticeTitle {
    /// Language code.
    pub lang: String,
    /// Title.
    pub title: String,
}

/// The announcements published within the window: (entry, its published texts).
async fn recent(
    db: &DatabaseConnection,
    since: i64,
) -> Result<Vec<(content_entry::Model, Vec<content_translation::Model>)>, sea_orm::DbErr> {
    let entries = content_entry::Entity::find()
        .filter(content_entry::Column::Kind.eq(Kind::Announcement.as_str()))
        .filter(content_entry::Column::PublishedAt.gte(since))
        .all(db)
        .await?;
    if entries.is_empty() {
        return Ok(Vec::new());
    }
    let texts = content_translation::Entity::find()
        .filter(content_translation::Column::EntryId.is_in(entries.iter().map(|e| e.id)))
        .filter(content_translation::Column::Status.eq(status::PUBLISHED))
        .all(db)
        .await?;
    Ok(entries
        .into_iter()
        .map(|entry| {
            let mine = texts
                .iter()
                .filter(|t| t.entry_id == entry.id)
                .cloned()
                .collect();
            (entry, mine)
        })
        .collect())
}

/// The notice of one publication, if any text of it is published.
pub fn notice(
    entry: &content_entry::Model,
    texts: &[content_translation::Model],
    vars: &Vars,
) -> Option<AnnouncementNotice> {
    let published_at = entry.published_at?;
    if texts.is_empty() {
        return None;
    }
    let first = texts.iter().filter_map(|t| t.published_at).min();
    let mut titles: Vec<NoticeTitle> = texts
        .iter()
        .map(|t| NoticeTitle {
            lang: t.lang.clone(),
            title: vars.fill(&t.title),
        })
        .collect();
    titles.sort_by(|a, b| (a.lang != "en", &a.lang).cmp(&(b.lang != "en", &b.lang)));
    Some(AnnouncementNotice {
        id: entry.id,
        event: if first.is_none_or(|first| first >= published_at) {
            "created"
        } else {
            "updated"
        },
        topic: entry.topic.clone(),
        pinned: entry.pinned,
        published_at,
        titles,
    })
}

/// Runs until `shutdown` changes (see the module doc); publications before `started_at` (Unix
/// milliseconds, taken before the server accepts requests) are not pushed.
pub async fn run(
    db: DatabaseConnection,
    hub: Arc<MarketHub>,
    vars: Vars,
    started_at: i64,
    mut shutdown: watch::Receiver<bool>,
) {
    let mut pushed: HashMap<i64, i64> = HashMap::new();
    let mut poll = tokio::time::interval(POLL);
    poll.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    loop {
        tokio::select! {
            _ = poll.tick() => {}
            _ = shutdown.changed() => return,
        }
        let since = now_ms() - WINDOW_MS;
        let rows = match recent(&db, since).await {
            Ok(rows) => rows,
            Err(error) => {
                tracing::warn!(%error, "reading published announcements failed");
                continue;
            }
        };
        for (entry, texts) in rows {
            let Some(published_at) = entry.published_at else {
                continue;
            };
            if pushed.get(&entry.id) == Some(&published_at) {
                continue;
            }
            pushed.insert(entry.id, published_at);
            if published_at < started_at {
                // Published before this instance started: not news to its clients.
                continue;
            }
            if let Some(notice) = notice(&entry, &texts, &vars) {
                // Every instance finds the publication in the database: pushed here only.
                hub.publish_notice_here("ANNOUNCEMENT", &notice);
            }
        }
        pushed.retain(|_, at| *at >= since);
    }
}
