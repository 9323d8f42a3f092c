//! Transfers between users and the idempotency records of money-moving calls. An idempotency
//! record is written in the same transaction as the journal entry it answers for, so a retried
//! request either finds it (and gets the first answer) or finds nothing and nothing was posted.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(IdempotencyRecord::Table)
                    .if_not_exists()
                    .col(big_pk_auto(IdempotencyRecord::Id))
                    .col(big_integer(IdempotencyRecord::UserId))
                    .col(string_len(IdempotencyRecord::Key, 100))
                    .col(string_len(IdempotencyRecord::Operation, 64))
                    .col(string_len(IdempotencyRecord::RequestHash, 64))
                    .col(text(IdempotencyRecord::Response))
                    .col(big_integer(IdempotencyRecord::EntryId))
                    .col(big_integer(IdempotencyRecord::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_idempotency_record_user_key")
                    .table(IdempotencyRecord::Table)
                    .col(IdempotencyRecord::UserId)
                    .col(IdempotencyRecord::Key)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(FundTransfer::Table)
                    .if_not_exists()
                    .col(big_pk_auto(FundTransfer::Id))
                    .col(big_integer(FundTransfer::FromUserId))
                    .col(big_integer(FundTransfer::ToUserId))
                    .col(string_len(FundTransfer::Coin, 16))
                    .col(string_len(FundTransfer::Amount, 48))
                    .col(big_integer(FundTransfer::EntryId))
                    .col(big_integer(FundTransfer::CreatedAt))
                    .to_owned(),
            )
            .await?;
        for (name, column) in [
            ("idx_fund_transfer_from_user_id", FundTransfer::FromUserId),
            ("idx_fund_transfer_to_user_id", FundTransfer::ToUserId),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(FundTransfer::Table)
                        .col(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            FundTransfer::Table.into_iden(),
            IdempotencyRecord::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum IdempotencyRecord {
    Table,
    Id,
    UserId,
    Key,
    Operation,
    RequestHash,
    Response,
    EntryId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum FundTransfer {
    Table,
    Id,
    FromUserId,
    ToUserId,
    Coin,
    Amount,
    EntryId,
    CreatedAt,
}
