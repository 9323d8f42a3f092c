//! Users' orders in a batch: a new order's checks against the pair's grid, its hold, its placing in
//! the book and its answer (an idempotency key seen before answers with the first answer again);
//! a cancellation; an order's view for its answer; and the conversions of an order to the
//! `matching` crate's sides, ticks, lots and requests. A refusal (insufficient balance, a
//! fill-or-kill that cannot fill, a post-only order that would take) takes back only that order's
//! hold ([`LedgerBatch::undo_to`]), and the engine refuses before it changes the book, so memory
//! and database stay equal.
//!
//! [`LedgerBatch::undo_to`]: crate::funds::ledger::batch::LedgerBatch::undo_to

use matching::{Event, OrderKind, OrderRequest, RejectReason, StopCondition};
use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, EntityTrait, QueryFilter};

use super::super::rules::PairRules;
use super::super::settle;
use super::super::views::{OrderSide, OrderStatus, SpotOrder, TimeInForce};
use super::batch::Stop;
use super::open_orders::OpenOrder;
use super::outbox::Outbox;
use super::{Answer, OrderSpec, SpotEngine, Submit};
use crate::clock::now_ms;
use crate::db::WriterTransaction;
use crate::entity::spot_order;
use crate::funds::ledger::LedgerError;
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

impl SpotEngine {
    /// Runs a user's new order in the batch. A refused order gets its hold back and the refusal
    /// as its answer; only an error that ends the batch is returned.
    pub(super) async fn submit(
        &mut self,
        txn: &WriterTransaction<'_>,
        submit: Submit,
        outbox: &mut Outbox,
    ) -> Result<(), String> {
        let mark = outbox.ledger.mark();
        let result = self.try_submit(txn, &submit, outbox).await;
        match result {
            Ok(answer) => {
                outbox.submits.push((submit.reply, Ok(answer)));
                Ok(())
            }
            Err(Stop::Refused(error)) => {
                outbox.ledger.undo_to(mark);
                outbox.submits.push((submit.reply, Err(error)));
                Ok(())
            }
            Err(Stop::Fatal(cause)) => Err(cause),
        }
    }

