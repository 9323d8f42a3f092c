//! Rules of the seconds calls, free of HTTP: what is offered (periods, payouts, stake limits,
//! pairs), the checks of a new order — the product switched on, a listed pair, an offered period,
//! the whole-number stake within the period's limits by wasm-core's `validate_seconds_quantity`
//! (the order form's own rule), a fresh opening tick — then its acceptance (the stake moved to the
//! seconds book and the row written in one transaction, once per idempotency key), and the reads.

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, ColumnTrait, DatabaseConnection, DatabaseTransaction,
    EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
};
use wasm_core::validate::validate_seconds_quantity;

use super::settle::{self, Direction, RULE, Tick};
use super::views::SecondsOrder;
use crate::config::{SecondsConfig, SecondsPeriod};
use crate::entity::{coin, seconds_order};
use crate::funds::bill_detail::{self, SecondsBet};
use crate::funds::ledger::{self, AccountRef, House, Idempotency, NewEntry, Posting, RowOutcome};
use crate::funds::prices::MAX_QUOTE_AGE_MS;
use crate::funds::service::ledger_error;
use crate::refusal::{Refusal, RefusalKind};

use crate::clock::now_ms;
use crate::i18n::Msg;

/// The asset stakes and payouts are in.
pub const STAKE_COIN: &str = "usdt";

/// `seconds_disabled` (403) when the operator switched the product off.
pub fn check_enabled(config: &SecondsConfig) -> Result<(), Refusal> {
    if config.enabled {
        Ok(())
    } else {
        Err(Refusal::new(RefusalKind::Forbidden, Msg::SecondsDisabled))
    }
}

/// The pairs offered for seconds contracts: every pair listed for spot trading, in display order
/// (the markets page's Flash Contracts tab lists the same).
pub async fn offered_pairs(db: &DatabaseConnection) -> Result<Vec<coin::Model>, Refusal> {
    Ok(coin::Entity::find()
        .filter(coin::Column::SpotEnabled.eq(true))
        .order_by_asc(coin::Column::Sort)
        .order_by_asc(coin::Column::Id)
        .all(db)
        .await?)
}

/// A new order, as read from the request.
#[derive(Debug, Clone)]
pub struct NewOrder {
    /// The user.
    pub user_id: i64,
    /// Pair, any case.
    pub symbol: String,
    /// The call.
    pub direction: Direction,
    /// The period asked for.
    pub period_seconds: u32,
    /// The stake as typed.
    pub quantity: String,
}

/// A new order after its checks.
#[derive(Debug, Clone)]
struct Checked {
    user_id: i64,
    symbol: String,
    direction: Direction,
    period: SecondsPeriod,
    stake: Decimal,
    open: Tick,
    accepted_ms: i64,
}

/// Checks `order` in the order a user would fix it: pair, period, stake, then the opening tick.
async fn check(
    db: &DatabaseConnection,
    config: &SecondsConfig,
    order: &NewOrder,
) -> Result<Checked, Refusal> {
    check_enabled(config)?;
    let symbol = order.symbol.trim().to_ascii_lowercase();
    let listed = coin::Entity::find()
        .filter(coin::Column::Symbol.eq(&symbol))
        .filter(coin::Column::SpotEnabled.eq(true))
        .one(db)
        .await?;
    if listed.is_none() {
        return Err(
            Refusal::new(RefusalKind::Invalid, Msg::SecondsSymbolUnavailable)
                .with_field("symbol")
                .with_param(
                    "symbol",
                    order.symbol.trim().chars().take(32).collect::<String>(),
                ),
        );
    }
    let period = config
        .period(order.period_seconds)
        .cloned()
        .ok_or_else(|| {
            Refusal::new(RefusalKind::Invalid, Msg::SecondsPeriodUnavailable)
                .with_field("periodSeconds")
                .with_param("seconds", order.period_seconds.to_string())
        })?;
    crate::number::whole(&order.quantity, "quantity")?;
    validate_seconds_quantity(
        &order.quantity,
        Some(period.min_stake),
        Some(period.max_stake),
    )
    .map_err(|violation| Refusal::rule("quantity", &violation))?;
    let stake = wasm_core::money::parse_decimal(&order.quantity)
        .map_err(|_| Refusal::new(RefusalKind::Invalid, Msg::InvalidField).with_field("quantity"))?
        .normalize();
    let accepted_ms = now_ms();
    let open = settle::newest_tick(db, &symbol)
        .await?
        .filter(|tick| accepted_ms - tick.ts_ms <= MAX_QUOTE_AGE_MS)
        .ok_or_else(|| {
            Refusal::new(RefusalKind::Unavailable, Msg::PriceUnavailable)
                .with_param("coin", symbol.to_ascii_uppercase())
        })?;
    Ok(Checked {
        user_id: order.user_id,
        symbol,
        direction: order.direction,
        period,
        stake,
        open,
        accepted_ms,
    })
}

