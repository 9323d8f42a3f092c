//! The referral programme: `referral_ancestor` (each invitee's three ancestors, fixed when the
//! inviter is known), `referral_rebate` (one row per fill, paying user and generation: the rate used
//! and the amount paid, or why it was withheld), `referral_job` (the hourly batch's cursors and its
//! cluster lease) and `referral_agent` (an agent's own generation rates).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ReferralAncestor::Table)
                    .if_not_exists()
                    .col(big_pk_auto(ReferralAncestor::Id))
                    .col(big_integer(ReferralAncestor::UserId))
                    .col(big_integer(ReferralAncestor::AncestorId))
                    .col(integer(ReferralAncestor::Generation))
                    .col(big_integer(ReferralAncestor::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_referral_ancestor_user_generation")
                    .table(ReferralAncestor::Table)
                    .col(ReferralAncestor::UserId)
                    .col(ReferralAncestor::Generation)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_referral_ancestor_ancestor")
                    .table(ReferralAncestor::Table)
                    .col(ReferralAncestor::AncestorId)
                    .col(ReferralAncestor::Generation)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ReferralRebate::Table)
                    .if_not_exists()
                    .col(big_pk_auto(ReferralRebate::Id))
                    .col(string_len(ReferralRebate::Source, 16))
                    .col(big_integer(ReferralRebate::FillId))
                    .col(big_integer(ReferralRebate::PayerId))
                    .col(big_integer(ReferralRebate::BeneficiaryId))
                    .col(integer(ReferralRebate::Generation))
                    .col(string_len(ReferralRebate::Symbol, 32))
                    .col(string_len(ReferralRebate::Coin, 16))
                    .col(string_len(ReferralRebate::Fee, 48))
                    .col(string_len(ReferralRebate::FeeAfterFund, 48))
                    .col(string_len(ReferralRebate::Rate, 48))
                    .col(string_len(ReferralRebate::Amount, 48))
                    .col(string_len_null(ReferralRebate::WithheldReason, 32))
                    .col(big_integer_null(ReferralRebate::EntryId))
                    .col(big_integer(ReferralRebate::FillTime))
                    .col(big_integer(ReferralRebate::CreatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_referral_rebate_fill")
                    .table(ReferralRebate::Table)
                    .col(ReferralRebate::Source)
                    .col(ReferralRebate::FillId)
                    .col(ReferralRebate::PayerId)
                    .col(ReferralRebate::Generation)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_referral_rebate_beneficiary")
                    .table(ReferralRebate::Table)
                    .col(ReferralRebate::BeneficiaryId)
                    .col(ReferralRebate::Id)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ReferralJob::Table)
                    .if_not_exists()
                    .col(big_integer(ReferralJob::Id).primary_key())
                    .col(big_integer(ReferralJob::SpotCursor))
                    .col(big_integer(ReferralJob::FuturesCursor))
                    .col(big_integer(ReferralJob::LastRunAt))
                    .to_owned(),
            )
            .await?;
        manager
            .exec_stmt(
                Query::insert()
                    .into_table(ReferralJob::Table)
                    .columns([
                        ReferralJob::Id,
                        ReferralJob::SpotCursor,
                        ReferralJob::FuturesCursor,
                        ReferralJob::LastRunAt,
                    ])
                    .values_panic([1.into(), 0.into(), 0.into(), 0.into()])
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ReferralAgent::Table)
                    .if_not_exists()
                    .col(big_integer(ReferralAgent::UserId).primary_key())
                    .col(string_len(ReferralAgent::Gen1Rate, 48))
                    .col(string_len(ReferralAgent::Gen2Rate, 48))
                    .col(string_len(ReferralAgent::Gen3Rate, 48))
                    .col(big_integer(ReferralAgent::CreatedBy))
                    .col(big_integer(ReferralAgent::CreatedAt))
                    .col(big_integer(ReferralAgent::UpdatedAt))
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ReferralAgent::Table.into_iden(),
            ReferralJob::Table.into_iden(),
            ReferralRebate::Table.into_iden(),
            ReferralAncestor::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum ReferralAncestor {
    Table,
    Id,
    UserId,
    AncestorId,
    Generation,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ReferralRebate {
    Table,
    Id,
    Source,
    FillId,
    PayerId,
    BeneficiaryId,
    Generation,
    Symbol,
    Coin,
    Fee,
    FeeAfterFund,
    Rate,
    Amount,
    WithheldReason,
    EntryId,
    FillTime,
    CreatedAt,
}

#[derive(DeriveIden)]
enum ReferralJob {
    Table,
    Id,
    SpotCursor,
    FuturesCursor,
    LastRunAt,
}

#[derive(DeriveIden)]
enum ReferralAgent {
    Table,
    UserId,
    Gen1Rate,
    Gen2Rate,
    Gen3Rate,
    CreatedBy,
    CreatedAt,
    UpdatedAt,
}
