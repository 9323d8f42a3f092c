//! `notification`: the security and money e-mails, one row per event, written in the event's own
//! transaction and delivered by a background task with retries (docs/architecture.md, "notify");
//! and `user.lang`, the language those e-mails are written in.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Notification::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Notification::Id))
                    .col(big_integer(Notification::UserId))
                    .col(string_len(Notification::Kind, 32))
                    .col(text(Notification::Params))
                    .col(big_integer(Notification::CreatedAt))
                    .col(integer(Notification::Attempts).default(0))
                    .col(big_integer(Notification::NextAttemptAt))
                    .col(big_integer_null(Notification::ClaimedUntil))
                    .col(big_integer_null(Notification::SentAt))
                    .col(big_integer_null(Notification::FailedAt))
                    .col(text_null(Notification::LastError))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_notification_pending")
                    .table(Notification::Table)
                    .col(Notification::SentAt)
                    .col(Notification::NextAttemptAt)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(User::Table)
                    .add_column(string_len_null(User::Lang, 8))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(User::Table)
                    .drop_column(User::Lang)
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(Notification::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Notification {
    Table,
    Id,
    UserId,
    Kind,
    Params,
    CreatedAt,
    Attempts,
    NextAttemptAt,
    ClaimedUntil,
    SentAt,
    FailedAt,
    LastError,
}

#[derive(DeriveIden)]
enum User {
    Table,
    Lang,
}
