//! The live support chat between a customer — a logged-in user, or a visitor who left an e-mail and
//! holds a conversation token — and the operators.
//!
//! - [`conversations`]: opening a conversation (one open conversation per user or visitor token),
//!   finding the caller's, the operators' queues (`queued`: nobody assigned; `mine`; `closed`),
//!   assignment and closing.
//! - [`messages`]: sending (text of at most [`MAX_BODY_CHARS`], optionally one image that went
//!   through the checked upload path), the bounded pages of a conversation, the unread counts of
//!   each side and reading.
//! - [`away`]: the e-mail to a customer who is not connected when an operator answers: once per
//!   absence (until the customer reads again).
//! - [`hub`]: the live side: every stored message and conversation change as a broadcast, and which
//!   conversations have a customer connected (the away rule reads it).
//! - `api.rs` (customers) and `admin/support_api.rs` (operators) are the HTTP; `ws.rs` the
//!   channels `/ws/support/customer` and `/ws/support/operator`.
//!
//! A customer's identity is checked on every call: a user by the session, a visitor by the token
//! (kept only as its SHA-256, compared by lookup of the hash). Another customer's conversation is
//! indistinguishable from a missing one.

pub mod api;
pub mod away;
pub mod conversations;
pub mod hub;
pub mod messages;
pub mod views;
pub mod ws;

pub use hub::SupportHub;

/// The longest message text, in characters.
pub const MAX_BODY_CHARS: usize = 2000;

/// Who is calling on the customer side.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Customer {
    /// A logged-in user.
    User(i64),
    /// A visitor, by the conversation token they were given.
    Visitor(String),
}

/// Which side of a conversation wrote a message or reads it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Side {
    /// The user or visitor.
    Customer,
    /// An operator.
    Operator,
}

impl Side {
    /// The stored `author`.
    pub fn as_str(self) -> &'static str {
        match self {
            Side::Customer => "customer",
            Side::Operator => "operator",
        }
    }
}

/// The state of a conversation, as the `status` column stores it.
pub mod status {
    /// Waiting for an operator.
    pub const QUEUED: &str = "queued";
    /// An operator answers it.
    pub const ASSIGNED: &str = "assigned";
    /// Done; the customer's next message opens a new one.
    pub const CLOSED: &str = "closed";
}
