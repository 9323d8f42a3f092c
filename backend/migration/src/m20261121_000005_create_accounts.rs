//! Accounts and account security: users, their sessions (one per device), the login log,
//! one-time verification codes, the development outbox, identity submissions, uploaded files,
//! bank cards and API keys. Secrets are stored only as hashes (argon2id for passwords, SHA-256 for
//! session tokens, codes and API secrets).

use sea_orm_migration::{prelude::*, schema::*};

#[derive(DeriveMigrationName)]
pub struct Migration;

#[async_trait::async_trait]
impl MigrationTrait for Migration {
    async fn up(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        manager
            .create_table(
                Table::create()
                    .table(User::Table)
                    .if_not_exists()
                    .col(big_pk_auto(User::Id))
                    .col(string_len_null(User::Email, 254).unique_key())
                    .col(string_len_null(User::Phone, 32).unique_key())
                    .col(string_len(User::PasswordHash, 255))
                    .col(string_len_null(User::FundPasswordHash, 255))
                    .col(string_len(User::InviteCode, 16).unique_key())
                    .col(big_integer_null(User::InvitedBy))
                    .col(string_len(User::Avatar, 255))
                    .col(integer(User::IsMerchant))
                    .col(string_len(User::UserType, 16))
                    .col(integer(User::CreditScore))
                    .col(string_len(User::Role, 16))
                    .col(string_len_null(User::AntiCode, 32))
                    .col(string_len_null(User::TotpSecret, 64))
                    .col(boolean(User::TotpEnabled))
                    .col(big_integer_null(User::TotpLastStep))
                    .col(integer(User::KycLevel))
                    .col(big_integer(User::CreatedAt))
                    .col(big_integer(User::UpdatedAt))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(UserSession::Table)
                    .if_not_exists()
                    .col(big_pk_auto(UserSession::Id))
                    .col(big_integer(UserSession::UserId))
                    .col(string_len(UserSession::TokenHash, 64).unique_key())
                    .col(string_len(UserSession::DeviceName, 100))
                    .col(string_len(UserSession::UserAgent, 512))
                    .col(string_len(UserSession::Ip, 64))
                    .col(big_integer(UserSession::CreatedAt))
                    .col(big_integer(UserSession::LastSeenAt))
                    .col(big_integer(UserSession::ExpiresAt))
                    .col(big_integer_null(UserSession::RevokedAt))
                    .col(big_integer_null(UserSession::ReauthAt))
                    .foreign_key(&mut owner(UserSession::Table, UserSession::UserId))
                    .to_owned(),
            )
            .await?;
        index(manager, UserSession::Table, UserSession::UserId).await?;

        manager
            .create_table(
                Table::create()
                    .table(LoginLog::Table)
                    .if_not_exists()
                    .col(big_pk_auto(LoginLog::Id))
                    .col(big_integer(LoginLog::UserId))
                    .col(string_len(LoginLog::Ip, 64))
                    .col(string_len(LoginLog::UserAgent, 512))
                    .col(boolean(LoginLog::Success))
                    .col(big_integer(LoginLog::CreatedAt))
                    .foreign_key(&mut owner(LoginLog::Table, LoginLog::UserId))
                    .to_owned(),
            )
            .await?;
        index(manager, LoginLog::Table, LoginLog::UserId).await?;

        manager
            .create_table(
                Table::create()
                    .table(VerificationCode::Table)
                    .if_not_exists()
                    .col(big_pk_auto(VerificationCode::Id))
                    .col(string_len(VerificationCode::Target, 254))
                    .col(string_len(VerificationCode::Purpose, 16))
                    .col(string_len(VerificationCode::CodeHash, 64))
                    .col(integer(VerificationCode::Attempts))
                    .col(big_integer(VerificationCode::CreatedAt))
                    .col(big_integer(VerificationCode::ExpiresAt))
                    .col(big_integer_null(VerificationCode::ConsumedAt))
                    .to_owned(),
            )
            .await?;
        manager
            .create_index(
                Index::create()
                    .name("idx_verification_code_target_purpose")
                    .table(VerificationCode::Table)
                    .col(VerificationCode::Target)
                    .col(VerificationCode::Purpose)
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(OutboxMessage::Table)
                    .if_not_exists()
                    .col(big_pk_auto(OutboxMessage::Id))
                    .col(string_len(OutboxMessage::Channel, 8))
                    .col(string_len(OutboxMessage::Recipient, 254))
                    .col(string_len(OutboxMessage::Subject, 255))
                    .col(text(OutboxMessage::Body))
                    .col(big_integer(OutboxMessage::CreatedAt))
                    .to_owned(),
            )
            .await?;
        index(manager, OutboxMessage::Table, OutboxMessage::Recipient).await?;

        manager
            .create_table(
                Table::create()
                    .table(UploadedFile::Table)
                    .if_not_exists()
                    .col(big_pk_auto(UploadedFile::Id))
                    .col(big_integer(UploadedFile::UserId))
                    .col(string_len(UploadedFile::StoredName, 80).unique_key())
                    .col(string_len(UploadedFile::ContentType, 64))
                    .col(big_integer(UploadedFile::Size))
                    .col(big_integer(UploadedFile::CreatedAt))
                    .foreign_key(&mut owner(UploadedFile::Table, UploadedFile::UserId))
                    .to_owned(),
            )
            .await?;
        index(manager, UploadedFile::Table, UploadedFile::UserId).await?;

        manager
            .create_table(
                Table::create()
                    .table(KycSubmission::Table)
                    .if_not_exists()
                    .col(big_pk_auto(KycSubmission::Id))
                    .col(big_integer(KycSubmission::UserId))
                    .col(string_len(KycSubmission::Level, 16))
                    .col(string_len(KycSubmission::Name, 100))
                    .col(string_len(KycSubmission::IdCard, 32))
                    .col(string_len(KycSubmission::Country, 100))
                    .col(string_len(KycSubmission::CardType, 16))
                    .col(big_integer_null(KycSubmission::FrontFileId))
                    .col(big_integer_null(KycSubmission::BackFileId))
                    .col(big_integer_null(KycSubmission::HoldFileId))
                    .col(string_len(KycSubmission::Status, 16))
                    .col(string_len_null(KycSubmission::Reason, 500))
                    .col(big_integer_null(KycSubmission::ReviewedBy))
                    .col(big_integer(KycSubmission::CreatedAt))
                    .col(big_integer_null(KycSubmission::ReviewedAt))
                    .foreign_key(&mut owner(KycSubmission::Table, KycSubmission::UserId))
                    .to_owned(),
            )
            .await?;
        index(manager, KycSubmission::Table, KycSubmission::UserId).await?;

        manager
            .create_table(
                Table::create()
                    .table(BankCard::Table)
                    .if_not_exists()
                    .col(big_pk_auto(BankCard::Id))
                    .col(big_integer(BankCard::UserId).unique_key())
                    .col(string_len(BankCard::CardNumber, 32))
                    .col(string_len(BankCard::BankName, 100))
                    .col(string_len_null(BankCard::BankAddress, 200))
                    .col(string_len_null(BankCard::BankPhone, 32))
                    .col(string_len_null(BankCard::SwiftCode, 11))
                    .col(string_len_null(BankCard::Branch, 100))
                    .col(string_len_null(BankCard::HomeAddress, 200))
                    .col(big_integer(BankCard::CreatedAt))
                    .foreign_key(&mut owner(BankCard::Table, BankCard::UserId))
                    .to_owned(),
            )
            .await?;

        manager
            .create_table(
                Table::create()
                    .table(ApiKey::Table)
                    .if_not_exists()
                    .col(big_pk_auto(ApiKey::Id))
                    .col(big_integer(ApiKey::UserId))
                    .col(string_len(ApiKey::Label, 64))
                    .col(string_len(ApiKey::AccessKey, 64).unique_key())
                    .col(string_len(ApiKey::SecretHash, 64))
                    .col(string_len(ApiKey::Permissions, 64))
                    .col(string_len(ApiKey::IpWhitelist, 1024))
                    .col(big_integer(ApiKey::CreatedAt))
                    .col(big_integer_null(ApiKey::DeletedAt))
                    .foreign_key(&mut owner(ApiKey::Table, ApiKey::UserId))
                    .to_owned(),
            )
            .await?;
        index(manager, ApiKey::Table, ApiKey::UserId).await
    }

