//! The 1-minute candles of every pair, as the market source closes them. Higher intervals are
//! rolled up from these by wasm-core (`kline::rollup`), the same code the webapp runs.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(MarketCandle::Table)
                    .if_not_exists()
                    .col(big_pk_auto(MarketCandle::Id))
                    .col(string_len(MarketCandle::Symbol, 64))
                    .col(big_integer(MarketCandle::OpenTime))
                    .col(string_len(MarketCandle::Open, 40))
                    .col(string_len(MarketCandle::High, 40))
                    .col(string_len(MarketCandle::Low, 40))
                    .col(string_len(MarketCandle::Close, 40))
                    .col(string_len(MarketCandle::BaseVolume, 48))
                    .col(string_len(MarketCandle::QuoteVolume, 48))
                    .col(big_integer(MarketCandle::TradeCount))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_market_candle_symbol_open_time")
                    .table(MarketCandle::Table)
                    .col(MarketCandle::Symbol)
                    .col(MarketCandle::OpenTime)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(MarketCandle::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum MarketCandle {
    Table,
    Id,
    Symbol,
    OpenTime,
    Open,
    High,
    Low,
    Close,
    BaseVolume,
    QuoteVolume,
    TradeCount,
}
