//! The engine's persistence: the `transact!` retry every change runs in (one transaction that
//! claims the caller's idempotency key, writes the rows and posts the journal entries, retried when
//! it loses a race to another writer of the same account; in cluster mode it first checks the
//! owner's fencing token, [`begin`]), the rows a change writes (positions,
//! the market orders of triggers and liquidations, a resting order's cancellation with its hold
//! released) and the conversions between rows and the engine's models.

use rust_decimal::Decimal;
use sea_orm::{
    ActiveModelTrait, ActiveValue::Set, DatabaseTransaction, DbErr, NotSet, TransactionTrait,
};
use wasm_core::margin::{MarginMode, Side};

use super::state::OpenOrder;
use crate::entity::{futures_order, futures_position};
use crate::funds::ledger::{self, LedgerError, NewEntry};
use crate::futures::position::Position;
use crate::futures::registry::Shared;
use crate::futures::settle::{self, Legs, USDT};
use crate::futures::views::{OrderSide, mode_str, side_str};
use crate::refusal::Refusal;

/// Attempts of a change that keeps losing races.
pub(super) const ATTEMPTS: u32 = 20;

/// Runs `$body` (an expression over the transaction `$txn` giving `Result<T, LedgerError>`) in a
/// transaction of `$shared`'s database ([`begin`]: fenced in cluster mode) that claims `$idem` first; the answer stored for a replay is `$respond(&T)`. Lost
/// races are retried. Gives `Result<Answer<T>, LedgerError>`.
macro_rules! transact {
    ($shared:expr, $idem:expr, $respond:expr, |$txn:ident| $body:expr) => {{
        let mut attempt = 0;
        loop {
            attempt += 1;
            let result: Result<
                $crate::futures::engine::Answer<_>,
                $crate::funds::ledger::LedgerError,
            > = async {
                let $txn = $crate::futures::engine::store::begin(&$shared).await?;
                if let Some(idem) = $idem {
                    if let Some(first) = $crate::funds::ledger::claim_key(&$txn, idem).await? {
                        return Ok($crate::futures::engine::Answer::Replayed(first));
                    }
                }
                // Its own block, so a `return` in the body ends only the body.
                let value = async { $body }.await?;
                if let Some(idem) = $idem {
                    $crate::funds::ledger::store_response(&$txn, idem, $respond(&value)).await?;
                }
                $txn.commit().await?;
                Ok($crate::futures::engine::Answer::Done(value))
            }
            .await;
            match result {
                Err($crate::funds::ledger::LedgerError::LostRace)
                    if attempt < $crate::futures::engine::store::ATTEMPTS => {}
                Err($crate::funds::ledger::LedgerError::Db(ref error))
                    if attempt < $crate::futures::engine::store::ATTEMPTS
                        && $crate::futures::engine::store::retryable(error) => {}
                other => break other,
            }
            ::tokio::time::sleep(::std::time::Duration::from_millis(u64::from(attempt) * 3)).await;
        }
    }};
}
pub(super) use transact;

/// Begins a change's transaction. In cluster mode it first checks that the engines' owner still
/// holds the futures fence ([`crate::cluster::fence::still_holds_shared`]): a stale owner's change
/// is refused as "busy" before it writes anything, and its fence marked lost (the caller then
/// tries the new owner).
pub(super) async fn begin(shared: &Shared) -> Result<DatabaseTransaction, LedgerError> {
    let txn = shared.db.begin().await?;
    if let Some(fence) = &shared.fence
        && !crate::cluster::fence::still_holds_shared(&txn, fence).await?
    {
        fence.lose();
        tracing::warn!(
            token = fence.token(),
            "a stale owner of the futures engines was fenced off"
        );
        return Err(LedgerError::Refused(crate::futures::registry::busy()));
    }
    Ok(txn)
}

pub(super) fn retryable(error: &DbErr) -> bool {
    let text = error.to_string().to_ascii_lowercase();
    text.contains("database is locked")
        || text.contains("busy")
        || text.contains("could not serialize")
        || text.contains("deadlock")
}

pub(super) fn dec(text: &str) -> Decimal {
    wasm_core::money::parse_decimal(text).unwrap_or_default()
}

pub(super) fn refused(error: Refusal) -> LedgerError {
    LedgerError::Refused(error)
}

pub(super) fn ledger_api_error(error: LedgerError) -> Refusal {
    crate::funds::service::ledger_error(error, "quantity")
}

pub(super) fn side_of(text: &str) -> Side {
    if text == "short" {
        Side::Short
    } else {
        Side::Long
    }
}

pub(super) fn mode_of(text: &str) -> MarginMode {
    if text == "cross" {
        MarginMode::Cross
    } else {
        MarginMode::Isolated
    }
}

pub(super) fn opt_text(value: Option<Decimal>) -> Option<String> {
    value.map(|v| v.normalize().to_string())
}

pub(super) fn text(value: Decimal) -> String {
    value.normalize().to_string()
}

pub(super) fn open_order(row: &futures_order::Model) -> Option<OpenOrder> {
    let price = wasm_core::money::parse_decimal(row.price.as_deref()?).ok()?;
    Some(OpenOrder {
        row: row.clone(),
        side: if row.side == "buy" {
            OrderSide::Buy
        } else {
            OrderSide::Sell
        },
        price,
        remaining: dec(&row.quantity) - dec(&row.filled_quantity),
        hold: dec(&row.hold_remaining),
        leverage: dec(&row.leverage),
        mode: mode_of(&row.margin_mode),
    })
}

