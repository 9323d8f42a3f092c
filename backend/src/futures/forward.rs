//! The futures engines' commands between instances in cluster mode. One instance owns every
//! futures engine (`ownership.rs`); a command of the futures calls that reaches another instance —
//! an order, a cancellation, take profit and stop loss, a stop order, margin, leverage and mode,
//! and the reads answered from the engines' memory (a user's setting, open position, cross
//! figures, a symbol's funding info) — goes to the owner as a NATS request on [`SUBJECT`], to which
//! only the owner subscribes (in a queue group), and the owner's answer comes back as the reply
//! ([`Reply`]). The request, the serving and the retry rule are [`crate::cluster::forward`]'s:
//! no owner, or an owner that has just lost the engines ([`Reply::NotOwner`], nothing of it was
//! stored), is tried again; a request that timed out is tried again only when it is safe
//! ([`WireCommand::retry_safe`]: it carries an idempotency key, or doing it twice is doing it
//! once).
//!
//! An engine's [`Command`] carries its typed reply channel; [`split`] takes it apart into what
//! crosses the wire and the function that later hands the answer to that channel, and
//! [`EngineCommand::into_command`] builds the command again on the owner with a channel whose
//! answer becomes a [`Done`].

use futures_util::future::BoxFuture;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use tokio::sync::oneshot;
use wasm_core::margin::{MarginDirection, MarginMode};

use super::engine::{Answer, Command, OrderSpec, Reply as EngineReply, StopSpec};
use super::registry::{CrossFigures, busy};
use super::views::{FundingInfo, FuturesOrder, FuturesPosition, FuturesSetting, FuturesStopOrder};
use crate::cluster::wire::WireRefusal;
use crate::funds::ledger::Idempotency;
use crate::refusal::Refusal;

/// The subject of every futures command (the owner runs every engine).
pub const SUBJECT: &str = "kestrel.cmd.futures";

/// An idempotency key on the wire (its user is the command's).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct WireKey {
    key: String,
    operation: String,
    request_hash: String,
}

impl WireKey {
    fn of(idempotency: Option<Idempotency>) -> Option<Self> {
        idempotency.map(|key| WireKey {
            key: key.key,
            operation: key.operation.to_owned(),
            request_hash: key.request_hash,
        })
    }

    fn into_idempotency(key: Option<Self>, user_id: i64) -> Option<Idempotency> {
        key.map(|key| Idempotency {
            user_id,
            key: key.key,
            operation: crate::cluster::wire::interned(&key.operation),
            request_hash: key.request_hash,
        })
    }
}

/// A command for a symbol's engine, as it crosses the wire (the engine's [`Command`] without its
/// reply channel).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum EngineCommand {
    /// Place an order.
    Submit {
        /// The user.
        user_id: i64,
        /// The order.
        spec: OrderSpec,
        /// The caller's key.
        idempotency: Option<WireKey>,
    },
    /// Cancel a resting order.
    Cancel {
        /// The user.
        user_id: i64,
        /// The order.
        order_id: i64,
    },
    /// Set or clear the take profit and stop loss.
    SetTpSl {
        /// The user.
        user_id: i64,
        /// Take-profit trigger.
        take_profit: Option<Decimal>,
        /// Stop-loss trigger.
        stop_loss: Option<Decimal>,
    },
    /// Place a stop order.
    SetStop {
        /// The user.
        user_id: i64,
        /// The stop order.
        spec: StopSpec,
        /// The caller's key.
        idempotency: Option<WireKey>,
    },
    /// Cancel a waiting stop order.
    CancelStop {
        /// The user.
        user_id: i64,
        /// The stop order.
        stop_id: i64,
    },
    /// Add or remove margin.
    AdjustMargin {
        /// The user.
        user_id: i64,
        /// Add or remove.
        direction: MarginDirection,
        /// How much.
        amount: Decimal,
        /// The caller's key.
        idempotency: Option<WireKey>,
    },
    /// Set leverage and/or margin mode.
    SetLeverage {
        /// The user.
        user_id: i64,
        /// New leverage.
        leverage: Option<Decimal>,
        /// New margin mode.
        mode: Option<MarginMode>,
    },
    /// The user's setting.
    Setting {
        /// The user.
        user_id: i64,
    },
    /// The user's open position.
    Position {
        /// The user.
        user_id: i64,
    },
    /// Act on the current mark now.
    Evaluate,
    /// Refresh the cross liquidation prices now.
    RefreshCross,
}