    async fn down(&self, manager: &SchemaManager) -> Result<(), DbErr> {
        for table in [
            ApiKey::Table.into_iden(),
            BankCard::Table.into_iden(),
            KycSubmission::Table.into_iden(),
            UploadedFile::Table.into_iden(),
            OutboxMessage::Table.into_iden(),
            VerificationCode::Table.into_iden(),
            LoginLog::Table.into_iden(),
            UserSession::Table.into_iden(),
            User::Table.into_iden(),
        ] {
            manager
                .drop_table(Table::drop().table(table).if_exists().to_owned())
                .await?;
        }
        Ok(())
    }
}

/// The foreign key from `table.column` to the owning user.
fn owner<T: IntoIden + Copy + 'static, C: IntoIden + Copy + 'static>(
    table: T,
    column: C,
) -> ForeignKeyCreateStatement {
    ForeignKey::create()
        .from(table, column)
        .to(User::Table, User::Id)
        .on_delete(ForeignKeyAction::Cascade)
        .to_owned()
}

/// A non-unique index on `table.column`, named after both.
async fn index<T: IntoIden + Copy + 'static, C: IntoIden + Copy + 'static>(
    manager: &SchemaManager<'_>,
    table: T,
    column: C,
) -> Result<(), DbErr> {
    let (table_name, column_name) = (
        table.into_iden().to_string(),
        column.into_iden().to_string(),
    );
    manager
        .create_index(
            Index::create()
                .name(format!("idx_{table_name}_{column_name}"))
                .table(table)
                .col(column)
                .to_owned(),
        )
        .await
}

