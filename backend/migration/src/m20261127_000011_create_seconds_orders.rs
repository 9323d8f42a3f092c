//! Seconds (flash) contracts. A row is written with the entry that moves its stake to the seconds
//! book and records the opening tick it was accepted at and its fixed expiry; settlement fills in
//! the settlement tick, the result and the payout with the settlement entry, once (`status` moves
//! from `open` to `settled` by a conditional update). Amounts are decimal TEXT like the ledger's.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(SecondsOrder::Table)
                    .if_not_exists()
                    .col(big_pk_auto(SecondsOrder::Id))
                    .col(big_integer(SecondsOrder::UserId))
                    .col(string_len(SecondsOrder::Symbol, 32))
                    .col(string_len(SecondsOrder::Direction, 4))
                    .col(integer(SecondsOrder::PeriodSeconds))
                    .col(string_len(SecondsOrder::Stake, 48))
                    .col(string_len(SecondsOrder::PayoutRate, 48))
                    .col(string_len(SecondsOrder::Status, 16))
                    .col(string_len_null(SecondsOrder::Result, 8))
                    .col(big_integer(SecondsOrder::AcceptedMs))
                    .col(big_integer(SecondsOrder::ExpiryMs))
                    .col(big_integer(SecondsOrder::OpenTickSeq))
                    .col(string_len(SecondsOrder::OpenPrice, 48))
                    .col(big_integer(SecondsOrder::OpenTickMs))
                    .col(big_integer_null(SecondsOrder::SettleTickSeq))
                    .col(string_len_null(SecondsOrder::SettlePrice, 48))
                    .col(big_integer_null(SecondsOrder::SettleTickMs))
                    .col(string_len_null(SecondsOrder::Payout, 48))
                    .col(string_len_null(SecondsOrder::Profit, 48))
                    .col(string_len(SecondsOrder::Rule, 48))
                    .col(big_integer(SecondsOrder::OpenEntryId))
                    .col(big_integer_null(SecondsOrder::SettleEntryId))
                    .col(big_integer_null(SecondsOrder::SettledAt))
                    .to_owned(),
            )
            .await?;
        for (name, columns) in [
            (
                "idx_seconds_order_user_status",
                vec![
                    SecondsOrder::UserId.into_iden(),
                    SecondsOrder::Status.into_iden(),
                ],
            ),
            (
                "idx_seconds_order_status_expiry",
                vec![
                    SecondsOrder::Status.into_iden(),
                    SecondsOrder::ExpiryMs.into_iden(),
                ],
            ),
        ] {
            let mut index = Index::create();
            index.name(name).table(SecondsOrder::Table);
            for column in columns {
                index.col(column);
            }
            manager.create_index(index.to_owned()).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(
                Table::drop()
                    .table(SecondsOrder::Table)
                    .if_exists()
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum SecondsOrder {
    Table,
    Id,
    UserId,
    Symbol,
    Direction,
    PeriodSeconds,
    Stake,
    PayoutRate,
    Status,
    Result,
    AcceptedMs,
    ExpiryMs,
    OpenTickSeq,
    OpenPrice,
    OpenTickMs,
    SettleTickSeq,
    SettlePrice,
    SettleTickMs,
    Payout,
    Profit,
    Rule,
    OpenEntryId,
    SettleEntryId,
    SettledAt,
}
