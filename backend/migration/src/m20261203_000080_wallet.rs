//! Sign-In with Ethereum (docs/api.md, "Wallet"): `user.wallet_address`, the EIP-55 checksummed
//! address of the wallet linked to the account (unique; `NULL` while none is linked), and
//! `wallet_challenge`, the one-time EIP-4361 messages the server issued: each with its nonce
//! (unique), the address it names, what it is for (`link` by a logged-in user, or `login`), the
//! exact text to be signed, when it expires and when it was used.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .alter_table(
                Table::alter()
                    .table(User::Table)
                    .add_column(string_len_null(User::WalletAddress, 42))
                    .to_owned(),
            )
            .await?;
        // A separate index: SQLite cannot add a UNIQUE column; NULLs never collide.
        manager
            .create_index(
                Index::create()
                    .name("idx_user_wallet_address")
                    .table(User::Table)
                    .col(User::WalletAddress)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(WalletChallenge::Table)
                    .if_not_exists()
                    .col(big_pk_auto(WalletChallenge::Id))
                    .col(string_len(WalletChallenge::Nonce, 32).unique_key())
                    .col(string_len(WalletChallenge::Address, 42))
                    .col(string_len(WalletChallenge::Purpose, 8))
                    .col(big_integer_null(WalletChallenge::UserId))
                    .col(text(WalletChallenge::Message))
                    .col(big_integer(WalletChallenge::CreatedAt))
                    .col(big_integer(WalletChallenge::ExpiresAt))
                    .col(big_integer_null(WalletChallenge::UsedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_wallet_challenge_expires")
                    .table(WalletChallenge::Table)
                    .col(WalletChallenge::ExpiresAt)
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .drop_table(Table::drop().table(WalletChallenge::Table).to_owned())
            .await?;
        manager
            .drop_index(
                Index::drop()
                    .name("idx_user_wallet_address")
                    .table(User::Table)
                    .to_owned(),
            )
            .await?;
        manager
            .alter_table(
                Table::alter()
                    .table(User::Table)
                    .drop_column(User::WalletAddress)
                    .to_owned(),
            )
            .await
    }
}

#[derive(DeriveIden)]
enum User {
    Table,
    WalletAddress,
}

#[derive(DeriveIden)]
enum WalletChallenge {
    Table,
    Id,
    Nonce,
    Address,
    Purpose,
    UserId,
    Message,
    CreatedAt,
    ExpiresAt,
    UsedAt,
}
