//! [`Fanout`]: where the live channels' events go beyond this process. Chosen once at start:
//!
//! - [`Fanout::local`] (one process, the default): nothing leaves the process; every producer's
//!   broadcast reaches the sockets of this process, as it always did.
//! - [`Fanout::start`] (cluster mode): each event produced here is also published once on the
//!   cluster's NATS server, and every instance feeds what it receives from the other instances
//!   into its own local broadcasts, so a client connected to any instance gets every message.
//!
//! Subjects (one subscription `kestrel.live.>` per instance, so messages of one producer arrive
//! in the order they were published, whatever their subject; and a user's events on a
//! subscription of their own while a channel of that user is open here):
//!
//! | subject | payload | fed into |
//! | --- | --- | --- |
//! | `kestrel.live.market.<pair>.<kind>` (`kind`: `ticker`, `depth`, `trade`, `detail`, `kline`), `kestrel.live.market.all.tick` (a publication of several pairs, such as a simulator tick) | the publication's state changes, JSON ([`crate::market::hub`]'s `remote` module): books as their diffs, whole now and then | the market hub: recorded (tickers, books, trades, details) and broadcast as if produced here |
//! | `kestrel.live.market.<pair>.want` (`market.all.want`: every pair) | a request for the pair's book whole | the hub of the book's producer, which answers on `kestrel.live.market.<pair>.depth` |
//! | `kestrel.live.notice` | the message's text | `/ws/business/notice` |
//! | `kestrel.user.<id>` (subscribed only while a user channel of `<id>` is open on the instance: [`Fanout::watch_user`]) | the message's text | the user channel of `<id>` |
//! | `kestrel.live.session.<id>` | empty | the session cache forgets user `<id>` (a session of it ended) and its user channels check their session at once |
//! | `kestrel.live.spot.open.<pair>` | a change of the pair's open orders, JSON | the open-order index of the spot markets (`crate::spot`), so a cancellation finds its pair without a query |
//!
//! A module registers for a subject prefix of its own with [`Fanout::receive_under`].
//!
//! Exactly once: the live connection is opened with `no_echo` ([`Bus::live`]), so the server never
//! hands an instance what it published itself (it delivered that locally already). Publishing
//! never waits: events are handed to one task that publishes them in order.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use futures_util::StreamExt;
use tokio::sync::{broadcast, mpsc, watch};

use super::Bus;
use crate::market::MarketHub;
use crate::user::events::UserEvent;

/// The prefix of every live subject.
const PREFIX: &str = "kestrel.live.";
/// How many user events received from other instances a slow user channel may fall behind.
const REMOTE_USER_EVENTS: usize = 1024;

/// What receives the messages under one subject prefix ([`Fanout::receive_under`]): the subject
/// after `kestrel.live.` and the payload.
type Handler = Arc<dyn Fn(&str, &[u8]) + Send + Sync>;

/// Where live events go beyond this process (see the module). Cloning it is one reference count.
#[derive(Clone)]
pub struct Fanout(Arc<Inner>);

struct Inner {
    /// `None`: one process, nothing is published.
    nats: Option<mpsc::UnboundedSender<(String, Vec<u8>)>>,
    /// The live connection, for the users' subscriptions (`None`: one process).
    client: Option<async_nats::Client>,
    /// The users watched here: how many of their channels are open, and the task that feeds
    /// their events from other instances into [`Inner::remote_user_events`].
    watched: Mutex<HashMap<i64, (usize, Option<tokio::task::AbortHandle>)>>,
    /// User events received from other instances.
    remote_user_events: broadcast::Sender<Arc<UserEvent>>,
    /// Users a session of whom ended (here or on another instance).
    sessions_ended: broadcast::Sender<i64>,
    /// Receivers of other subjects, by prefix (under `kestrel.live.`).
    handlers: RwLock<Vec<(&'static str, Handler)>>,
}

impl Default for Fanout {
    fn default() -> Self {
        Self::local()
    }
}

impl Fanout {
    /// One process: nothing is published, nothing is received.
    pub fn local() -> Self {
        Self::with(None, None)
    }

    fn with(
        nats: Option<mpsc::UnboundedSender<(String, Vec<u8>)>>,
        client: Option<async_nats::Client>,
    ) -> Self {
        Self(Arc::new(Inner {
            nats,
            client,
            watched: Mutex::default(),
            remote_user_events: broadcast::channel(REMOTE_USER_EVENTS).0,
            sessions_ended: broadcast::channel(REMOTE_USER_EVENTS).0,
            handlers: RwLock::default(),
        }))
    }

