//! The favourite markets of each user (`favourite`): one row per user, market kind and pair. Visitors
//! keep theirs in the browser; the webapp merges those into this list on the first login.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(Favourite::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Favourite::Id))
                    .col(big_integer(Favourite::UserId))
                    .col(string_len(Favourite::Market, 16))
                    .col(string_len(Favourite::Symbol, 64))
                    .col(big_integer(Favourite::CreatedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .from(Favourite::Table, Favourite::UserId)
                            .to(User::Table, User::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_favourite_user_market_symbol")
                    .table(Favourite::Table)
                    .col(Favourite::UserId)
                    .col(Favourite::Market)
                    .col(Favourite::Symbol)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(Favourite::Table).to_owned())
            .await
    }
}

#[derive(DeriveIden)]
enum Favourite {
    Table,
    Id,
    UserId,
    Market,
    Symbol,
    CreatedAt,
}

#[derive(DeriveIden)]
enum User {
    Table,
    Id,
}
