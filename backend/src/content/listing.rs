//! The new-pair announcement of a listed coin: written with the listing, in its transaction, in
//! every language that ships the `new-pair` template (`backend/content/<lang>/template/
//! new-pair.md`), published at once under the `new-pairs` topic; [`super::announcer`] then pushes
//! it on `/ws/business/notice`.

use sea_orm::{ActiveModelTrait, ActiveValue::Set, ConnectionTrait};

use super::render::Vars;
use super::shipped;
use super::{Kind, origin, status};
use crate::entity::{coin, content_entry, content_translation};

/// The topic of new-pair announcements.
pub const NEW_PAIRS_TOPIC: &str = "new-pairs";

/// Writes the new-pair announcement of `coin` on `db` (the listing's transaction): one entry
/// `announcement/listing-<symbol>` and one published text per language of the template.
pub async fn announce(db: &impl ConnectionTrait, coin: &coin::Model) -> Result<(), sea_orm::DbErr> {
    let templates = match shipped::templates("new-pair") {
        Ok(templates) => templates,
        Err(error) => {
            // The shipped files are checked by the tests; a listing never fails for its notice.
            tracing::error!(%error, "the new-pair template is unreadable");
            return Ok(());
        }
    };
    if templates.is_empty() {
        return Ok(());
    }
    let now = coin.created_at;
    let entry = content_entry::ActiveModel {
        kind: Set(Kind::Announcement.as_str().to_owned()),
        slug: Set(format!("listing-{}", coin.symbol)),
        parent_id: Set(None),
        topic: Set(Some(NEW_PAIRS_TOPIC.to_owned())),
        category: Set(None),
        model_type: Set(None),
        position: Set(0),
        pinned: Set(false),
        promoted: Set(false),
        published_at: Set(Some(now)),
        created_at: Set(now),
        updated_at: Set(now),
        ..Default::default()
    }
    .insert(db)
    .await?;
    let vars = Vars::default().with(&[
        ("pair", coin.show_symbol.clone()),
        ("coin", coin.coin.to_uppercase()),
        ("symbol", coin.symbol.clone()),
        ("price_precision", coin.price_precision.to_string()),
        ("quantity_precision", coin.quantity_precision.to_string()),
        ("min_notional", coin.min_notional.clone()),
    ]);
    for template in templates {
        content_translation::ActiveModel {
            entry_id: Set(entry.id),
            lang: Set(template.lang.code().to_owned()),
            title: Set(vars.fill(&template.front.title)),
            summary: Set(vars.fill(&template.front.summary)),
            body: Set(vars.fill(&template.body)),
            status: Set(status::PUBLISHED.to_owned()),
            outdated: Set(false),
            origin: Set(origin::SHIPPED.to_owned()),
            shipped_hash: Set(None),
            created_at: Set(now),
            updated_at: Set(now),
            published_at: Set(Some(now)),
            ..Default::default()
        }
        .insert(db)
        .await?;
    }
    Ok(())
}
