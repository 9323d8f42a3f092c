//! What a mark tick sets off. A tick (the price source polled every `mark_poll_ms`, acting when
//! the mark's time changed) samples the funding premium and asks the index what the mark crossed:
//! resting limit orders (filled at their price, maker fee), take-profit / stop-loss prices and
//! stop orders (closing at market against the book, taker fee), and liquidation prices (closing at
//! the mark). Nothing else is looked at, so a tick costs `O(log n)` with `n` open positions.
//!
//! Cross positions: their liquidation price moves with the wallet and the user's other cross
//! positions. Each engine publishes its cross positions' figures (initial and maintenance margin,
//! unrealised PnL) to the shared registry and recomputes its cross liquidation prices with the
//! wallets and the registry every `cross_refresh_ms` and after every change of the user's position
//! in the symbol; an index hit of a cross position is confirmed with fresh figures before it
//! liquidates.

use std::collections::HashMap;

use rust_decimal::Decimal;
use sea_orm::ActiveModelTrait;
use wasm_core::margin::MarginMode;

use super::Engine;
use super::command::{Answer, Target};
use super::fill::Fill;
use super::state::{Effect, OpenOrder, liquidation_direction};
use super::store::{
    cancel_in, dec, ledger_api_error, side_of, system_order, text, transact, write_position,
};
use crate::clock::now_ms;
use crate::entity::{futures_order, futures_stop};
use crate::funds::ledger::{self, Idempotency, LedgerError};
use crate::futures::position::{amount, opposite, reducing_part};
use crate::futures::registry::MarkPrice;
use crate::futures::settle::{self, SECURITY_FUND, USDT};
use crate::futures::views::OrderSide;
use crate::refusal::Refusal;

impl Engine {
    /// Acts on `mark`: fires what it crossed, limits first, then take profits, stop losses and
    /// stop orders, then liquidations.
    pub(super) async fn on_mark(&mut self, mark: MarkPrice) {
        // Each published mark counts once toward the funding premium, however often it is
        // acted on (a cross refresh or an evaluation acts on the same mark again).
        if self.sampled_ts != Some(mark.ts) {
            self.premiums.sample(mark.mark, mark.index);
            self.sampled_ts = Some(mark.ts);
        }
        self.mark = Some(mark);
        let mut crossed = std::mem::take(&mut self.crossed);
        self.triggers.crossed_into(mark.mark, &mut crossed);
        // Limits first, then take profits, stop losses and stop orders, then liquidations.
        crossed.sort_by_key(|t| match t {
            Target::Limit(_) => 0,
            Target::TakeProfit(_) | Target::StopLoss(_) | Target::Stop(_) => 1,
            Target::Liquidation(_) => 2,
        });
        for target in crossed.drain(..) {
            // An earlier event of this tick may have taken it out.
            if self.triggers.get(target).is_none() {
                continue;
            }
            let result = match target {
                Target::Limit(id) => self.fill_limit(id, mark.mark).await,
                Target::TakeProfit(user) => {
                    self.close_triggered(user, None, "take_profit", None).await
                }
                Target::StopLoss(user) => self.close_triggered(user, None, "stop_loss", None).await,
                Target::Stop(id) => match self.stops.get(&id).cloned() {
                    Some(stop) => {
                        self.close_triggered(
                            stop.user_id,
                            stop.quantity.as_deref().map(dec),
                            "stop",
                            Some(stop),
                        )
                        .await
                    }
                    None => Ok(()),
                },
                Target::Liquidation(user) => self.liquidate(user, mark.mark).await,
            };
            if let Err(error) = result {
                tracing::error!(symbol = %self.rules.symbol, ?target, ?error, "futures trigger failed");
                // Out of this tick's way; the next change of the object places it again.
                self.triggers.remove(target);
            }
        }
        self.crossed = crossed;
        self.publish_funding();
    }

