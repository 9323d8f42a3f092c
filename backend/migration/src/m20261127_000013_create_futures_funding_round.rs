//! `futures_funding_round`: one row per contract and funding time that was settled, with its rate
//! and mark. A funding time is settled once: the engine of a contract reads the newest round at
//! start and settles every funding time its open positions were held through while the server
//! was down (docs/architecture.md, "Futures funding").

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(FuturesFundingRound::Table)
                    .if_not_exists()
                    .col(big_pk_auto(FuturesFundingRound::Id))
                    .col(string_len(FuturesFundingRound::Symbol, 32))
                    .col(big_integer(FuturesFundingRound::FundingTime))
                    .col(string_len(FuturesFundingRound::Rate, 32))
                    .col(string_len(FuturesFundingRound::MarkPrice, 48))
                    .col(big_integer(FuturesFundingRound::Positions))
                    .col(boolean(FuturesFundingRound::CaughtUp))
                    .col(big_integer(FuturesFundingRound::SettledAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_futures_funding_round_symbol_time")
                    .table(FuturesFundingRound::Table)
                    .col(FuturesFundingRound::Symbol)
                    .col(FuturesFundingRound::FundingTime)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_futures_funding_symbol_time")
                    .table(FuturesFunding::Table)
                    .col(FuturesFunding::Symbol)
                    .col(FuturesFunding::FundingTime)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name("idx_futures_funding_symbol_time")
                    .table(FuturesFunding::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .drop_table(Table::drop().table(FuturesFundingRound::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum FuturesFundingRound {
    Table,
    Id,
    Symbol,
    FundingTime,
    Rate,
    MarkPrice,
    Positions,
    CaughtUp,
    SettledAt,
}

#[derive(DeriveIden)]
enum FuturesFunding {
    Table,
    Symbol,
    FundingTime,
}
