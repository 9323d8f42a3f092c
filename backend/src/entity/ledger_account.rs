//! A ledger account: one user's bucket of one asset, or a house account.

use sea_orm::entity::prelude::*;

/// One `ledger_account` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "ledger_account")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `user:<id>` or `house`.
    pub owner: String,
    /// The owning user (none for house accounts).
    pub user_id: Option<i64>,
    /// Asset, lower case (`usdt`).
    pub asset: String,
    /// `funding`, `trading`, `earn`, `frozen` for users; the house account's name otherwise.
    pub bucket: String,
    /// Cached sum of the account's postings (decimal text).
    pub balance: String,
    /// Only house accounts that stand for the outside world may go below zero.
    pub may_go_negative: bool,
    /// Compare-and-swap counter of balance updates.
    pub version: i64,
    /// Last change, Unix milliseconds.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
