//! A spot pair's commands between instances in cluster mode: an order or a cancellation that
//! reaches an instance which does not own the pair goes to the owner as a NATS request on the
//! pair's subject ([`command_subject`], `kestrel.cmd.spot.<pair>`), to which only the owner
//! subscribes (in a queue group, so that during a handover exactly one instance gets each
//! request); the owner's answer — the same order, replay or refusal it gives its own callers —
//! comes back as the reply ([`Reply`]). The simulator's quotes for the house market maker go the
//! same way without an answer ([`quote_subject`]).
//!
//! A request nobody answers (no owner yet, [`Sent::NoOwner`]) or that an owner refuses because it
//! has just lost the pair ([`Reply::NotOwner`], nothing of it was stored) is retried by the
//! registry against the new owner. One that timed out may have been done: it is retried only when
//! it carries an idempotency key, whose record then answers the retry with the first answer
//! instead of placing again. Futures symbols follow the same shape (`kestrel.cmd.futures.<symbol>`).

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;

use super::engine::{Answer, Command, OrderSpec, Submit};
use super::views::{OrderSide, SpotOrder, TimeInForce};
use crate::cluster::Bus;
use crate::cluster::forward::Sent;
use crate::cluster::wire::WireRefusal;
use crate::funds::ledger::Idempotency;
use crate::market::book::{BookSnapshot, Level};
use crate::refusal::Refusal;

/// The subject of `symbol`'s commands.
pub fn command_subject(symbol: &str) -> String {
    format!("kestrel.cmd.spot.{symbol}")
}

/// The subject of `symbol`'s simulated quotes.
pub fn quote_subject(symbol: &str) -> String {
    format!("kestrel.quote.spot.{symbol}")
}

/// The one operation whose idempotency keys a spot command carries.
const SUBMIT_OPERATION: &str = "submitSpotOrder";

/// A command for a pair's engine, as it crosses the wire (the engine's [`Command`] without its
/// reply channel).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub enum WireCommand {
    /// A user's new order.
    Submit {
        /// The owner.
        user_id: i64,
        /// Buy or sell.
        side: OrderSide,
        /// What it asks for.
        spec: OrderSpec,
        /// Time in force.
        time_in_force: TimeInForce,
        /// Refuse if it would take.
        post_only: bool,
        /// The idempotency key and the hash of the request it came with.
        idempotency: Option<(String, String)>,
    },
    /// A user cancels an open order.
    Cancel {
        /// The user.
        user_id: i64,
        /// The order.
        order_id: i64,
    },
}

/// What the engine answered a [`WireCommand`].
#[derive(Debug, Clone)]
pub enum Done {
    /// An order's answer.
    Submitted(Answer),
    /// A cancellation's answer.
    Cancelled(Box<SpotOrder>),
}

/// Where the engine's answer to a [`WireCommand`] arrives.
pub enum Pending {
    /// An order's.
    Submit(oneshot::Receiver<Result<Answer, Refusal>>),
    /// A cancellation's.
    Cancel(oneshot::Receiver<Result<SpotOrder, Refusal>>),
}

impl Pending {
    /// The engine's answer; "busy" when the engine ended without one.
    pub async fn answer(self) -> Result<Done, Refusal> {
        let busy = || super::registry::busy();
        match self {
            Pending::Submit(answer) => answer
                .await
                .unwrap_or_else(|_| Err(busy()))
                .map(Done::Submitted),
            Pending::Cancel(answer) => answer
                .await
                .unwrap_or_else(|_| Err(busy()))
                .map(|order| Done::Cancelled(Box::new(order))),
        }
    }
}

impl WireCommand {
    /// The command a `submit` is (its reply channel aside).
    pub fn of_submit(submit: &Submit) -> Self {
        WireCommand::Submit {
            user_id: submit.user_id,
            side: submit.side,
            spec: submit.spec.clone(),
            time_in_force: submit.time_in_force,
            post_only: submit.post_only,
            idempotency: submit
                .idempotency
                .as_ref()
                .map(|key| (key.key.clone(), key.request_hash.clone())),
        }
    }

    /// Whether a retry of this command after an unknown outcome is safe (it carries an
    /// idempotency key; a cancellation is safe in any case: a second one finds the order closed).
    pub fn retry_safe(&self) -> bool {
        match self {
            WireCommand::Submit { idempotency, .. } => idempotency.is_some(),
            WireCommand::Cancel { .. } => true,
        }
    }

