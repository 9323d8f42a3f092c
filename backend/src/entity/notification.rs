//! A security or money e-mail to a user, written in the transaction of its event and delivered by
//! [`crate::notify::deliver`] (at least once; `sent_at` marks it done).

use sea_orm::entity::prelude::*;

/// One `notification` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "notification")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The recipient.
    pub user_id: i64,
    /// What happened ([`crate::notify::Kind`]: `new_login`, `withdrawal_sent`, …).
    pub kind: String,
    /// The values its text shows, a JSON object of strings (never a secret).
    pub params: String,
    /// When the event happened, Unix milliseconds.
    pub created_at: i64,
    /// Delivery attempts so far.
    pub attempts: i32,
    /// Not to be tried before, Unix milliseconds (retries back off).
    pub next_attempt_at: i64,
    /// A delivering instance holds it until then (a lease: a crashed one's lapses).
    pub claimed_until: Option<i64>,
    /// When it was delivered (or skipped: no e-mail address); the idempotent "sent" mark.
    pub sent_at: Option<i64>,
    /// When delivery was given up after the last attempt.
    pub failed_at: Option<i64>,
    /// Why the last attempt failed, or why it was skipped.
    pub last_error: Option<String>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
