//! `conversion_usage`: what each user converted per UTC day, valued in USDT, against the daily
//! conversion limit. One row per user and day; `version` makes each update a compare-and-swap, so
//! the check of the limit and its record are one step inside the conversion's ledger transaction.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ConversionUsage::Table)
                    .if_not_exists()
                    .col(big_pk_auto(ConversionUsage::Id))
                    .col(big_integer(ConversionUsage::UserId))
                    .col(big_integer(ConversionUsage::Day))
                    .col(string_len(ConversionUsage::UsedUsdt, 48))
                    .col(big_integer(ConversionUsage::Version))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_conversion_usage_user_day")
                    .table(ConversionUsage::Table)
                    .col(ConversionUsage::UserId)
                    .col(ConversionUsage::Day)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(ConversionUsage::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum ConversionUsage {
    Table,
    Id,
    UserId,
    Day,
    UsedUsdt,
    Version,
}
