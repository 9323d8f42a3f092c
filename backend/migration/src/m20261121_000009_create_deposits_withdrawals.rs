//! Deposits and withdrawals and their operator review. A deposit is a claim (amount, network,
//! payment screenshot) that moves money only when an operator passes it; a withdrawal holds its
//! amount (funding → frozen) from the moment it is submitted. Each row keeps its reviewer, review
//! time, reason, transaction hash and the ids of the journal entries that moved its money; amounts
//! are decimal TEXT like the ledger's.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Deposit::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Deposit::Id))
                    .col(big_integer(Deposit::UserId))
                    .col(string_len(Deposit::Coin, 16))
                    .col(string_len(Deposit::Network, 16))
                    .col(string_len(Deposit::Address, 128))
                    .col(string_len(Deposit::Amount, 48))
                    .col(big_integer(Deposit::ScreenshotFileId))
                    .col(string_len(Deposit::Status, 16))
                    .col(string_len_null(Deposit::Reason, 1000))
                    .col(big_integer_null(Deposit::ReviewedBy))
                    .col(big_integer_null(Deposit::ReviewedAt))
                    .col(big_integer_null(Deposit::EntryId))
                    .col(big_integer(Deposit::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Withdrawal::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Withdrawal::Id))
                    .col(big_integer(Withdrawal::UserId))
                    .col(string_len(Withdrawal::Coin, 16))
                    .col(string_len(Withdrawal::Network, 16))
                    .col(string_len(Withdrawal::Address, 128))
                    .col(string_len(Withdrawal::Amount, 48))
                    .col(string_len(Withdrawal::Fee, 48))
                    .col(string_len(Withdrawal::Received, 48))
                    .col(string_len(Withdrawal::Status, 16))
                    .col(string_len_null(Withdrawal::Reason, 1000))
                    .col(string_len_null(Withdrawal::TxHash, 128))
                    .col(big_integer_null(Withdrawal::ReviewedBy))
                    .col(big_integer_null(Withdrawal::ReviewedAt))
                    .col(big_integer(Withdrawal::HoldEntryId))
                    .col(big_integer_null(Withdrawal::SettleEntryId))
                    .col(big_integer_null(Withdrawal::FeeEntryId))
                    .col(big_integer(Withdrawal::CreatedAt))
                    .to_owned(),
            )
            .await?;
        for (name, table, column) in [
            (
                "idx_deposit_user_id",
                Deposit::Table.into_iden(),
                Deposit::UserId.into_iden(),
            ),
            (
                "idx_deposit_status",
                Deposit::Table.into_iden(),
                Deposit::Status.into_iden(),
            ),
            (
                "idx_withdrawal_user_id",
                Withdrawal::Table.into_iden(),
                Withdrawal::UserId.into_iden(),
            ),
            (
                "idx_withdrawal_status",
                Withdrawal::Table.into_iden(),
                Withdrawal::Status.into_iden(),
            ),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(table)
                        .col(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [Withdrawal::Table.into_iden(), Deposit::Table.into_iden()] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum Deposit {
    Table,
    Id,
    UserId,
    Coin,
    Network,
    Address,
    Amount,
    ScreenshotFileId,
    Status,
    Reason,
    ReviewedBy,
    ReviewedAt,
    EntryId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum Withdrawal {
    Table,
    Id,
    UserId,
    Coin,
    Network,
    Address,
    Amount,
    Fee,
    Received,
    Status,
    Reason,
    TxHash,
    ReviewedBy,
    ReviewedAt,
    HoldEntryId,
    SettleEntryId,
    FeeEntryId,
    CreatedAt,
}
