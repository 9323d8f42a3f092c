//! Messages: sending (each side), the bounded pages of a conversation and reading. A customer's
//! message to a closed conversation opens a new one (a user's) or is refused (a visitor's token
//! names that conversation only). Every stored message is published live and counted unread for
//! the other side; an operator's answer to an absent customer triggers the away e-mail.

use sea_orm::{
    ActiveModelTrait,
    ActiveValue::Set,
    ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, QuerySelect,
    TransactionTrait,
    sea_query::{Expr, ExprTrait},
};

use super::{Customer, MAX_BODY_CHARS, Side, SupportHub, conversations, status};
use crate::clock::now_ms;
use crate::entity::{
    support_conversation as conversation, support_message as message, uploaded_file, user,
};
use crate::i18n::{Lang, Msg};
use crate::refusal::{Refusal, RefusalKind};

/// The most messages one page holds.
pub const MAX_PAGE: u64 = 100;
/// The messages of a page when the caller names no limit.
pub const DEFAULT_PAGE: u64 = 50;

/// What a message says.
#[derive(Debug, Clone, Default)]
pub struct Draft {
    /// The text (trimmed; may be empty only with an image).
    pub body: String,
    /// An image uploaded through `POST /api/common/upload/OSS` by the sender.
    pub file_id: Option<i64>,
}

/// Checks the text and the attachment of `draft` sent by `owner` (the uploader the file must
/// belong to; a visitor has no uploads and cannot attach).
async fn checked(
    db: &DatabaseConnection,
    draft: &Draft,
    owner: Option<i64>,
) -> Result<(String, Option<i64>), Refusal> {
    let body = draft.body.trim().to_owned();
    if body.chars().count() > MAX_BODY_CHARS {
        return Err(Refusal::invalid(Msg::SupportMessageTooLong)
            .with_field("body")
            .with_param("max", MAX_BODY_CHARS.to_string()));
    }
    if let Some(file_id) = draft.file_id {
        let Some(owner) = owner else {
            return Err(Refusal::invalid(Msg::SupportAttachmentLogin).with_field("fileId"));
        };
        let file = uploaded_file::Entity::find_by_id(file_id)
            .one(db)
            .await?
            .filter(|file| file.user_id == owner)
            .ok_or_else(|| {
                Refusal::new(RefusalKind::NotFound, Msg::NotFound).with_field("fileId")
            })?;
        if !file.content_type.starts_with("image/") {
            return Err(Refusal::new(
                RefusalKind::UnsupportedMedia,
                Msg::SupportAttachmentNotImage,
            )
            .with_field("fileId"));
        }
    } else if body.is_empty() {
        return Err(Refusal::invalid(Msg::SupportMessageEmpty).with_field("body"));
    }
    Ok((body, draft.file_id))
}

/// Stores `draft` from the customer and publishes it. A user whose conversation is closed gets a
/// new one; a visitor's closed conversation refuses (409).
pub async fn send_as_customer(
    db: &DatabaseConnection,
    hub: &SupportHub,
    customer: &Customer,
    lang: Lang,
    draft: &Draft,
) -> Result<(conversation::Model, message::Model), Refusal> {
    let owner = match customer {
        Customer::User(id) => Some(*id),
        Customer::Visitor(_) => None,
    };
    let (body, file_id) = checked(db, draft, owner).await?;
    let mut row = match customer {
        Customer::User(id) => conversations::open_for_user(db, *id, lang).await?,
        Customer::Visitor(_) => conversations::of_customer(db, customer).await?,
    };
    if row.status == status::CLOSED {
        return Err(Refusal::conflict(Msg::SupportConversationClosed));
    }
    let stored = store(db, &row, Side::Customer, None, body, file_id).await?;
    row = reload(db, row.id).await?;
    publish(hub, &row, &stored);
    Ok((row, stored))
}

