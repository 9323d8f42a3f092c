//! The shapes of conversations and messages on the wire (HTTP and channels alike).

use poem_openapi::Object;
use serde::Serialize;

use crate::entity::{support_conversation as conversation, support_message as message};

/// A conversation as both sides see it.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
#[serde(rename_all = "camelCase")]
pub struct SupportConversation {
    /// Id.
    pub id: i64,
    /// `queued` (waiting for an operator), `assigned` or `closed`.
    pub status: String,
    /// The operator answering it.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub operator_id: Option<i64>,
    /// Operator messages the customer has not read.
    pub customer_unread: i32,
    /// Customer messages the operators have not read.
    pub operator_unread: i32,
    /// Unix milliseconds of the last message.
    pub last_message_at: i64,
    /// Unix milliseconds.
    pub created_at: i64,
}

impl SupportConversation {
    /// The view of `row`.
    pub fn of(row: &conversation::Model) -> Self {
        Self {
            id: row.id,
            status: row.status.clone(),
            operator_id: row.operator_id,
            customer_unread: row.customer_unread,
            operator_unread: row.operator_unread,
            last_message_at: row.last_message_at,
            created_at: row.created_at,
        }
    }
}

/// A conversation as an operator lists it: who the customer is.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
pub struct AdminSupportConversation {
    /// The conversation.
    pub conversation: SupportConversation,
    /// The user, for a logged-in customer.
    pub user_id: Option<i64>,
    /// The visitor's e-mail, or the user's login e-mail or phone.
    pub contact: String,
    /// The customer's language.
    pub lang: String,
}

/// A message.
#[derive(Debug, Clone, Object, Serialize)]
#[oai(rename_all = "camelCase", skip_serializing_if_is_none)]
#[serde(rename_all = "camelCase")]
pub struct SupportMessage {
    /// Id (increasing within a conversation).
    pub id: i64,
    /// The conversation.
    pub conversation_id: i64,
    /// `customer` or `operator`.
    pub author: String,
    /// The text.
    pub body: String,
    /// The attached image, if any (its link is in `imageUrl` on HTTP reads).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub file_id: Option<i64>,
    /// A signed link (5 minutes) to the attached image, on HTTP reads.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub image_url: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
}

impl SupportMessage {
    /// The view of `row` without a link.
    pub fn of(row: &message::Model) -> Self {
        Self {
            id: row.id,
            conversation_id: row.conversation_id,
            author: row.author.clone(),
            body: row.body.clone(),
            file_id: row.file_id,
            image_url: None,
            created_at: row.created_at,
        }
    }

    /// The view of `row` with a signed link to its image made with `key` at `now_ms`.
    pub fn linked(row: &message::Model, key: &crate::kyc::files::LinkKey, now_ms: i64) -> Self {
        let mut view = Self::of(row);
        view.image_url = row
            .file_id
            .map(|id| crate::kyc::files::sign_link(key, id, now_ms).url);
        view
    }
}

/// A page of a conversation: the conversation and its messages, oldest first.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct SupportThread {
    /// The conversation.
    pub conversation: SupportConversation,
    /// The messages, oldest first.
    pub messages: Vec<SupportMessage>,
    /// Whether older messages exist (page back with `before` = the first id).
    pub more: bool,
}

/// A visitor's new conversation and its token.
#[derive(Debug, Clone, Object)]
#[oai(rename_all = "camelCase")]
pub struct SupportVisitorStart {
    /// The conversation.
    pub conversation: SupportConversation,
    /// The visitor's key to the conversation (the `supportToken` header and the `token` of the
    /// channel); shown once, kept by the browser.
    pub token: String,
}

/// A page of an operator's queue.
#[derive(Debug, Clone, Object)]
pub struct AdminSupportPage {
    /// Rows in the queue.
    pub total: u64,
    /// The rows, most recent activity first.
    pub records: Vec<AdminSupportConversation>,
}
