//! A message the platform sent (development outbox; also the audit of SMTP sends).

use sea_orm::entity::prelude::*;

/// One `outbox_message` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "outbox_message")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `email` or `sms`.
    pub channel: String,
    /// Address or phone.
    pub recipient: String,
    /// Subject.
    pub subject: String,
    /// Plain-text body.
    pub body: String,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
