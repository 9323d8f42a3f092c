//! The engine's memory and its trigger index: the resting orders, settings and the effect of a
//! committed change, which [`Engine::apply`] brings into memory and publishes to the users; and
//! where each position's liquidation, take-profit and stop-loss prices, each resting order and each
//! stop order sit in the index a mark tick queries ([`Engine::place`]).

use std::collections::HashMap;

use rust_decimal::Decimal;
use wasm_core::margin::{MarginMode, Side};

use super::Engine;
use super::command::Target;
use super::store::{dec, open_order};
use crate::entity::{futures_order, futures_position, futures_stop};
use crate::futures::index::Direction;
use crate::futures::position::Position;
use crate::futures::registry::CrossFigures;
use crate::futures::views::{self, FuturesOrder, FuturesStopOrder, OrderSide};

/// A resting limit order.
#[derive(Debug, Clone)]
pub(super) struct OpenOrder {
    pub(super) row: futures_order::Model,
    pub(super) side: OrderSide,
    pub(super) price: Decimal,
    pub(super) remaining: Decimal,
    pub(super) hold: Decimal,
    pub(super) leverage: Decimal,
    pub(super) mode: MarginMode,
}

/// A user's leverage and mode.
#[derive(Debug, Clone, Copy)]
pub(super) struct Setting {
    pub(super) leverage: Decimal,
    pub(super) mode: MarginMode,
}

/// What a committed change does to the engine's memory.
#[derive(Debug, Default)]
pub(super) struct Effect {
    /// Users whose position changed: the position now (`None`: flat).
    pub(super) positions: Vec<(i64, Option<Position>)>,
    /// Orders written: open ones are (re)placed, others leave the book.
    pub(super) orders: Vec<futures_order::Model>,
    /// Holds of orders (by id) after the change.
    pub(super) holds: Vec<(i64, Decimal)>,
    /// Stop orders written.
    pub(super) stops: Vec<futures_stop::Model>,
    /// Closed or liquidated position rows (published as such).
    pub(super) closed: Vec<futures_position::Model>,
}

impl Engine {
    /// (Re)places the user's position in the index and the cross registry; `wallet` is the
    /// trading wallet (used by a cross position).
    pub(super) fn place(&mut self, user_id: i64, wallet: Decimal) {
        let Some(position) = self.positions.get(&user_id).cloned() else {
            self.triggers.remove(Target::Liquidation(user_id));
            self.triggers.remove(Target::TakeProfit(user_id));
            self.triggers.remove(Target::StopLoss(user_id));
            self.shared.set_cross(user_id, &self.rules.symbol, None);
            return;
        };
        let cross = position.mode == MarginMode::Cross;
        if cross {
            let mark = self.mark.map_or(position.entry_price, |m| m.mark);
            self.shared.set_cross(
                user_id,
                &self.rules.symbol,
                Some(CrossFigures {
                    initial: position.initial_margin(),
                    maintenance: position.maintenance_at(&self.rules, mark),
                    unrealised: position.pnl_at(mark),
                }),
            );
        }
        let liquidation = if cross {
            position
                .liquidation_price(&self.rules, self.cross_context(user_id, wallet))
                .ok()
                .flatten()
        } else {
            position.liquidation_price
        };
        let side = position.side;
        self.triggers.set(
            Target::Liquidation(user_id),
            liquidation_direction(side),
            liquidation,
        );
        self.triggers.set(
            Target::TakeProfit(user_id),
            take_profit_direction(side),
            position.take_profit,
        );
        self.triggers.set(
            Target::StopLoss(user_id),
            liquidation_direction(side),
            position.stop_loss,
        );
        if let Some(p) = self.positions.get_mut(&user_id)
            && cross
        {
            p.liquidation_price = liquidation;
        }
    }

    /// Applies a committed change to memory and tells the users.
    pub(super) fn apply(&mut self, effect: Effect, wallets: &HashMap<i64, Decimal>) {
        for (id, hold) in &effect.holds {
            if let Some(order) = self.orders.get_mut(id) {
                order.hold = *hold;
            }
        }
        for row in &effect.orders {
            let open = row.status == "waitDeal" || row.status == "partDeal";
            if open && row.order_type == "limit" {
                if let Some(order) = open_order(row) {
                    self.triggers.set(
                        Target::Limit(row.id),
                        limit_direction(order.side),
                        Some(order.price),
                    );
                    self.orders.insert(row.id, order);
                }
            } else {
                self.orders.remove(&row.id);
                self.triggers.remove(Target::Limit(row.id));
            }
            self.shared
                .publish(row.user_id, "futuresOrder", &FuturesOrder::from(row));
        }
        for row in &effect.stops {
            if row.status == "waiting" {
                self.triggers.set(
                    Target::Stop(row.id),
                    stop_direction(&row.direction),
                    Some(dec(&row.trigger_price)),
                );
                self.stops.insert(row.id, row.clone());
            } else {
                self.stops.remove(&row.id);
                self.triggers.remove(Target::Stop(row.id));
            }
            self.shared
                .publish(row.user_id, "futuresStop", &FuturesStopOrder::from(row));
        }
        for row in &effect.closed {
            self.shared
                .publish(row.user_id, "POSITION", &views::closed_view(row));
        }
        for (user_id, position) in effect.positions {
            match position {
                Some(position) => {
                    self.positions.insert(user_id, position);
                }
                None => {
                    self.positions.remove(&user_id);
                }
            }
            let wallet = wallets.get(&user_id).copied().unwrap_or_default();
            self.place(user_id, wallet);
            if let Some(position) = self.positions.get(&user_id) {
                let view = self.view(position, wallet);
                self.shared.publish(user_id, "POSITION", &view);
            }
        }
    }
}

/// The index direction of the liquidation price (and the stop loss) of a position on `side`.
pub(super) fn liquidation_direction(side: Side) -> Direction {
    match side {
        Side::Long => Direction::Below,
        Side::Short => Direction::Above,
    }
}

/// The index direction of a take profit of a position on `side`.
pub(super) fn take_profit_direction(side: Side) -> Direction {
    match side {
        Side::Long => Direction::Above,
        Side::Short => Direction::Below,
    }
}

/// The index direction of a resting limit order on `side`.
pub(super) fn limit_direction(side: OrderSide) -> Direction {
    match side {
        OrderSide::Buy => Direction::Below,
        OrderSide::Sell => Direction::Above,
    }
}

/// The index direction of a stop order stored with `text` (`above` or `below`).
pub(super) fn stop_direction(text: &str) -> Direction {
    if text == "above" {
        Direction::Above
    } else {
        Direction::Below
    }
}
