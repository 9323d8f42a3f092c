//! The listed trading pairs: what the coin list shows and what the market simulator quotes.
//!
//! Prices, sizes and rates are stored as decimal strings (TEXT) so that SQLite and PostgreSQL keep
//! exactly the digits written; the backend parses them into `rust_decimal::Decimal`.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Coin::Table)
                    .if_not_exists()
                    .col(pk_auto(Coin::Id))
                    .col(string_len(Coin::Coin, 32))
                    .col(string_len(Coin::BaseCoin, 32))
                    .col(string_len_uniq(Coin::Symbol, 64))
                    .col(string_len(Coin::ShowSymbol, 64))
                    .col(integer(Coin::CustomizeFlag).default(1))
                    .col(string_len(Coin::Market, 16).default("crypto"))
                    .col(boolean(Coin::SpotEnabled).default(true))
                    .col(boolean(Coin::ContractEnabled).default(false))
                    .col(integer(Coin::PricePrecision))
                    .col(integer(Coin::QuantityPrecision))
                    .col(string_len(Coin::TickSize, 40))
                    .col(string_len(Coin::StepSize, 40))
                    .col(string_len(Coin::MinNotional, 40))
                    .col(string_len(Coin::ReferencePrice, 40))
                    .col(string_len(Coin::DailyVolatility, 40))
                    .col(string_len(Coin::Logo, 255))
                    .col(boolean(Coin::Hot).default(false))
                    .col(integer(Coin::Sort).default(0))
                    .col(big_integer(Coin::CreatedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Coin::Table).to_owned())
            .await
    }
}

// The column names are the spec's field names (`coin`, `baseCoin`), so some end like the table.
#[allow(clippy::enum_variant_names)]
#[derive(DeriveIden)]
pub(crate) enum Coin {
    Table,
    Id,
    Coin,
    BaseCoin,
    Symbol,
    ShowSymbol,
    CustomizeFlag,
    Market,
    SpotEnabled,
    ContractEnabled,
    PricePrecision,
    QuantityPrecision,
    TickSize,
    StepSize,
    MinNotional,
    ReferencePrice,
    DailyVolatility,
    Logo,
    Hot,
    Sort,
    CreatedAt,
}
