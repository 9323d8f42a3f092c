//! HTTP of the customer side of the support chat. A logged-in user calls `/api/support/*` with the
//! session (`satoken`); a visitor opens a conversation with an e-mail (`POST
//! /api/support/visitor/start`) and calls `/api/support/visitor/*` with the token it got (the
//! `supportToken` header). Sending is rate-limited per customer. The rules live in
//! `crate::support`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Object, OpenApi, Tags,
    param::{Header, Query},
};
use sea_orm::DatabaseConnection;
use serde::Deserialize;

use super::messages::{self, Draft};
use super::views::{SupportConversation, SupportMessage, SupportThread, SupportVisitorStart};
use super::{Customer, Side, SupportHub, conversations};
use crate::http::{JsonBody, MemberResponse, PublicResponse};
use crate::i18n::{Msg, current_lang};
use crate::kyc::files::LinkKey;
use crate::refusal::{Refusal, RefusalKind};
use crate::user::Satoken;
use crate::user::api::client_ip;
use crate::user::rate_limit::{Limit, RateLimiter};

/// The most messages a customer sends in 10 s.
pub const CUSTOMER_SENDS: Limit = Limit::per_secs(10, 10);
/// The most conversations one address (IP) opens as a visitor in an hour.
pub const VISITOR_STARTS: Limit = Limit::per_secs(20, 3600);

#[derive(Tags)]
enum ApiTags {
    /// The live support chat, customer side.
    Support,
}

/// The customer side of the support chat.
pub struct SupportApi;

/// A message to send.
#[derive(Debug, Object, Deserialize)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct SupportSendRequest {
    /// The text, at most 2,000 characters; may be empty when an image is attached.
    #[oai(validator(max_length = 8000))]
    pub body: String,
    /// An image uploaded by the sender through `POST /api/common/upload/OSS` (JPEG, PNG or WebP;
    /// not for visitors).
    pub file_id: Option<i64>,
}

/// A visitor's request to open a conversation.
#[derive(Debug, Object, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SupportVisitorRequest {
    /// Where the answer is e-mailed when the visitor is away.
    #[oai(validator(max_length = 254))]
    pub email: String,
}

/// A message stored, and the conversation after it.
#[derive(Debug, Object)]
pub struct SupportSent {
    /// The conversation.
    pub conversation: SupportConversation,
    /// The message.
    pub message: SupportMessage,
}

fn too_many(seconds: u64) -> Refusal {
    Refusal::new(RefusalKind::RateLimited, Msg::TooManyRequests)
        .with_param("seconds", seconds.to_string())
}

fn draft(body: &SupportSendRequest) -> Draft {
    Draft {
        body: body.body.clone(),
        file_id: body.file_id,
    }
}

/// The thread of `customer`: their conversation and a page of its messages.
async fn thread(
    db: &DatabaseConnection,
    key: &LinkKey,
    customer: &Customer,
    before: Option<i64>,
    limit: Option<u64>,
) -> Result<SupportThread, Refusal> {
    let row = conversations::of_customer(db, customer).await?;
    thread_of(db, key, &row, before, limit).await
}

/// A page of `row`'s messages with signed image links.
pub async fn thread_of(
    db: &DatabaseConnection,
    key: &LinkKey,
    row: &crate::entity::support_conversation::Model,
    before: Option<i64>,
    limit: Option<u64>,
) -> Result<SupportThread, Refusal> {
    let wanted = limit
        .unwrap_or(messages::DEFAULT_PAGE)
        .clamp(1, messages::MAX_PAGE);
    let mut rows = messages::page(db, row.id, before, Some(wanted + 1)).await?;
    let more = rows.len() as u64 > wanted;
    if more {
        rows.remove(0);
    }
    let now = crate::clock::now_ms();
    Ok(SupportThread {
        conversation: SupportConversation::of(row),
        messages: rows
            .iter()
            .map(|m| SupportMessage::linked(m, key, now))
            .collect(),
        more,
    })
}

async fn send(
    db: &DatabaseConnection,
    hub: &SupportHub,
    limiter: &RateLimiter,
    customer: Customer,
    body: &SupportSendRequest,
) -> Result<SupportSent, Refusal> {
    let key = match &customer {
        Customer::User(id) => format!("support:user:{id}"),
        Customer::Visitor(token) => format!(
            "support:visitor:{}",
            crate::user::sha256_hex(&[token.as_bytes()])
        ),
    };
    limiter
        .hit(&[(&key, CUSTOMER_SENDS)])
        .await
        .map_err(too_many)?;
    let (row, stored) =
        messages::send_as_customer(db, hub, &customer, current_lang(), &draft(body)).await?;
    Ok(SupportSent {
        conversation: SupportConversation::of(&row),
        message: SupportMessage::of(&stored),
    })
}

