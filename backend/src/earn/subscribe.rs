//! A subscription: the checks a user would fix in order (product open to them, amount within the
//! product's minimum and maximum, at most 8 decimals), then one transaction that posts the entry
//! (funding → earn, kind `earn_subscribe`), records the sale by two conditional updates — the
//! user's holding (`units + n <= per-user limit`, `count + 1 <= subscriptions allowed`) and the
//! product's quota (`sold_units + n <= total_units` while not paused or ended) — and writes the
//! position, once per idempotency key. A conditional update that matches no row refuses and rolls
//! everything back, so concurrent subscriptions never oversell: exactly what fits is sold.

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait,
    ActiveValue::Set,
    ColumnTrait, ConnectionTrait, DatabaseConnection, DatabaseTransaction, EntityTrait,
    QueryFilter,
    sea_query::{Expr, ExprTrait, OnConflict},
};
use wasm_core::earn::Schedule;

use super::products::{self, check_open};
use super::terms::{self, amount_of_units, units};
use crate::entity::{earn_holding, earn_position, earn_product, user};
use crate::funds::bill_detail;
use crate::funds::ledger::{
    self, AccountRef, Bucket, Idempotency, LedgerError, NewEntry, Posting, RowOutcome,
};
use crate::funds::service::ledger_error;
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// The kind of a subscription's entry.
pub const SUBSCRIBE_KIND: &str = "earn_subscribe";

/// A subscription's product and amount after the checks that need no transaction.
#[derive(Debug, Clone)]
pub struct Checked {
    /// The product as read.
    pub product: earn_product::Model,
    /// The amount.
    pub amount: Decimal,
    /// The amount in quota units.
    pub units: i64,
    /// The schedule it would have (subscribed now).
    pub schedule: Schedule,
}

/// Checks subscribing `amount` (as typed) to product `product_id` for `user` at `now`: product
/// found and open to them, the amount a decimal with at most 8 decimals within the minimum and
/// maximum. The schedule is the one the preview shows.
pub async fn check(
    db: &DatabaseConnection,
    user: &user::Model,
    product_id: i64,
    amount: &str,
    now: i64,
) -> Result<Checked, Refusal> {
    let product = products::find(db, product_id).await?;
    check_open(&product, now, &user.user_type)?;
    let amount = wasm_core::money::parse_decimal(amount)
        .map_err(|_| Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("amount"))?
        .normalize();
    let coin = product.asset.to_ascii_uppercase();
    let min = terms::decimal(&product.min_amount);
    let max = terms::decimal(&product.max_amount);
    if amount < min {
        return Err(Refusal::invalid(Msg::EarnBelowMinimum)
            .with_field("amount")
            .with_param("min", min.to_string())
            .with_param("coin", coin));
    }
    if amount > max {
        return Err(Refusal::invalid(Msg::EarnAboveMaximum)
            .with_field("amount")
            .with_param("max", max.to_string())
            .with_param("coin", coin));
    }
    let units = units(amount).ok_or_else(|| {
        Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("amount")
    })?;
    let schedule = terms::schedule(&terms::of_product(&product, amount, now), None)?;
    Ok(Checked {
        product,
        amount,
        units,
        schedule,
    })
}

/// What [`subscribe`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Subscribed {
    /// Accepted now: the position.
    Created(Box<earn_position::Model>),
    /// The key was seen with the same request: the first answer.
    Replayed(String),
}

/// Subscribes `checked` for `user_id` at `now` (see the module), once per idempotency key;
/// `respond` makes the answer stored for replays.
pub async fn subscribe(
    db: &DatabaseConnection,
    user_id: i64,
    checked: &Checked,
    now: i64,
    idempotency: Option<&Idempotency>,
    respond: impl Fn(&earn_position::Model) -> String,
) -> Result<Subscribed, Refusal> {
    let product = &checked.product;
    let entry = NewEntry {
        kind: SUBSCRIBE_KIND.into(),
        reference: format!("earn_product:{}", product.id),
        user_id: Some(user_id),
        actor_id: Some(user_id),
        memo: bill_detail::earn_subscribe_memo(product.id, checked.amount, &product.asset),
        postings: Posting::transfer(
            AccountRef::funding(user_id),
            AccountRef::User {
                user_id,
                bucket: Bucket::Earn,
            },
            &product.asset,
            checked.amount,
        )
        .to_vec(),
    };
    let outcome = ledger::post_once_with_row(db, &entry, idempotency, respond, |txn, entry_id| {
        let checked = checked.clone();
        Box::pin(async move {
            record_sale(txn, user_id, &checked).await?;
            Ok(insert_position(txn, user_id, &checked, entry_id, now).await?)
        })
    })
    .await
    .map_err(|e| ledger_error(e, "amount"))?;
    Ok(match outcome {
        RowOutcome::Created(row) => Subscribed::Created(Box::new(row)),
        RowOutcome::Replayed(first) => Subscribed::Replayed(first),
    })
}

