//! The bank card bound to a user (one; cannot be changed once bound).

use sea_orm::entity::prelude::*;

/// One `bank_card` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "bank_card")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner (unique).
    pub user_id: i64,
    /// Card number, digits only.
    pub card_number: String,
    /// Bank name.
    pub bank_name: String,
    /// Bank address.
    pub bank_address: Option<String>,
    /// Bank phone.
    pub bank_phone: Option<String>,
    /// SWIFT / BIC, upper case.
    pub swift_code: Option<String>,
    /// Branch.
    pub branch: Option<String>,
    /// Holder's home address.
    pub home_address: Option<String>,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
