//! A withdrawal request and its operator review. Its amount is held (funding → frozen) by journal
//! entry `hold_entry_id` when it is submitted; passing it sends `received` out (frozen →
//! withdrawals in transit, `settle_entry_id`) and the fee to the house (`fee_entry_id`); failing it
//! gives everything back (frozen → funding, `settle_entry_id`).

use sea_orm::entity::prelude::*;

/// One `withdrawal` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "withdrawal")]
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
    /// Destination address.
    pub address: String,
    /// What leaves the balance, fee included (decimal text).
    pub amount: String,
    /// The withdrawal fee (decimal text).
    pub fee: String,
    /// What arrives: `amount − fee` (decimal text).
    pub received: String,
    /// `review`, `passed` or `failed`.
    pub status: String,
    /// Why it failed.
    pub reason: Option<String>,
    /// The transaction on the network (passed only).
    pub tx_hash: Option<String>,
    /// The operator who reviewed it.
    pub reviewed_by: Option<i64>,
    /// Unix milliseconds.
    pub reviewed_at: Option<i64>,
    /// The entry that held the amount (funding → frozen).
    pub hold_entry_id: i64,
    /// The entry of the review: frozen → withdrawals in transit (passed) or → funding (failed).
    pub settle_entry_id: Option<i64>,
    /// The entry of the fee (frozen → fees), when it passed with a fee.
    pub fee_entry_id: Option<i64>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
