//! A merchant (`merchant` table): one row per user holding its application, the operator's decision
//! and, once approved, its own generation-1 rebate rate.

use sea_orm::entity::prelude::*;

/// One `merchant` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "merchant")]
pub struct Model {
    /// The applicant.
    #[sea_orm(primary_key, auto_increment = false)]
    pub user_id: i64,
    /// Business name.
    pub business_name: String,
    /// How to reach the business (e-mail, phone, messenger handle).
    pub contact: String,
    /// What it sells or does.
    pub business: String,
    /// Countries it serves (comma-separated ISO codes or names, as entered).
    pub countries: String,
    /// `pending`, `approved` or `rejected`.
    pub status: String,
    /// Why it was rejected (shown to the user).
    pub reason: Option<String>,
    /// The generation-1 rebate rate of an approved merchant (a fraction, decimal text).
    pub rebate_rate: Option<String>,
    /// The operator who decided.
    pub decided_by: Option<i64>,
    /// Unix milliseconds of the decision.
    pub decided_at: Option<i64>,
    /// Unix milliseconds of the (latest) application.
    pub created_at: i64,
    /// Unix milliseconds of the last change.
    pub updated_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