/// What [`submit`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Submitted {
    /// Accepted now: the committed row.
    Created(Box<seconds_order::Model>),
    /// The key was seen with the same request: the first answer.
    Replayed(String),
}

/// Checks and accepts `order`: the stake moves from the user's funding USDT to the seconds book
/// (kind `seconds_stake`) and the row with its opening tick and fixed expiry is written in the
/// same transaction, once per idempotency key. Nothing is written when a check fails.
pub async fn submit(
    db: &DatabaseConnection,
    config: &SecondsConfig,
    order: &NewOrder,
    idempotency: Option<&Idempotency>,
) -> Result<Submitted, Refusal> {
    let checked = check(db, config, order).await?;
    let entry = NewEntry {
        kind: "seconds_stake".into(),
        reference: format!("user:{}", checked.user_id),
        user_id: Some(checked.user_id),
        actor_id: Some(checked.user_id),
        memo: bill_detail::seconds_stake_memo(
            SecondsBet {
                symbol: &checked.symbol,
                direction: checked.direction.as_str(),
                period_seconds: i64::from(checked.period.seconds),
                open_price: checked.open.price,
                open_tick: checked.open.seq,
            },
            checked.stake,
        ),
        postings: Posting::transfer(
            AccountRef::funding(checked.user_id),
            AccountRef::House(House::SecondsBook),
            STAKE_COIN,
            checked.stake,
        )
        .to_vec(),
    };
    let respond = |row: &seconds_order::Model| {
        serde_json::to_string(&SecondsOrder::of(row, row.accepted_ms)).unwrap_or_default()
    };
    let outcome = ledger::post_once_with_row(db, &entry, idempotency, respond, |txn, entry_id| {
        let checked = checked.clone();
        Box::pin(async move { Ok(insert_row(txn, &checked, entry_id).await?) })
    })
    .await
    .map_err(|e| ledger_error(e, "quantity"))?;
    Ok(match outcome {
        RowOutcome::Created(row) => Submitted::Created(Box::new(row)),
        RowOutcome::Replayed(response) => Submitted::Replayed(response),
    })
}

async fn insert_row(
    txn: &DatabaseTransaction,
    order: &Checked,
    open_entry_id: i64,
) -> Result<seconds_order::Model, sea_orm::DbErr> {
    seconds_order::ActiveModel {
        user_id: Set(order.user_id),
        symbol: Set(order.symbol.clone()),
        direction: Set(order.direction.as_str().to_owned()),
        period_seconds: Set(order.period.seconds as i32),
        stake: Set(order.stake.to_string()),
        payout_rate: Set(order.period.payout_rate.normalize().to_string()),
        status: Set("open".into()),
        accepted_ms: Set(order.accepted_ms),
        expiry_ms: Set(order.accepted_ms + i64::from(order.period.seconds) * 1000),
        open_tick_seq: Set(order.open.seq),
        open_price: Set(order.open.price.to_string()),
        open_tick_ms: Set(order.open.ts_ms),
        rule: Set(RULE.to_owned()),
        open_entry_id: Set(open_entry_id),
        ..Default::default()
    }
    .insert(txn)
    .await
}

/// A page of the user's open or settled orders, newest first.
pub async fn orders(
    db: &DatabaseConnection,
    user_id: i64,
    open: bool,
    symbol: Option<&str>,
    page: u64,
    page_size: u64,
) -> Result<(u64, Vec<SecondsOrder>), Refusal> {
    let mut query = seconds_order::Entity::find()
        .filter(seconds_order::Column::UserId.eq(user_id))
        .filter(seconds_order::Column::Status.eq(if open { "open" } else { "settled" }));
    if let Some(symbol) = symbol.map(str::trim).filter(|s| !s.is_empty()) {
        query = query.filter(seconds_order::Column::Symbol.eq(symbol.to_ascii_lowercase()));
    }
    let pages = query
        .order_by_desc(seconds_order::Column::Id)
        .paginate(db, page_size);
    let total = pages.num_items().await?;
    let rows = pages.fetch_page(page - 1).await?;
    let now = now_ms();
    Ok((
        total,
        rows.iter().map(|row| SecondsOrder::of(row, now)).collect(),
    ))
}
