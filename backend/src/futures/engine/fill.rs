//! One execution against a user's position, shared by the orders that fill at once and the
//! triggers that fill or close later: the walk of the book ladder that prices a market execution,
//! and the fill itself inside the caller's transaction (its journal entry, the order row's figures,
//! the position rows it closes, opens or changes).

use rust_decimal::Decimal;
use sea_orm::{ActiveModelTrait, DatabaseTransaction};
use wasm_core::margin::{MarginMode, Side};

use super::Engine;
use super::state::Effect;
use super::store::{dec, text, write_position};
use crate::entity::futures_order;
use crate::funds::ledger::{self, LedgerError};
use crate::futures::position::{Position, amount, plan_fill, walk_book};
use crate::futures::settle::{self, FillAmounts, SECURITY_FUND, USDT};
use crate::futures::views::OrderSide;

/// One execution against a position.
pub(super) struct Fill {
    pub(super) user_id: i64,
    pub(super) side: OrderSide,
    pub(super) quantity: Decimal,
    pub(super) price: Decimal,
    pub(super) leverage: Decimal,
    pub(super) mode: MarginMode,
    pub(super) fee_rate: Decimal,
    pub(super) released_hold: Decimal,
}

impl Engine {
    /// Walks the ladder of the side a `direction` order takes (asks for a buy, bids for a sell),
    /// only its levels at or better than `limit` when given: the quantity filled and its value.
    pub(super) fn walk(
        &self,
        direction: Side,
        quantity: Decimal,
        limit: Option<Decimal>,
    ) -> (Decimal, Decimal) {
        let Some(book) = self.shared.prices.book(&self.rules.symbol) else {
            return (Decimal::ZERO, Decimal::ZERO);
        };
        let (levels, within): (_, fn(Decimal, Decimal) -> bool) = match direction {
            Side::Long => (&book.asks, |price, limit| price <= limit),
            Side::Short => (&book.bids, |price, limit| price >= limit),
        };
        walk_book(
            levels
                .iter()
                .take_while(|l| limit.is_none_or(|limit| within(l.price, limit)))
                .map(|l| (l.price, l.quantity)),
            quantity,
        )
    }

    /// Executes `fill` against the user's `position` inside `txn`: the entry, the order row's
    /// figures, the position rows. Gives the wallet after it and the user's position now.
    pub(super) async fn fill_in(
        &self,
        txn: &DatabaseTransaction,
        row: &mut futures_order::Model,
        position: &Option<Position>,
        fill: &Fill,
        effect: &mut Effect,
        now: i64,
    ) -> Result<(Decimal, Option<Position>), LedgerError> {
        let user_id = fill.user_id;
        let direction = fill.side.direction();
        let plan = plan_fill(
            position.as_ref(),
            user_id,
            direction,
            fill.quantity,
            fill.price,
            fill.leverage,
            fill.mode,
            now,
        );
        let wallet = ledger::balance(txn, settle::trading(user_id), USDT).await?;
        let fund = ledger::balance(txn, SECURITY_FUND, USDT).await?;
        let rate = self.shared.fee_discounts.rate(user_id, fill.fee_rate);
        let fee = amount(fill.quantity * fill.price * rate);
        let (legs, charged) = settle::fill_legs(
            &FillAmounts {
                user_id,
                isolated: fill.mode == MarginMode::Isolated,
                released_hold: fill.released_hold,
                released_margin: plan.released_margin,
                realised_pnl: plan.realised_pnl,
                opened_margin: plan.opened_margin,
                fee,
                trading_before: wallet,
                security_fund_before: fund,
            },
            self.shared.security_percent,
        );
        let mut wallet_after = wallet;
        if !legs.is_empty() {
            let posted = ledger::post_within(
                txn,
                &legs.entry(
                    "futures_fill",
                    format!("futures_order:{}", row.id),
                    user_id,
                    crate::funds::bill_detail::fill_memo(
                        &self.rules.symbol,
                        fill.side.as_str(),
                        fill.quantity,
                        fill.price,
                    ),
                ),
            )
            .await?;
            wallet_after = posted
                .balances
                .get(&(settle::trading(user_id), USDT.into()))
                .copied()
                .unwrap_or(wallet);
        }
        // The order's figures.
        let filled = dec(&row.filled_quantity) + fill.quantity;
        row.filled_quantity = text(filled);
        row.filled_value = text(dec(&row.filled_value) + fill.quantity * fill.price);
        row.fee = text(dec(&row.fee) + charged.fee);
        row.realised_pnl = text(dec(&row.realised_pnl) + plan.realised_pnl);
        row.hold_remaining =
            text((dec(&row.hold_remaining) - fill.released_hold).max(Decimal::ZERO));
        row.status = if filled >= dec(&row.quantity) {
            "dealTotol".into()
        } else {
            "partDeal".into()
        };
        row.updated_at = now;
        *row = futures_order::ActiveModel::from(row.clone())
            .reset_all()
            .update(txn)
            .await?;
        // The positions.
        let mut after = plan.after.clone();
        if let Some(old) = position {
            let keeps = after.as_ref().is_some_and(|a| a.id == old.id && a.id != 0);
            if !keeps {
                // Closed (or flipped): the old row is finished.
                let mut closed = old.clone();
                closed.realised_pnl += plan.realised_pnl;
                closed.closed_size += plan.closed;
                closed.closed_value += plan.closed * fill.price;
                if after.is_none() {
                    closed.fees += charged.fee;
                }
                let closed_row = write_position(
                    txn,
                    &self.rules.symbol,
                    &closed,
                    "closed",
                    Decimal::ZERO,
                    Decimal::ZERO,
                    now,
                )
                .await?;
                effect.closed.push(closed_row);
            }
        }
        if let Some(next) = after.as_mut() {
            next.fees += charged.fee;
            next.liquidation_price = self.liquidation_of(next, wallet_after);
            let written = write_position(
                txn,
                &self.rules.symbol,
                next,
                "open",
                Decimal::ZERO,
                Decimal::ZERO,
                now,
            )
            .await?;
            next.id = written.id;
        }
        Ok((wallet_after, after))
    }
}
