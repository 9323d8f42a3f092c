//! HTTP of the operators' support inbox (operator role only; anyone else gets 403): the queues
//! (`GET /api/admin/support/conversations?queue=queued|mine|closed`), a conversation's messages,
//! assigning it to oneself, answering, reading and closing. An operator sees queued conversations,
//! their own and closed ones; another operator's open conversation is a 404. The rules live in
//! `crate::support`.

use std::sync::Arc;

use poem::web::Data;
use poem_openapi::{
    Enum, OpenApi, Tags,
    param::{Path, Query},
};
use sea_orm::{DatabaseConnection, EntityTrait};

use crate::config::Config;
use crate::entity::user;
use crate::http::{JsonBody, MemberResponse};
use crate::i18n::Msg;
use crate::kyc::files::LinkKey;
use crate::paging::Paging;
use crate::refusal::Refusal;
use crate::support::api::{SupportSendRequest, SupportSent, thread_of};
use crate::support::conversations::{self, Queue};
use crate::support::messages::{self, Draft};
use crate::support::views::{
    AdminSupportConversation, AdminSupportPage, SupportConversation, SupportMessage, SupportThread,
};
use crate::support::{Side, SupportHub};
use crate::user::Satoken;
use crate::user::mailer::Mailer;

#[derive(Tags)]
enum ApiTags {
    /// Operator calls: the support inbox.
    AdminSupport,
}

/// The operators' support inbox.
pub struct AdminSupportApi;

/// Which queue to list.
#[derive(Debug, Clone, Copy, Enum)]
#[oai(rename_all = "lowercase")]
pub enum SupportQueue {
    /// Waiting for an operator.
    Queued,
    /// Assigned to the operator asking.
    Mine,
    /// Closed.
    Closed,
}

async fn listed(
    db: &DatabaseConnection,
    row: &crate::entity::support_conversation::Model,
) -> Result<AdminSupportConversation, Refusal> {
    let contact = match (row.user_id, &row.visitor_email) {
        (Some(id), _) => user::Entity::find_by_id(id)
            .one(db)
            .await?
            .and_then(|owner| owner.email.or(owner.phone))
            .unwrap_or_default(),
        (None, Some(email)) => email.clone(),
        (None, None) => String::new(),
    };
    Ok(AdminSupportConversation {
        conversation: SupportConversation::of(row),
        user_id: row.user_id,
        contact,
        lang: row.lang.clone(),
    })
}