    /// Fills the resting limit order `order_id` at its price (maker fee); a reduce-only order
    /// that no longer reduces anything, or one whose opening no longer fits, is cancelled.
    async fn fill_limit(&mut self, order_id: i64, _mark: Decimal) -> Result<(), Refusal> {
        let Some(order) = self.orders.get(&order_id).cloned() else {
            return Ok(());
        };
        let user_id = order.row.user_id;
        let position = self.positions.get(&user_id).cloned();
        let direction = order.side.direction();
        let mut quantity = order.remaining;
        if order.row.reduce_only {
            quantity = reducing_part(position.as_ref(), direction, quantity);
        }
        let now = now_ms();
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        if quantity.is_zero() {
            let outcome = transact!(
                shared,
                none,
                |_: &(futures_order::Model, Decimal)| String::new(),
                |txn| cancel_in(&txn, &order, "reduce_only", now).await
            )
            .map_err(ledger_api_error)?;
            if let Answer::Done((row, wallet)) = outcome {
                self.apply(
                    Effect {
                        orders: vec![row],
                        ..Effect::default()
                    },
                    &HashMap::from([(user_id, wallet)]),
                );
            }
            return Ok(());
        }
        let (leverage, mode) = match &position {
            Some(p) => (p.leverage, p.mode),
            None => (order.leverage, order.mode),
        };
        let fill = Fill {
            user_id,
            side: order.side,
            quantity,
            price: order.price,
            leverage,
            mode,
            fee_rate: self.rules.maker_fee,
            released_hold: order.hold,
        };
        let outcome = transact!(
            shared,
            none,
            |_: &(futures_order::Model, Effect, Decimal)| String::new(),
            |txn| {
                let mut row = order.row.clone();
                let mut effect = Effect::default();
                let (wallet, change) = self
                    .fill_in(&txn, &mut row, &position, &fill, &mut effect, now)
                    .await?;
                if row.status != "dealTotol" {
                    // A reduce-only remainder that no longer reduces anything.
                    row.status = "cancelled".into();
                    row.cancel_reason = Some("reduce_only".into());
                    row = futures_order::ActiveModel::from(row)
                        .reset_all()
                        .update(&txn)
                        .await?;
                }
                effect.positions.push((user_id, change));
                effect.orders.push(row.clone());
                Ok::<_, LedgerError>((row, effect, wallet))
            }
        );
        match outcome {
            Ok(Answer::Done((_, effect, wallet))) => {
                self.apply(effect, &HashMap::from([(user_id, wallet)]));
                Ok(())
            }
            Ok(Answer::Replayed(_)) => Ok(()),
            // The position changed since the order was placed and what it opens no longer fits
            // the hold and the wallet: the order is cancelled, its hold released.
            Err(LedgerError::InsufficientBalance { .. }) => {
                let outcome = transact!(
                    shared,
                    none,
                    |_: &(futures_order::Model, Decimal)| String::new(),
                    |txn| cancel_in(&txn, &order, "insufficient_margin", now).await
                )
                .map_err(ledger_api_error)?;
                if let Answer::Done((row, wallet)) = outcome {
                    self.apply(
                        Effect {
                            orders: vec![row],
                            ..Effect::default()
                        },
                        &HashMap::from([(user_id, wallet)]),
                    );
                }
                Ok(())
            }
            Err(error) => Err(ledger_api_error(error)),
        }
    }

