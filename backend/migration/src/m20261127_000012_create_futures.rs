//! USDT-M perpetual futures. `futures_order`: what the user (or a trigger, or the liquidation
//! engine) ordered, what executed and what is still held for it; `futures_position`: one row per
//! position from opening to closing (or liquidation, with its fee and any loss the security fund
//! covered); `futures_stop`: stop orders on the mark price (`contract/loss/*`);
//! `futures_funding`: one row per position per funding; `futures_setting`: a user's leverage and
//! margin mode per symbol. Every row changes in the transaction of the journal entries it causes.
//! Amounts and prices are decimal TEXT like the ledger's.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(FuturesOrder::Table)
                    .if_not_exists()
                    .col(big_pk_auto(FuturesOrder::Id))
                    .col(big_integer(FuturesOrder::UserId))
                    .col(string_len(FuturesOrder::Symbol, 32))
                    .col(string_len(FuturesOrder::Side, 4))
                    .col(string_len(FuturesOrder::OrderType, 16))
                    .col(string_len(FuturesOrder::Source, 16))
                    .col(string_len_null(FuturesOrder::Price, 48))
                    .col(string_len(FuturesOrder::Quantity, 48))
                    .col(string_len(FuturesOrder::Leverage, 16))
                    .col(string_len(FuturesOrder::MarginMode, 8))
                    .col(boolean(FuturesOrder::ReduceOnly))
                    .col(boolean(FuturesOrder::ClosePosition))
                    .col(string_len(FuturesOrder::FilledQuantity, 48))
                    .col(string_len(FuturesOrder::FilledValue, 48))
                    .col(string_len(FuturesOrder::Fee, 48))
                    .col(string_len(FuturesOrder::RealisedPnl, 48))
                    .col(string_len(FuturesOrder::HoldRemaining, 48))
                    .col(string_len(FuturesOrder::Status, 16))
                    .col(string_len_null(FuturesOrder::CancelReason, 32))
                    .col(big_integer(FuturesOrder::CreatedAt))
                    .col(big_integer(FuturesOrder::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(FuturesPosition::Table)
                    .if_not_exists()
                    .col(big_pk_auto(FuturesPosition::Id))
                    .col(big_integer(FuturesPosition::UserId))
                    .col(string_len(FuturesPosition::Symbol, 32))
                    .col(string_len(FuturesPosition::Side, 8))
                    .col(string_len(FuturesPosition::Size, 48))
                    .col(string_len(FuturesPosition::EntryPrice, 48))
                    .col(string_len(FuturesPosition::Leverage, 16))
                    .col(string_len(FuturesPosition::MarginMode, 8))
                    .col(string_len(FuturesPosition::Margin, 48))
                    .col(string_len_null(FuturesPosition::TakeProfit, 48))
                    .col(string_len_null(FuturesPosition::StopLoss, 48))
                    .col(string_len(FuturesPosition::RealisedPnl, 48))
                    .col(string_len(FuturesPosition::ClosedSize, 48))
                    .col(string_len(FuturesPosition::ClosedValue, 48))
                    .col(string_len(FuturesPosition::Fees, 48))
                    .col(string_len(FuturesPosition::Funding, 48))
                    .col(string_len_null(FuturesPosition::LiquidationPrice, 48))
                    .col(string_len(FuturesPosition::Status, 16))
                    .col(string_len(FuturesPosition::LiquidationFee, 48))
                    .col(string_len(FuturesPosition::FundCover, 48))
                    .col(big_integer(FuturesPosition::OpenedAt))
                    .col(big_integer(FuturesPosition::UpdatedAt))
                    .col(big_integer_null(FuturesPosition::ClosedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(FuturesStop::Table)
                    .if_not_exists()
                    .col(big_pk_auto(FuturesStop::Id))
                    .col(big_integer(FuturesStop::UserId))
                    .col(string_len(FuturesStop::Symbol, 32))
                    .col(string_len(FuturesStop::PositionSide, 8))
                    .col(string_len(FuturesStop::TriggerPrice, 48))
                    .col(string_len(FuturesStop::Direction, 8))
                    .col(string_len_null(FuturesStop::Quantity, 48))
                    .col(string_len(FuturesStop::Status, 16))
                    .col(big_integer_null(FuturesStop::OrderId))
                    .col(big_integer(FuturesStop::CreatedAt))
                    .col(big_integer(FuturesStop::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(FuturesFunding::Table)
                    .if_not_exists()
                    .col(big_pk_auto(FuturesFunding::Id))
                    .col(big_integer(FuturesFunding::UserId))
                    .col(string_len(FuturesFunding::Symbol, 32))
                    .col(big_integer(FuturesFunding::PositionId))
                    .col(string_len(FuturesFunding::Side, 8))
                    .col(string_len(FuturesFunding::Size, 48))
                    .col(string_len(FuturesFunding::MarkPrice, 48))
                    .col(string_len(FuturesFunding::Rate, 32))
                    .col(string_len(FuturesFunding::Payment, 48))
                    .col(big_integer(FuturesFunding::EntryId))
                    .col(big_integer(FuturesFunding::FundingTime))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(FuturesSetting::Table)
                    .if_not_exists()
                    .col(big_pk_auto(FuturesSetting::Id))
                    .col(big_integer(FuturesSetting::UserId))
                    .col(string_len(FuturesSetting::Symbol, 32))
                    .col(string_len(FuturesSetting::Leverage, 16))
                    .col(string_len(FuturesSetting::MarginMode, 8))
                    .col(big_integer(FuturesSetting::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        for (name, table, columns, unique) in [
            (
                "idx_futures_order_user_status",
                FuturesOrder::Table.into_iden(),
                vec![
                    FuturesOrder::UserId.into_iden(),
                    FuturesOrder::Status.into_iden(),
                ],
                false,
            ),
            (
                "idx_futures_order_symbol_status",
                FuturesOrder::Table.into_iden(),
                vec![
                    FuturesOrder::Symbol.into_iden(),
                    FuturesOrder::Status.into_iden(),
                ],
                false,
            ),
            (
                "idx_futures_position_symbol_status",
                FuturesPosition::Table.into_iden(),
                vec![
                    FuturesPosition::Symbol.into_iden(),
                    FuturesPosition::Status.into_iden(),
                ],
                false,
            ),
            (
                "idx_futures_position_user_status",
                FuturesPosition::Table.into_iden(),
                vec![
                    FuturesPosition::UserId.into_iden(),
                    FuturesPosition::Status.into_iden(),
                ],
                false,
            ),
            (
                "idx_futures_stop_symbol_status",
                FuturesStop::Table.into_iden(),
                vec![
                    FuturesStop::Symbol.into_iden(),
                    FuturesStop::Status.into_iden(),
                ],
                false,
            ),
            (
                "idx_futures_funding_user",
                FuturesFunding::Table.into_iden(),
                vec![FuturesFunding::UserId.into_iden()],
                false,
            ),
            (
                "idx_futures_setting_user_symbol",
                FuturesSetting::Table.into_iden(),
                vec![
                    FuturesSetting::UserId.into_iden(),
                    FuturesSetting::Symbol.into_iden(),
                ],
                true,
            ),
        ] {
            let mut index = Index::create();
            index.name(name).table(table);
            for column in columns {
                index.col(column);
            }
            if unique {
                index.unique();
            }
            manager.create_index(index.to_owned()).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            FuturesSetting::Table.into_iden(),
            FuturesFunding::Table.into_iden(),
            FuturesStop::Table.into_iden(),
            FuturesPosition::Table.into_iden(),
            FuturesOrder::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum FuturesOrder {
    Table,
    Id,
    UserId,
    Symbol,
    Side,
    OrderType,
    Source,
    Price,
    Quantity,
    Leverage,
    MarginMode,
    ReduceOnly,
    ClosePosition,
    FilledQuantity,
    FilledValue,
    Fee,
    RealisedPnl,
    HoldRemaining,
    Status,
    CancelReason,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum FuturesPosition {
    Table,
    Id,
    UserId,
    Symbol,
    Side,
    Size,
    EntryPrice,
    Leverage,
    MarginMode,
    Margin,
    TakeProfit,
    StopLoss,
    RealisedPnl,
    ClosedSize,
    ClosedValue,
    Fees,
    Funding,
    LiquidationPrice,
    Status,
    LiquidationFee,
    FundCover,
    OpenedAt,
    UpdatedAt,
    ClosedAt,
}

#[derive(DeriveIden)]
enum FuturesStop {
    Table,
    Id,
    UserId,
    Symbol,
    PositionSide,
    TriggerPrice,
    Direction,
    Quantity,
    Status,
    OrderId,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum FuturesFunding {
    Table,
    Id,
    UserId,
    Symbol,
    PositionId,
    Side,
    Size,
    MarkPrice,
    Rate,
    Payment,
    EntryId,
    FundingTime,
}

#[derive(DeriveIden)]
enum FuturesSetting {
    Table,
    Id,
    UserId,
    Symbol,
    Leverage,
    MarginMode,
    UpdatedAt,
}