    /// The new order's hold, its placing in the book and what followed, and its answer; or why it
    /// is refused, before the book changed.
    async fn try_submit(
        &mut self,
        txn: &WriterTransaction<'_>,
        submit: &Submit,
        outbox: &mut Outbox,
    ) -> Result<Answer, Stop> {
        if let Some(idempotency) = &submit.idempotency {
            // Stored before this batch, or claimed by an earlier order of it.
            let seen = outbox
                .stored_keys
                .get(&(idempotency.user_id, idempotency.key.clone()));
            if let Some((request_hash, response)) = seen {
                if *request_hash != idempotency.request_hash {
                    return Err(Stop::Refused(crate::funds::service::ledger_error(
                        LedgerError::KeyReused,
                        "quantity",
                    )));
                }
                return Ok(Answer::Replayed(response.clone()));
            }
        }
        let rules = self.rules.clone();
        let user_id = submit.user_id;
        let side = engine_side(submit.side);
        // What the order may spend, held before it reaches the book.
        let (frozen_coin, fee_coin) = match submit.side {
            OrderSide::Buy => (&rules.quote, &rules.base),
            OrderSide::Sell => (&rules.base, &rules.quote),
        };
        let (kind, hold, stop) = match &submit.spec {
            OrderSpec::Limit { price, quantity } => (
                OrderKind::Limit {
                    price: ticks(&rules, *price)?,
                    quantity: lots(&rules, *quantity)?,
                },
                hold_of(submit.side, *price, *quantity),
                None,
            ),
            OrderSpec::StopLimit {
                trigger,
                price,
                quantity,
            } => (
                OrderKind::Limit {
                    price: ticks(&rules, *price)?,
                    quantity: lots(&rules, *quantity)?,
                },
                hold_of(submit.side, *price, *quantity),
                Some(ticks(&rules, *trigger)?),
            ),
            OrderSpec::Market { quantity } => {
                let wanted = lots(&rules, *quantity)?;
                let (executable, cost) = self.book.cost_to_take(side, wanted, None, user_id);
                if executable == 0 {
                    return Err(Stop::Refused(refusal(Msg::NoLiquidity, "quantity")));
                }
                let hold = match submit.side {
                    OrderSide::Buy => rules.amount(cost),
                    OrderSide::Sell => *quantity,
                };
                (OrderKind::Market { quantity: wanted }, hold, None)
            }
            OrderSpec::MarketFunds { amount } => {
                let funds = rules.notional_units(*amount);
                if funds == 0 || self.book.cost_to_take(side, 1, None, user_id).0 == 0 {
                    return Err(Stop::Refused(refusal(Msg::NoLiquidity, "quoteAmount")));
                }
                (OrderKind::MarketFunds { funds }, *amount, None)
            }
        };
        let now = now_ms();
        let (price, quantity, quote_amount, trigger) = match &submit.spec {
            OrderSpec::Limit { price, quantity } => (Some(*price), Some(*quantity), None, None),
            OrderSpec::StopLimit {
                trigger,
                price,
                quantity,
            } => (Some(*price), Some(*quantity), None, Some(*trigger)),
            OrderSpec::Market { quantity } => (None, Some(*quantity), None, None),
            OrderSpec::MarketFunds { amount } => (None, None, Some(*amount), None),
        };
        // A trigger above the last price waits for the price to rise to it, one below for it to
        // fall (the engine's last trade, else the reference market's).
        let condition = trigger.map(|trigger| {
            let last = self
                .book
                .last_price()
                .map(|p| rules.price(p))
                .or_else(|| self.context.hub.ticker(&rules.symbol).map(|t| t.close));
            if last.is_some_and(|last| trigger >= last) {
                "above"
            } else {
                "below"
            }
        });
        let text = |value: Option<Decimal>| value.map(|v| v.normalize().to_string());
        let Some(&id) = outbox.order_ids.front() else {
            return Err(Stop::Fatal("no order id was reserved".into()));
        };
        let row = spot_order::Model {
            id,
            user_id,
            symbol: rules.symbol.clone(),
            side: submit.side.as_str().to_owned(),
            order_type: match submit.spec {
                OrderSpec::Limit { .. } => "limit",
                OrderSpec::StopLimit { .. } => "stop_limit",
                _ => "market",
            }
            .to_owned(),
            time_in_force: submit.time_in_force.as_str().to_owned(),
            post_only: submit.post_only,
            price: text(price),
            quantity: text(quantity),
            quote_amount: text(quote_amount),
            trigger_price: text(trigger),
            trigger_condition: condition.map(str::to_owned),
            filled_quantity: "0".into(),
            filled_amount: "0".into(),
            fee: "0".into(),
            fee_coin: fee_coin.clone(),
            frozen_coin: frozen_coin.clone(),
            frozen_remaining: hold.normalize().to_string(),
            status: OrderStatus::WaitDeal.as_str().to_owned(),
            cancel_reason: None,
            created_at: now,
            updated_at: now,
        };
        let held_for = settle::HeldFor {
            user_id,
            order_id: id,
            symbol: &rules.symbol,
        };
        let freeze = settle::freeze(held_for, frozen_coin, hold);
        match outbox.ledger.post(txn, &freeze).await {
            Ok(_) => {}
            Err(LedgerError::InsufficientBalance { available, .. }) => {
                let field = if quote_amount.is_some() {
                    "quoteAmount"
                } else {
                    "quantity"
                };
                return Err(Stop::Refused(Refusal::rule(
                    field,
                    &wasm_core::validate::Violation::InsufficientBalance {
                        available: available.normalize(),
                    },
                )));
            }
            Err(error) => return Err(error.into()),
        }
        let request = OrderRequest {
            id: u64::try_from(id).map_err(|e| Stop::Fatal(e.to_string()))?,
            owner: user_id,
            side,
            kind,
            time_in_force: engine_tif(submit.time_in_force),
            post_only: submit.post_only,
        };
        self.events.clear();
        match (stop, condition) {
            (Some(trigger), Some(condition)) => self.book.place_stop(
                matching::StopRequest {
                    order: request,
                    trigger,
                    condition: if condition == "above" {
                        StopCondition::AtOrAbove
                    } else {
                        StopCondition::AtOrBelow
                    },
                },
                &mut self.events,
            ),
            _ => self.book.place(request, &mut self.events),
        }
        if let Some(Event::Rejected { reason, .. }) = self.events.first() {
            let (msg, field) = match reason {
                RejectReason::FokUnfillable => (Msg::FokUnfillable, "timeInForce"),
                RejectReason::PostOnlyWouldTake => (Msg::PostOnlyWouldTake, "postOnly"),
                other => {
                    return Err(Stop::Fatal(format!(
                        "the engine refused order {id}: {other:?}"
                    )));
                }
            };
            return Err(Stop::Refused(refusal(msg, field)));
        }
        // The id is the order's from here on, whatever the engine did with it.
        outbox.order_ids.pop_front();
        outbox.opened.push((id, user_id));
        self.open.insert(id, OpenOrder::of(row));
        outbox.touched.insert(id);
        let events = std::mem::take(&mut self.events);
        self.apply(txn, &events, outbox).await?;
        self.events = events;
        let order = self.view(id, now)?;
        if let Some(idempotency) = &submit.idempotency {
            let response = crate::funds::api::stored(&order);
            outbox.stored_keys.insert(
                (idempotency.user_id, idempotency.key.clone()),
                (idempotency.request_hash.clone(), response.clone()),
            );
            outbox.new_keys.push((idempotency.clone(), response));
        }
        Ok(Answer::Order(Box::new(order)))
    }

