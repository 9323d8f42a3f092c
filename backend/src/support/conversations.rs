//! Conversations: opening one (a user's or a visitor's), finding the caller's, the operators'
//! queues, assignment and closing. An operator may read and answer a conversation that is queued
//! or assigned to them; closed ones are read-only history for every operator.

use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait,
    QueryFilter, QueryOrder, QuerySelect,
};
use wasm_core::validate::validate_email;

use super::{Customer, SupportHub, status};
use crate::clock::now_ms;
use crate::entity::{support_conversation as conversation, user};
use crate::i18n::{Lang, Msg};
use crate::paging::Paging;
use crate::refusal::{Refusal, RefusalKind};
use crate::user::{random_token, roles::is_operator, sha256_hex};

/// An operator's queue.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Queue {
    /// Open and assigned to nobody.
    Queued,
    /// Open and assigned to the operator asking.
    Mine,
    /// Closed, newest first.
    Closed,
}

/// A visitor's new conversation and the token that is its only key (shown once).
#[derive(Debug, Clone)]
pub struct VisitorOpened {
    /// The conversation.
    pub conversation: conversation::Model,
    /// The token the visitor sends with every call.
    pub token: String,
}

fn not_found() -> Refusal {
    Refusal::new(RefusalKind::NotFound, Msg::SupportConversationNotFound)
}

fn token_hash(token: &str) -> String {
    sha256_hex(&[b"support-visitor:", token.as_bytes()])
}

/// The open conversation of `user_id`, or a new queued one (the language kept for the away
/// e-mail).
pub async fn open_for_user(
    db: &impl ConnectionTrait,
    user_id: i64,
    lang: Lang,
) -> Result<conversation::Model, Refusal> {
    if let Some(found) = open_of_user(db, user_id).await? {
        return remember_lang(db, found, lang).await;
    }
    let mut row = new_row(now_ms(), lang);
    row.user_id = Set(Some(user_id));
    Ok(row.insert(db).await?)
}

/// A new conversation for a visitor who leaves `email`, with its token.
pub async fn open_for_visitor(
    db: &impl ConnectionTrait,
    email: &str,
    lang: Lang,
) -> Result<VisitorOpened, Refusal> {
    let email = email.trim();
    if email.is_empty() {
        return Err(Refusal::invalid(Msg::SupportEmailRequired).with_field("email"));
    }
    validate_email(email).map_err(|violation| Refusal::rule("email", &violation))?;
    let token = random_token(32);
    let mut row = new_row(now_ms(), lang);
    row.visitor_email = Set(Some(email.to_owned()));
    row.visitor_token_hash = Set(Some(token_hash(&token)));
    Ok(VisitorOpened {
        conversation: row.insert(db).await?,
        token,
    })
}

fn new_row(now: i64, lang: Lang) -> conversation::ActiveModel {
    conversation::ActiveModel {
        user_id: Set(None),
        visitor_email: Set(None),
        visitor_token_hash: Set(None),
        lang: Set(lang.code().to_owned()),
        status: Set(status::QUEUED.to_owned()),
        operator_id: Set(None),
        customer_unread: Set(0),
        operator_unread: Set(0),
        away_mailed: Set(false),
        last_message_at: Set(now),
        created_at: Set(now),
        closed_at: Set(None),
        ..Default::default()
    }
}

async fn remember_lang(
    db: &impl ConnectionTrait,
    row: conversation::Model,
    lang: Lang,
) -> Result<conversation::Model, Refusal> {
    if row.lang == lang.code() {
        return Ok(row);
    }
    let mut active: conversation::ActiveModel = row.into();
    active.lang = Set(lang.code().to_owned());
    Ok(active.update(db).await?)
}

async fn open_of_user(
    db: &impl ConnectionTrait,
    user_id: i64,
) -> Result<Option<conversation::Model>, Refusal> {
    Ok(conversation::Entity::find()
        .filter(conversation::Column::UserId.eq(user_id))
        .filter(conversation::Column::Status.ne(status::CLOSED))
        .order_by_desc(conversation::Column::Id)
        .one(db)
        .await?)
}

/// The customer's conversation: a user's open one (else their latest, so a closed conversation can
/// still be read), a visitor's by token. None is a 404.
pub async fn of_customer(
    db: &impl ConnectionTrait,
    customer: &Customer,
) -> Result<conversation::Model, Refusal> {
    match customer {
        Customer::User(user_id) => {
            if let Some(open) = open_of_user(db, *user_id).await? {
                return Ok(open);
            }
            conversation::Entity::find()
                .filter(conversation::Column::UserId.eq(*user_id))
                .order_by_desc(conversation::Column::Id)
                .one(db)
                .await?
                .ok_or_else(not_found)
        }
        Customer::Visitor(token) => conversation::Entity::find()
            .filter(conversation::Column::VisitorTokenHash.eq(token_hash(token)))
            .one(db)
            .await?
            .ok_or_else(|| {
                Refusal::new(
                    RefusalKind::Unauthenticated,
                    Msg::SupportConversationNotFound,
                )
            }),
    }
}

