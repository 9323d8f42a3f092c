//! The user's orders: a new order (a market order, or a limit order the ladder fills whole within
//! its price, executes at once as a taker; another limit order rests with the margin and taker fee
//! of what it would open held), and the cancellation of a resting order with its hold released.

use std::collections::HashMap;

use rust_decimal::Decimal;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, DatabaseTransaction, NotSet};
use wasm_core::margin::{MarginMode, MaxOpenSizeInput, max_open_size};
use wasm_core::validate::Violation;

use super::Engine;
use super::command::{Answer, OrderSpec, bad};
use super::fill::Fill;
use super::state::Effect;
use super::store::{cancel_in, ledger_api_error, opt_text, refused, text, transact};
use crate::clock::now_ms;
use crate::entity::futures_order;
use crate::funds::ledger::{self, Idempotency, LedgerError};
use crate::futures::position::{Position, amount, reducing_part};
use crate::futures::settle::{self, Legs, USDT};
use crate::futures::views::{FuturesOrder, FuturesOrderType, mode_str};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

impl Engine {
    /// Places `spec` for `user_id`: checked against the position, the leverage tiers and the
    /// balance, then filled at once or left resting.
    pub(super) async fn submit(
        &mut self,
        user_id: i64,
        spec: OrderSpec,
        idempotency: Option<&Idempotency>,
    ) -> Result<Answer<FuturesOrder>, Refusal> {
        let rules = self.rules.clone();
        let position = self.positions.get(&user_id).cloned();
        let setting = self.setting(user_id);
        let direction = spec.side.direction();
        let (leverage, mode) = match &position {
            Some(p) => {
                if spec.mode.is_some_and(|m| m != p.mode) {
                    return Err(bad(Msg::MarginModeLocked, "marginMode"));
                }
                (p.leverage, p.mode)
            }
            None => (
                spec.leverage.unwrap_or(setting.leverage),
                spec.mode.unwrap_or(setting.mode),
            ),
        };
        let reduce_only = spec.reduce_only || spec.close_position;
        let mut quantity = if spec.close_position {
            match &position {
                Some(p) if p.side != direction => p.size,
                _ => return Err(bad(Msg::ReduceOnlyRejected, "closePosition")),
            }
        } else {
            spec.quantity
                .ok_or_else(|| bad(Msg::MissingField, "quantity").with_param("field", "quantity"))?
        };
        if reduce_only {
            quantity = reducing_part(position.as_ref(), direction, quantity);
            if quantity.is_zero() {
                return Err(bad(Msg::ReduceOnlyRejected, "reduceOnly"));
            }
        }
        self.mark_price()?;
        // What a market order fills now, and the price every check uses.
        let (fill_quantity, exec_price) = match spec.order_type {
            FuturesOrderType::Market => {
                let (filled, value) = self.walk(direction, quantity, None);
                if filled.is_zero() {
                    return Err(Refusal::new(RefusalKind::Invalid, Msg::NoLiquidity));
                }
                (filled, value / filled)
            }
            FuturesOrderType::Limit => {
                let limit = spec
                    .price
                    .ok_or_else(|| bad(Msg::MissingField, "price").with_param("field", "price"))?;
                // A limit order the ladder can fill whole within its price now executes at once
                // as a taker, at the ladder's prices (never worse than its limit), as on a venue
                // where it would meet the book; otherwise it rests until the mark reaches it.
                let (filled, value) = self.walk(direction, quantity, Some(limit));
                if !filled.is_zero() && filled == quantity {
                    (filled, value / filled)
                } else {
                    (Decimal::ZERO, limit)
                }
            }
        };
        let basis = if fill_quantity.is_zero() {
            quantity
        } else {
            fill_quantity
        };
        let reducing = reducing_part(position.as_ref(), direction, basis);
        let opening = basis - reducing;
        if opening > Decimal::ZERO {
            let max = rules.max_leverage();
            if leverage > max {
                return Err(Refusal::rule("leverage", &Violation::AboveMaximum { max }));
            }
            let same_side = position
                .as_ref()
                .filter(|p| p.side == direction)
                .map_or(Decimal::ZERO, |p| p.size);
            let allowed = rules.max_leverage_at((same_side + opening) * exec_price);
            if leverage > allowed {
                return Err(Refusal::rule(
                    "leverage",
                    &Violation::AboveMaximum { max: allowed },
                ));
            }
        }
        let now = now_ms();
        let shared = self.shared.clone();
        let outcome = transact!(
            shared,
            idempotency,
            |order: &(futures_order::Model, Effect, Decimal)| serde_json::to_string(
                &FuturesOrder::from(&order.0)
            )
            .unwrap_or_default(),
            |txn| {
                self.submit_in(
                    &txn,
                    user_id,
                    &spec,
                    &position,
                    (leverage, mode),
                    quantity,
                    fill_quantity,
                    exec_price,
                    opening,
                    now,
                )
                .await
            }
        )
        .map_err(ledger_api_error)?;
        Ok(match outcome {
            Answer::Done((row, effect, wallet)) => {
                let view = FuturesOrder::from(&row);
                self.apply(effect, &HashMap::from([(user_id, wallet)]));
                Answer::Done(view)
            }
            Answer::Replayed(first) => Answer::Replayed(first),
        })
    }

