//! Cluster mode's fencing of market owners (docs/operations.md, "Cluster mode"): `market_owner`,
//! one row per market (`spot:btcusdt`; futures symbols the same way) holding the fencing token of
//! its current owner — the revision of the NATS lease at which that owner took the market. A new
//! owner raises it when it takes over; every batch of a market's engine checks it, by a conditional
//! update in the batch's own transaction, and a stale owner's batch is refused whole.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(MarketOwner::Table)
                    .if_not_exists()
                    .col(string_len(MarketOwner::Market, 64).primary_key())
                    .col(big_integer(MarketOwner::Token))
                    .col(string_len(MarketOwner::Holder, 128))
                    .col(big_integer(MarketOwner::TakenAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(MarketOwner::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum MarketOwner {
    Table,
    Market,
    Token,
    Holder,
    TakenAt,
}