/// What a futures request asks of the owner.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub enum WireCommand {
    /// A command for `symbol`'s engine.
    Engine {
        /// The symbol (lower case).
        symbol: String,
        /// The command.
        command: EngineCommand,
    },
    /// The sum of a user's cross figures over every symbol.
    CrossTotals {
        /// The user.
        user_id: i64,
    },
    /// A symbol's funding info now.
    FundingInfo {
        /// The symbol (lower case).
        symbol: String,
    },
}

impl WireCommand {
    /// Whether trying this command again after an unknown outcome is safe: it carries an
    /// idempotency key (whose record answers the second try), or a second try finds the first
    /// one's effect (a cancellation, a setting, a read).
    pub fn retry_safe(&self) -> bool {
        match self {
            WireCommand::Engine { command, .. } => match command {
                EngineCommand::Submit { idempotency, .. }
                | EngineCommand::SetStop { idempotency, .. }
                | EngineCommand::AdjustMargin { idempotency, .. } => idempotency.is_some(),
                _ => true,
            },
            WireCommand::CrossTotals { .. } | WireCommand::FundingInfo { .. } => true,
        }
    }
}

/// What the owner answered a [`WireCommand`].
#[derive(Debug, Serialize, Deserialize)]
pub enum Done {
    /// An order's answer.
    Order(Box<Answer<FuturesOrder>>),
    /// A cancelled order.
    Cancelled(Box<FuturesOrder>),
    /// The position after its take profit and stop loss were set.
    TpSl(Box<FuturesPosition>),
    /// A stop order's answer.
    Stop(Box<Answer<FuturesStopOrder>>),
    /// A cancelled stop order.
    StopCancelled(Box<FuturesStopOrder>),
    /// The position after a margin change.
    Margin(Box<Answer<FuturesPosition>>),
    /// A user's setting.
    Setting(Box<FuturesSetting>),
    /// A user's open position, if any.
    Position(Option<Box<FuturesPosition>>),
    /// Done, with nothing to say.
    Acted,
    /// A user's cross figures.
    Cross(CrossFigures),
    /// A symbol's funding info, if its engine published one.
    Funding(Option<Box<FundingInfo>>),
}

/// The owner's reply to a forwarded command.
#[derive(Debug, Serialize, Deserialize)]
pub enum Reply {
    /// The answer.
    Done(Done),
    /// Refused as the owner refuses its own callers.
    Refused(WireRefusal),
    /// This instance does not own the engines (any more): nothing was done.
    NotOwner,
}

impl Reply {
    /// The reply carrying `answer`.
    pub fn of(answer: Result<Done, Refusal>) -> Self {
        match answer {
            Ok(done) => Reply::Done(done),
            Err(refusal) => Reply::Refused(WireRefusal::from(&refusal)),
        }
    }

    /// The answer again (`None` for [`Reply::NotOwner`]).
    pub fn into_done(self) -> Option<Result<Done, Refusal>> {
        match self {
            Reply::Done(done) => Some(Ok(done)),
            Reply::Refused(refusal) => Some(Err(refusal.into_refusal())),
            Reply::NotOwner => None,
        }
    }
}

/// Hands a [`Done`] (or a refusal) to the reply channel of the command it answers.
pub type Responder = Box<dyn FnOnce(Result<Done, Refusal>) + Send>;

/// Hands `done` to `reply` as the `T` that `pick` finds in it.
fn give<T>(reply: EngineReply<T>, done: Result<Done, Refusal>, pick: fn(Done) -> Option<T>) {
    let answer = done.and_then(|done| {
        pick(done).ok_or_else(|| Refusal::internal("the answer of another futures command"))
    });
    let _ = reply.send(answer);
}