    /// The engine's command, and where its answer will arrive.
    pub fn into_command(self) -> (Command, Pending) {
        match self {
            WireCommand::Submit {
                user_id,
                side,
                spec,
                time_in_force,
                post_only,
                idempotency,
            } => {
                let (reply, answer) = oneshot::channel();
                let submit = Submit {
                    user_id,
                    side,
                    spec,
                    time_in_force,
                    post_only,
                    idempotency: idempotency.map(|(key, request_hash)| Idempotency {
                        user_id,
                        key,
                        operation: SUBMIT_OPERATION,
                        request_hash,
                    }),
                    reply,
                };
                (Command::Submit(Box::new(submit)), Pending::Submit(answer))
            }
            WireCommand::Cancel { user_id, order_id } => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::Cancel {
                        user_id,
                        order_id,
                        reply,
                    },
                    Pending::Cancel(answer),
                )
            }
        }
    }
}

/// The owner's reply to a forwarded command.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub enum Reply {
    /// The order after matching.
    Order(Box<SpotOrder>),
    /// The order's idempotency key was seen with the same request: the first answer's JSON.
    Replayed(String),
    /// The order, cancelled.
    Cancelled(Box<SpotOrder>),
    /// Refused as the owner refuses its own callers.
    Refused(WireRefusal),
    /// This instance does not own the pair (any more): nothing was done.
    NotOwner,
}

impl Reply {
    /// The reply carrying the engine's `answer`.
    pub fn of(answer: Result<Done, Refusal>) -> Self {
        match answer {
            Ok(Done::Submitted(Answer::Order(order))) => Reply::Order(order),
            Ok(Done::Submitted(Answer::Replayed(first))) => Reply::Replayed(first),
            Ok(Done::Cancelled(order)) => Reply::Cancelled(order),
            Err(refusal) => Reply::Refused(WireRefusal::from(&refusal)),
        }
    }

    /// The answer again (`None` for [`Reply::NotOwner`]).
    pub fn into_done(self) -> Option<Result<Done, Refusal>> {
        match self {
            Reply::Order(order) => Some(Ok(Done::Submitted(Answer::Order(order)))),
            Reply::Replayed(first) => Some(Ok(Done::Submitted(Answer::Replayed(first)))),
            Reply::Cancelled(order) => Some(Ok(Done::Cancelled(order))),
            Reply::Refused(refusal) => Some(Err(refusal.into_refusal())),
            Reply::NotOwner => None,
        }
    }
}

/// Sends `command` to the owner of `symbol` and waits for its reply.
pub async fn send(bus: &Bus, symbol: &str, command: &WireCommand) -> Sent<Reply> {
    crate::cluster::forward::send(
        bus,
        &command_subject(symbol),
        &super::ownership::lease_name(symbol),
        command,
    )
    .await
}

/// The simulator's move of a pair, as it crosses the wire to the pair's owner.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct WireQuote {
    seq: u64,
    ts: i64,
    bids: Vec<(Decimal, Decimal)>,
    asks: Vec<(Decimal, Decimal)>,
    last: Decimal,
}

impl WireQuote {
    /// The quote of `book` at the last price `last`.
    pub fn of(book: &BookSnapshot, last: Decimal) -> Self {
        let levels = |side: &[Level]| side.iter().map(|l| (l.price, l.quantity)).collect();
        Self {
            seq: book.seq,
            ts: book.ts,
            bids: levels(&book.bids),
            asks: levels(&book.asks),
            last,
        }
    }

    /// The engine's command.
    pub fn into_command(self) -> Command {
        let levels = |side: Vec<(Decimal, Decimal)>| {
            side.into_iter()
                .map(|(price, quantity)| Level { price, quantity })
                .collect()
        };
        Command::Quote {
            book: BookSnapshot {
                seq: self.seq,
                bids: levels(self.bids),
                asks: levels(self.asks),
                ts: self.ts,
            },
            last: self.last,
        }
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;

    #[test]
    fn a_command_crosses_the_wire_unchanged() {
        let command = WireCommand::Submit {
            user_id: 7,
            side: OrderSide::Buy,
            spec: OrderSpec::Limit {
                price: dec!(50000.5),
                quantity: dec!(0.01),
            },
            time_in_force: TimeInForce::Gtc,
            post_only: true,
            idempotency: Some(("k-1".into(), "ab".into())),
        };
        let text = serde_json::to_string(&command).unwrap();
        assert_eq!(serde_json::from_str::<WireCommand>(&text).unwrap(), command);
        let (engine_command, _) = command.into_command();
        let Command::Submit(submit) = engine_command else {
            panic!("a submit");
        };
        let key = submit.idempotency.as_ref().unwrap();
        assert_eq!((key.user_id, key.operation), (7, "submitSpotOrder"));
    }
}
