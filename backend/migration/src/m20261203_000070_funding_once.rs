//! A position is paid at most once per funding time: a unique index on `futures_funding`
//! (`position_id`, `funding_time`). In cluster mode a funding round's lease may pass to another
//! instance while a slow holder is still paying (docs/operations.md, "Cluster mode"); the second
//! payment of a position then fails its insert and its whole transaction rolls back.

use sea_orm_migration::prelude::*;

#[derive(DeriveMigrationName)]
pub struct Migration;

/// The index's name.
const INDEX: &str = "idx_futures_funding_position_time";

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_index(
                Index::create()
                    .name(INDEX)
                    .table(FuturesFunding::Table)
                    .col(FuturesFunding::PositionId)
                    .col(FuturesFunding::FundingTime)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_index(
                Index::drop()
                    .name(INDEX)
                    .table(FuturesFunding::Table)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum FuturesFunding {
    Table,
    PositionId,
    FundingTime,
}
