//! Earn products and positions: `earn_product` (with its quota counters), `earn_rate_version`
//! (every rate a product has had; a position keeps the one it was sold at), `earn_holding` (what
//! each user bought of a product: the per-user limits), `earn_position` (the orders),
//! `earn_payout` (one row per position and accrual day: a day is paid once) and `job_lease` (which
//! instance runs a periodic job). Every integer column is 64-bit (the spot writer's own SQLite
//! connection reads integers as such). Amounts are decimal text, except the quota counters: integer
//! units of 10⁻⁸, so that a conditional `UPDATE … SET sold_units = sold_units + n WHERE
//! sold_units + n <= total_units` checks and records a sale in one step on SQLite and PostgreSQL.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(EarnProduct::Table)
                    .if_not_exists()
                    .col(big_pk_auto(EarnProduct::Id))
                    .col(string_len(EarnProduct::Kind, 16))
                    .col(string_len_null(EarnProduct::Tab, 16))
                    .col(string_len(EarnProduct::Asset, 16))
                    .col(string_len(EarnProduct::RewardAsset, 16))
                    .col(text(EarnProduct::Names))
                    .col(string_len(EarnProduct::Rate, 48))
                    .col(string_len(EarnProduct::RateBasis, 8))
                    .col(big_integer(EarnProduct::RateVersionId))
                    .col(big_integer(EarnProduct::LockDays))
                    .col(boolean(EarnProduct::Flexible))
                    .col(string_len(EarnProduct::EarlyRedemption, 16))
                    .col(boolean(EarnProduct::VipOnly))
                    .col(string_len(EarnProduct::MinAmount, 48))
                    .col(string_len(EarnProduct::MaxAmount, 48))
                    .col(big_integer(EarnProduct::TotalUnits))
                    .col(big_integer(EarnProduct::SoldUnits))
                    .col(big_integer(EarnProduct::PerUserUnits))
                    .col(big_integer(EarnProduct::MaxSubscriptions))
                    .col(big_integer(EarnProduct::StartAt))
                    .col(big_integer(EarnProduct::EndAt))
                    .col(string_len(EarnProduct::Status, 16))
                    .col(big_integer(EarnProduct::CreatedAt))
                    .col(big_integer(EarnProduct::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_earn_product_kind")
                    .table(EarnProduct::Table)
                    .col(EarnProduct::Kind)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(EarnRateVersion::Table)
                    .if_not_exists()
                    .col(big_pk_auto(EarnRateVersion::Id))
                    .col(big_integer(EarnRateVersion::ProductId))
                    .col(string_len(EarnRateVersion::Rate, 48))
                    .col(string_len(EarnRateVersion::RateBasis, 8))
                    .col(big_integer_null(EarnRateVersion::ActorId))
                    .col(big_integer(EarnRateVersion::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_earn_rate_version_product")
                    .table(EarnRateVersion::Table)
                    .col(EarnRateVersion::ProductId)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(EarnHolding::Table)
                    .if_not_exists()
                    .col(big_pk_auto(EarnHolding::Id))
                    .col(big_integer(EarnHolding::ProductId))
                    .col(big_integer(EarnHolding::UserId))
                    .col(big_integer(EarnHolding::Units))
                    .col(big_integer(EarnHolding::Count))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_earn_holding_product_user")
                    .table(EarnHolding::Table)
                    .col(EarnHolding::ProductId)
                    .col(EarnHolding::UserId)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(EarnPosition::Table)
                    .if_not_exists()
                    .col(big_pk_auto(EarnPosition::Id))
                    .col(big_integer(EarnPosition::UserId))
                    .col(big_integer(EarnPosition::ProductId))
                    .col(big_integer(EarnPosition::RateVersionId))
                    .col(string_len(EarnPosition::Asset, 16))
                    .col(string_len(EarnPosition::RewardAsset, 16))
                    .col(string_len(EarnPosition::Principal, 48))
                    .col(string_len(EarnPosition::Rate, 48))
                    .col(string_len(EarnPosition::RateBasis, 8))
                    .col(big_integer(EarnPosition::LockDays))
                    .col(boolean(EarnPosition::Flexible))
                    .col(string_len(EarnPosition::EarlyRedemption, 16))
                    .col(big_integer(EarnPosition::SubscribedAt))
                    .col(big_integer(EarnPosition::ValueDate))
                    .col(big_integer_null(EarnPosition::DeliveryDate))
                    .col(string_len(EarnPosition::Status, 16))
                    .col(big_integer(EarnPosition::PaidDays))
                    .col(big_integer(EarnPosition::NextPayDate))
                    .col(big_integer(EarnPosition::SubscribeEntryId))
                    .col(big_integer_null(EarnPosition::ClosedAt))
                    .col(big_integer_null(EarnPosition::CloseEntryId))
                    .col(string_len_null(EarnPosition::Returned, 48))
                    .col(string_len_null(EarnPosition::Deduction, 48))
                    .to_owned(),
            )
            .await?;
        for (name, columns) in [
            (
                "idx_earn_position_user",
                vec![EarnPosition::UserId, EarnPosition::Status],
            ),
            ("idx_earn_position_product", vec![EarnPosition::ProductId]),
            (
                "idx_earn_position_due",
                vec![EarnPosition::Status, EarnPosition::NextPayDate],
            ),
        ] {
            let mut index = Index::create();
            index.name(name).table(EarnPosition::Table);
            for column in columns {
                index.col(column);
            }
            manager.create_index(index.to_owned()).await?;
        }
        manager
            .create_table(
                Table::create()
                    .table(EarnPayout::Table)
                    .if_not_exists()
                    .col(big_pk_auto(EarnPayout::Id))
                    .col(big_integer(EarnPayout::PositionId))
                    .col(big_integer(EarnPayout::UserId))
                    .col(big_integer(EarnPayout::ProductId))
                    .col(big_integer(EarnPayout::Day))
                    .col(big_integer(EarnPayout::PayDate))
                    .col(string_len(EarnPayout::Asset, 16))
                    .col(string_len(EarnPayout::Reward, 48))
                    .col(big_integer_null(EarnPayout::EntryId))
                    .col(big_integer(EarnPayout::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_earn_payout_position_day")
                    .table(EarnPayout::Table)
                    .col(EarnPayout::PositionId)
                    .col(EarnPayout::Day)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(JobLease::Table)
                    .if_not_exists()
                    .col(big_pk_auto(JobLease::Id))
                    .col(string_len(JobLease::Name, 64))
                    .col(string_len(JobLease::Holder, 64))
                    .col(big_integer(JobLease::ExpiresAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_job_lease_name")
                    .table(JobLease::Table)
                    .col(JobLease::Name)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(JobLease::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(EarnPayout::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(EarnPosition::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(EarnHolding::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(EarnRateVersion::Table).to_owned())
            .await?;
        manager
            .drop_table(Table::drop().table(EarnProduct::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum EarnProduct {
    Table,
    Id,
    Kind,
    Tab,
    Asset,
    RewardAsset,
    Names,
    Rate,
    RateBasis,
    RateVersionId,
    LockDays,
    Flexible,
    EarlyRedemption,
    VipOnly,
    MinAmount,
    MaxAmount,
    TotalUnits,
    SoldUnits,
    PerUserUnits,
    MaxSubscriptions,
    StartAt,
    EndAt,
    Status,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum EarnRateVersion {
    Table,
    Id,
    ProductId,
    Rate,
    RateBasis,
    ActorId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum EarnHolding {
    Table,
    Id,
    ProductId,
    UserId,
    Units,
    Count,
}

#[derive(DeriveIden)]
enum EarnPosition {
    Table,
    Id,
    UserId,
    ProductId,
    RateVersionId,
    Asset,
    RewardAsset,
    Principal,
    Rate,
    RateBasis,
    LockDays,
    Flexible,
    EarlyRedemption,
    SubscribedAt,
    ValueDate,
    DeliveryDate,
    Status,
    PaidDays,
    NextPayDate,
    SubscribeEntryId,
    ClosedAt,
    CloseEntryId,
    Returned,
    Deduction,
}

#[derive(DeriveIden)]
enum EarnPayout {
    Table,
    Id,
    PositionId,
    UserId,
    ProductId,
    Day,
    PayDate,
    Asset,
    Reward,
    EntryId,
    CreatedAt,
}

#[derive(DeriveIden)]
enum JobLease {
    Table,
    Id,
    Name,
    Holder,
    ExpiresAt,
}
