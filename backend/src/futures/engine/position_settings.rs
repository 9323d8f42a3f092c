//! What the user sets of the position and of new orders: margin added to or removed from an
//! isolated position (as wasm-core's margin adjustment says), and the leverage and margin mode of
//! new orders (the mode only while the user has nothing open in the symbol).

use std::collections::HashMap;

use rust_decimal::Decimal;
use sea_orm::{ActiveModelTrait, ActiveValue::Set, ColumnTrait, EntityTrait, NotSet, QueryFilter};
use wasm_core::margin::{MarginAdjustmentInput, MarginDirection, MarginMode, margin_adjustment};
use wasm_core::validate::Violation;

use super::Engine;
use super::command::{Answer, bad};
use super::state::{Effect, Setting};
use super::store::{begin, ledger_api_error, refused, text, transact, write_position};
use crate::clock::now_ms;
use crate::entity::futures_setting;
use crate::funds::ledger::{self, Idempotency, LedgerError};
use crate::futures::position::{CrossContext, Position};
use crate::futures::settle::{self, Legs, USDT};
use crate::futures::views::{FuturesPosition, FuturesSetting, mode_str};
use crate::i18n::Msg;
use crate::refusal::Refusal;

impl Engine {
    /// Adds margin to or removes margin from the user's isolated position.
    pub(super) async fn adjust_margin(
        &mut self,
        user_id: i64,
        direction: MarginDirection,
        change: Decimal,
        idempotency: Option<&Idempotency>,
    ) -> Result<Answer<FuturesPosition>, Refusal> {
        let Some(position) = self.positions.get(&user_id).cloned() else {
            return Err(bad(Msg::NoOpenPosition, "symbol"));
        };
        if position.mode != MarginMode::Isolated {
            return Err(bad(Msg::NotIsolatedMargin, "symbol"));
        }
        let mark = self.mark_price()?;
        let symbol = self.rules.symbol.clone();
        let now = now_ms();
        let shared = self.shared.clone();
        let outcome = transact!(
            shared,
            idempotency,
            |done: &(Position, Decimal, FuturesPosition)| serde_json::to_string(&done.2)
                .unwrap_or_default(),
            |txn| {
                let wallet = ledger::balance(&txn, settle::trading(user_id), USDT).await?;
                let available = self.available(user_id, wallet);
                let adjustment = margin_adjustment(&MarginAdjustmentInput {
                    position: position.core(CrossContext::default()),
                    mark_price: mark,
                    direction,
                    amount: change,
                    available_balance: Some(available),
                    tiers: self.rules.tier_rows(),
                    tick_size: Some(self.rules.tick),
                })
                .map_err(|e| refused(Refusal::internal(format!("{e:?}"))))?;
                if adjustment.exceeds_limit {
                    return Err(refused(match direction {
                        MarginDirection::Add => Refusal::rule(
                            "amount",
                            &Violation::InsufficientBalance {
                                available: available.normalize(),
                            },
                        ),
                        MarginDirection::Remove => Refusal::rule(
                            "amount",
                            &Violation::AboveMaximum {
                                max: adjustment.max_removable,
                            },
                        ),
                    }));
                }
                let mut legs = Legs::new();
                let (t, m) = (settle::trading(user_id), settle::margin(user_id));
                match direction {
                    MarginDirection::Add => legs.transfer(t, m, change),
                    MarginDirection::Remove => legs.transfer(m, t, change),
                };
                let posted = ledger::post_within(
                    &txn,
                    &legs.entry(
                        "futures_margin",
                        format!("futures_position:{}", position.id),
                        user_id,
                        crate::funds::bill_detail::margin_memo(&symbol, &format!("{direction:?}")),
                    ),
                )
                .await?;
                let wallet_after = posted
                    .balances
                    .get(&(t, USDT.into()))
                    .copied()
                    .unwrap_or(wallet);
                let mut next = position.clone();
                next.margin = adjustment.wallet_balance;
                next.liquidation_price = adjustment.liquidation_price;
                write_position(
                    &txn,
                    &symbol,
                    &next,
                    "open",
                    Decimal::ZERO,
                    Decimal::ZERO,
                    now,
                )
                .await?;
                let view = self.view(&next, wallet_after);
                Ok::<_, LedgerError>((next, wallet_after, view))
            }
        )
        .map_err(|e| crate::funds::service::ledger_error(e, "amount"))?;
        Ok(match outcome {
            Answer::Done((next, wallet, view)) => {
                self.apply(
                    Effect {
                        positions: vec![(user_id, Some(next))],
                        ..Effect::default()
                    },
                    &HashMap::from([(user_id, wallet)]),
                );
                Answer::Done(view)
            }
            Answer::Replayed(first) => Answer::Replayed(first),
        })
    }

    /// Sets the leverage and/or margin mode of the user's new orders.
    pub(super) async fn set_leverage(
        &mut self,
        user_id: i64,
        leverage: Option<Decimal>,
        mode: Option<MarginMode>,
    ) -> Result<FuturesSetting, Refusal> {
        let current = self.setting(user_id);
        let next = Setting {
            leverage: leverage.unwrap_or(current.leverage),
            mode: mode.unwrap_or(current.mode),
        };
        let max = self.rules.max_leverage();
        if next.leverage > max {
            return Err(Refusal::rule("leverage", &Violation::AboveMaximum { max }));
        }
        if next.leverage < Decimal::ONE || !next.leverage.fract().is_zero() {
            return Err(Refusal::rule(
                "leverage",
                &Violation::BelowMinimum { min: Decimal::ONE },
            ));
        }
        let busy = self.positions.contains_key(&user_id)
            || self.orders.values().any(|o| o.row.user_id == user_id);
        if next.mode != current.mode && busy {
            return Err(bad(Msg::MarginModeLocked, "marginMode"));
        }
        let symbol = self.rules.symbol.clone();
        let now = now_ms();
        let txn = begin(&self.shared).await.map_err(ledger_api_error)?;
        let existing = futures_setting::Entity::find()
            .filter(futures_setting::Column::UserId.eq(user_id))
            .filter(futures_setting::Column::Symbol.eq(&symbol))
            .one(&txn)
            .await?;
        let mut row = futures_setting::ActiveModel {
            id: NotSet,
            user_id: Set(user_id),
            symbol: Set(symbol),
            leverage: Set(text(next.leverage)),
            margin_mode: Set(mode_str(next.mode).into()),
            updated_at: Set(now),
        };
        match existing {
            Some(found) => {
                row.id = Set(found.id);
                row.update(&txn).await?;
            }
            None => {
                row.insert(&txn).await?;
            }
        }
        txn.commit().await?;
        self.settings.insert(user_id, next);
        Ok(self.setting_view(user_id))
    }
}
