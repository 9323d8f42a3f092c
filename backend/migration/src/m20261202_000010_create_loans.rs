//! Crypto loans (issue 25): the products operators offer, users' applications with their three
//! identity images, the loans approved (their terms frozen at approval, so a product change never
//! rewrites a running loan), each loan's instalments, the status history of every application and
//! loan (Fineract-style: each transition with its time, actor and reason), and the lease row that
//! lets one instance at a time run the due sweep.
//!
//! - One pending application per user and product: a partial unique index over
//!   `(user_id, product_id)` where `status = 'pending'` (the same SQL on SQLite and PostgreSQL), so
//!   of two simultaneous applications exactly one is inserted.
//! - The sweep reads only loans whose `next_action_at` has come (an index on it); a settled loan's is
//!   NULL.
//! - Amounts and rates are decimal TEXT like the ledger's.

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(LoanProduct::Table)
                    .if_not_exists()
                    .col(big_pk_auto(LoanProduct::Id))
                    .col(string_len(LoanProduct::Coin, 16))
                    .col(integer(LoanProduct::Scale))
                    .col(string_len(LoanProduct::MinAmount, 48))
                    .col(string_len(LoanProduct::MaxAmount, 48))
                    .col(string_len(LoanProduct::Cycles, 128))
                    .col(string_len(LoanProduct::DayRate, 48))
                    .col(string_len(LoanProduct::RepayWays, 64))
                    .col(string_len(LoanProduct::Institution, 128))
                    .col(string_len(LoanProduct::PenaltyDayRate, 48))
                    .col(integer(LoanProduct::GraceDays))
                    .col(integer(LoanProduct::MinCreditScore))
                    .col(integer(LoanProduct::KycLevel))
                    .col(text(LoanProduct::Names))
                    .col(string_len(LoanProduct::Status, 8))
                    .col(big_integer(LoanProduct::CreatedAt))
                    .col(big_integer(LoanProduct::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(LoanApplication::Table)
                    .if_not_exists()
                    .col(big_pk_auto(LoanApplication::Id))
                    .col(big_integer(LoanApplication::UserId))
                    .col(big_integer(LoanApplication::ProductId))
                    .col(string_len(LoanApplication::Coin, 16))
                    .col(string_len(LoanApplication::Amount, 48))
                    .col(integer(LoanApplication::CycleDays))
                    .col(string_len(LoanApplication::RepayWay, 24))
                    .col(big_integer(LoanApplication::FrontFileId))
                    .col(big_integer(LoanApplication::BackFileId))
                    .col(big_integer(LoanApplication::HoldFileId))
                    .col(string_len(LoanApplication::DocumentsFrom, 8))
                    .col(boolean(LoanApplication::RulesAccepted))
                    .col(string_len(LoanApplication::Status, 12))
                    .col(integer(LoanApplication::CreditScore))
                    .col(big_integer_null(LoanApplication::ReviewerId))
                    .col(string_len_null(LoanApplication::Reason, 1000))
                    .col(big_integer_null(LoanApplication::LoanId))
                    .col(big_integer(LoanApplication::CreatedAt))
                    .col(big_integer_null(LoanApplication::ReviewedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(Loan::Table)
                    .if_not_exists()
                    .col(big_pk_auto(Loan::Id))
                    .col(big_integer_uniq(Loan::ApplicationId))
                    .col(big_integer(Loan::UserId))
                    .col(big_integer(Loan::ProductId))
                    .col(string_len(Loan::Coin, 16))
                    .col(integer(Loan::Scale))
                    .col(string_len(Loan::Principal, 48))
                    .col(string_len(Loan::DayRate, 48))
                    .col(integer(Loan::CycleDays))
                    .col(string_len(Loan::RepayWay, 24))
                    .col(string_len(Loan::PenaltyDayRate, 48))
                    .col(integer(Loan::GraceDays))
                    .col(string_len(Loan::Institution, 128))
                    .col(big_integer(Loan::StartTime))
                    .col(big_integer(Loan::EndTime))
                    .col(string_len(Loan::TotalInterest, 48))
                    .col(string_len(Loan::Status, 12))
                    .col(string_len(Loan::PrincipalPaid, 48))
                    .col(string_len(Loan::InterestPaid, 48))
                    .col(string_len(Loan::PenaltyPaid, 48))
                    .col(big_integer_null(Loan::NextActionAt))
                    .col(integer(Loan::Version))
                    .col(big_integer(Loan::DisburseEntryId))
                    .col(big_integer(Loan::CreatedAt))
                    .col(big_integer_null(Loan::SettledAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(LoanInstalment::Table)
                    .if_not_exists()
                    .col(big_pk_auto(LoanInstalment::Id))
                    .col(big_integer(LoanInstalment::LoanId))
                    .col(integer(LoanInstalment::Number))
                    .col(big_integer(LoanInstalment::DueTime))
                    .col(string_len(LoanInstalment::Principal, 48))
                    .col(string_len(LoanInstalment::Interest, 48))
                    .col(string_len(LoanInstalment::Amount, 48))
                    .col(string_len(LoanInstalment::Penalty, 48))
                    .col(string_len(LoanInstalment::Status, 12))
                    .col(string_len_null(LoanInstalment::PaidAmount, 48))
                    .col(big_integer_null(LoanInstalment::PaidAt))
                    .col(big_integer_null(LoanInstalment::PaidEntryId))
                    .col(boolean(LoanInstalment::Reminded))
                    .col(boolean(LoanInstalment::OverdueNotified))
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(LoanStatusHistory::Table)
                    .if_not_exists()
                    .col(big_pk_auto(LoanStatusHistory::Id))
                    .col(big_integer(LoanStatusHistory::ApplicationId))
                    .col(big_integer_null(LoanStatusHistory::LoanId))
                    .col(string_len_null(LoanStatusHistory::FromStatus, 12))
                    .col(string_len(LoanStatusHistory::ToStatus, 12))
                    .col(big_integer_null(LoanStatusHistory::ActorId))
                    .col(string_len_null(LoanStatusHistory::Reason, 1000))
                    .col(big_integer(LoanStatusHistory::At))
                    .to_owned(),
            )
            .await?;
        let indexes: [(&str, TableRef, Vec<DynIden>, bool); 7] = [
            (
                "idx_loan_application_user",
                LoanApplication::Table.into_table_ref(),
                vec![
                    LoanApplication::UserId.into_iden(),
                    LoanApplication::Id.into_iden(),
                ],
                false,
            ),
            (
                "idx_loan_application_status",
                LoanApplication::Table.into_table_ref(),
                vec![
                    LoanApplication::Status.into_iden(),
                    LoanApplication::Id.into_iden(),
                ],
                false,
            ),
            (
                "idx_loan_user_status",
                Loan::Table.into_table_ref(),
                vec![
                    Loan::UserId.into_iden(),
                    Loan::Status.into_iden(),
                    Loan::Id.into_iden(),
                ],
                false,
            ),
            (
                "idx_loan_next_action",
                Loan::Table.into_table_ref(),
                vec![Loan::NextActionAt.into_iden()],
                false,
            ),
            (
                "idx_loan_instalment_number",
                LoanInstalment::Table.into_table_ref(),
                vec![
                    LoanInstalment::LoanId.into_iden(),
                    LoanInstalment::Number.into_iden(),
                ],
                true,
            ),
            (
                "idx_loan_history_application",
                LoanStatusHistory::Table.into_table_ref(),
                vec![
                    LoanStatusHistory::ApplicationId.into_iden(),
                    LoanStatusHistory::Id.into_iden(),
                ],
                false,
            ),
            (
                "idx_loan_product_status",
                LoanProduct::Table.into_table_ref(),
                vec![LoanProduct::Status.into_iden(), LoanProduct::Id.into_iden()],
                false,
            ),
        ];
        for (name, table, columns, unique) in indexes {
            let mut index = Index::create();
            index.name(name).table(table);
            if unique {
                index.unique();
            }
            for column in columns {
                index.col(column);
            }
            manager.create_index(index.to_owned()).await?;
        }
        // A partial unique index: sea-query's index builder has no WHERE clause, and both
        // databases read this statement alike.
        manager
            .get_connection()
            .execute_unprepared(
                "CREATE UNIQUE INDEX IF NOT EXISTS idx_loan_application_one_pending \
                 ON loan_application (user_id, product_id) WHERE status = 'pending'",
            )
            .await?;
        Ok(())
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            LoanStatusHistory::Table.into_table_ref(),
            LoanInstalment::Table.into_table_ref(),
            Loan::Table.into_table_ref(),
            LoanApplication::Table.into_table_ref(),
            LoanProduct::Table.into_table_ref(),
        ] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum LoanProduct {
    Table,
    Id,
    Coin,
    Scale,
    MinAmount,
    MaxAmount,
    Cycles,
    DayRate,
    RepayWays,
    Institution,
    PenaltyDayRate,
    GraceDays,
    MinCreditScore,
    KycLevel,
    Names,
    Status,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum LoanApplication {
    Table,
    Id,
    UserId,
    ProductId,
    Coin,
    Amount,
    CycleDays,
    RepayWay,
    FrontFileId,
    BackFileId,
    HoldFileId,
    DocumentsFrom,
    RulesAccepted,
    Status,
    CreditScore,
    ReviewerId,
    Reason,
    LoanId,
    CreatedAt,
    ReviewedAt,
}

#[derive(DeriveIden)]
enum Loan {
    Table,
    Id,
    ApplicationId,
    UserId,
    ProductId,
    Coin,
    Scale,
    Principal,
    DayRate,
    CycleDays,
    RepayWay,
    PenaltyDayRate,
    GraceDays,
    Institution,
    StartTime,
    EndTime,
    TotalInterest,
    Status,
    PrincipalPaid,
    InterestPaid,
    PenaltyPaid,
    NextActionAt,
    Version,
    DisburseEntryId,
    CreatedAt,
    SettledAt,
}

#[derive(DeriveIden)]
enum LoanInstalment {
    Table,
    Id,
    LoanId,
    Number,
    DueTime,
    Principal,
    Interest,
    Amount,
    Penalty,
    Status,
    PaidAmount,
    PaidAt,
    PaidEntryId,
    Reminded,
    OverdueNotified,
}

#[derive(DeriveIden)]
enum LoanStatusHistory {
    Table,
    Id,
    ApplicationId,
    LoanId,
    FromStatus,
    ToStatus,
    ActorId,
    Reason,
    At,
}
