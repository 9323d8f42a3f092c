//! Early redemption of a position, previewed first with the same figures: wasm-core's schedule
//! at the redemption time ([`terms::redemption_time`]). A locked position whose product allows it
//! returns its principal less every reward paid (`deduct`) or all of it (`keep`); a flexible one
//! returns its principal and keeps its rewards. One entry (`earn_redeem`): the earn bucket gives
//! the principal, the funding bucket gets what is returned and the house's `earn_rewards` the
//! deduction; the position becomes `redeemed` by a conditional update in the same transaction
//! (still in progress, with the days paid that the figures counted), once per idempotency key.
//!
//! A flexible position's quota is freed in the same transaction (as Binance frees a flexible
//! product's quota on redemption): the product's `sold_units` and the user's holding `units` both
//! fall by the principal, by conditional updates that never go below zero, so the amount can be
//! subscribed again by anyone. A locked product's quota is the size of its round: what was sold
//! stays sold, whether redeemed early or matured (its progress bar never moves back).

use rust_decimal::Decimal;
use sea_orm::{
    ColumnTrait, ConnectionTrait, DatabaseConnection, EntityTrait, QueryFilter,
    sea_query::{Expr, ExprTrait},
};
use wasm_core::earn::Redemption;

use super::products::EarlyRedemption;
use super::terms::{self, decimal};
use crate::entity::{earn_holding, earn_position, earn_product};
use crate::funds::bill_detail;
use crate::funds::ledger::{
    self, AccountRef, Bucket, House, Idempotency, LedgerError, NewEntry, Posting, RowOutcome,
};
use crate::funds::service::ledger_error;
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// The kind of a redemption's entry.
pub const REDEEM_KIND: &str = "earn_redeem";

/// The position `id` of `user_id`, or `earn_position_not_found`.
pub async fn find_own(
    db: &impl ConnectionTrait,
    user_id: i64,
    id: i64,
) -> Result<earn_position::Model, Refusal> {
    earn_position::Entity::find_by_id(id)
        .filter(earn_position::Column::UserId.eq(user_id))
        .one(db)
        .await?
        .ok_or_else(|| Refusal::not_found(Msg::EarnPositionNotFound))
}

/// Whether `position` may be redeemed before it matures.
pub fn allowed(position: &earn_position::Model) -> bool {
    position.flexible
        || EarlyRedemption::parse(&position.early_redemption) != EarlyRedemption::Forbidden
}

/// What redeeming `position` at `now` returns, or why it cannot be redeemed: closed already, or
/// matured (the job returns its principal).
pub fn figures(position: &earn_position::Model, now: i64) -> Result<Redemption, Refusal> {
    let matured = position
        .delivery_date
        .is_some_and(|delivery| now >= delivery);
    if position.status != "in_progress" || matured {
        return Err(Refusal::new(RefusalKind::Conflict, Msg::EarnPositionClosed));
    }
    let schedule = terms::schedule(
        &terms::of_position(position),
        Some(terms::redemption_time(position, now)),
    )?;
    schedule
        .redemption
        .ok_or_else(|| Refusal::internal("a schedule asked at a time has its redemption"))
}

/// The preview of redeeming position `id` of `user_id` at `now`: the position and the figures.
pub async fn preview(
    db: &DatabaseConnection,
    user_id: i64,
    id: i64,
    now: i64,
) -> Result<(earn_position::Model, Redemption), Refusal> {
    let position = find_own(db, user_id, id).await?;
    let redemption = figures(&position, now)?;
    Ok((position, redemption))
}

/// What [`redeem`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Redeemed {
    /// Redeemed now: the position as it is now.
    Done(Box<earn_position::Model>),
    /// The key was seen with the same request: the first answer.
    Replayed(String),
}