    /// The order as it stands now (open, or just finished and written).
    fn view(&mut self, id: i64, now: i64) -> Result<SpotOrder, Stop> {
        if let Some(order) = self.open.get_mut(&id) {
            return Ok(SpotOrder::from(order.synced(now)));
        }
        match self.finished.get(&id) {
            Some(row) => Ok(SpotOrder::from(row)),
            None => Err(Stop::Fatal(format!("order {id} vanished"))),
        }
    }

    /// Takes a user's open order out of the book and releases its hold; an order that is not open,
    /// or not theirs, is refused.
    pub(super) async fn cancel(
        &mut self,
        txn: &WriterTransaction<'_>,
        user_id: i64,
        order_id: i64,
        outbox: &mut Outbox,
    ) -> Result<SpotOrder, Stop> {
        match self.open.get(&order_id) {
            Some(order) if order.row.user_id == user_id => {}
            _ => {
                let finished = txn
                    .find(
                        spot_order::Entity::find_by_id(order_id)
                            .filter(spot_order::Column::UserId.eq(user_id)),
                    )
                    .await?;
                let msg = if !finished.is_empty() {
                    Msg::OrderNotOpen
                } else {
                    Msg::OrderNotFound
                };
                return Err(Stop::Refused(refusal(msg, "id")));
            }
        }
        let engine_id = u64::try_from(order_id).map_err(|e| Stop::Fatal(e.to_string()))?;
        let Some(event) = self.book.cancel(engine_id) else {
            return Err(Stop::Fatal(format!(
                "open order {order_id} is not in the book"
            )));
        };
        self.apply(txn, &[event], outbox).await?;
        self.view(order_id, now_ms())
    }

    /// The GTC limit request that puts `order`'s remaining quantity back in the book.
    pub(super) fn resting_request(&self, order: &OpenOrder) -> Option<OrderRequest> {
        let parse = |text: &Option<String>| {
            text.as_deref()
                .and_then(|t| wasm_core::money::parse_decimal(t).ok())
        };
        let price = self.rules.ticks(parse(&order.row.price)?)?;
        let remaining = parse(&order.row.quantity)? - order.filled_quantity;
        let quantity = self.rules.lots(remaining)?;
        Some(OrderRequest {
            id: u64::try_from(order.row.id).ok()?,
            owner: order.row.user_id,
            side: engine_side(order.side()),
            kind: OrderKind::Limit { price, quantity },
            time_in_force: matching::TimeInForce::Gtc,
            post_only: false,
        })
    }
}

fn engine_side(side: OrderSide) -> matching::Side {
    match side {
        OrderSide::Buy => matching::Side::Buy,
        OrderSide::Sell => matching::Side::Sell,
    }
}

fn engine_tif(tif: TimeInForce) -> matching::TimeInForce {
    match tif {
        TimeInForce::Gtc => matching::TimeInForce::Gtc,
        TimeInForce::Ioc => matching::TimeInForce::Ioc,
        TimeInForce::Fok => matching::TimeInForce::Fok,
    }
}

/// What an order holds: the quote cost of a buy, the base quantity of a sell.
fn hold_of(side: OrderSide, price: Decimal, quantity: Decimal) -> Decimal {
    match side {
        OrderSide::Buy => price * quantity,
        OrderSide::Sell => quantity,
    }
}

fn ticks(rules: &PairRules, price: Decimal) -> Result<u64, Stop> {
    rules
        .ticks(price)
        .ok_or_else(|| Stop::Refused(refusal(Msg::InvalidField, "price")))
}

fn lots(rules: &PairRules, quantity: Decimal) -> Result<u64, Stop> {
    rules
        .lots(quantity)
        .ok_or_else(|| Stop::Refused(refusal(Msg::InvalidField, "quantity")))
}

fn refusal(msg: Msg, field: &str) -> Refusal {
    Refusal::new(RefusalKind::Invalid, msg).with_field(field)
}
