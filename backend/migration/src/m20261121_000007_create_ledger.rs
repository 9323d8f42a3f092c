//! The double-entry ledger: accounts (a user's bucket of one asset, or a house account), journal
//! entries and their postings. Postings are append-only; an account's `balance` is a cache of the
//! sum of its postings, updated in the same transaction under a compare-and-swap on `version`.
//! Amounts are decimal TEXT like every other money column.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(LedgerAccount::Table)
                    .if_not_exists()
                    .col(big_pk_auto(LedgerAccount::Id))
                    // `user:<id>` or `house`, so the unique key also covers house accounts
                    // (NULLs would not be unique).
                    .col(string_len(LedgerAccount::Owner, 32))
                    .col(big_integer_null(LedgerAccount::UserId))
                    .col(string_len(LedgerAccount::Asset, 16))
                    .col(string_len(LedgerAccount::Bucket, 32))
                    .col(string_len(LedgerAccount::Balance, 48))
                    .col(boolean(LedgerAccount::MayGoNegative))
                    .col(big_integer(LedgerAccount::Version))
                    .col(big_integer(LedgerAccount::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_ledger_account_owner_asset_bucket")
                    .table(LedgerAccount::Table)
                    .col(LedgerAccount::Owner)
                    .col(LedgerAccount::Asset)
                    .col(LedgerAccount::Bucket)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_ledger_account_user_id")
                    .table(LedgerAccount::Table)
                    .col(LedgerAccount::UserId)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(JournalEntry::Table)
                    .if_not_exists()
                    .col(big_pk_auto(JournalEntry::Id))
                    .col(string_len(JournalEntry::Kind, 32))
                    .col(string_len(JournalEntry::Reference, 128))
                    .col(big_integer_null(JournalEntry::UserId))
                    .col(big_integer_null(JournalEntry::ActorId))
                    .col(string_len(JournalEntry::Memo, 255))
                    .col(big_integer(JournalEntry::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_journal_entry_user_id")
                    .table(JournalEntry::Table)
                    .col(JournalEntry::UserId)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(JournalPosting::Table)
                    .if_not_exists()
                    .col(big_pk_auto(JournalPosting::Id))
                    .col(big_integer(JournalPosting::EntryId))
                    .col(big_integer(JournalPosting::AccountId))
                    .col(string_len(JournalPosting::Asset, 16))
                    .col(string_len(JournalPosting::Amount, 48))
                    .col(string_len(JournalPosting::BalanceAfter, 48))
                    .foreign_key(
                        ForeignKey::create()
                            .from(JournalPosting::Table, JournalPosting::EntryId)
                            .to(JournalEntry::Table, JournalEntry::Id),
                    )
                    .foreign_key(
                        ForeignKey::create()
                            .from(JournalPosting::Table, JournalPosting::AccountId)
                            .to(LedgerAccount::Table, LedgerAccount::Id),
                    )
                    .to_owned(),
            )
            .await?;
        for (name, column) in [
            ("idx_journal_posting_entry_id", JournalPosting::EntryId),
            ("idx_journal_posting_account_id", JournalPosting::AccountId),
        ] {
            manager
                .create_index(
                    Index::create()
                        .name(name)
                        .table(JournalPosting::Table)
                        .col(column)
                        .to_owned(),
                )
                .await?;
        }
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            JournalPosting::Table.into_iden(),
            JournalEntry::Table.into_iden(),
            LedgerAccount::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum LedgerAccount {
    Table,
    Id,
    Owner,
    UserId,
    Asset,
    Bucket,
    Balance,
    MayGoNegative,
    Version,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum JournalEntry {
    Table,
    Id,
    Kind,
    Reference,
    UserId,
    ActorId,
    Memo,
    CreatedAt,
}

#[derive(DeriveIden)]
enum JournalPosting {
    Table,
    Id,
    EntryId,
    AccountId,
    Asset,
    Amount,
    BalanceAfter,
}
