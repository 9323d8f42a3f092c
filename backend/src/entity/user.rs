//! One account (`user` table). Passwords only as argon2id hashes; `role` is `user` or `operator`.

use sea_orm::entity::prelude::*;

/// One `user` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "user")]
pub struct Model {
    /// Row id; also the public `userId`.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Login e-mail, lower case; unique.
    pub email: Option<String>,
    /// Login phone in E.164 form (`+4915112345678`); unique.
    pub phone: Option<String>,
    /// argon2id PHC string of the login password.
    pub password_hash: String,
    /// argon2id PHC string of the fund (trade / withdrawal) password, once set.
    pub fund_password_hash: Option<String>,
    /// This user's own invitation code.
    pub invite_code: String,
    /// The user whose invitation code was used at registration.
    pub invited_by: Option<i64>,
    /// Avatar URL.
    pub avatar: String,
    /// 2 for merchants, 1 otherwise.
    pub is_merchant: i32,
    /// `normal` or `vip`.
    pub user_type: String,
    /// Credit score (starts at 100).
    pub credit_score: i32,
    /// `user` or `operator`.
    pub role: String,
    /// Anti-phishing code shown in every e-mail the platform sends.
    pub anti_code: Option<String>,
    /// Base32 TOTP secret (pending until `totp_enabled`).
    pub totp_secret: Option<String>,
    /// Whether 2FA by TOTP is on.
    pub totp_enabled: bool,
    /// The last accepted TOTP time step (a code is never accepted twice).
    pub totp_last_step: Option<i64>,
    /// 0 none, 1 basic identity passed, 2 advanced passed.
    pub kyc_level: i32,
    /// The language of the user's e-mails (`en`, `de`, …): the one of registration, then of the
    /// latest login or `getInfo` (the webapp's); English when none.
    pub lang: Option<String>,
    /// Registration time, Unix milliseconds.
    pub created_at: i64,
    /// Last change, Unix milliseconds.
    pub updated_at: i64,
    /// When an operator froze the account (no login, sessions ended), Unix milliseconds; `None`
    /// while it is not frozen.
    pub frozen_at: Option<i64>,
    /// The EIP-55 checksummed address of the Ethereum wallet linked for Sign-In with Ethereum
    /// (`crate::wallet`); unique; `None` while none is linked.
    pub wallet_address: Option<String>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
