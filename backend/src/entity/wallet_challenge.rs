//! One Sign-In with Ethereum challenge (`wallet_challenge` table): an EIP-4361 message the server
//! issued for a wallet to sign, usable once before it expires.

use sea_orm::entity::prelude::*;

/// One `wallet_challenge` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "wallet_challenge")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The message's nonce (unique, 16 random letters and digits).
    pub nonce: String,
    /// The EIP-55 address the message names.
    pub address: String,
    /// `link` (a logged-in user links the wallet) or `login`.
    pub purpose: String,
    /// The user a `link` challenge was issued to; `None` for `login`.
    pub user_id: Option<i64>,
    /// The exact text to be signed.
    pub message: String,
    /// Unix milliseconds.
    pub created_at: i64,
    /// When it stops being accepted, Unix milliseconds.
    pub expires_at: i64,
    /// When it was used, Unix milliseconds; `None` while unused.
    pub used_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