/// The sale recorded by conditional updates (see the module), or the refusal naming the limit.
async fn record_sale(
    txn: &DatabaseTransaction,
    user_id: i64,
    checked: &Checked,
) -> Result<(), LedgerError> {
    let product = &checked.product;
    let coin = product.asset.to_ascii_uppercase();
    earn_holding::Entity::insert(earn_holding::ActiveModel {
        product_id: Set(product.id),
        user_id: Set(user_id),
        units: Set(0),
        count: Set(0),
        ..Default::default()
    })
    .on_conflict(
        OnConflict::columns([
            earn_holding::Column::ProductId,
            earn_holding::Column::UserId,
        ])
        .do_nothing()
        .to_owned(),
    )
    .exec_without_returning(txn)
    .await?;
    let mut holding = earn_holding::Entity::update_many()
        .col_expr(
            earn_holding::Column::Units,
            Expr::col(earn_holding::Column::Units).add(checked.units),
        )
        .col_expr(
            earn_holding::Column::Count,
            Expr::col(earn_holding::Column::Count).add(1),
        )
        .filter(earn_holding::Column::ProductId.eq(product.id))
        .filter(earn_holding::Column::UserId.eq(user_id));
    if product.per_user_units > 0 {
        holding = holding.filter(
            Expr::col(earn_holding::Column::Units)
                .add(checked.units)
                .lte(product.per_user_units),
        );
    }
    if product.max_subscriptions > 0 {
        holding = holding.filter(
            Expr::col(earn_holding::Column::Count)
                .add(1)
                .lte(product.max_subscriptions),
        );
    }
    if holding.exec(txn).await?.rows_affected != 1 {
        let held = earn_holding::Entity::find()
            .filter(earn_holding::Column::ProductId.eq(product.id))
            .filter(earn_holding::Column::UserId.eq(user_id))
            .one(txn)
            .await?
            .map_or((0, 0), |h| (h.units, h.count));
        let refusal = if product.max_subscriptions > 0 && held.1 >= product.max_subscriptions {
            Refusal::invalid(Msg::EarnSubscriptionLimit)
                .with_param("limit", product.max_subscriptions.to_string())
        } else {
            Refusal::invalid(Msg::EarnUserLimit)
                .with_field("amount")
                .with_param(
                    "remaining",
                    amount_of_units(Ord::max(product.per_user_units - held.0, 0)).to_string(),
                )
                .with_param("coin", coin)
        };
        return Err(LedgerError::Refused(refusal));
    }
    let sold = earn_product::Entity::update_many()
        .col_expr(
            earn_product::Column::SoldUnits,
            Expr::col(earn_product::Column::SoldUnits).add(checked.units),
        )
        .filter(earn_product::Column::Id.eq(product.id))
        .filter(earn_product::Column::Status.eq("scheduled"))
        .filter(
            Expr::col(earn_product::Column::SoldUnits)
                .add(checked.units)
                .lte(Expr::col(earn_product::Column::TotalUnits)),
        )
        .exec(txn)
        .await?;
    if sold.rows_affected != 1 {
        let now = earn_product::Entity::find_by_id(product.id)
            .one(txn)
            .await?
            .unwrap_or_else(|| product.clone());
        let refusal = match now.status.as_str() {
            "paused" => Refusal::invalid(Msg::EarnPaused),
            "ended" => Refusal::invalid(Msg::EarnEnded),
            _ => Refusal::invalid(Msg::EarnQuotaExhausted)
                .with_field("amount")
                .with_param(
                    "remaining",
                    amount_of_units(Ord::max(now.total_units - now.sold_units, 0)).to_string(),
                )
                .with_param("coin", coin),
        };
        return Err(LedgerError::Refused(refusal));
    }
    Ok(())
}

async fn insert_position(
    txn: &impl ConnectionTrait,
    user_id: i64,
    checked: &Checked,
    entry_id: i64,
    now: i64,
) -> Result<earn_position::Model, sea_orm::DbErr> {
    let product = &checked.product;
    earn_position::ActiveModel {
        user_id: Set(user_id),
        product_id: Set(product.id),
        rate_version_id: Set(product.rate_version_id),
        asset: Set(product.asset.clone()),
        reward_asset: Set(product.reward_asset.clone()),
        principal: Set(checked.amount.to_string()),
        rate: Set(product.rate.clone()),
        rate_basis: Set(product.rate_basis.clone()),
        lock_days: Set(product.lock_days),
        flexible: Set(product.flexible),
        early_redemption: Set(product.early_redemption.clone()),
        subscribed_at: Set(now),
        value_date: Set(checked.schedule.value_date),
        delivery_date: Set(checked.schedule.delivery_date),
        status: Set("in_progress".to_owned()),
        paid_days: Set(0),
        next_pay_date: Set(checked.schedule.first_payout_date),
        subscribe_entry_id: Set(entry_id),
        ..Default::default()
    }
    .insert(txn)
    .await
}