    /// Closes `quantity` (the whole position when none) of the user's position at market, for a
    /// take profit, a stop loss or a stop order (`stop`, marked triggered).
    async fn close_triggered(
        &mut self,
        user_id: i64,
        quantity: Option<Decimal>,
        source: &str,
        stop: Option<futures_stop::Model>,
    ) -> Result<(), Refusal> {
        let position = self.positions.get(&user_id).cloned();
        let now = now_ms();
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        let Some(open) = position.clone().filter(|p| {
            stop.as_ref()
                .is_none_or(|s| side_of(&s.position_side) == p.side)
        }) else {
            // Nothing to close any more: a stop order ends cancelled.
            if let Some(stop) = stop {
                let outcome = transact!(
                    shared,
                    none,
                    |_: &futures_stop::Model| String::new(),
                    |txn| {
                        let mut row = stop.clone();
                        row.status = "cancelled".into();
                        row.updated_at = now;
                        futures_stop::ActiveModel::from(row)
                            .reset_all()
                            .update(&txn)
                            .await
                            .map_err(LedgerError::from)
                    }
                )
                .map_err(ledger_api_error)?;
                if let Answer::Done(row) = outcome {
                    self.apply(
                        Effect {
                            stops: vec![row],
                            ..Effect::default()
                        },
                        &HashMap::new(),
                    );
                }
            }
            return Ok(());
        };
        let side = OrderSide::toward(opposite(open.side));
        let quantity = quantity.unwrap_or(open.size).min(open.size);
        let (filled, value) = self.walk(side.direction(), quantity, None);
        // Without enough book the rest closes at the mark: a triggered close always completes.
        let mark = self.mark_price()?;
        let value = value + (quantity - filled) * mark;
        let price = value / quantity;
        let fill = Fill {
            user_id,
            side,
            quantity,
            price,
            leverage: open.leverage,
            mode: open.mode,
            fee_rate: self.rules.taker_fee,
            released_hold: Decimal::ZERO,
        };
        let symbol = self.rules.symbol.clone();
        let outcome = transact!(shared, none, |_: &(Effect, Decimal)| String::new(), |txn| {
            let mut row =
                system_order(&txn, &symbol, user_id, side, quantity, &open, source, now).await?;
            let mut effect = Effect::default();
            let (wallet, change) = self
                .fill_in(&txn, &mut row, &position, &fill, &mut effect, now)
                .await?;
            let mut change = change;
            // A take profit or stop loss closes the whole position; a partial stop order
            // leaves the position's own triggers in place.
            if let Some(next) = change.as_mut()
                && source != "stop"
            {
                next.take_profit = None;
                next.stop_loss = None;
                write_position(
                    &txn,
                    &symbol,
                    next,
                    "open",
                    Decimal::ZERO,
                    Decimal::ZERO,
                    now,
                )
                .await?;
            }
            if let Some(stop) = &stop {
                let mut done = stop.clone();
                done.status = "triggered".into();
                done.order_id = Some(row.id);
                done.updated_at = now;
                effect.stops.push(
                    futures_stop::ActiveModel::from(done)
                        .reset_all()
                        .update(&txn)
                        .await?,
                );
            }
            effect.positions.push((user_id, change));
            effect.orders.push(row);
            Ok::<_, LedgerError>((effect, wallet))
        })
        .map_err(ledger_api_error)?;
        if let Answer::Done((effect, wallet)) = outcome {
            self.apply(effect, &HashMap::from([(user_id, wallet)]));
        }
        Ok(())
    }

