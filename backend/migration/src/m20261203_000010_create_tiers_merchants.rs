//! User tiers and merchants: `user_tier` (each user's account tier and the figures it was computed
//! from; the VIP flag itself stays `user.user_type`) and `merchant` (one row per user: its
//! application, the operator's decision and, once approved, its generation-1 rebate rate).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(UserTier::Table)
                    .if_not_exists()
                    .col(big_integer(UserTier::UserId).primary_key())
                    .col(string_len(UserTier::AccountTier, 16))
                    .col(string_len(UserTier::DepositsUsd, 48))
                    .col(string_len(UserTier::VolumeUsdt, 48))
                    .col(string_len(UserTier::AssetsUsdt, 48))
                    .col(big_integer(UserTier::ComputedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Merchant::Table)
                    .if_not_exists()
                    .col(big_integer(Merchant::UserId).primary_key())
                    .col(string_len(Merchant::BusinessName, 128))
                    .col(string_len(Merchant::Contact, 128))
                    .col(string_len(Merchant::Business, 1000))
                    .col(string_len(Merchant::Countries, 256))
                    .col(string_len(Merchant::Status, 16))
                    .col(string_len_null(Merchant::Reason, 500))
                    .col(string_len_null(Merchant::RebateRate, 48))
                    .col(big_integer_null(Merchant::DecidedBy))
                    .col(big_integer_null(Merchant::DecidedAt))
                    .col(big_integer(Merchant::CreatedAt))
                    .col(big_integer(Merchant::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_merchant_status")
                    .table(Merchant::Table)
                    .col(Merchant::Status)
                    .col(Merchant::UpdatedAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Merchant::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(UserTier::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum UserTier {
    Table,
    UserId,
    AccountTier,
    DepositsUsd,
    VolumeUsdt,
    AssetsUsdt,
    ComputedAt,
}

#[derive(DeriveIden)]
enum Merchant {
    Table,
    UserId,
    BusinessName,
    Contact,
    Business,
    Countries,
    Status,
    Reason,
    RebateRate,
    DecidedBy,
    DecidedAt,
    CreatedAt,
    UpdatedAt,
}