/// The position a `futures_position` row holds.
pub fn position_of(row: &futures_position::Model) -> Position {
    let opt = |t: &Option<String>| t.as_deref().map(dec);
    Position {
        id: row.id,
        user_id: row.user_id,
        side: side_of(&row.side),
        size: dec(&row.size),
        entry_price: dec(&row.entry_price),
        leverage: dec(&row.leverage),
        mode: mode_of(&row.margin_mode),
        margin: dec(&row.margin),
        take_profit: opt(&row.take_profit),
        stop_loss: opt(&row.stop_loss),
        realised_pnl: dec(&row.realised_pnl),
        closed_size: dec(&row.closed_size),
        closed_value: dec(&row.closed_value),
        fees: dec(&row.fees),
        funding: dec(&row.funding),
        liquidation_price: opt(&row.liquidation_price),
        opened_at: row.opened_at,
    }
}

/// Inserts (id 0) or updates the row of `position` with `status`.
pub(super) async fn write_position(
    txn: &DatabaseTransaction,
    symbol: &str,
    position: &Position,
    status: &str,
    liquidation_fee: Decimal,
    fund_cover: Decimal,
    now: i64,
) -> Result<futures_position::Model, DbErr> {
    let open = status == "open";
    let row = futures_position::ActiveModel {
        id: if position.id == 0 {
            NotSet
        } else {
            Set(position.id)
        },
        user_id: Set(position.user_id),
        symbol: Set(symbol.to_owned()),
        side: Set(side_str(position.side).into()),
        size: Set(if open {
            text(position.size)
        } else {
            "0".into()
        }),
        entry_price: Set(text(position.entry_price)),
        leverage: Set(text(position.leverage)),
        margin_mode: Set(mode_str(position.mode).into()),
        margin: Set(if open {
            text(position.margin)
        } else {
            "0".into()
        }),
        take_profit: Set(opt_text(position.take_profit.filter(|_| open))),
        stop_loss: Set(opt_text(position.stop_loss.filter(|_| open))),
        realised_pnl: Set(text(position.realised_pnl)),
        closed_size: Set(text(position.closed_size)),
        closed_value: Set(text(position.closed_value)),
        fees: Set(text(position.fees)),
        funding: Set(text(position.funding)),
        liquidation_price: Set(opt_text(position.liquidation_price.filter(|_| open))),
        status: Set(status.into()),
        liquidation_fee: Set(text(liquidation_fee)),
        fund_cover: Set(text(fund_cover)),
        opened_at: Set(position.opened_at),
        updated_at: Set(now),
        closed_at: Set((!open).then_some(now)),
    };
    if position.id == 0 {
        row.insert(txn).await
    } else {
        row.update(txn).await
    }
}

/// Inserts the market order a trigger or the liquidation engine places for `user_id`.
#[allow(clippy::too_many_arguments)]
pub(super) async fn system_order(
    txn: &DatabaseTransaction,
    symbol: &str,
    user_id: i64,
    side: OrderSide,
    quantity: Decimal,
    position: &Position,
    source: &str,
    now: i64,
) -> Result<futures_order::Model, DbErr> {
    futures_order::ActiveModel {
        id: NotSet,
        user_id: Set(user_id),
        symbol: Set(symbol.to_owned()),
        side: Set(side.as_str().into()),
        order_type: Set("market".into()),
        source: Set(source.into()),
        price: Set(None),
        quantity: Set(text(quantity)),
        leverage: Set(text(position.leverage)),
        margin_mode: Set(mode_str(position.mode).into()),
        reduce_only: Set(true),
        close_position: Set(quantity == position.size),
        filled_quantity: Set("0".into()),
        filled_value: Set("0".into()),
        fee: Set("0".into()),
        realised_pnl: Set("0".into()),
        hold_remaining: Set("0".into()),
        status: Set("waitDeal".into()),
        cancel_reason: Set(None),
        created_at: Set(now),
        updated_at: Set(now),
    }
    .insert(txn)
    .await
}

/// Cancels a resting order inside `txn`, releasing its hold; gives the row and the wallet after.
pub(super) async fn cancel_in(
    txn: &DatabaseTransaction,
    order: &OpenOrder,
    reason: &str,
    now: i64,
) -> Result<(futures_order::Model, Decimal), LedgerError> {
    let user_id = order.row.user_id;
    let mut wallet = ledger::balance(txn, settle::trading(user_id), USDT).await?;
    if order.hold > Decimal::ZERO {
        let mut legs = Legs::new();
        legs.transfer(
            settle::margin(user_id),
            settle::trading(user_id),
            order.hold,
        );
        let posted: NewEntry = legs.entry(
            "futures_release",
            format!("futures_order:{}", order.row.id),
            user_id,
            crate::funds::bill_detail::release_memo(&order.row.symbol, order.row.id, reason),
        );
        let posted = ledger::post_within(txn, &posted).await?;
        wallet = posted
            .balances
            .get(&(settle::trading(user_id), USDT.into()))
            .copied()
            .unwrap_or(wallet);
    }
    let mut row = order.row.clone();
    row.status = "cancelled".into();
    row.cancel_reason = Some(reason.into());
    row.hold_remaining = "0".into();
    row.updated_at = now;
    let row = futures_order::ActiveModel::from(row)
        .reset_all()
        .update(txn)
        .await?;
    Ok((row, wallet))
}
