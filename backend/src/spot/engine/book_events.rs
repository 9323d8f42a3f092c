//! What the book reported for one step of a batch ([`matching::Event`]), applied to the pair's
//! orders and the batch: fills settled (`fills.rs`), a finished order's hold released and its final
//! row kept for the batch's write, the status of an order that rests, waits for its trigger or was
//! triggered; the house's orders leave its ladder.

use matching::{CancelReason, Event, RejectReason};
use rust_decimal::Decimal;

use super::super::settle;
use super::super::views::OrderStatus;
use super::SpotEngine;
use super::batch::Stop;
use super::fills::FillEvent;
use super::house_maker::HOUSE_ID_BIT;
use super::outbox::{Outbox, PendingEvent, order_event};
use crate::clock::now_ms;
use crate::db::WriterTransaction;

impl SpotEngine {
    /// Writes what the engine reported: fills settled, orders updated, held funds released.
    pub(super) async fn apply(
        &mut self,
        txn: &WriterTransaction<'_>,
        events: &[Event],
        outbox: &mut Outbox,
    ) -> Result<(), Stop> {
        let now = now_ms();
        for event in events {
            match *event {
                Event::Fill {
                    taker,
                    taker_owner,
                    maker,
                    maker_owner,
                    taker_side,
                    price,
                    quantity,
                    maker_remaining,
                } => {
                    outbox.book_changed = true;
                    self.settle_fill(
                        txn,
                        FillEvent {
                            taker,
                            taker_owner,
                            maker,
                            maker_owner,
                            taker_side,
                            price,
                            quantity,
                        },
                        now,
                        outbox,
                    )
                    .await?;
                    if maker_remaining == 0 {
                        if maker & HOUSE_ID_BIT != 0 {
                            self.house_orders.retain(|id| *id != maker);
                        } else {
                            self.finish(txn, maker, OrderStatus::DealTotol, None, now, outbox)
                                .await?;
                        }
                    }
                }
                Event::Filled { id } => {
                    if id & HOUSE_ID_BIT == 0 {
                        self.finish(txn, id, OrderStatus::DealTotol, None, now, outbox)
                            .await?;
                    }
                }
                Event::Cancelled { id, reason, .. } => {
                    outbox.book_changed = true;
                    if id & HOUSE_ID_BIT != 0 {
                        self.house_orders.retain(|house| *house != id);
                    } else {
                        let reason = match reason {
                            CancelReason::Requested => "user",
                            CancelReason::SelfTrade => "self_trade",
                            CancelReason::ImmediateRemainder => "immediate_remainder",
                            CancelReason::NoLiquidity => "no_liquidity",
                        };
                        self.finish(txn, id, OrderStatus::Cancelled, Some(reason), now, outbox)
                            .await?;
                    }
                }
                Event::Rejected { id, reason } => {
                    // Only a triggered stop gets here (a new order's refusal is answered first).
                    if id & HOUSE_ID_BIT == 0 {
                        let reason = match reason {
                            RejectReason::PostOnlyWouldTake => "post_only",
                            RejectReason::FokUnfillable => "fok",
                            _ => "rejected",
                        };
                        self.finish(txn, id, OrderStatus::Cancelled, Some(reason), now, outbox)
                            .await?;
                    }
                }
                Event::Rested { id, .. } => {
                    outbox.book_changed = true;
                    if let Some(order) = self.open.get_mut(&(id as i64)) {
                        order.row.status = if order.filled_quantity.is_zero() {
                            OrderStatus::WaitDeal
                        } else {
                            OrderStatus::PartDeal
                        }
                        .as_str()
                        .to_owned();
                        outbox.touched.insert(order.row.id);
                    }
                }
                Event::StopAccepted { id } => {
                    if let Some(order) = self.open.get_mut(&(id as i64)) {
                        order.row.status = OrderStatus::WaitTrigger.as_str().to_owned();
                        outbox.touched.insert(order.row.id);
                    }
                }
                Event::StopTriggered { id, .. } => {
                    if let Some(order) = self.open.get_mut(&(id as i64)) {
                        order.row.status = OrderStatus::WaitDeal.as_str().to_owned();
                        outbox.touched.insert(order.row.id);
                    }
                }
            }
        }
        Ok(())
    }

    /// Ends an order: releases what it still holds and writes its final row.
    async fn finish(
        &mut self,
        txn: &WriterTransaction<'_>,
        id: u64,
        status: OrderStatus,
        reason: Option<&str>,
        now: i64,
        outbox: &mut Outbox,
    ) -> Result<(), Stop> {
        let Some(mut order) = self.open.remove(&(id as i64)) else {
            return Ok(());
        };
        if order.frozen.is_sign_positive() && !order.frozen.is_zero() {
            let held_for = settle::HeldFor {
                user_id: order.row.user_id,
                order_id: order.row.id,
                symbol: &order.row.symbol,
            };
            let entry = settle::release(held_for, &order.row.frozen_coin, order.frozen);
            outbox.ledger.post(txn, &entry).await?;
            order.frozen = Decimal::ZERO;
        }
        order.row.status = status.as_str().to_owned();
        order.row.cancel_reason = reason.map(str::to_owned);
        let row = order.synced(now).clone();
        outbox.touched.remove(&row.id);
        outbox
            .user_events
            .push(PendingEvent::Ready(order_event(&row)));
        self.finished.insert(row.id, row);
        Ok(())
    }
}
