//! What the engine reads for a command or a trigger: a user's setting, the standing mark, the
//! trading wallets, and a position's figures (the cross context, the view, the balance available
//! to open with, the liquidation price).

use std::collections::HashMap;

use rust_decimal::Decimal;
use sea_orm::{ColumnTrait, DbErr, EntityTrait, QueryFilter};
use wasm_core::margin::MarginMode;

use super::Engine;
use super::command::DEFAULT_LEVERAGE;
use super::state::Setting;
use super::store::dec;
use crate::futures::position::{CrossContext, Position};
use crate::futures::registry::MarkPrice;
use crate::futures::settle::USDT;
use crate::futures::views::{FuturesPosition, FuturesSetting, position_view};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

impl Engine {
    /// The user's leverage and mode (the defaults for a user who never chose).
    pub(super) fn setting(&self, user_id: i64) -> Setting {
        self.settings.get(&user_id).copied().unwrap_or(Setting {
            leverage: DEFAULT_LEVERAGE.min(self.rules.max_leverage()),
            mode: MarginMode::Isolated,
        })
    }

    /// The user's setting as the calls show it.
    pub(super) fn setting_view(&self, user_id: i64) -> FuturesSetting {
        let setting = self.setting(user_id);
        FuturesSetting {
            symbol: self.rules.symbol.clone(),
            leverage: setting.leverage,
            margin_mode: setting.mode.into(),
            max_leverage: self.rules.max_leverage(),
        }
    }

    /// The mark this engine last acted on, or before its first tick the latest published.
    pub(super) fn standing_mark(&self) -> Option<MarkPrice> {
        self.mark
            .or_else(|| self.shared.prices.mark(&self.rules.symbol))
    }

    /// The standing mark price, or the refusal of a symbol without one yet.
    pub(super) fn mark_price(&self) -> Result<Decimal, Refusal> {
        self.standing_mark()
            .map(|m| m.mark)
            .ok_or_else(|| Refusal::new(RefusalKind::Invalid, Msg::NoLiquidity))
    }

    /// The trading wallets of `users` (USDT).
    pub(super) async fn wallets(&self, users: &[i64]) -> Result<HashMap<i64, Decimal>, DbErr> {
        use crate::entity::ledger_account;
        let mut wallets = HashMap::new();
        for chunk in users.chunks(500) {
            let owners: Vec<String> = chunk.iter().map(|u| format!("user:{u}")).collect();
            for row in ledger_account::Entity::find()
                .filter(ledger_account::Column::Owner.is_in(owners))
                .filter(ledger_account::Column::Bucket.eq("trading"))
                .filter(ledger_account::Column::Asset.eq(USDT))
                .all(&self.shared.db)
                .await?
            {
                if let Some(user_id) = row.user_id {
                    wallets.insert(user_id, dec(&row.balance));
                }
            }
        }
        Ok(wallets)
    }

    /// What a cross position of `user_id` counts besides itself: the wallet and the user's other
    /// symbols' figures.
    pub(super) fn cross_context(&self, user_id: i64, wallet: Decimal) -> CrossContext {
        let others = self.shared.cross_totals(user_id, Some(&self.rules.symbol));
        CrossContext {
            wallet,
            other_maintenance: others.maintenance,
            other_unrealised: others.unrealised,
        }
    }

    /// `position` as the calls and the user channel show it, at the last mark.
    pub(super) fn view(&self, position: &Position, wallet: Decimal) -> FuturesPosition {
        let mark = self.mark.map_or(position.entry_price, |m| m.mark);
        position_view(
            position,
            &self.rules.symbol,
            &self.rules,
            mark,
            self.cross_context(position.user_id, wallet),
        )
    }

    /// The balance available to open with: the wallet less what cross positions use of it and
    /// their unrealised loss.
    pub(super) fn available(&self, user_id: i64, wallet: Decimal) -> Decimal {
        let all = self.shared.cross_totals(user_id, None);
        (wallet - all.initial + all.unrealised.min(Decimal::ZERO)).max(Decimal::ZERO)
    }

    /// The liquidation price wasm-core gives `position` (cross: with `wallet` and the other
    /// symbols' figures).
    pub(super) fn liquidation_of(&self, position: &Position, wallet: Decimal) -> Option<Decimal> {
        position
            .liquidation_price(&self.rules, self.cross_context(position.user_id, wallet))
            .ok()
            .flatten()
    }
}
