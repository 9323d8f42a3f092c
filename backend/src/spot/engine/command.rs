//! What the rest of the server sends a pair's engine: a [`Command`] (a user's new order, a
//! cancellation, or the simulated market's move for the house market maker), and the [`Answer`]
//! to an order.

use rust_decimal::Decimal;
use tokio::sync::oneshot;

use super::super::views::{OrderSide, SpotOrder, TimeInForce};
use crate::funds::ledger::Idempotency;
use crate::market::book::BookSnapshot;
use crate::refusal::Refusal;

/// What an order asks for, checked against the pair's rules by the caller.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OrderSpec {
    /// A limit order.
    Limit {
        /// Price (on the tick grid).
        price: Decimal,
        /// Base quantity (on the step grid).
        quantity: Decimal,
    },
    /// A market order by base quantity.
    Market {
        /// Base quantity.
        quantity: Decimal,
    },
    /// A market buy spending at most this quote amount.
    MarketFunds {
        /// Quote amount.
        amount: Decimal,
    },
    /// A limit order placed when the last price reaches `trigger`.
    StopLimit {
        /// Trigger price.
        trigger: Decimal,
        /// Limit price.
        price: Decimal,
        /// Base quantity.
        quantity: Decimal,
    },
}

/// A new order of a user.
#[derive(Debug)]
pub struct Submit {
    /// The owner.
    pub user_id: i64,
    /// Buy or sell.
    pub side: OrderSide,
    /// What it asks for.
    pub spec: OrderSpec,
    /// Time in force (limit orders).
    pub time_in_force: TimeInForce,
    /// Refuse if it would take.
    pub post_only: bool,
    /// The caller's idempotency key.
    pub idempotency: Option<Idempotency>,
    /// Where the answer goes.
    pub reply: oneshot::Sender<Result<Answer, Refusal>>,
}

/// The answer to an order.
#[derive(Debug, Clone)]
pub enum Answer {
    /// The order after matching.
    Order(Box<SpotOrder>),
    /// The key was seen with the same request: the first answer's JSON.
    Replayed(String),
}

/// Work for a market's task.
#[derive(Debug)]
pub enum Command {
    /// A user's new order.
    Submit(Box<Submit>),
    /// A user cancels an open order.
    Cancel {
        /// The user.
        user_id: i64,
        /// The order.
        order_id: i64,
        /// Where the answer goes.
        reply: oneshot::Sender<Result<SpotOrder, Refusal>>,
    },
    /// The simulated market moved: re-quote the house ladder and trigger stops.
    Quote {
        /// The simulated book (best first on each side).
        book: BookSnapshot,
        /// The last simulated trade price.
        last: Decimal,
    },
}

impl Command {
    /// Answers the command with `refusal` without doing it (a quote has nobody to answer).
    pub fn refuse(self, refusal: Refusal) {
        match self {
            Command::Submit(submit) => {
                let _ = submit.reply.send(Err(refusal));
            }
            Command::Cancel { reply, .. } => {
                let _ = reply.send(Err(refusal));
            }
            Command::Quote { .. } => {}
        }
    }
}
