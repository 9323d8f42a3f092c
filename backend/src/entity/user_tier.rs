//! A user's account tier (`user_tier` table) and the figures it was last computed from; the VIP
//! flag is `user.user_type`.

use sea_orm::entity::prelude::*;

/// One `user_tier` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "user_tier")]
pub struct Model {
    /// The user.
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i64,
    /// `basic`, `starter`, `advanced` or `premium`.
    pub account_tier: String,
    /// Passed deposits valued in USD at the time of the computation (decimal text).
    pub deposits_usd: String,
    /// 30-day trading volume in USDT (decimal text).
    pub volume_usdt: String,
    /// Assets valued in USDT (decimal text).
    pub assets_usdt: String,
    /// Unix milliseconds of the computation.
    pub computed_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