    /// Cluster mode on `bus`: subscribes to the other instances' events (feeding `hub` and this
    /// fanout's receivers) and starts the task that publishes this instance's, both until
    /// `shutdown` changes.
    pub async fn start(
        bus: &Arc<Bus>,
        hub: Arc<MarketHub>,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Self, super::BusError> {
        let client = bus.live().clone();
        let subscription = client
            .subscribe(format!("{PREFIX}>"))
            .await
            .map_err(|error| super::BusError {
                url: String::new(),
                reason: error.to_string(),
            })?;
        // The subscription is in place on the server before this instance serves anyone.
        client.flush().await.map_err(|error| super::BusError {
            url: String::new(),
            reason: error.to_string(),
        })?;
        let (sender, outbox) = mpsc::unbounded_channel();
        let fanout = Self::with(Some(sender), Some(client.clone()));
        tokio::spawn(publish(client, outbox, shutdown.clone()));
        tokio::spawn(receive(subscription, hub, fanout.clone(), shutdown));
        Ok(fanout)
    }

    /// A shared fanout whose messages go to the returned receiver instead of NATS: what an
    /// instance would send the others, for tests of the hub's sharing.
    #[cfg(test)]
    pub(crate) fn capturing() -> (Self, mpsc::UnboundedReceiver<(String, Vec<u8>)>) {
        let (sender, outbox) = mpsc::unbounded_channel();
        (Self::with(Some(sender), None), outbox)
    }

    /// Whether events are shared with other instances (cluster mode).
    pub fn is_shared(&self) -> bool {
        self.0.nats.is_some()
    }

    /// Publishes `payload` on `kestrel.live.<subject>` (nothing in one process). Never waits.
    pub fn publish(&self, subject: &str, payload: Vec<u8>) {
        self.publish_on(format!("{PREFIX}{subject}"), payload);
    }

    /// Publishes `payload` on the whole `subject` (nothing in one process). Never waits.
    fn publish_on(&self, subject: String, payload: Vec<u8>) {
        if let Some(nats) = &self.0.nats {
            // The task ends only at shutdown: a message after it has nowhere to go.
            let _ = nats.send((subject, payload));
        }
    }

    /// Publishes every event of `source` (a producer's user events) for the other instances,
    /// until the source closes (nothing in one process).
    pub fn share_user_events(&self, mut source: broadcast::Receiver<Arc<UserEvent>>) {
        if !self.is_shared() {
            return;
        }
        let fanout = self.clone();
        tokio::spawn(async move {
            loop {
                match source.recv().await {
                    Ok(event) => fanout
                        .publish_on(user_subject(event.user_id), event.text.as_bytes().to_vec()),
                    Err(broadcast::error::RecvError::Lagged(missed)) => {
                        tracing::warn!(missed, "user events not shared with the cluster");
                    }
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        });
    }

    /// A receiver of the user events other instances produced, from now on, for the users
    /// watched here ([`Self::watch_user`]).
    pub fn subscribe_remote_user_events(&self) -> broadcast::Receiver<Arc<UserEvent>> {
        self.0.remote_user_events.subscribe()
    }

    /// Receives the events other instances produce for `user_id` until the returned watch is
    /// dropped (cluster mode; in one process the watch does nothing): the first watch of a user
    /// subscribes to `kestrel.user.<id>`, and returns once the NATS server has the subscription,
    /// so an event published after that reaches [`Self::subscribe_remote_user_events`]; the last
    /// one dropped unsubscribes. An instance thus receives the events of the users whose channels
    /// it holds, not every user's.
    pub async fn watch_user(&self, user_id: i64) -> UserWatch {
        let watch = UserWatch {
            fanout: self.clone(),
            user_id,
        };
        let Some(client) = &self.0.client else {
            return watch;
        };
        if let Some((count, _)) = self.watched().get_mut(&user_id) {
            *count += 1;
            return watch;
        }
        let subscribed = async {
            let subscription = client.subscribe(user_subject(user_id)).await?;
            client.flush().await?;
            Ok::<_, Box<dyn std::error::Error + Send + Sync>>(subscription)
        }
        .await;
        let mut watched = self.watched();
        match watched.get_mut(&user_id) {
            // Another channel of the user subscribed meanwhile: that subscription serves both.
            Some((count, _)) => *count += 1,
            None => {
                let follower = match subscribed {
                    Ok(subscription) => Some(
                        tokio::spawn(follow_user(
                            subscription,
                            user_id,
                            self.0.remote_user_events.clone(),
                        ))
                        .abort_handle(),
                    ),
                    Err(error) => {
                        tracing::warn!(%error, user_id, "a user's events from the cluster not followed");
                        None
                    }
                };
                watched.insert(user_id, (1, follower));
            }
        }
        watch
    }

    fn watched(
        &self,
    ) -> std::sync::MutexGuard<'_, HashMap<i64, (usize, Option<tokio::task::AbortHandle>)>> {
        self.0.watched.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A channel of `user_id` closed: the last one unsubscribes.
    fn unwatch(&self, user_id: i64) {
        let mut watched = self.watched();
        if let Some((count, follower)) = watched.get_mut(&user_id) {
            *count -= 1;
            if *count == 0 {
                if let Some(follower) = follower {
                    follower.abort();
                }
                watched.remove(&user_id);
            }
        }
    }

    /// Says that a session of `user_id` ended here: this instance's user channels of that user
    /// check their session at once, and so do the other instances' (which also drop the user's
    /// cached sessions).
    pub fn session_ended(&self, user_id: i64) {
        let _ = self.0.sessions_ended.send(user_id);
        self.publish(&format!("session.{user_id}"), Vec::new());
    }

    /// Hands every message another instance publishes on a subject under
    /// `kestrel.live.<prefix>` to `handler` (with the subject after `kestrel.live.`), in the order
    /// they arrive, on the task that receives them: it must not wait. Nothing arrives in one
    /// process.
    pub fn receive_under(
        &self,
        prefix: &'static str,
        handler: impl Fn(&str, &[u8]) + Send + Sync + 'static,
    ) {
        self.0
            .handlers
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .push((prefix, Arc::new(handler)));
    }

    /// Gives `payload` to the handler registered for `subject`'s prefix, if any.
    fn hand_over(&self, subject: &str, payload: &[u8]) {
        let handler = self
            .0
            .handlers
            .read()
            .unwrap_or_else(|e| e.into_inner())
            .iter()
            .find(|(prefix, _)| subject.starts_with(prefix))
            .map(|(_, handler)| handler.clone());
        if let Some(handler) = handler {
            handler(subject, payload);
        }
    }

    /// A receiver of the users a session of whom ended, on any instance, from now on.
    pub fn subscribe_sessions_ended(&self) -> broadcast::Receiver<i64> {
        self.0.sessions_ended.subscribe()
    }
}

/// A user channel's interest in its user's events from other instances
/// ([`Fanout::watch_user`]); dropped, it ends.
pub struct UserWatch {
    fanout: Fanout,
    user_id: i64,
}

impl Drop for UserWatch {
    fn drop(&mut self) {
        self.fanout.unwatch(self.user_id);
    }
}

/// `name` (a pair's symbol) as one token of a subject: anything but ASCII letters and digits
/// becomes `_`, so that no `.`, `*` or `>` splits or widens the subject.
pub fn subject_token(name: &str) -> String {
    name.chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect()
}

/// The subject of `user_id`'s events.
fn user_subject(user_id: i64) -> String {
    format!("kestrel.user.{user_id}")
}

/// Feeds `user_id`'s events from `subscription` into `events`, until the subscription ends (or
/// the task is aborted: the subscription is dropped with it, which unsubscribes).
async fn follow_user(
    mut subscription: async_nats::Subscriber,
    user_id: i64,
    events: broadcast::Sender<Arc<UserEvent>>,
) {
    while let Some(message) = subscription.next().await {
        if let Ok(text) = std::str::from_utf8(&message.payload) {
            // No receiver is not an error: the channel closed meanwhile.
            let _ = events.send(Arc::new(UserEvent {
                user_id,
                text: Arc::from(text),
            }));
        }
    }
}

/// Publishes what `outbox` hands over, in order.
async fn publish(
    client: async_nats::Client,
    mut outbox: mpsc::UnboundedReceiver<(String, Vec<u8>)>,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let (subject, payload) = tokio::select! {
            next = outbox.recv() => match next {
                Some(next) => next,
                None => return,
            },
            _ = shutdown.changed() => return,
        };
        if let Err(error) = client.publish(subject, payload.into()).await {
            tracing::warn!(%error, "live event not published to the cluster");
        }
    }
}

/// Feeds what other instances publish into this instance's broadcasts.
async fn receive(
    mut subscription: async_nats::Subscriber,
    hub: Arc<MarketHub>,
    fanout: Fanout,
    mut shutdown: watch::Receiver<bool>,
) {
    loop {
        let message = tokio::select! {
            next = subscription.next() => match next {
                Some(message) => message,
                None => return,
            },
            _ = shutdown.changed() => return,
        };
        let Some(subject) = message.subject.as_str().strip_prefix(PREFIX) else {
            continue;
        };
        let payload = &message.payload;
        if subject.starts_with("market.") {
            if let Err(error) = hub.replay(payload) {
                tracing::warn!(%error, subject, "unreadable market event from the cluster");
            }
        } else if subject == "notice" {
            if let Ok(text) = std::str::from_utf8(payload) {
                hub.relay_notice(text);
            }
        } else if let Some(user) = subject.strip_prefix("session.")
            && let Ok(user_id) = user.parse()
        {
            crate::user::session_cache::forget_user_here(user_id);
            let _ = fanout.0.sessions_ended.send(user_id);
        } else {
            fanout.hand_over(subject, payload);
        }
    }
}