/// Conversation `id` as operator `operator` may see it: queued, assigned to them, or closed.
/// Anyone else's open conversation is a 404.
pub async fn for_operator(
    db: &impl ConnectionTrait,
    operator: &user::Model,
    id: i64,
) -> Result<conversation::Model, Refusal> {
    crate::user::roles::require_operator(operator)?;
    let row = conversation::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    if visible_to_operator(&row, operator.id) {
        Ok(row)
    } else {
        Err(not_found())
    }
}

/// Whether operator `operator_id` may see `row`.
pub fn visible_to_operator(row: &conversation::Model, operator_id: i64) -> bool {
    match row.status.as_str() {
        status::QUEUED | status::CLOSED => true,
        _ => row.operator_id == Some(operator_id),
    }
}

/// One page of `queue` for `operator`, most recent activity first; with the total.
pub async fn queue(
    db: &impl ConnectionTrait,
    operator: &user::Model,
    queue: Queue,
    paging: Paging,
) -> Result<(u64, Vec<conversation::Model>), Refusal> {
    crate::user::roles::require_operator(operator)?;
    let query = conversation::Entity::find();
    let query = match queue {
        Queue::Queued => query.filter(conversation::Column::Status.eq(status::QUEUED)),
        Queue::Mine => query
            .filter(conversation::Column::Status.eq(status::ASSIGNED))
            .filter(conversation::Column::OperatorId.eq(operator.id)),
        Queue::Closed => query.filter(conversation::Column::Status.eq(status::CLOSED)),
    };
    let total = query.clone().count(db).await?;
    let rows = query
        .order_by_desc(conversation::Column::LastMessageAt)
        .order_by_desc(conversation::Column::Id)
        .offset(paging.offset())
        .limit(paging.page_size)
        .all(db)
        .await?;
    Ok((total, rows))
}

/// Assigns conversation `id` to `operator` (queued, or already theirs). Assigned to another
/// operator — before or concurrently — is a 409 and changes nothing.
pub async fn assign(
    db: &impl ConnectionTrait,
    hub: &SupportHub,
    operator: &user::Model,
    id: i64,
) -> Result<conversation::Model, Refusal> {
    let row = for_operator(db, operator, id).await?;
    if row.status == status::CLOSED {
        return Err(Refusal::conflict(Msg::SupportConversationClosed));
    }
    if row.operator_id == Some(operator.id) {
        return Ok(row);
    }
    // Conditional on still being queued: two operators at once, one wins.
    let claimed = conversation::Entity::update_many()
        .col_expr(
            conversation::Column::Status,
            sea_orm::sea_query::Expr::value(status::ASSIGNED),
        )
        .col_expr(
            conversation::Column::OperatorId,
            sea_orm::sea_query::Expr::value(operator.id),
        )
        .filter(conversation::Column::Id.eq(id))
        .filter(conversation::Column::Status.eq(status::QUEUED))
        .exec(db)
        .await?;
    if claimed.rows_affected != 1 {
        return Err(Refusal::conflict(Msg::SupportAssignedElsewhere));
    }
    let row = conversation::Entity::find_by_id(id)
        .one(db)
        .await?
        .ok_or_else(not_found)?;
    announce(hub, &row);
    Ok(row)
}

/// Closes conversation `id` (an operator who sees it, not yet closed).
pub async fn close(
    db: &impl ConnectionTrait,
    hub: &SupportHub,
    operator: &user::Model,
    id: i64,
) -> Result<conversation::Model, Refusal> {
    let row = for_operator(db, operator, id).await?;
    if row.status == status::CLOSED {
        return Err(Refusal::conflict(Msg::SupportConversationClosed));
    }
    let mut active: conversation::ActiveModel = row.into();
    active.status = Set(status::CLOSED.to_owned());
    active.closed_at = Set(Some(now_ms()));
    let row = active.update(db).await?;
    announce(hub, &row);
    Ok(row)
}

/// Publishes `row`'s new state to its customer and the operators.
pub fn announce(hub: &SupportHub, row: &conversation::Model) {
    hub.publish(
        row,
        "conversation",
        &super::views::SupportConversation::of(row),
    );
}

/// Whether `viewer` is an operator (for the channels).
pub fn is_support_operator(viewer: &user::Model) -> bool {
    is_operator(viewer)
}
