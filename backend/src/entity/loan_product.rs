//! A loan product operators offer (`loan_product` table): the coin, the amount limits, the cycles
//! and repayment ways offered, the daily and penalty rates, the grace days, what a user needs
//! (credit score, identity level), the lending institution shown and the name per language.

use sea_orm::entity::prelude::*;

/// One `loan_product` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "loan_product")]
pub struct Model {
    /// Product id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The coin lent, lower case (`usdt`).
    pub coin: String,
    /// The decimals of amounts (0 to 18).
    pub scale: i32,
    /// Smallest amount (decimal text).
    pub min_amount: String,
    /// Largest amount (decimal text).
    pub max_amount: String,
    /// Cycles offered in days, comma-separated ascending (`7,14,30`).
    pub cycles: String,
    /// Interest per loan day as a fraction (decimal text, `0.0005`).
    pub day_rate: String,
    /// Repayment ways offered, comma-separated (`maturity,interest_daily`).
    pub repay_ways: String,
    /// The lending institution shown to users.
    pub institution: String,
    /// Penalty per day begun after the grace days, a fraction of the amount overdue.
    pub penalty_day_rate: String,
    /// Days after a due time without a penalty.
    pub grace_days: i32,
    /// The lowest credit score that may apply.
    pub min_credit_score: i32,
    /// The identity level required (0 none, 1 basic, 2 advanced).
    pub kyc_level: i32,
    /// The name per language code, JSON (`{"en": "Quick loan", "de": "Schnellkredit"}`).
    pub names: String,
    /// `on` (offered) or `off`.
    pub status: String,
    /// Created, Unix milliseconds.
    pub created_at: i64,
    /// Last changed, Unix milliseconds.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
