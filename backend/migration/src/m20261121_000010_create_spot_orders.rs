//! Spot orders and their fills. An order row is written with the entry that holds its funds
//! (funding → frozen) and changes with every fill; `frozen_remaining` is what is still held for it,
//! released when it leaves the book. A fill (`spot_trade`) is one match between a taker and a maker
//! order, either of which may be the house market maker (`NULL` order and user); its journal entry
//! settles base, quote and fees. Amounts are decimal TEXT like the ledger's.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(SpotOrder::Table)
                    .if_not_exists()
                    .col(big_pk_auto(SpotOrder::Id))
                    .col(big_integer(SpotOrder::UserId))
                    .col(string_len(SpotOrder::Symbol, 32))
                    .col(string_len(SpotOrder::Side, 4))
                    .col(string_len(SpotOrder::OrderType, 16))
                    .col(string_len(SpotOrder::TimeInForce, 4))
                    .col(boolean(SpotOrder::PostOnly))
                    .col(string_len_null(SpotOrder::Price, 48))
                    .col(string_len_null(SpotOrder::Quantity, 48))
                    .col(string_len_null(SpotOrder::QuoteAmount, 48))
                    .col(string_len_null(SpotOrder::TriggerPrice, 48))
                    .col(string_len_null(SpotOrder::TriggerCondition, 8))
                    .col(string_len(SpotOrder::FilledQuantity, 48))
                    .col(string_len(SpotOrder::FilledAmount, 48))
                    .col(string_len(SpotOrder::Fee, 48))
                    .col(string_len(SpotOrder::FeeCoin, 16))
                    .col(string_len(SpotOrder::FrozenCoin, 16))
                    .col(string_len(SpotOrder::FrozenRemaining, 48))
                    .col(string_len(SpotOrder::Status, 16))
                    .col(string_len_null(SpotOrder::CancelReason, 32))
                    .col(big_integer(SpotOrder::CreatedAt))
                    .col(big_integer(SpotOrder::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(SpotTrade::Table)
                    .if_not_exists()
                    .col(big_pk_auto(SpotTrade::Id))
                    .col(string_len(SpotTrade::Symbol, 32))
                    .col(string_len(SpotTrade::TakerSide, 4))
                    .col(big_integer_null(SpotTrade::TakerOrderId))
                    .col(big_integer_null(SpotTrade::TakerUserId))
                    .col(big_integer_null(SpotTrade::MakerOrderId))
                    .col(big_integer_null(SpotTrade::MakerUserId))
                    .col(string_len(SpotTrade::Price, 48))
                    .col(string_len(SpotTrade::Quantity, 48))
                    .col(string_len(SpotTrade::Amount, 48))
                    .col(string_len(SpotTrade::TakerFee, 48))
                    .col(string_len(SpotTrade::MakerFee, 48))
                    .col(big_integer(SpotTrade::EntryId))
                    .col(big_integer(SpotTrade::CreatedAt))
                    .to_owned(),
            )
            .await?;
        for (name, table, columns) in [
            (
                "idx_spot_order_user_status",
                SpotOrder::Table.into_iden(),
                vec![SpotOrder::UserId.into_iden(), SpotOrder::Status.into_iden()],
            ),
            (
                "idx_spot_order_symbol_status",
                SpotOrder::Table.into_iden(),
                vec![SpotOrder::Symbol.into_iden(), SpotOrder::Status.into_iden()],
            ),
            (
                "idx_spot_trade_taker_user",
                SpotTrade::Table.into_iden(),
                vec![SpotTrade::TakerUserId.into_iden()],
            ),
            (
                "idx_spot_trade_maker_user",
                SpotTrade::Table.into_iden(),
                vec![SpotTrade::MakerUserId.into_iden()],
            ),
            (
                "idx_spot_trade_symbol",
                SpotTrade::Table.into_iden(),
                vec![SpotTrade::Symbol.into_iden()],
            ),
        ] {
            let mut index = Index::create();
            index.name(name).table(table);
            for column in columns {
                index.col(column);
            }
            manager.create_index(index.to_owned()).await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [SpotTrade::Table.into_iden(), SpotOrder::Table.into_iden()] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum SpotOrder {
    Table,
    Id,
    UserId,
    Symbol,
    Side,
    OrderType,
    TimeInForce,
    PostOnly,
    Price,
    Quantity,
    QuoteAmount,
    TriggerPrice,
    TriggerCondition,
    FilledQuantity,
    FilledAmount,
    Fee,
    FeeCoin,
    FrozenCoin,
    FrozenRemaining,
    Status,
    CancelReason,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum SpotTrade {
    Table,
    Id,
    Symbol,
    TakerSide,
    TakerOrderId,
    TakerUserId,
    MakerOrderId,
    MakerUserId,
    Price,
    Quantity,
    Amount,
    TakerFee,
    MakerFee,
    EntryId,
    CreatedAt,
}
