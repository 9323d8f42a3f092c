//! An identity verification submission (basic or advanced) and its review.

use sea_orm::entity::prelude::*;

/// One `kyc_submission` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "kyc_submission")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// `basic` or `advanced`.
    pub level: String,
    /// Full name.
    pub name: String,
    /// Document number.
    pub id_card: String,
    /// Issuing country.
    pub country: String,
    /// `idCard` or `passport`.
    pub card_type: String,
    /// Front of the document (advanced).
    pub front_file_id: Option<i64>,
    /// Back of the document (advanced).
    pub back_file_id: Option<i64>,
    /// Selfie holding the document (advanced).
    pub hold_file_id: Option<i64>,
    /// `review`, `passed` or `failed`.
    pub status: String,
    /// Why it failed.
    pub reason: Option<String>,
    /// The operator who reviewed it.
    pub reviewed_by: Option<i64>,
    /// Unix milliseconds.
    pub created_at: i64,
    /// Unix milliseconds.
    pub reviewed_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
