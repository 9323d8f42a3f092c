//! Commands between instances in cluster mode, whatever the market: a request to the owner of a
//! market ([`send`], a NATS request answered within [`ANSWER_WITHIN`], or given up as soon as the
//! owner is known dead), the owner's side that
//! answers each request on a task of its own ([`serve`]), and the caller's retry rule
//! ([`until_served`]): a try that found no owner, or an owner that has just lost the market
//! (nothing of it was stored), is tried again every [`RETRY_EVERY`] for at most
//! [`FORWARD_WITHIN`]; then the caller is told the market is busy. The spot pairs
//! (`crate::spot::forward`) and the futures engines (`crate::futures::forward`) define their wire
//! types on top.

use std::future::Future;
use std::time::{Duration, Instant};

use futures_util::StreamExt;
use serde::Serialize;
use serde::de::DeserializeOwned;

use super::Bus;
use crate::refusal::Refusal;

/// How long a forwarded command waits for the owner's answer (unless the owner is known dead
/// sooner: [`super::liveness`]).
pub const ANSWER_WITHIN: Duration = Duration::from_secs(5);
/// How long the leases of the markets (each spot pair, the futures engines) last from each
/// renewal: how long a dead owner's market stays without an engine, at most. One bucket holds
/// them all, which [`super::liveness::watch_leases`] follows.
pub const MARKET_LEASE_MS: i64 = 3_000;
/// How long a command keeps looking for its market's owner while the market changes hands:
/// longer than a dead owner's lease and a look of the next one.
pub const FORWARD_WITHIN: Duration = Duration::from_secs(10);
/// The pause between two tries to reach a market's owner.
pub const RETRY_EVERY: Duration = Duration::from_millis(50);

/// What became of a forwarded command.
pub enum Sent<R> {
    /// The owner answered (possibly that it is not the owner any more).
    Replied(R),
    /// No instance subscribes to the subject: nothing was done.
    NoOwner,
    /// No answer in time, or the connection failed: it may or may not have been done.
    Unknown,
}

/// Sends `command` on `subject` to the market's owner — the holder of lease `lease` — and waits for
/// its reply, or until that holder is known dead ([`super::liveness`]).
pub async fn send<C: Serialize, R: DeserializeOwned>(
    bus: &Bus,
    subject: &str,
    lease: &str,
    command: &C,
) -> Sent<R> {
    let Ok(payload) = serde_json::to_vec(command) else {
        return Sent::Unknown;
    };
    let request = async_nats::Request::new()
        .payload(payload.into())
        .timeout(Some(ANSWER_WITHIN));
    let reply = bus.client().send_request(subject.to_owned(), request);
    let holder = bus.liveness().holder(lease);
    let answered = match holder {
        Some(holder) => tokio::select! {
            answered = reply => answered,
            () = bus.liveness().gone(&holder) => {
                tracing::warn!(subject, %holder, "the owner of a forwarded command is gone: its answer will not come");
                return Sent::Unknown;
            }
        },
        None => reply.await,
    };
    match answered {
        Ok(message) => match serde_json::from_slice::<R>(&message.payload) {
            Ok(reply) => Sent::Replied(reply),
            Err(error) => {
                tracing::error!(%error, subject, "an unreadable reply to a forwarded command");
                Sent::Unknown
            }
        },
        Err(error) if error.kind() == async_nats::client::RequestErrorKind::NoResponders => {
            Sent::NoOwner
        }
        Err(error) => {
            tracing::warn!(%error, subject, "a forwarded command got no reply");
            Sent::Unknown
        }
    }
}

/// Answers every request of `requests` with what `answer` gives for its command (or for the
/// error of an unreadable one), each on a task of its own, until the subscription ends.
///
/// When `stop` fires or its sender goes (the owner lets its market go), the subscription is drained: the server
/// sends nothing more, and the requests already on their way are still answered — by then
/// `answer` says "not the owner", so their callers try the next owner at once instead of waiting
/// out [`ANSWER_WITHIN`] for requests dropped with the subscription.
pub async fn serve<C, R, F, A>(
    client: async_nats::Client,
    mut requests: async_nats::Subscriber,
    answer: F,
    mut stop: tokio::sync::oneshot::Receiver<()>,
) where
    C: DeserializeOwned,
    R: Serialize,
    F: Fn(Result<C, serde_json::Error>) -> A,
    A: Future<Output = R> + Send + 'static,
{
    // Once stopped: until when the requests on their way are waited for.
    let mut draining_until: Option<tokio::time::Instant> = None;
    loop {
        let message = if let Some(until) = draining_until {
            match tokio::time::timeout_at(until, requests.next()).await {
                Ok(message) => message,
                Err(_) => return,
            }
        } else {
            tokio::select! {
                message = requests.next() => message,
                _ = &mut stop => {
                    draining_until = Some(tokio::time::Instant::now() + ANSWER_WITHIN);
                    if let Err(error) = requests.drain().await {
                        tracing::warn!(%error, "draining a market's command subscription");
                        return;
                    }
                    continue;
                }
            }
        };
        let Some(message) = message else {
            return;
        };
        let Some(reply_to) = message.reply.clone() else {
            continue;
        };
        let reply = answer(serde_json::from_slice::<C>(&message.payload));
        let client = client.clone();
        tokio::spawn(async move {
            let payload = serde_json::to_vec(&reply.await);
            match payload {
                Ok(payload) => {
                    if let Err(error) = client.publish(reply_to, payload.into()).await {
                        tracing::warn!(%error, "replying to a forwarded command failed");
                    }
                }
                Err(error) => tracing::error!(%error, "a reply that cannot be written"),
            }
        });
    }
}

/// Tries a command until a try gives its answer (`Some`), at most [`FORWARD_WITHIN`], a try every
/// [`RETRY_EVERY`]; then `busy`.
pub async fn until_served<T, F, A>(mut attempt: F, busy: fn() -> Refusal) -> Result<T, Refusal>
where
    F: FnMut() -> A,
    A: Future<Output = Option<Result<T, Refusal>>>,
{
    let deadline = Instant::now() + FORWARD_WITHIN;
    loop {
        if let Some(done) = attempt().await {
            return done;
        }
        if Instant::now() >= deadline {
            return Err(busy());
        }
        tokio::time::sleep(RETRY_EVERY).await;
    }
}
