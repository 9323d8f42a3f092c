//! An earn position, the user's order (`earn_position` table): the terms it was sold at (rate
//! version, rate, cycle, rule), its dates, how many accrual days are paid and when the next is due,
//! and how it ended (`in_progress` → `completed` at maturity or `redeemed` early).

use sea_orm::entity::prelude::*;

/// One `earn_position` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "earn_position")]
pub struct Model {
    /// Position id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// The product.
    pub product_id: i64,
    /// The rate version it was sold at.
    pub rate_version_id: i64,
    /// The asset staked.
    pub asset: String,
    /// The asset rewards are paid in.
    pub reward_asset: String,
    /// The amount subscribed (decimal text).
    pub principal: String,
    /// The rate it was sold at (decimal text).
    pub rate: String,
    /// `daily` or `apr`.
    pub rate_basis: String,
    /// The cycle in days.
    pub lock_days: i64,
    /// No maturity.
    pub flexible: bool,
    /// The product's early-redemption rule when sold: `forbidden`, `deduct` or `keep`.
    pub early_redemption: String,
    /// Accepted at, epoch ms.
    pub subscribed_at: i64,
    /// Accrual starts (00:00 UTC the next day), epoch ms.
    pub value_date: i64,
    /// The principal comes back (a locked position), epoch ms.
    pub delivery_date: Option<i64>,
    /// `in_progress`, `completed` or `redeemed`.
    pub status: String,
    /// Accrual days paid so far.
    pub paid_days: i64,
    /// When the next unpaid day is due, epoch ms.
    pub next_pay_date: i64,
    /// The subscription's journal entry.
    pub subscribe_entry_id: i64,
    /// When it completed or was redeemed, epoch ms.
    pub closed_at: Option<i64>,
    /// The maturity's or redemption's journal entry.
    pub close_entry_id: Option<i64>,
    /// What came back to the funding account (decimal text).
    pub returned: Option<String>,
    /// What an early redemption deducted (decimal text).
    pub deduction: Option<String>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