    /// Liquidates the user's position at `mark` once confirmed: an isolated position's stored
    /// price is exact; a cross position's is recomputed with the wallet now first.
    async fn liquidate(&mut self, user_id: i64, mark: Decimal) -> Result<(), Refusal> {
        let Some(position) = self.positions.get(&user_id).cloned() else {
            self.triggers.remove(Target::Liquidation(user_id));
            return Ok(());
        };
        let isolated = position.mode == MarginMode::Isolated;
        let now = now_ms();
        let symbol = self.rules.symbol.clone();
        let multiple = self.shared.config.cross_liquidation_fee_mm_multiple;
        let orders: Vec<OpenOrder> = self
            .orders
            .values()
            .filter(|o| o.row.user_id == user_id)
            .cloned()
            .collect();
        let stops: Vec<futures_stop::Model> = self
            .stops
            .values()
            .filter(|s| s.user_id == user_id)
            .cloned()
            .collect();
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        let outcome = transact!(
            shared,
            none,
            |_: &Option<(Effect, Decimal)>| String::new(),
            |txn| {
                let wallet = ledger::balance(&txn, settle::trading(user_id), USDT).await?;
                if !isolated {
                    let fresh = self.liquidation_of(&position, wallet);
                    if !fresh.is_some_and(|lp| liquidation_direction(position.side).fires(lp, mark))
                    {
                        return Ok(None);
                    }
                }
                let fund = ledger::balance(&txn, SECURITY_FUND, USDT).await?;
                let pnl = amount(position.pnl_at(mark));
                let (balance, fee_cap) = if isolated {
                    (position.margin, position.margin + pnl)
                } else {
                    (
                        wallet,
                        amount(position.maintenance_at(&self.rules, mark) * multiple),
                    )
                };
                let (legs, out) =
                    settle::liquidation_legs(user_id, isolated, balance, pnl, fee_cap, fund);
                let side = OrderSide::toward(opposite(position.side));
                let mut row = system_order(
                    &txn,
                    &symbol,
                    user_id,
                    side,
                    position.size,
                    &position,
                    "liquidation",
                    now,
                )
                .await?;
                let posted = if legs.is_empty() {
                    None
                } else {
                    Some(
                        ledger::post_within(
                            &txn,
                            &legs.entry(
                                "futures_liquidation",
                                format!("futures_position:{}", position.id),
                                user_id,
                                crate::funds::bill_detail::liquidation_memo(&symbol, mark),
                            ),
                        )
                        .await?,
                    )
                };
                row.filled_quantity = text(position.size);
                row.filled_value = text(position.size * mark);
                row.realised_pnl = text(pnl);
                row.status = "dealTotol".into();
                let row = futures_order::ActiveModel::from(row)
                    .reset_all()
                    .update(&txn)
                    .await?;
                let mut closed = position.clone();
                closed.realised_pnl += pnl;
                closed.closed_size += position.size;
                closed.closed_value += position.size * mark;
                let closed_row = write_position(
                    &txn,
                    &symbol,
                    &closed,
                    "liquidated",
                    out.liquidation_fee,
                    out.covered_by_fund,
                    now,
                )
                .await?;
                let mut effect = Effect::default();
                effect.orders.push(row);
                effect.closed.push(closed_row);
                let mut wallet_after = posted
                    .and_then(|p| {
                        p.balances
                            .get(&(settle::trading(user_id), USDT.into()))
                            .copied()
                    })
                    .unwrap_or(wallet);
                for order in &orders {
                    let (cancelled, after) = cancel_in(&txn, order, "liquidation", now).await?;
                    if !dec(&order.row.hold_remaining).is_zero() {
                        wallet_after = after;
                    }
                    effect.orders.push(cancelled);
                }
                for stop in &stops {
                    let mut row = stop.clone();
                    row.status = "cancelled".into();
                    row.updated_at = now;
                    effect.stops.push(
                        futures_stop::ActiveModel::from(row)
                            .reset_all()
                            .update(&txn)
                            .await?,
                    );
                }
                effect.positions.push((user_id, None));
                Ok::<_, LedgerError>(Some((effect, wallet_after)))
            }
        )
        .map_err(ledger_api_error)?;
        match outcome {
            Answer::Done(Some((effect, wallet))) => {
                tracing::info!(%symbol, user_id, %mark, "position liquidated");
                self.apply(effect, &HashMap::from([(user_id, wallet)]));
            }
            // A cross position whose price moved away with the wallet: placed again.
            Answer::Done(None) => {
                let wallets = self.wallets(&[user_id]).await?;
                self.place(user_id, wallets.get(&user_id).copied().unwrap_or_default());
            }
            Answer::Replayed(_) => {}
        }
        Ok(())
    }

    /// Recomputes every cross position's figures and liquidation price with the wallets now, then
    /// acts on the mark (a wallet that shrank may have brought a price to it).
    pub(super) async fn refresh_cross(&mut self) {
        let users: Vec<i64> = self
            .positions
            .values()
            .filter(|p| p.mode == MarginMode::Cross)
            .map(|p| p.user_id)
            .collect();
        if users.is_empty() {
            return;
        }
        let wallets = match self.wallets(&users).await {
            Ok(wallets) => wallets,
            Err(error) => {
                tracing::error!(%error, "reading cross wallets failed");
                return;
            }
        };
        for user_id in users {
            self.place(user_id, wallets.get(&user_id).copied().unwrap_or_default());
        }
        if let Some(mark) = self.mark {
            self.on_mark(mark).await;
        }
    }
}
