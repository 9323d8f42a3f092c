//! One of an invitee's three referral ancestors (`referral_ancestor` table): generation 1 is the
//! inviter, 2 the inviter's inviter, 3 the one above; fixed once, when the inviter is known.

use sea_orm::entity::prelude::*;

/// One `referral_ancestor` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "referral_ancestor")]
pub struct Model {
    /// Row id.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// The invitee.
    pub user_id: i64,
    /// The ancestor at `generation`.
    pub ancestor_id: i64,
    /// 1, 2 or 3.
    pub generation: i32,
    /// Unix milliseconds.
    pub created_at: i64,
}

/// Relations are followed by id in the services.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {}

impl ActiveModelBehavior for ActiveModel {}
