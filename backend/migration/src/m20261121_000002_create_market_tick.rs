//! Every price tick the market source produces, per symbol, in order. Later features (seconds
//! contracts, candles) settle and aggregate from this series, so rows are only ever appended.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(MarketTick::Table)
                    .if_not_exists()
                    .col(big_pk_auto(MarketTick::Id))
                    .col(string_len(MarketTick::Symbol, 64))
                    .col(big_integer(MarketTick::Seq))
                    .col(string_len(MarketTick::Price, 40))
                    .col(string_len(MarketTick::Volume, 40))
                    .col(integer(MarketTick::TradeCount))
                    .col(big_integer(MarketTick::TsMs))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_market_tick_symbol_seq")
                    .table(MarketTick::Table)
                    .col(MarketTick::Symbol)
                    .col(MarketTick::Seq)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(MarketTick::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum MarketTick {
    Table,
    Id,
    Symbol,
    Seq,
    Price,
    Volume,
    TradeCount,
    TsMs,
}
