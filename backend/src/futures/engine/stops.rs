//! What the user sets to close the position later on the mark: its take-profit and stop-loss
//! prices, and stop orders (placed and cancelled). What fires them is in `triggers.rs`.

use std::collections::HashMap;

use rust_decimal::Decimal;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, NotSet};
use wasm_core::margin::Side;

use super::Engine;
use super::command::{Answer, StopSpec, bad};
use super::state::Effect;
use super::store::{ledger_api_error, opt_text, text, transact, write_position};
use crate::clock::now_ms;
use crate::entity::{futures_position, futures_stop};
use crate::funds::ledger::{Idempotency, LedgerError};
use crate::futures::views::{FuturesPosition, FuturesStopOrder, side_str};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

impl Engine {
    /// Sets (or clears, with `None`) the take-profit and stop-loss prices of the user's position;
    /// each price set must be on its side of the mark (clearing both needs no mark).
    pub(super) async fn set_tp_sl(
        &mut self,
        user_id: i64,
        take_profit: Option<Decimal>,
        stop_loss: Option<Decimal>,
    ) -> Result<FuturesPosition, Refusal> {
        let Some(mut position) = self.positions.get(&user_id).cloned() else {
            return Err(bad(Msg::NoOpenPosition, "symbol"));
        };
        if take_profit.is_some() || stop_loss.is_some() {
            let mark = self.mark_price()?;
            let long = position.side == Side::Long;
            if let Some(tp) = take_profit
                && (tp <= Decimal::ZERO || (long && tp <= mark) || (!long && tp >= mark))
            {
                return Err(bad(Msg::TakeProfitWrongSide, "takeProfitPrice")
                    .with_param("mark", mark.normalize().to_string()));
            }
            if let Some(sl) = stop_loss
                && (sl <= Decimal::ZERO || (long && sl >= mark) || (!long && sl <= mark))
            {
                return Err(bad(Msg::StopLossWrongSide, "stopLossPrice")
                    .with_param("mark", mark.normalize().to_string()));
            }
        }
        position.take_profit = take_profit;
        position.stop_loss = stop_loss;
        let symbol = self.rules.symbol.clone();
        let now = now_ms();
        let none: Option<&Idempotency> = None;
        let shared = self.shared.clone();
        transact!(
            shared,
            none,
            |_: &futures_position::Model| String::new(),
            |txn| {
                write_position(
                    &txn,
                    &symbol,
                    &position,
                    "open",
                    Decimal::ZERO,
                    Decimal::ZERO,
                    now,
                )
                .await
                .map_err(LedgerError::from)
            }
        )
        .map_err(ledger_api_error)?;
        let wallets = self.wallets(&[user_id]).await?;
        self.apply(
            Effect {
                positions: vec![(user_id, Some(position.clone()))],
                ..Effect::default()
            },
            &wallets,
        );
        let wallet = wallets.get(&user_id).copied().unwrap_or_default();
        Ok(self.view(&self.positions[&user_id], wallet))
    }

    /// Places a stop order on the user's position, firing when the mark reaches its trigger from
    /// where it is now.
    pub(super) async fn set_stop(
        &mut self,
        user_id: i64,
        spec: StopSpec,
        idempotency: Option<&Idempotency>,
    ) -> Result<Answer<FuturesStopOrder>, Refusal> {
        let Some(position) = self.positions.get(&user_id).cloned() else {
            return Err(bad(Msg::NoOpenPosition, "symbol"));
        };
        let side = spec.position_side.unwrap_or(position.side);
        if side != position.side {
            return Err(bad(Msg::NoOpenPosition, "positionSide"));
        }
        let mark = self.mark_price()?;
        let direction = if spec.trigger_price > mark {
            "above"
        } else if spec.trigger_price < mark {
            "below"
        } else {
            return Err(bad(Msg::StopTriggerAtMark, "triggerPrice"));
        };
        let now = now_ms();
        let symbol = self.rules.symbol.clone();
        let shared = self.shared.clone();
        let outcome = transact!(
            shared,
            idempotency,
            |row: &futures_stop::Model| serde_json::to_string(&FuturesStopOrder::from(row))
                .unwrap_or_default(),
            |txn| {
                futures_stop::ActiveModel {
                    id: NotSet,
                    user_id: Set(user_id),
                    symbol: Set(symbol.clone()),
                    position_side: Set(side_str(side).into()),
                    trigger_price: Set(text(spec.trigger_price)),
                    direction: Set(direction.into()),
                    quantity: Set(opt_text(spec.quantity)),
                    status: Set("waiting".into()),
                    order_id: Set(None),
                    created_at: Set(now),
                    updated_at: Set(now),
                }
                .insert(&txn)
                .await
                .map_err(LedgerError::from)
            }
        )
        .map_err(ledger_api_error)?;
        Ok(match outcome {
            Answer::Done(row) => {
                let view = FuturesStopOrder::from(&row);
                self.apply(
                    Effect {
                        stops: vec![row],
                        ..Effect::default()
                    },
                    &HashMap::new(),
                );
                Answer::Done(view)
            }
            Answer::Replayed(first) => Answer::Replayed(first),
        })
    }

    /// Cancels the user's waiting stop order `stop_id`.
    pub(super) async fn cancel_stop(
        &mut self,
        user_id: i64,
        stop_id: i64,
    ) -> Result<FuturesStopOrder, Refusal> {
        let Some(stop) = self
            .stops
            .get(&stop_id)
            .filter(|s| s.user_id == user_id)
            .cloned()
        else {
            return Err(Refusal::new(RefusalKind::NotFound, Msg::OrderNotFound));
        };
        let now = now_ms();
        let shared = self.shared.clone();
        let none: Option<&Idempotency> = None;
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
        match outcome {
            Answer::Done(row) => {
                let view = FuturesStopOrder::from(&row);
                self.apply(
                    Effect {
                        stops: vec![row],
                        ..Effect::default()
                    },
                    &HashMap::new(),
                );
                Ok(view)
            }
            Answer::Replayed(_) => Err(Refusal::internal("no key, no replay")),
        }
    }
}
