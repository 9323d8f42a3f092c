//! The live support chat: `support_conversation` (one conversation of a user or of a visitor who
//! left an e-mail: its queue state, the operator it is assigned to, the unread counts of each side
//! and whether the away e-mail was sent) and `support_message` (each message, with its optional
//! image attachment).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(SupportConversation::Table)
                    .if_not_exists()
                    .col(big_pk_auto(SupportConversation::Id))
                    .col(big_integer_null(SupportConversation::UserId))
                    .col(string_len_null(SupportConversation::VisitorEmail, 254))
                    .col(string_len_null(SupportConversation::VisitorTokenHash, 64))
                    .col(string_len(SupportConversation::Lang, 8))
                    .col(string_len(SupportConversation::Status, 16))
                    .col(big_integer_null(SupportConversation::OperatorId))
                    .col(integer(SupportConversation::CustomerUnread))
                    .col(integer(SupportConversation::OperatorUnread))
                    .col(boolean(SupportConversation::AwayMailed))
                    .col(big_integer(SupportConversation::LastMessageAt))
                    .col(big_integer(SupportConversation::CreatedAt))
                    .col(big_integer_null(SupportConversation::ClosedAt))
                    .to_owned(),
            )
            .await?;
        for (name, columns) in [
            (
                "idx_support_conversation_user",
                vec![SupportConversation::UserId, SupportConversation::Status],
            ),
            (
                "idx_support_conversation_queue",
                vec![
                    SupportConversation::Status,
                    SupportConversation::OperatorId,
                    SupportConversation::LastMessageAt,
                ],
            ),
        ] {
            let mut index = Index::create();
            index.name(name).table(SupportConversation::Table);
            for column in columns {
                index.col(column);
            }
            manager.create_index(index.to_owned()).await?;
        }
        manager
            .create_index(
                Index::create()
                    .name("idx_support_conversation_visitor")
                    .table(SupportConversation::Table)
                    .col(SupportConversation::VisitorTokenHash)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(SupportMessage::Table)
                    .if_not_exists()
                    .col(big_pk_auto(SupportMessage::Id))
                    .col(big_integer(SupportMessage::ConversationId))
                    .col(string_len(SupportMessage::Author, 16))
                    .col(big_integer_null(SupportMessage::OperatorId))
                    .col(text(SupportMessage::Body))
                    .col(big_integer_null(SupportMessage::FileId))
                    .col(big_integer(SupportMessage::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_support_message_conversation")
                    .table(SupportMessage::Table)
                    .col(SupportMessage::ConversationId)
                    .col(SupportMessage::Id)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(SupportMessage::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(SupportConversation::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum SupportConversation {
    Table,
    Id,
    UserId,
    VisitorEmail,
    VisitorTokenHash,
    Lang,
    Status,
    OperatorId,
    CustomerUnread,
    OperatorUnread,
    AwayMailed,
    LastMessageAt,
    CreatedAt,
    ClosedAt,
}

#[derive(DeriveIden)]
enum SupportMessage {
    Table,
    Id,
    ConversationId,
    Author,
    OperatorId,
    Body,
    FileId,
    CreatedAt,
}
