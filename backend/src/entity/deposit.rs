//! A deposit claim (coin, network, amount, payment screenshot) and its operator review. Its money
//! moves only when it passes: journal entry `entry_id` (deposits in transit → the user's funding).

use sea_orm::entity::prelude::*;

/// One `deposit` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "deposit")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Asset, lower case.
    pub coin: String,
    /// Network, upper case (`TRC20`).
    pub network: String,
    /// The platform's deposit address the user paid to (as configured at the time).
    pub address: String,
    /// Amount claimed (decimal text).
    pub amount: String,
    /// The payment screenshot: one of the owner's uploaded images.
    pub screenshot_file_id: i64,
    /// `review`, `passed` or `failed`.
    pub status: String,
    /// Why it failed.
    pub reason: Option<String>,
    /// The operator who reviewed it.
    pub reviewed_by: Option<i64>,
    /// Unix milliseconds.
    pub reviewed_at: Option<i64>,
    /// The journal entry that credited it (passed only).
    pub entry_id: Option<i64>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
