//! One referral rebate (`referral_rebate` table): what `beneficiary_id` earned (or was withheld)
//! at `generation` from the fee `payer_id` paid on one fill, with the figures that reproduce it.

use sea_orm::entity::prelude::*;

/// One `referral_rebate` row; unique per (source, fill, payer, generation).
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "referral_rebate")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// `spot` (the fill is a `spot_trade`) or `futures` (the fill is a `futures_fill` entry).
    pub source: String,
    /// The spot trade's id or the futures fill entry's id.
    pub fill_id: i64,
    /// The user who paid the fee (the invitee).
    pub payer_id: i64,
    /// The ancestor paid.
    pub beneficiary_id: i64,
    /// 1, 2 or 3.
    pub generation: i32,
    /// The pair or contract.
    pub symbol: String,
    /// The fee's coin.
    pub coin: String,
    /// The fee the payer paid.
    pub fee: String,
    /// The fee less the security fund's share.
    pub fee_after_fund: String,
    /// The share of `fee_after_fund` this generation earns (a fraction).
    pub rate: String,
    /// What was paid (zero when withheld).
    pub amount: String,
    /// Why nothing was paid (`not_verified`, `same_address`, `zero_fee`); none when paid.
    pub withheld_reason: Option<String>,
    /// The batch's journal entry that paid it; none when withheld.
    pub entry_id: Option<i64>,
    /// When the fill happened, Unix milliseconds.
    pub fill_time: i64,
    /// When the batch recorded it, Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