/// `command` as it crosses the wire, and the function that hands the owner's answer to its
/// reply channel.
pub fn split(command: Command) -> (EngineCommand, Responder) {
    match command {
        Command::Submit {
            user_id,
            spec,
            idempotency,
            reply,
        } => (
            EngineCommand::Submit {
                user_id,
                spec,
                idempotency: WireKey::of(idempotency),
            },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::Order(answer) => Some(*answer),
                    _ => None,
                })
            }),
        ),
        Command::Cancel {
            user_id,
            order_id,
            reply,
        } => (
            EngineCommand::Cancel { user_id, order_id },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::Cancelled(order) => Some(*order),
                    _ => None,
                })
            }),
        ),
        Command::SetTpSl {
            user_id,
            take_profit,
            stop_loss,
            reply,
        } => (
            EngineCommand::SetTpSl {
                user_id,
                take_profit,
                stop_loss,
            },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::TpSl(position) => Some(*position),
                    _ => None,
                })
            }),
        ),
        Command::SetStop {
            user_id,
            spec,
            idempotency,
            reply,
        } => (
            EngineCommand::SetStop {
                user_id,
                spec,
                idempotency: WireKey::of(idempotency),
            },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::Stop(answer) => Some(*answer),
                    _ => None,
                })
            }),
        ),
        Command::CancelStop {
            user_id,
            stop_id,
            reply,
        } => (
            EngineCommand::CancelStop { user_id, stop_id },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::StopCancelled(stop) => Some(*stop),
                    _ => None,
                })
            }),
        ),
        Command::AdjustMargin {
            user_id,
            direction,
            amount,
            idempotency,
            reply,
        } => (
            EngineCommand::AdjustMargin {
                user_id,
                direction,
                amount,
                idempotency: WireKey::of(idempotency),
            },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::Margin(answer) => Some(*answer),
                    _ => None,
                })
            }),
        ),
        Command::SetLeverage {
            user_id,
            leverage,
            mode,
            reply,
        } => (
            EngineCommand::SetLeverage {
                user_id,
                leverage,
                mode,
            },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::Setting(setting) => Some(*setting),
                    _ => None,
                })
            }),
        ),
        Command::Setting { user_id, reply } => (
            EngineCommand::Setting { user_id },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::Setting(setting) => Some(*setting),
                    _ => None,
                })
            }),
        ),
        Command::Position { user_id, reply } => (
            EngineCommand::Position { user_id },
            Box::new(move |done| {
                give(reply, done, |done| match done {
                    Done::Position(position) => Some(position.map(|p| *p)),
                    _ => None,
                })
            }),
        ),
        Command::Evaluate { reply } => (EngineCommand::Evaluate, acted(reply)),
        Command::RefreshCross { reply } => (EngineCommand::RefreshCross, acted(reply)),
    }
}

fn acted(reply: EngineReply<()>) -> Responder {
    Box::new(move |done| {
        give(reply, done, |done| match done {
            Done::Acted => Some(()),
            _ => None,
        })
    })
}

/// Where the engine's answer to a rebuilt command arrives, as a [`Done`].
pub type Pending = BoxFuture<'static, Result<Done, Refusal>>;

/// The answer of `answer` made a [`Done`] by `wrap`; "busy" when the engine ended without one.
fn pending<T: Send + 'static>(
    answer: oneshot::Receiver<Result<T, Refusal>>,
    wrap: fn(T) -> Done,
) -> Pending {
    Box::pin(async move { answer.await.unwrap_or_else(|_| Err(busy())).map(wrap) })
}

