//! A user's loan application (`loan_application` table): the amount, cycle and repayment way asked
//! for, the three identity images, the acceptance of the loan rules, the credit score at
//! application, and the operator's decision.

use sea_orm::entity::prelude::*;

/// One `loan_application` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "loan_application")]
pub struct Model {
    /// Application id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The applicant.
    pub user_id: i64,
    /// The product.
    pub product_id: i64,
    /// The coin (the product's).
    pub coin: String,
    /// The amount asked for (decimal text).
    pub amount: String,
    /// The cycle in days.
    pub cycle_days: i32,
    /// `maturity`, `interest_daily` or `equal_instalments`.
    pub repay_way: String,
    /// The document's front (an uploaded image).
    pub front_file_id: i64,
    /// The document's back.
    pub back_file_id: i64,
    /// A photo holding the document.
    pub hold_file_id: i64,
    /// `upload` (sent with the application) or `kyc` (the advanced identity's images).
    pub documents_from: String,
    /// Whether the loan rules were accepted (always true once stored).
    pub rules_accepted: bool,
    /// `pending`, `approved` or `rejected`.
    pub status: String,
    /// The applicant's credit score when applying.
    pub credit_score: i32,
    /// The operator who decided.
    pub reviewer_id: Option<i64>,
    /// Why it was rejected (the user sees it).
    pub reason: Option<String>,
    /// The loan an approval created.
    pub loan_id: Option<i64>,
    /// Applied, Unix milliseconds.
    pub created_at: i64,
    /// Decided, Unix milliseconds.
    pub reviewed_at: Option<i64>,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