#[OpenApi(tag = "ApiTags::AdminSupport")]
impl AdminSupportApi {
    /// One page of a queue, most recent activity first, with the customer's contact.
    #[oai(
        path = "/api/admin/support/conversations",
        method = "get",
        operation_id = "adminSupportConversations"
    )]
    async fn list(
        &self,
        Data(db): Data<&DatabaseConnection>,
        auth: Satoken,
        /// `queued` (default), `mine` or `closed`.
        queue: Query<Option<SupportQueue>>,
        /// Page, 1 to 1,000,000 (default 1).
        #[oai(validator(minimum(value = "1"), maximum(value = "1000000")))]
        page: Query<Option<u64>>,
        /// Rows per page, 1 to 100 (default 20).
        #[oai(
            name = "pageSize",
            validator(minimum(value = "1"), maximum(value = "100"))
        )]
        page_size: Query<Option<u64>>,
    ) -> MemberResponse<AdminSupportPage> {
        let result = async {
            let queue = match queue.0.unwrap_or(SupportQueue::Queued) {
                SupportQueue::Queued => Queue::Queued,
                SupportQueue::Mine => Queue::Mine,
                SupportQueue::Closed => Queue::Closed,
            };
            let (total, rows) =
                conversations::queue(db, &auth.0.user, queue, Paging::new(page.0, page_size.0))
                    .await?;
            let mut records = Vec::with_capacity(rows.len());
            for row in &rows {
                records.push(listed(db, row).await?);
            }
            Ok::<_, Refusal>(AdminSupportPage { total, records })
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// A conversation's messages: the latest `limit` (1 to 100, default 50) or those before
    /// `before`.
    #[oai(
        path = "/api/admin/support/conversations/:id/messages",
        method = "get",
        operation_id = "adminSupportThread"
    )]
    async fn thread(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(key): Data<&LinkKey>,
        auth: Satoken,
        /// The conversation.
        id: Path<i64>,
        /// Only messages older than this id.
        before: Query<Option<i64>>,
        /// How many, 1 to 100 (default 50).
        #[oai(validator(minimum(value = "1"), maximum(value = "100")))]
        limit: Query<Option<u64>>,
    ) -> MemberResponse<SupportThread> {
        let result = async {
            let row = conversations::for_operator(db, &auth.0.user, id.0).await?;
            thread_of(db, key, &row, before.0, limit.0).await
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Assigns a queued conversation to the caller; another operator's is 409
    /// `support_assigned_elsewhere`.
    #[oai(
        path = "/api/admin/support/conversations/:id/assign",
        method = "post",
        operation_id = "adminSupportAssign"
    )]
    async fn assign(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&SupportHub>,
        auth: Satoken,
        /// The conversation.
        id: Path<i64>,
    ) -> MemberResponse<SupportConversation> {
        let result = conversations::assign(db, hub, &auth.0.user, id.0)
            .await
            .map(|row| SupportConversation::of(&row));
        MemberResponse::of(result, Msg::Success)
    }

    /// Answers (a queued conversation is assigned to the caller first); an absent customer gets
    /// one e-mail until they read.
    #[oai(
        path = "/api/admin/support/conversations/:id/send",
        method = "post",
        operation_id = "adminSupportSend"
    )]
    // A handler takes one argument per extractor: each dependency, header, path and body.
    #[allow(clippy::too_many_arguments)]
    async fn send(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&SupportHub>,
        Data(mailer): Data<&Arc<Mailer>>,
        Data(config): Data<&Arc<Config>>,
        auth: Satoken,
        /// The conversation.
        id: Path<i64>,
        body: JsonBody<SupportSendRequest>,
    ) -> MemberResponse<SupportSent> {
        let draft = Draft {
            body: body.0.body.clone(),
            file_id: body.0.file_id,
        };
        let result = messages::send_as_operator(
            db,
            hub,
            mailer,
            &config.platform.site_name,
            &auth.0.user,
            id.0,
            &draft,
        )
        .await
        .map(|(row, stored)| SupportSent {
            conversation: SupportConversation::of(&row),
            message: SupportMessage::of(&stored),
        });
        MemberResponse::of(result, Msg::Success)
    }

    /// Marks the customer's messages read.
    #[oai(
        path = "/api/admin/support/conversations/:id/read",
        method = "post",
        operation_id = "adminSupportRead"
    )]
    async fn read(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&SupportHub>,
        auth: Satoken,
        /// The conversation.
        id: Path<i64>,
    ) -> MemberResponse<SupportConversation> {
        let result = async {
            let row = conversations::for_operator(db, &auth.0.user, id.0).await?;
            let row = messages::read(db, hub, row, Side::Operator).await?;
            Ok(SupportConversation::of(&row))
        }
        .await;
        MemberResponse::of(result, Msg::Success)
    }

    /// Closes a conversation; the customer's next message starts a new one.
    #[oai(
        path = "/api/admin/support/conversations/:id/close",
        method = "post",
        operation_id = "adminSupportClose"
    )]
    async fn close(
        &self,
        Data(db): Data<&DatabaseConnection>,
        Data(hub): Data<&SupportHub>,
        auth: Satoken,
        /// The conversation.
        id: Path<i64>,
    ) -> MemberResponse<SupportConversation> {
        let result = conversations::close(db, hub, &auth.0.user, id.0)
            .await
            .map(|row| SupportConversation::of(&row));
        MemberResponse::of(result, Msg::Success)
    }
}