impl EngineCommand {
    /// The engine's command, and where its answer will arrive.
    pub fn into_command(self) -> (Command, Pending) {
        match self {
            EngineCommand::Submit {
                user_id,
                spec,
                idempotency,
            } => {
                let (reply, answer) = oneshot::channel();
                let idempotency = WireKey::into_idempotency(idempotency, user_id);
                (
                    Command::Submit {
                        user_id,
                        spec,
                        idempotency,
                        reply,
                    },
                    pending(answer, |answer| Done::Order(Box::new(answer))),
                )
            }
            EngineCommand::Cancel { user_id, order_id } => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::Cancel {
                        user_id,
                        order_id,
                        reply,
                    },
                    pending(answer, |order| Done::Cancelled(Box::new(order))),
                )
            }
            EngineCommand::SetTpSl {
                user_id,
                take_profit,
                stop_loss,
            } => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::SetTpSl {
                        user_id,
                        take_profit,
                        stop_loss,
                        reply,
                    },
                    pending(answer, |position| Done::TpSl(Box::new(position))),
                )
            }
            EngineCommand::SetStop {
                user_id,
                spec,
                idempotency,
            } => {
                let (reply, answer) = oneshot::channel();
                let idempotency = WireKey::into_idempotency(idempotency, user_id);
                (
                    Command::SetStop {
                        user_id,
                        spec,
                        idempotency,
                        reply,
                    },
                    pending(answer, |answer| Done::Stop(Box::new(answer))),
                )
            }
            EngineCommand::CancelStop { user_id, stop_id } => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::CancelStop {
                        user_id,
                        stop_id,
                        reply,
                    },
                    pending(answer, |stop| Done::StopCancelled(Box::new(stop))),
                )
            }
            EngineCommand::AdjustMargin {
                user_id,
                direction,
                amount,
                idempotency,
            } => {
                let (reply, answer) = oneshot::channel();
                let idempotency = WireKey::into_idempotency(idempotency, user_id);
                (
                    Command::AdjustMargin {
                        user_id,
                        direction,
                        amount,
                        idempotency,
                        reply,
                    },
                    pending(answer, |answer| Done::Margin(Box::new(answer))),
                )
            }
            EngineCommand::SetLeverage {
                user_id,
                leverage,
                mode,
            } => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::SetLeverage {
                        user_id,
                        leverage,
                        mode,
                        reply,
                    },
                    pending(answer, |setting| Done::Setting(Box::new(setting))),
                )
            }
            EngineCommand::Setting { user_id } => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::Setting { user_id, reply },
                    pending(answer, |setting| Done::Setting(Box::new(setting))),
                )
            }
            EngineCommand::Position { user_id } => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::Position { user_id, reply },
                    pending(answer, |position| Done::Position(position.map(Box::new))),
                )
            }
            EngineCommand::Evaluate => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::Evaluate { reply },
                    pending(answer, |()| Done::Acted),
                )
            }
            EngineCommand::RefreshCross => {
                let (reply, answer) = oneshot::channel();
                (
                    Command::RefreshCross { reply },
                    pending(answer, |()| Done::Acted),
                )
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use rust_decimal_macros::dec;

    use super::*;
    use crate::futures::views::{FuturesOrderType, OrderSide};

    #[test]
    fn an_order_crosses_the_wire_unchanged_with_its_key() {
        let (reply, _) = oneshot::channel();
        let spec = OrderSpec {
            side: OrderSide::Buy,
            order_type: FuturesOrderType::Limit,
            price: Some(dec!(50000.5)),
            quantity: Some(dec!(0.01)),
            leverage: Some(dec!(20)),
            mode: Some(MarginMode::Cross),
            reduce_only: false,
            close_position: false,
        };
        let (wire, _) = split(Command::Submit {
            user_id: 7,
            spec: spec.clone(),
            idempotency: Some(Idempotency {
                user_id: 7,
                key: "k-1".into(),
                operation: "submitFuturesOrder",
                request_hash: "ab".into(),
            }),
            reply,
        });
        let command = WireCommand::Engine {
            symbol: "btcusdt".into(),
            command: wire,
        };
        assert!(command.retry_safe());
        let text = serde_json::to_string(&command).unwrap();
        let WireCommand::Engine { command, .. } = serde_json::from_str(&text).unwrap() else {
            panic!("an engine command");
        };
        let (
            Command::Submit {
                user_id,
                spec: crossed,
                idempotency,
                ..
            },
            _,
        ) = command.into_command()
        else {
            panic!("a submit");
        };
        assert_eq!((user_id, crossed), (7, spec));
        let key = idempotency.expect("the key");
        assert_eq!(
            (
                key.user_id,
                key.key.as_str(),
                key.operation,
                key.request_hash.as_str()
            ),
            (7, "k-1", "submitFuturesOrder", "ab")
        );
    }

    #[tokio::test]
    async fn an_answer_reaches_the_reply_channel_of_its_command() {
        let (reply, answer) = oneshot::channel();
        let (wire, responder) = split(Command::Setting { user_id: 3, reply });
        assert_eq!(wire, EngineCommand::Setting { user_id: 3 });
        let setting = FuturesSetting {
            symbol: "btcusdt".into(),
            leverage: dec!(10),
            margin_mode: MarginMode::Isolated.into(),
            max_leverage: dec!(125),
        };
        let text = serde_json::to_string(&Reply::of(Ok(Done::Setting(Box::new(setting))))).unwrap();
        let reply: Reply = serde_json::from_str(&text).unwrap();
        responder(reply.into_done().expect("an answer"));
        let received = answer.await.unwrap().unwrap();
        assert_eq!(
            (received.symbol.as_str(), received.leverage),
            ("btcusdt", dec!(10))
        );
        // An answer of another command is refused, never mistaken for this one's.
        let (reply, answer) = oneshot::channel();
        let (_, responder) = split(Command::Evaluate { reply });
        responder(Ok(Done::Cross(CrossFigures::default())));
        assert!(answer.await.unwrap().is_err());
    }
}