/// Redeems position `id` of `user_id` at `now` (see the module); `respond` makes the answer
/// stored for replays.
pub async fn redeem(
    db: &DatabaseConnection,
    user_id: i64,
    id: i64,
    now: i64,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&earn_position::Model) -> String,
) -> Result<Redeemed, Refusal> {
    let position = find_own(db, user_id, id).await?;
    if !allowed(&position) {
        return Err(Refusal::forbidden(Msg::EarnEarlyRedemptionForbidden));
    }
    let redemption = figures(&position, now)?;
    let principal = decimal(&position.principal);
    let mut postings = vec![Posting {
        account: AccountRef::User {
            user_id,
            bucket: Bucket::Earn,
        },
        asset: position.asset.clone(),
        amount: -principal,
    }];
    if !redemption.returned.is_zero() {
        postings.push(Posting {
            account: AccountRef::funding(user_id),
            asset: position.asset.clone(),
            amount: redemption.returned,
        });
    }
    if !redemption.deduction.is_zero() {
        postings.push(Posting {
            account: AccountRef::House(House::EarnRewards),
            asset: position.asset.clone(),
            amount: redemption.deduction,
        });
    }
    let entry = NewEntry {
        kind: REDEEM_KIND.into(),
        reference: format!("earn_position:{}", position.id),
        user_id: Some(user_id),
        actor_id: Some(user_id),
        memo: bill_detail::earn_redeem_memo(position.product_id, position.id, redemption.deduction),
        postings,
    };
    let outcome = ledger::post_once_with_row(db, &entry, idempotency, respond, |txn, entry_id| {
        let (position, redemption) = (position.clone(), redemption.clone());
        Box::pin(async move {
            let closed = close(txn, &position, &redemption, entry_id, now).await?;
            Ok(closed)
        })
    })
    .await
    .map_err(|e| ledger_error(e, "id"))?;
    Ok(match outcome {
        RowOutcome::Created(row) => Redeemed::Done(Box::new(row)),
        RowOutcome::Replayed(first) => Redeemed::Replayed(first),
    })
}

async fn close(
    txn: &sea_orm::DatabaseTransaction,
    position: &earn_position::Model,
    redemption: &Redemption,
    entry_id: i64,
    now: i64,
) -> Result<earn_position::Model, LedgerError> {
    let text = |amount: Decimal| amount.normalize().to_string();
    let closed = earn_position::Entity::update_many()
        .col_expr(earn_position::Column::Status, Expr::value("redeemed"))
        .col_expr(earn_position::Column::ClosedAt, Expr::value(now))
        .col_expr(earn_position::Column::CloseEntryId, Expr::value(entry_id))
        .col_expr(
            earn_position::Column::Returned,
            Expr::value(text(redemption.returned)),
        )
        .col_expr(
            earn_position::Column::Deduction,
            Expr::value(text(redemption.deduction)),
        )
        .filter(earn_position::Column::Id.eq(position.id))
        .filter(earn_position::Column::Status.eq("in_progress"))
        .filter(earn_position::Column::PaidDays.eq(position.paid_days))
        .exec(txn)
        .await?;
    let now_row = earn_position::Entity::find_by_id(position.id)
        .one(txn)
        .await?
        .ok_or_else(|| LedgerError::Refused(Refusal::not_found(Msg::EarnPositionNotFound)))?;
    if closed.rows_affected != 1 {
        // Redeemed or matured meanwhile, or the job paid a day since the figures were made.
        return Err(LedgerError::Refused(if now_row.status == "in_progress" {
            Refusal::new(RefusalKind::Unavailable, Msg::LedgerBusy)
        } else {
            Refusal::new(RefusalKind::Conflict, Msg::EarnPositionClosed)
        }));
    }
    if position.flexible {
        free_quota(txn, position).await?;
    }
    Ok(now_row)
}

/// Gives a flexible position's principal back to its product's quota and its owner's holding
/// (see the module), never below zero.
async fn free_quota(
    txn: &sea_orm::DatabaseTransaction,
    position: &earn_position::Model,
) -> Result<(), LedgerError> {
    let Some(units) = terms::units(decimal(&position.principal)) else {
        return Err(LedgerError::Refused(Refusal::internal(
            "a stored principal has at most 8 decimals",
        )));
    };
    earn_product::Entity::update_many()
        .col_expr(
            earn_product::Column::SoldUnits,
            Expr::col(earn_product::Column::SoldUnits).sub(units),
        )
        .filter(earn_product::Column::Id.eq(position.product_id))
        .filter(earn_product::Column::SoldUnits.gte(units))
        .exec(txn)
        .await?;
    earn_holding::Entity::update_many()
        .col_expr(
            earn_holding::Column::Units,
            Expr::col(earn_holding::Column::Units).sub(units),
        )
        .filter(earn_holding::Column::ProductId.eq(position.product_id))
        .filter(earn_holding::Column::UserId.eq(position.user_id))
        .filter(earn_holding::Column::Units.gte(units))
        .exec(txn)
        .await?;
    Ok(())
}