// The variant names are the column names (`user_type`), so some repeat the table's name.
#[allow(clippy::enum_variant_names)]
#[derive(DeriveIden, Clone, Copy)]
enum User {
    Table,
    Id,
    Email,
    Phone,
    PasswordHash,
    FundPasswordHash,
    InviteCode,
    InvitedBy,
    Avatar,
    IsMerchant,
    UserType,
    CreditScore,
    Role,
    AntiCode,
    TotpSecret,
    TotpEnabled,
    TotpLastStep,
    KycLevel,
    CreatedAt,
    UpdatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum UserSession {
    Table,
    Id,
    UserId,
    TokenHash,
    DeviceName,
    UserAgent,
    Ip,
    CreatedAt,
    LastSeenAt,
    ExpiresAt,
    RevokedAt,
    ReauthAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum LoginLog {
    Table,
    Id,
    UserId,
    Ip,
    UserAgent,
    Success,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum VerificationCode {
    Table,
    Id,
    Target,
    Purpose,
    CodeHash,
    Attempts,
    CreatedAt,
    ExpiresAt,
    ConsumedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum OutboxMessage {
    Table,
    Id,
    Channel,
    Recipient,
    Subject,
    Body,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum UploadedFile {
    Table,
    Id,
    UserId,
    StoredName,
    ContentType,
    Size,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum KycSubmission {
    Table,
    Id,
    UserId,
    Level,
    Name,
    IdCard,
    Country,
    CardType,
    FrontFileId,
    BackFileId,
    HoldFileId,
    Status,
    Reason,
    ReviewedBy,
    CreatedAt,
    ReviewedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum BankCard {
    Table,
    Id,
    UserId,
    CardNumber,
    BankName,
    BankAddress,
    BankPhone,
    SwiftCode,
    Branch,
    HomeAddress,
    CreatedAt,
}

#[derive(DeriveIden, Clone, Copy)]
enum ApiKey {
    Table,
    Id,
    UserId,
    Label,
    AccessKey,
    SecretHash,
    Permissions,
    IpWhitelist,
    CreatedAt,
    DeletedAt,
}
