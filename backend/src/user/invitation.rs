//! The referral tree: an invitee's three ancestors (generation 1 the inviter, 2 and 3 above it),
//! fixed once in `referral_ancestor` when the inviter becomes known — at registration from the
//! invitation code, or by a code bound later ([`bind`]) within the window the configuration gives
//! (7 days by default) and before the user's first trade. A bind is never to oneself and never makes
//! a cycle (the inviter's chain of inviters, to its root, must not contain the user), and is atomic:
//! the user's `invited_by` is set by a conditional update, so of two binds at once one wins.

use sea_orm::{
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QuerySelect, TransactionTrait,
    sea_query::{Expr, ExprTrait},
};

use crate::clock::DAY_MS;
use crate::entity::{futures_order, referral_ancestor, spot_trade, user};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// Generations the tree records (and rebates pay).
pub const GENERATIONS: i32 = 3;

/// Longest chain of inviters followed when looking for a cycle; deeper trees are refused.
const MAX_CHAIN: usize = 100_000;

/// Records `user_id`'s ancestors given its inviter: the inviter at generation 1, then the
/// inviter's own generations 1 and 2 at 2 and 3. Existing rows are kept (a retry writes nothing).
pub async fn fix_ancestors(
    db: &impl ConnectionTrait,
    user_id: i64,
    inviter_id: i64,
    now: i64,
) -> Result<(), Refusal> {
    let above = referral_ancestor::Entity::find()
        .filter(referral_ancestor::Column::UserId.eq(inviter_id))
        .filter(referral_ancestor::Column::Generation.lt(GENERATIONS))
        .all(db)
        .await?;
    let rows = std::iter::once((1, inviter_id))
        .chain(above.iter().map(|a| (a.generation + 1, a.ancestor_id)))
        .map(|(generation, ancestor_id)| referral_ancestor::ActiveModel {
            user_id: Set(user_id),
            ancestor_id: Set(ancestor_id),
            generation: Set(generation),
            created_at: Set(now),
            ..Default::default()
        });
    referral_ancestor::Entity::insert_many(rows)
        .on_conflict_do_nothing_on([
            referral_ancestor::Column::UserId,
            referral_ancestor::Column::Generation,
        ])
        .exec(db)
        .await?;
    Ok(())
}

/// Whether `user_id` has traded (a spot fill on either side, or a futures order that executed).
async fn has_traded(db: &impl ConnectionTrait, user_id: i64) -> Result<bool, Refusal> {
    let spot = spot_trade::Entity::find()
        .filter(
            spot_trade::Column::TakerUserId
                .eq(user_id)
                .or(spot_trade::Column::MakerUserId.eq(user_id)),
        )
        .limit(1)
        .count(db)
        .await?;
    if spot > 0 {
        return Ok(true);
    }
    let futures = futures_order::Entity::find()
        .filter(futures_order::Column::UserId.eq(user_id))
        .filter(futures_order::Column::FilledQuantity.ne("0"))
        .limit(1)
        .count(db)
        .await?;
    Ok(futures > 0)
}

/// Follows the chain of inviters from `candidate` up to its root: whether it reaches `user_id`
/// (binding `user_id` under `candidate` would close a cycle), and the root's id.
async fn chain_of(
    db: &impl ConnectionTrait,
    candidate: i64,
    user_id: i64,
) -> Result<(bool, i64), Refusal> {
    let mut at = candidate;
    for _ in 0..MAX_CHAIN {
        let above = user::Entity::find_by_id(at)
            .one(db)
            .await?
            .and_then(|u| u.invited_by);
        match above {
            None => return Ok((false, at)),
            Some(id) if id == user_id => return Ok((true, at)),
            Some(id) => at = id,
        }
    }
    Ok((true, at))
}

/// Binds `code`'s owner as `me`'s inviter after registration: within `window_days` of
/// registration, before the first trade, never oneself, never a cycle, and only once. Gives the
/// inviter's id.
pub async fn bind(
    db: &DatabaseConnection,
    me: &user::Model,
    code: &str,
    window_days: i64,
    now: i64,
) -> Result<i64, Refusal> {
    let code = code.trim().to_ascii_uppercase();
    let inviter = user::Entity::find()
        .filter(user::Column::InviteCode.eq(code))
        .one(db)
        .await?
        .ok_or_else(|| {
            Refusal::new(RefusalKind::Invalid, Msg::InvalidInviteCode).with_field("inviteCode")
        })?;
    if inviter.id == me.id {
        return Err(Refusal::invalid(Msg::InviteSelf).with_field("inviteCode"));
    }
    if me.invited_by.is_some() {
        return Err(Refusal::conflict(Msg::InviterAlreadyBound));
    }
    if now - me.created_at > window_days * DAY_MS {
        return Err(
            Refusal::new(RefusalKind::Forbidden, Msg::InviteWindowClosed)
                .with_param("days", window_days.to_string()),
        );
    }
    if has_traded(db, me.id).await? {
        return Err(Refusal::new(RefusalKind::Forbidden, Msg::InviteAfterTrade));
    }
    let (cycle, root) = chain_of(db, inviter.id, me.id).await?;
    if cycle {
        return Err(Refusal::invalid(Msg::InviteCycle).with_field("inviteCode"));
    }
    let txn = db.begin().await?;
    // Two binds that could close a cycle between them (each root binding into the other's tree)
    // both write the rows of this user and of the inviter's root: taken in id order, the second
    // waits for the first and then sees its chain.
    let mut locked = [me.id, root];
    locked.sort_unstable();
    for id in locked {
        user::Entity::update_many()
            .col_expr(user::Column::UpdatedAt, Expr::value(now))
            .filter(user::Column::Id.eq(id))
            .exec(&txn)
            .await?;
    }
    if chain_of(&txn, inviter.id, me.id).await?.0 {
        return Err(Refusal::invalid(Msg::InviteCycle).with_field("inviteCode"));
    }
    let bound = user::Entity::update_many()
        .col_expr(user::Column::InvitedBy, Expr::value(inviter.id))
        .filter(user::Column::Id.eq(me.id))
        .filter(user::Column::InvitedBy.is_null())
        .exec(&txn)
        .await?;
    if bound.rows_affected != 1 {
        return Err(Refusal::conflict(Msg::InviterAlreadyBound));
    }
    fix_ancestors(&txn, me.id, inviter.id, now).await?;
    txn.commit().await?;
    Ok(inviter.id)
}

/// Makes sure a just-registered `user` has its ancestors recorded (registration calls it after the
/// account's row is written).
pub async fn after_registration(
    db: &impl ConnectionTrait,
    user: &user::Model,
) -> Result<(), Refusal> {
    match user.invited_by {
        Some(inviter) => fix_ancestors(db, user.id, inviter, user.created_at).await,
        None => Ok(()),
    }
}
