//! One login session (one per device), found by the SHA-256 of its token.

use sea_orm::entity::prelude::*;

/// One `user_session` row.
#[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
#[sea_orm(table_name = "user_session")]
pub struct Model {
    /// Row id; the device id of the device list.
    #[sea_orm(primary_key)]
    pub id: i64,
    /// Owner.
    pub user_id: i64,
    /// Hex SHA-256 of the 256-bit token (the token itself is never stored).
    pub token_hash: String,
    /// Name of the device (from the user agent, renamable).
    pub device_name: String,
    /// User agent at login.
    pub user_agent: String,
    /// IP address at login.
    pub ip: String,
    /// Login time, Unix milliseconds.
    pub created_at: i64,
    /// Last request, Unix milliseconds.
    pub last_seen_at: i64,
    /// End of validity, Unix milliseconds.
    pub expires_at: i64,
    /// When it was logged out or revoked.
    pub revoked_at: Option<i64>,
    /// When the user last confirmed their password or TOTP code on this session (step-up
    /// re-authentication for sensitive changes).
    pub reauth_at: Option<i64>,
}

/// The session's user, read with it in one statement on every member request.
#[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
pub enum Relation {
    /// The owner.
    #[sea_orm(
        belongs_to = "super::user::Entity",
        from = "Column::UserId",
        to = "super::user::Column::Id"
    )]
    User,
}

impl Related<super::user::Entity> for Entity {
    fn to() -> RelationDef {
        Relation::User.def()
    }
}

impl ActiveModelBehavior for ActiveModel {}