    #[allow(clippy::too_many_arguments)]
    async fn submit_in(
        &self,
        txn: &DatabaseTransaction,
        user_id: i64,
        spec: &OrderSpec,
        position: &Option<Position>,
        (leverage, mode): (Decimal, MarginMode),
        quantity: Decimal,
        fill_quantity: Decimal,
        exec_price: Decimal,
        opening: Decimal,
        now: i64,
    ) -> Result<(futures_order::Model, Effect, Decimal), LedgerError> {
        let rules = &self.rules;
        let wallet = ledger::balance(txn, settle::trading(user_id), USDT).await?;
        if opening > Decimal::ZERO {
            let available = self.available(user_id, wallet);
            let max = max_open_size(&MaxOpenSizeInput {
                price: exec_price,
                leverage,
                available_balance: available,
                taker_fee_rate: rules.taker_fee,
                step_size: rules.step,
                tiers: rules.tier_rows(),
            })
            .map_err(|e| refused(Refusal::internal(format!("{e:?}"))))?;
            if opening > max.size {
                // Nothing fits at all: the balance is the problem; otherwise the order is above
                // the largest size the balance opens (the figure the order form shows).
                return Err(refused(if max.size.is_zero() {
                    Refusal::rule(
                        "quantity",
                        &Violation::InsufficientBalance {
                            available: available.normalize(),
                        },
                    )
                } else {
                    Refusal::rule("quantity", &Violation::AboveMaximum { max: max.size })
                }));
            }
        }
        let market = spec.order_type == FuturesOrderType::Market;
        // A market order, or a limit order the ladder fills whole now (see `submit`).
        let immediate = !fill_quantity.is_zero();
        let mut row = futures_order::ActiveModel {
            id: NotSet,
            user_id: Set(user_id),
            symbol: Set(rules.symbol.clone()),
            side: Set(spec.side.as_str().into()),
            order_type: Set(spec.order_type.as_str().into()),
            source: Set("user".into()),
            price: Set(opt_text(spec.price.filter(|_| !market))),
            quantity: Set(text(quantity)),
            leverage: Set(text(leverage)),
            margin_mode: Set(mode_str(mode).into()),
            reduce_only: Set(spec.reduce_only || spec.close_position),
            close_position: Set(spec.close_position),
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
        .await?;
        let mut effect = Effect::default();
        if immediate {
            let fill = Fill {
                user_id,
                side: spec.side,
                quantity: fill_quantity,
                price: exec_price,
                leverage,
                mode,
                fee_rate: rules.taker_fee,
                released_hold: Decimal::ZERO,
            };
            let (wallet_after, change) = self
                .fill_in(txn, &mut row, position, &fill, &mut effect, now)
                .await?;
            if fill_quantity < quantity {
                row.status = "cancelled".into();
                row.cancel_reason = Some("no_liquidity".into());
                row = futures_order::ActiveModel::from(row)
                    .reset_all()
                    .update(txn)
                    .await?;
            }
            effect.positions.push((user_id, change));
            effect.orders.push(row.clone());
            return Ok((row, effect, wallet_after));
        }
        // A resting limit order holds the margin and taker fee of what it would open.
        let price = spec.price.unwrap_or_default();
        let hold = amount(opening * price / leverage + opening * price * rules.taker_fee);
        let mut wallet_after = wallet;
        if hold > Decimal::ZERO {
            let mut legs = Legs::new();
            legs.transfer(settle::trading(user_id), settle::margin(user_id), hold);
            let posted = ledger::post_within(
                txn,
                &legs.entry(
                    "futures_hold",
                    format!("futures_order:{}", row.id),
                    user_id,
                    crate::funds::bill_detail::hold_memo(&rules.symbol),
                ),
            )
            .await?;
            wallet_after = posted
                .balances
                .get(&(settle::trading(user_id), USDT.into()))
                .copied()
                .unwrap_or(wallet);
            row.hold_remaining = text(hold);
            row = futures_order::ActiveModel::from(row)
                .reset_all()
                .update(txn)
                .await?;
        }
        effect.orders.push(row.clone());
        Ok((row, effect, wallet_after))
    }

    /// Cancels the user's resting order `order_id`, releasing its hold.
    pub(super) async fn cancel(
        &mut self,
        user_id: i64,
        order_id: i64,
    ) -> Result<FuturesOrder, Refusal> {
        let Some(order) = self
            .orders
            .get(&order_id)
            .filter(|o| o.row.user_id == user_id)
            .cloned()
        else {
            return Err(Refusal::new(RefusalKind::NotFound, Msg::OrderNotFound));
        };
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
        let outcome = transact!(
            shared,
            none,
            |_: &(futures_order::Model, Decimal)| String::new(),
            |txn| cancel_in(&txn, &order, "user", now_ms()).await
        )
        .map_err(ledger_api_error)?;
        match outcome {
            Answer::Done((row, wallet)) => {
                let view = FuturesOrder::from(&row);
                self.apply(
                    Effect {
                        orders: vec![row],
                        ..Effect::default()
                    },
                    &HashMap::from([(user_id, wallet)]),
                );
                Ok(view)
            }
            Answer::Replayed(_) => Err(Refusal::internal("no key, no replay")),
        }
    }
}
