//! What an engine is asked and how it answers: the commands the service and the registry send,
//! the order and stop-order specs they carry, the answer of a change asked with an idempotency key,
//! the targets a mark tick fires, and the refusal of a bad field.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;
use wasm_core::margin::{MarginDirection, MarginMode, Side};

use crate::funds::ledger::Idempotency;
use crate::futures::views::{
    FuturesOrder, FuturesOrderType, FuturesPosition, FuturesSetting, FuturesStopOrder, OrderSide,
};
use crate::i18n::Msg;
use crate::refusal::{Refusal, RefusalKind};

/// Leverage of a user who never chose one.
pub const DEFAULT_LEVERAGE: Decimal = Decimal::from_parts(10, 0, 0, false, 0);

/// A reply channel.
pub type Reply<T> = oneshot::Sender<Result<T, Refusal>>;

/// A change asked with an idempotency key: done now, or the first answer of the same request.
#[derive(Debug, Serialize, Deserialize)]
pub enum Answer<T> {
    /// Done now.
    Done(T),
    /// The key was used for the same request before: its stored answer (JSON).
    Replayed(String),
}

/// A new order, checked for shape by the service.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct OrderSpec {
    /// Buy or sell.
    pub side: OrderSide,
    /// Market or limit.
    pub order_type: FuturesOrderType,
    /// Limit price.
    pub price: Option<Decimal>,
    /// Quantity (none with `close_position`).
    pub quantity: Option<Decimal>,
    /// Leverage of what the order opens (the user's setting when none).
    pub leverage: Option<Decimal>,
    /// Margin mode of what the order opens (the user's setting when none).
    pub mode: Option<MarginMode>,
    /// Only reduce the position.
    pub reduce_only: bool,
    /// Close the whole position.
    pub close_position: bool,
}

/// A stop order to place.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct StopSpec {
    /// The side of the position it closes (the open position's when none).
    pub position_side: Option<Side>,
    /// Trigger (mark price).
    pub trigger_price: Decimal,
    /// Quantity to close (the whole position when none).
    pub quantity: Option<Decimal>,
}

/// What an engine is asked to do.
pub enum Command {
    /// Place an order.
    Submit {
        /// The user.
        user_id: i64,
        /// The order.
        spec: OrderSpec,
        /// The caller's key.
        idempotency: Option<Idempotency>,
        /// The answer.
        reply: Reply<Answer<FuturesOrder>>,
    },
    /// Cancel a resting order.
    Cancel {
        /// The user.
        user_id: i64,
        /// The order.
        order_id: i64,
        /// The answer.
        reply: Reply<FuturesOrder>,
    },
    /// Set (or clear, with `None`) the take-profit and stop-loss prices of the user's position.
    SetTpSl {
        /// The user.
        user_id: i64,
        /// Take-profit trigger.
        take_profit: Option<Decimal>,
        /// Stop-loss trigger.
        stop_loss: Option<Decimal>,
        /// The answer.
        reply: Reply<FuturesPosition>,
    },
    /// Place a stop order.
    SetStop {
        /// The user.
        user_id: i64,
        /// The stop order.
        spec: StopSpec,
        /// The caller's key.
        idempotency: Option<Idempotency>,
        /// The answer.
        reply: Reply<Answer<FuturesStopOrder>>,
    },
    /// Cancel a waiting stop order.
    CancelStop {
        /// The user.
        user_id: i64,
        /// The stop order.
        stop_id: i64,
        /// The answer.
        reply: Reply<FuturesStopOrder>,
    },
    /// Add margin to or remove margin from the user's isolated position.
    AdjustMargin {
        /// The user.
        user_id: i64,
        /// Add or remove.
        direction: MarginDirection,
        /// How much.
        amount: Decimal,
        /// The caller's key.
        idempotency: Option<Idempotency>,
        /// The answer.
        reply: Reply<Answer<FuturesPosition>>,
    },
    /// Set the leverage and/or margin mode of the user's new orders.
    SetLeverage {
        /// The user.
        user_id: i64,
        /// New leverage.
        leverage: Option<Decimal>,
        /// New margin mode.
        mode: Option<MarginMode>,
        /// The answer.
        reply: Reply<FuturesSetting>,
    },
    /// The user's setting.
    Setting {
        /// The user.
        user_id: i64,
        /// The answer.
        reply: Reply<FuturesSetting>,
    },
    /// The user's open position with its figures now.
    Position {
        /// The user.
        user_id: i64,
        /// The answer.
        reply: Reply<Option<FuturesPosition>>,
    },
    /// Act on the current mark now.
    Evaluate {
        /// Answered once done.
        reply: Reply<()>,
    },
    /// Refresh the cross liquidation prices now.
    RefreshCross {
        /// Answered once done.
        reply: Reply<()>,
    },
}

/// What a trigger fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Target {
    /// A resting limit order (by id).
    Limit(i64),
    /// A user's take profit.
    TakeProfit(i64),
    /// A user's stop loss.
    StopLoss(i64),
    /// A stop order (by id).
    Stop(i64),
    /// A user's liquidation price.
    Liquidation(i64),
}

/// The refusal of a command whose `field` is wrong (`msg` says how).
pub(super) fn bad(msg: Msg, field: &str) -> Refusal {
    Refusal::new(RefusalKind::Invalid, msg).with_field(field)
}
