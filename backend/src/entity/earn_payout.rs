//! One accrual day of one earn position, paid (`earn_payout` table). Unique per position and day:
//! a day is paid once, whatever runs the job and however often.

use sea_orm::entity::prelude::*;

/// One `earn_payout` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "earn_payout")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The position.
    pub position_id: i64,
    /// Its owner.
    pub user_id: i64,
    /// The product.
    pub product_id: i64,
    /// The accrual day, from 1.
    pub day: i64,
    /// When it was due (00:00 UTC the day after the accrual day), epoch ms.
    pub pay_date: i64,
    /// The reward asset.
    pub asset: String,
    /// The reward (decimal text, 8 decimals at most; zero possible).
    pub reward: String,
    /// The `earn_income` entry that paid it (none for a zero reward).
    pub entry_id: Option<i64>,
    /// Posted at, epoch ms.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
