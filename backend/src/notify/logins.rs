//! What a successful login means for the user's e-mails: the language they are written in from
//! now on (the login request's), and a notice when the device or IP address is new to the account.
//! The language also follows the webapp's afterwards: [`follow_lang`] records the language of
//! `getInfo` (which the webapp calls on every page load, with its `lang` header) when it changed.
//! A login counts as from a known device when an earlier session of the user had the same user
//! agent and the same IP address; the very first login (right after registration) has no earlier
//! session and sends nothing.

use sea_orm::{ColumnTrait, ConnectionTrait, EntityTrait, QueryFilter, sea_query::Expr};

use super::{Notice, enqueue};
use crate::entity::{user, user_session};
use crate::i18n::current_lang;

/// Records the request's language for `session`'s user and, for a new device or address, a
/// [`super::Kind::NewLogin`] notice. A failure here is logged and does not fail the login.
pub async fn after_login(db: &impl ConnectionTrait, session: &user_session::Model) {
    if let Err(error) = record(db, session).await {
        tracing::error!(%error, user_id = session.user_id, "recording a login's notice failed");
    }
}

async fn record(
    db: &impl ConnectionTrait,
    session: &user_session::Model,
) -> Result<(), sea_orm::DbErr> {
    user::Entity::update_many()
        .col_expr(
            user::Column::Lang,
            Expr::value(Some(current_lang().code().to_owned())),
        )
        .filter(user::Column::Id.eq(session.user_id))
        .exec(db)
        .await?;
    let earlier = || {
        user_session::Entity::find()
            .filter(user_session::Column::UserId.eq(session.user_id))
            .filter(user_session::Column::Id.lt(session.id))
    };
    let first = earlier().one(db).await?.is_none();
    let known = earlier()
        .filter(user_session::Column::Ip.eq(session.ip.clone()))
        .filter(user_session::Column::UserAgent.eq(session.user_agent.clone()))
        .one(db)
        .await?
        .is_some();
    if first || known {
        return Ok(());
    }
    enqueue(
        db,
        session.user_id,
        Notice::new_login(&session.device_name, &session.ip, session.created_at),
    )
    .await
}

/// Records the current request's language as `user`'s when it differs from the stored one (one
/// conditional write only when the user switched languages). A failure is logged and ignored.
pub async fn follow_lang(db: &impl ConnectionTrait, user: &user::Model) {
    let lang = current_lang().code();
    if user.lang.as_deref() == Some(lang) {
        return;
    }
    let updated = user::Entity::update_many()
        .col_expr(user::Column::Lang, Expr::value(Some(lang.to_owned())))
        .filter(user::Column::Id.eq(user.id))
        .exec(db)
        .await;
    if let Err(error) = updated {
        tracing::warn!(%error, user_id = user.id, "recording the user's language failed");
    }
}
