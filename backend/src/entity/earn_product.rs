//! An earn product (`earn_product` table): its kind and tab, assets, per-language names, the rate
//! in force (and its version), cycle, early-redemption rule, limits, quota counters in units of
//! 10⁻⁸ (`sold_units` only ever grows by a conditional update), schedule and operator status.

use sea_orm::entity::prelude::*;

/// One `earn_product` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "earn_product")]
pub struct Model {
    /// Product id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `pledge`, `defi` or `wealth`.
    pub kind: String,
    /// A wealth product's tab: `yield`, `member` or `standard`.
    pub tab: Option<String>,
    /// The asset staked, lower case.
    pub asset: String,
    /// The asset rewards are paid in (the staked one, or another for DeFi mining).
    pub reward_asset: String,
    /// Names by language code, a JSON object (`{"en": "…", "de": "…"}`).
    pub names: String,
    /// The rate in force (decimal text, a fraction).
    pub rate: String,
    /// `daily` or `apr`.
    pub rate_basis: String,
    /// The `earn_rate_version` of the rate in force.
    pub rate_version_id: i64,
    /// The cycle in days (a flexible product: the days a preview shows).
    pub lock_days: i64,
    /// No maturity; redeemable at any time with the rewards.
    pub flexible: bool,
    /// `forbidden`, `deduct` (principal less paid rewards) or `keep`.
    pub early_redemption: String,
    /// Offered to VIP users only (the Member Zone).
    pub vip_only: bool,
    /// Smallest subscription (decimal text).
    pub min_amount: String,
    /// Largest subscription (decimal text).
    pub max_amount: String,
    /// The quota, in units of 10⁻⁸.
    pub total_units: i64,
    /// Sold so far, in units of 10⁻⁸.
    pub sold_units: i64,
    /// Most one user may buy in all, in units of 10⁻⁸ (0: no limit).
    pub per_user_units: i64,
    /// Most subscriptions per user (0: no limit).
    pub max_subscriptions: i64,
    /// Subscriptions open at, epoch ms.
    pub start_at: i64,
    /// Subscriptions close at, epoch ms.
    pub end_at: i64,
    /// The operator's status: `scheduled`, `paused` or `ended` (`open` is `scheduled` once started).
    pub status: String,
    /// Created, epoch ms.
    pub created_at: i64,
    /// Last changed, epoch ms.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
