//! Freezing accounts: an operator freezes an account — it can no longer log in (`account_frozen`),
//! every session of it ends at once, its open user-channel sockets get a `USER_STATUS` message
//! (`frozen`) and close (see [`crate::app::user_channel`]), and everything it has waiting in the
//! markets is withdrawn right after, each through its engine's own cancel (open and waiting spot
//! orders, resting futures orders, stop orders and take-profit / stop-loss prices; its positions
//! stay open and can still be liquidated) — or unfreezes it, after which its owner logs in again.
//! Plain functions over the database and the engines, no HTTP types.

use sea_orm::{
    ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, TransactionTrait, sea_query::Expr,
};

use crate::clock::now_ms;
use crate::entity::user;
use crate::futures::FuturesRegistry;
use crate::i18n::Msg;
use crate::refusal::Refusal;
use crate::spot::SpotRegistry;
use crate::user::roles::{is_operator, require_operator};
use crate::user::{session, session_cache};

/// Freezes account `user_id` for `operator`, then withdraws what it has waiting in the markets:
/// its open spot orders ([`crate::spot::service::cancel_all_of`]) and its futures orders, stop
/// orders and take-profit / stop-loss prices ([`crate::futures::service::withdraw_all_of`]). The
/// sessions end first, so only an order already past its session check when they ended can land
/// after the sweep. Freezing a frozen account keeps its first freeze time and sweeps again
/// (finding nothing, or what an interrupted sweep or such an order left). Operators' accounts are
/// refused (`operator_not_freezable`).
pub async fn freeze(
    db: &DatabaseConnection,
    spot: &SpotRegistry,
    futures: &FuturesRegistry,
    operator: &user::Model,
    user_id: i64,
) -> Result<user::Model, Refusal> {
    let account = set_frozen(db, operator, user_id, true).await?;
    let spot_orders = crate::spot::service::cancel_all_of(db, spot, user_id).await?;
    let withdrawn = crate::futures::service::withdraw_all_of(db, futures, user_id).await?;
    tracing::info!(
        user_id,
        operator = operator.id,
        spot_orders,
        futures_orders = withdrawn.orders,
        futures_stops = withdrawn.stops,
        take_profit_stop_loss = withdrawn.take_profit_stop_loss,
        "account frozen; its waiting orders withdrawn"
    );
    Ok(account)
}

/// Unfreezes account `user_id` for `operator`: its owner may log in again. Unfreezing an
/// unfrozen account changes nothing.
pub async fn unfreeze(
    db: &DatabaseConnection,
    operator: &user::Model,
    user_id: i64,
) -> Result<user::Model, Refusal> {
    set_frozen(db, operator, user_id, false).await
}

/// Freezes (`frozen`) or unfreezes account `user_id` for `operator`; the account as it is now.
/// Freezing a frozen account keeps its first freeze time; unfreezing an unfrozen one changes
/// nothing. Operators' accounts are refused (`operator_not_freezable`): an operator freezing
/// another (or themself) would lock the console out.
async fn set_frozen(
    db: &DatabaseConnection,
    operator: &user::Model,
    user_id: i64,
    frozen: bool,
) -> Result<user::Model, Refusal> {
    require_operator(operator)?;
    let Some(account) = user::Entity::find_by_id(user_id).one(db).await? else {
        return Err(Refusal::not_found(Msg::AccountNotFound));
    };
    if is_operator(&account) {
        return Err(Refusal::forbidden(Msg::OperatorNotFreezable));
    }
    let now = now_ms();
    let txn = db.begin().await?;
    if frozen {
        user::Entity::update_many()
            .col_expr(user::Column::FrozenAt, Expr::value(now))
            .col_expr(user::Column::UpdatedAt, Expr::value(now))
            .filter(user::Column::Id.eq(user_id))
            .filter(user::Column::FrozenAt.is_null())
            .exec(&txn)
            .await?;
        session::revoke_all_except(&txn, user_id, None).await?;
    } else {
        user::Entity::update_many()
            .col_expr(user::Column::FrozenAt, Expr::value(Option::<i64>::None))
            .col_expr(user::Column::UpdatedAt, Expr::value(now))
            .filter(user::Column::Id.eq(user_id))
            .filter(user::Column::FrozenAt.is_not_null())
            .exec(&txn)
            .await?;
    }
    txn.commit().await?;
    // A request between the revocation and the commit may have cached a session again.
    session_cache::forget_user(user_id);
    user::Entity::find_by_id(user_id)
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::AccountNotFound))
}

/// The account of e-mail or phone `account` (as it is typed at login), for `operator`; 404
/// `account_not_found` when there is none.
pub async fn find(
    db: &DatabaseConnection,
    operator: &user::Model,
    account: &str,
) -> Result<user::Model, Refusal> {
    require_operator(operator)?;
    crate::user::service::parse_account(account, "account")?
        .find(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::AccountNotFound))
}