#[OpenApi(tag = "ApiTags::Support")]
impl SupportApi {
    /// Opens the user's conversation (their open one, else a new queued one).
    #[oai(
        path = "/api/support/open",
        method = "post",
        operation_id = "supportOpen"
    )]
    async fn open(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
    ) -> MemberResponse<SupportConversation> {
        let result = conversations::open_for_user(db, auth.0.id(), current_lang())
            .await
            .map(|row| SupportConversation::of(&row));
        MemberResponse::of(result, Msg::Success)
    }

    /// The user's conversation (open, else the latest) and its messages: the latest `limit`
    /// (1 to 100, default 50), or those before message `before`. 404 when they never wrote.
    #[oai(
        path = "/api/support/thread",
        method = "get",
        operation_id = "supportThread"
    )]
    async fn user_thread(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(key): Data<&LinkKey>,
        auth: Satoken,
        /// Only messages older than this id.
        before: Query<Option<i64>>,
        /// How many, 1 to 100 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
        limit: Query<Option<u64>>,
    ) -> MemberResponse<SupportThread> {
        let customer = Customer::User(auth.0.id());
        MemberResponse::of(
            thread(db, key, &customer, before.0, limit.0).await,
            Msg::Success,
        )
    }

    /// Sends a message (at most 10 in 10 s); a closed conversation is replaced by a new one.
    #[oai(
        path = "/api/support/send",
        method = "post",
        operation_id = "supportSend"
    )]
    async fn user_send(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&SupportHub>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        auth: Satoken,
        body: JsonBody<SupportSendRequest>,
    ) -> MemberResponse<SupportSent> {
        let customer = Customer::User(auth.0.id());
        MemberResponse::of(
            send(db, hub, limiter, customer, &body.0).await,
            Msg::Success,
        )
    }

    /// Marks the operators' messages read (the unread badge goes to zero).
    #[oai(
        path = "/api/support/read",
        method = "post",
        operation_id = "supportRead"
    )]
    async fn user_read(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&SupportHub>,
        auth: Satoken,
    ) -> MemberResponse<SupportConversation> {
        let result = async {
            let row = conversations::of_customer(db, &Customer::User(auth.0.id())).await?;
            let row = messages::read(db, hub, row, Side::Customer).await?;
            Ok(SupportConversation::of(&row))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Opens a visitor's conversation: the e-mail the answer goes to when they are away; answers
    /// the token that is the conversation's only key (at most 20 per address and hour).
    #[oai(
        path = "/api/support/visitor/start",
        method = "post",
        operation_id = "supportVisitorStart"
    )]
    async fn visitor_start(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        req: &poem::Request,
        body: JsonBody<SupportVisitorRequest>,
    ) -> PublicResponse<SupportVisitorStart> {
        let result = async {
            let key = format!("support:start:{}", client_ip(req));
            limiter
                .hit(&[(&key, VISITOR_STARTS)])
                .await
                .map_err(too_many)?;
            let opened = conversations::open_for_visitor(db, &body.0.email, current_lang()).await?;
            Ok(SupportVisitorStart {
                conversation: SupportConversation::of(&opened.conversation),
                token: opened.token,
            })
        }
        .await;
        PublicResponse::of(result, Msg::Success)
    }

    /// The visitor's conversation and a page of its messages (as `GET /api/support/thread`).
    #[oai(
        path = "/api/support/visitor/thread",
        method = "get",
        operation_id = "supportVisitorThread"
    )]
    async fn visitor_thread(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(key): Data<&LinkKey>,
        /// The token of `visitor/start`.
        #[oai(name = "supportToken")]
        token: Header<String>,
        /// Only messages older than this id.
        before: Query<Option<i64>>,
        /// How many, 1 to 100 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
        limit: Query<Option<u64>>,
    ) -> MemberResponse<SupportThread> {
        let customer = Customer::Visitor(token.0);
        MemberResponse::of(
            thread(db, key, &customer, before.0, limit.0).await,
            Msg::Success,
        )
    }

    /// Sends a visitor's message (text only; at most 10 in 10 s).
    #[oai(
        path = "/api/support/visitor/send",
        method = "post",
        operation_id = "supportVisitorSend"
    )]
    async fn visitor_send(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&SupportHub>,
        Data(limiter): Data<&Arc<RateLimiter>>,
        /// The token of `visitor/start`.
        #[oai(name = "supportToken")]
        token: Header<String>,
        body: JsonBody<SupportSendRequest>,
    ) -> MemberResponse<SupportSent> {
        let customer = Customer::Visitor(token.0);
        MemberResponse::of(
            send(db, hub, limiter, customer, &body.0).await,
            Msg::Success,
        )
    }

    /// Marks the operators' messages read for a visitor.
    #[oai(
        path = "/api/support/visitor/read",
        method = "post",
        operation_id = "supportVisitorRead"
    )]
    async fn visitor_read(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&SupportHub>,
        /// The token of `visitor/start`.
        #[oai(name = "supportToken")]
        token: Header<String>,
    ) -> MemberResponse<SupportConversation> {
        let result = async {
            let row = conversations::of_customer(db, &Customer::Visitor(token.0)).await?;
            let row = messages::read(db, hub, row, Side::Customer).await?;
            Ok(SupportConversation::of(&row))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }
}
