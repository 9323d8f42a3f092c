//! An agent (`referral_agent` table): a user an operator gave custom generation rates, which
//! replace the configured ones for the rebates of the agent's descendants.

use sea_orm::entity::prelude::*;

/// One `referral_agent` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "referral_agent")]
pub struct Model {
    /// The agent.
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i64,
    /// Generation 1's share of the fee after the fund (a fraction).
    pub gen1_rate: String,
    /// Generation 2's share.
    pub gen2_rate: String,
    /// Generation 3's share.
    pub gen3_rate: String,
    /// The operator who set the rates.
    pub created_by: i64,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
