//! The content store (docs/architecture.md, "content"): `content_entry` (one announcement, topic,
//! rules page, help-centre entry, article category, section or article, or the company page, with
//! what all its languages share), `content_translation` (its text in one language, draft or
//! published), and `content_seeded` (which shipped texts were seeded once, so an operator's
//! deletion stays deleted).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(ContentEntry::Table)
                    .if_not_exists()
                    .col(big_pk_auto(ContentEntry::Id))
                    .col(string_len(ContentEntry::Kind, 16))
                    .col(string_len(ContentEntry::Slug, 96))
                    .col(big_integer_null(ContentEntry::ParentId))
                    .col(string_len_null(ContentEntry::Topic, 48))
                    .col(string_len_null(ContentEntry::Category, 48))
                    .col(integer_null(ContentEntry::ModelType))
                    .col(integer(ContentEntry::Position).default(0))
                    .col(boolean(ContentEntry::Pinned).default(false))
                    .col(boolean(ContentEntry::Promoted).default(false))
                    .col(big_integer_null(ContentEntry::PublishedAt))
                    .col(big_integer(ContentEntry::CreatedAt))
                    .col(big_integer(ContentEntry::UpdatedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_content_entry_kind_slug")
                    .table(ContentEntry::Table)
                    .col(ContentEntry::Kind)
                    .col(ContentEntry::Slug)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_content_entry_model_type")
                    .table(ContentEntry::Table)
                    .col(ContentEntry::ModelType)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ContentTranslation::Table)
                    .if_not_exists()
                    .col(big_pk_auto(ContentTranslation::Id))
                    .col(big_integer(ContentTranslation::EntryId))
                    .col(string_len(ContentTranslation::Lang, 8))
                    .col(string_len(ContentTranslation::Title, 200))
                    .col(text(ContentTranslation::Summary))
                    .col(text(ContentTranslation::Body))
                    .col(string_len(ContentTranslation::Status, 16))
                    .col(boolean(ContentTranslation::Outdated).default(false))
                    .col(string_len(ContentTranslation::Origin, 16))
                    .col(string_len_null(ContentTranslation::ShippedHash, 64))
                    .col(big_integer(ContentTranslation::CreatedAt))
                    .col(big_integer(ContentTranslation::UpdatedAt))
                    .col(big_integer_null(ContentTranslation::PublishedAt))
                    .foreign_key(
                        ForeignKey::create()
                            .name("fk_content_translation_entry")
                            .from(ContentTranslation::Table, ContentTranslation::EntryId)
                            .to(ContentEntry::Table, ContentEntry::Id)
                            .on_delete(ForeignKeyAction::Cascade),
                    )
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_content_translation_entry_lang")
                    .table(ContentTranslation::Table)
                    .col(ContentTranslation::EntryId)
                    .col(ContentTranslation::Lang)
                    .unique()
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_content_translation_published")
                    .table(ContentTranslation::Table)
                    .col(ContentTranslation::Status)
                    .col(ContentTranslation::PublishedAt)
                    .to_owned(),
            )
            .await?;
        manager
            .create_table(
                Table::create()
                    .table(ContentSeeded::Table)
                    .if_not_exists()
                    .col(big_pk_auto(ContentSeeded::Id))
                    .col(string_len(ContentSeeded::Kind, 16))
                    .col(string_len(ContentSeeded::Slug, 96))
                    .col(string_len(ContentSeeded::Lang, 8))
                    .col(big_integer(ContentSeeded::SeededAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_content_seeded_key")
                    .table(ContentSeeded::Table)
                    .col(ContentSeeded::Kind)
                    .col(ContentSeeded::Slug)
                    .col(ContentSeeded::Lang)
                    .unique()
                    .to_owned(),
            )
            .await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ContentSeeded::Table.into_table_ref(),
            ContentTranslation::Table.into_table_ref(),
            ContentEntry::Table.into_table_ref(),
        ] {
            manager
                .drop_table(Table::drop().table(table).to_owned())
                .await?;
        }
        Ok(())
    }
}

#[derive(DeriveIden)]
enum ContentEntry {
    Table,
    Id,
    Kind,
    Slug,
    ParentId,
    Topic,
    Category,
    ModelType,
    Position,
    Pinned,
    Promoted,
    PublishedAt,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden)]
enum ContentTranslation {
    Table,
    Id,
    EntryId,
    Lang,
    Title,
    Summary,
    Body,
    Status,
    Outdated,
    Origin,
    ShippedHash,
    CreatedAt,
    UpdatedAt,
    PublishedAt,
}

#[derive(DeriveIden)]
enum ContentSeeded {
    Table,
    Id,
    Kind,
    Slug,
    Lang,
    SeededAt,
}