/// Stores `draft` from `operator` in conversation `id` (queued ones are assigned to them first) and
/// publishes it; the customer, when absent, gets the away e-mail once.
pub async fn send_as_operator(
    db: &DatabaseConnection,
    hub: &SupportHub,
    mailer: &std::sync::Arc<crate::user::mailer::Mailer>,
    site: &str,
    operator: &user::Model,
    id: i64,
    draft: &Draft,
) -> Result<(conversation::Model, message::Model), Refusal> {
    let row = conversations::for_operator(db, operator, id).await?;
    if row.status == status::CLOSED {
        return Err(Refusal::conflict(Msg::SupportConversationClosed));
    }
    let (body, file_id) = checked(db, draft, Some(operator.id)).await?;
    let row = conversations::assign(db, hub, operator, row.id).await?;
    let stored = store(db, &row, Side::Operator, Some(operator.id), body, file_id).await?;
    let row = reload(db, row.id).await?;
    publish(hub, &row, &stored);
    if !hub.customer_present(row.id) {
        super::away::mail_once(db, mailer, site, &row, &stored).await?;
    }
    Ok((reload(db, row.id).await?, stored))
}

async fn store(
    db: &DatabaseConnection,
    row: &conversation::Model,
    side: Side,
    operator_id: Option<i64>,
    body: String,
    file_id: Option<i64>,
) -> Result<message::Model, Refusal> {
    let now = now_ms();
    let txn = db.begin().await?;
    let stored = message::ActiveModel {
        conversation_id: Set(row.id),
        author: Set(side.as_str().to_owned()),
        operator_id: Set(operator_id),
        body: Set(body),
        file_id: Set(file_id),
        created_at: Set(now),
        ..Default::default()
    }
    .insert(&txn)
    .await?;
    // The other side's unread count grows in the database, so concurrent sends all count.
    let unread = match side {
        Side::Customer => conversation::Column::OperatorUnread,
        Side::Operator => conversation::Column::CustomerUnread,
    };
    conversation::Entity::update_many()
        .col_expr(unread, Expr::col(unread).add(1))
        .col_expr(conversation::Column::LastMessageAt, Expr::value(now))
        .filter(conversation::Column::Id.eq(row.id))
        .exec(&txn)
        .await?;
    txn.commit().await?;
    Ok(stored)
}

async fn reload(db: &DatabaseConnection, id: i64) -> Result<conversation::Model, Refusal> {
    conversation::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::internal("a conversation vanished"))
}

fn publish(hub: &SupportHub, row: &conversation::Model, stored: &message::Model) {
    hub.publish(row, "message", &super::views::SupportMessage::of(stored));
    super::conversations::announce(hub, row);
}

/// Messages of conversation `id` older than `before` (newest first when paging back; `None`:
/// the latest), at most `limit` (1 to [`MAX_PAGE`]), answered oldest first.
pub async fn page(
    db: &DatabaseConnection,
    id: i64,
    before: Option<i64>,
    limit: Option<u64>,
) -> Result<Vec<message::Model>, Refusal> {
    let limit = limit.unwrap_or(DEFAULT_PAGE).clamp(1, MAX_PAGE);
    let mut query = message::Entity::find().filter(message::Column::ConversationId.eq(id));
    if let Some(before) = before {
        query = query.filter(message::Column::Id.lt(before));
    }
    let mut rows = query
        .order_by_desc(message::Column::Id)
        .limit(limit)
        .all(db)
        .await?;
    rows.reverse();
    Ok(rows)
}

/// Marks everything in `row` read by `side`; a customer reading also re-arms the away e-mail.
pub async fn read(
    db: &DatabaseConnection,
    hub: &SupportHub,
    row: conversation::Model,
    side: Side,
) -> Result<conversation::Model, Refusal> {
    let mut active: conversation::ActiveModel = row.into();
    match side {
        Side::Customer => {
            active.customer_unread = Set(0);
            active.away_mailed = Set(false);
        }
        Side::Operator => active.operator_unread = Set(0),
    }
    let row = active.update(db).await?;
    super::conversations::announce(hub, &row);
    Ok(row)
}
