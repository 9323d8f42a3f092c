//! The market channel `GET /ws/market/{clientId}` (messages in docs/api.md).
//!
//! The broadcast is written by a few writer tasks ([`Writers`], one per worker of the runtime),
//! each owning an equal share of the connections: per batch (a simulator tick is one), a writer
//! goes through its connections and writes each the frames it wants at once, without waking the
//! client's task. Clients with the same subscriptions that hold the same depth `seq`s want the same
//! bytes, so the first of them builds them and the others write them from the batch
//! ([`Published::written`]), a reference count each. What a socket does not take at once waits in
//! the connection's pending bytes, and the client's task writes it. Behind pending bytes a batch
//! is queued up to `PENDING_LIMIT`; past it, batches are dropped and the client gets the latest
//! tickers and books once it has caught up (conflation). A write that cannot complete within
//! [`SEND_TIMEOUT`] means the client cannot keep up: it is closed with a reason, and nobody else
//! is slowed.
//!
//! Each client also has a task of its own: it reads and answers the client's messages, reads the
//! candles' broadcast while the client has a kline subscription, and sends `HEARTBEAT` every
//! [`HEARTBEAT_EVERY`] when no tick carried one (a writer adds it to a tick's write when it is due
//! within the last quarter of the period, so while ticks flow a heartbeat costs no write of its
//! own); a client silent for [`CLIENT_IDLE_LIMIT`] is considered dead and closed. The task and the
//! writer share the connection's write side under one lock; answers are queued in the same hold of
//! the lock that read the state they show, so a batch never falls between a snapshot and its state.
//!
//! The WebSocket itself is spoken here, on the upgraded connection, below poem's WebSocket type
//! (`frame.rs`): server frames are not masked, so the hub frames each message once and a write only
//! copies the frames a client wants into one buffer, or shares one (poem's `Message::Text` would
//! need a `String` of its own per client and message, framed again for each). Reading follows the
//! protocol: masked client frames, fragments, pings answered with pongs, the close handshake, and a
//! message over [`MAX_CLIENT_MESSAGE`] skipped unread and answered with an `error`.
//!
//! Cost per connection (measured with `backend/examples/market_load.rs`, docs/benchmarks.md): no
//! wake-up per tick (the writer's lock, compare and write), a read buffer of `READ_CHUNK` between
//! reads, and the task's heartbeat timer once a period.

use std::{
    collections::{HashMap, HashSet, VecDeque},
    pin::Pin,
    sync::{
        Arc,
        atomic::{AtomicUsize, Ordering::Relaxed},
    },
    task::{Context, Poll},
    time::Duration,
};

use futures_util::{SinkExt, StreamExt};
use poem::{
    IntoResponse, Request, Response,
    error::WebSocketError,
    handler,
    http::{StatusCode, header},
    web::{
        Data, Path,
        websocket::{Message, WebSocket},
    },
};
use serde::Deserialize;
use serde_json::json;
use sha1::{Digest, Sha1};
use tokio::{
    io::{AsyncRead, AsyncReadExt, AsyncWrite, AsyncWriteExt},
    sync::{
        Notify,
        broadcast::{
            Receiver,
            error::{RecvError, TryRecvError},
        },
        mpsc,
    },
    time::Instant,
};

use crate::http::middleware::request_lang;
use crate::i18n::{Lang, Msg, translate};
use crate::market::{
    MarketHub,
    frame::{self, FrameReader, Incoming},
    hub::{
        Batch, MarketEvent, Published, Topic, depth_snapshot_message, detail_message,
        kline_channel, kline_message, ticker_message, trades_message,
    },
};
use wasm_core::kline::Interval;

/// How often the server sends `HEARTBEAT`.
pub const HEARTBEAT_EVERY: Duration = Duration::from_secs(10);
/// How long a client may stay silent (no ping, no message) before it is closed.
pub const CLIENT_IDLE_LIMIT: Duration = Duration::from_secs(60);
/// How long one send may take before the client is judged too slow.
pub const SEND_TIMEOUT: Duration = Duration::from_secs(5);

/// The channels a client can subscribe to.
const CHANNELS: [&str; 6] = ["ticker", "depth", "trade", "kline", "detail", "simpleData"];
/// Trades sent on subscription to `trade`.
const TRADE_SNAPSHOT: usize = 50;
/// The largest client message read; longer ones are skipped and get an error.
pub const MAX_CLIENT_MESSAGE: usize = 4096;
/// The most batches one wake-up takes before writing (bounds a write's size).
const BATCH: usize = 64;
/// What one read of the socket takes at most (client messages are small; a connection keeps this
/// much room while it waits).
const READ_CHUNK: usize = 1024;
/// What may wait for a client that is behind before batches are dropped for it (it then gets the
/// latest tickers and books when it catches up); a tick's messages to a client are about 10 KB.
const PENDING_LIMIT: usize = 64 * 1024;
/// A write is started with this much room (a tick's messages to one client are about 10 KB).
const WRITE_START: usize = 16 * 1024;
/// The times a connection is held to: [`HEARTBEAT_EVERY`], [`CLIENT_IDLE_LIMIT`] and
/// [`SEND_TIMEOUT`] (shorter in tests).
#[derive(Debug, Clone, Copy)]
struct Limits {
    heartbeat_every: Duration,
    idle_limit: Duration,
    send_timeout: Duration,
}

/// The limits of a market channel connection.
const LIMITS: Limits = Limits {
    heartbeat_every: HEARTBEAT_EVERY,
    idle_limit: CLIENT_IDLE_LIMIT,
    send_timeout: SEND_TIMEOUT,
};

/// The GUID of RFC 6455's opening handshake.
const HANDSHAKE_GUID: &str = "258EAFA5-E914-47DA-95CA-C5AB0DC85B11";

/// A client's subscriptions by channel key (`ticker`, `kline:1m`): the pairs, `*` for every pair.
type Subscriptions = HashMap<&'static str, HashSet<String>>;

/// What one client is subscribed to, and where it stands in each sequenced topic.
#[derive(Default)]
struct Client {
    subscriptions: Subscriptions,
    /// The same as topics, sorted: every client looks at every message of the broadcast, and a
    /// number is found without touching strings.
    topics: Vec<Topic>,
    /// The last depth `seq` and the newest trade id held, by topic ([`Topic::is_sequenced`]).
    held: Vec<(Topic, u64)>,
}

/// A message from the client.
#[derive(Debug, Deserialize)]
#[serde(tag = "op", rename_all = "lowercase")]
enum ClientMessage {
    Subscribe {
        channel: String,
        #[serde(default = "every_pair")]
        symbol: String,
        interval: Option<String>,
    },
    Unsubscribe {
        channel: String,
        #[serde(default = "every_pair")]
        symbol: String,
        interval: Option<String>,
    },
    Ping {
        ts: Option<i64>,
    },
}

fn every_pair() -> String {
    "*".to_owned()
}

/// Upgrades to the market channel (RFC 6455's opening handshake, as poem's `WebSocket` does it, but
/// the connection is then served by `serve` on the raw upgraded stream).
#[handler]
pub fn market_channel(
    Path(client_id): Path<String>,
    req: &Request,
    Data(hub): Data<&Arc<MarketHub>>,
) -> poem::Result<Response> {
    let accept = accept_key(req).ok_or(WebSocketError::InvalidProtocol)?;
    let upgrade = req.take_upgrade().map_err(WebSocketError::from)?;
    let lang = request_lang(req);
    let hub = hub.clone();
    tokio::spawn(async move {
        let Ok(upgraded) = upgrade.await else {
            return;
        };
        tracing::debug!(%client_id, "market channel opened");
        serve(upgraded, hub, lang, LIMITS).await;
        tracing::debug!(%client_id, "market channel closed");
    });
    Ok(Response::builder()
        .status(StatusCode::SWITCHING_PROTOCOLS)
        .header(header::CONNECTION, "upgrade")
        .header(header::UPGRADE, "websocket")
        .header(header::SEC_WEBSOCKET_ACCEPT, accept)
        .finish())
}

/// The `Sec-WebSocket-Accept` answer to a valid WebSocket upgrade request (a GET with `Upgrade:
/// websocket`, `Connection: upgrade`, version 13 and a key); `None` for anything else.
fn accept_key(req: &Request) -> Option<String> {
    let headers = req.headers();
    let has = |name: header::HeaderName, token: &str| {
        headers.get_all(name).iter().any(|value| {
            value.to_str().is_ok_and(|value| {
                value
                    .split(',')
                    .any(|part| part.trim().eq_ignore_ascii_case(token))
            })
        })
    };
    let valid = req.method() == poem::http::Method::GET
        && has(header::UPGRADE, "websocket")
        && has(header::CONNECTION, "upgrade")
        && headers
            .get(header::SEC_WEBSOCKET_VERSION)
            .is_some_and(|v| v == "13");
    let key = headers.get(header::SEC_WEBSOCKET_KEY)?;
    valid.then(|| derive_accept(key.as_bytes()))
}

/// base64(SHA-1(key + the handshake GUID)).
fn derive_accept(key: &[u8]) -> String {
    let mut sha1 = Sha1::new();
    sha1.update(key);
    sha1.update(HANDSHAKE_GUID.as_bytes());
    data_encoding::BASE64.encode(&sha1.finalize())
}

/// Why a client's loop ended.
#[derive(Debug, PartialEq, Eq)]
enum End {
    /// The connection ended (or failed) without a close frame.
    ClientLeft,
    /// The client sent a close frame (with its code, if any).
    ClientClosed(Option<u16>),
    /// A write did not complete within [`SEND_TIMEOUT`].
    TooSlow,
    /// Nothing heard for [`CLIENT_IDLE_LIMIT`].
    Idle,
    /// The client broke the protocol.
    Invalid(u16, &'static str),
}

/// The tasks that write the broadcast to the clients: one per worker of the runtime, each owning
/// an equal share of the connections (see the module's notes). Started by the first client.
pub struct Writers {
    joining: Vec<mpsc::UnboundedSender<Arc<Connection>>>,
    next: AtomicUsize,
}

impl Writers {
    /// Starts the writers of `hub` on the current runtime. Each holds only its receivers, so it
    /// ends with the hub (the broadcast closes).
    pub(crate) fn start(hub: &MarketHub) -> Self {
        let workers = tokio::runtime::Handle::current().metrics().num_workers();
        let joining = (0..workers.max(1))
            .map(|_| {
                let (join, joined) = mpsc::unbounded_channel();
                tokio::spawn(write_batches(hub.subscribe(), joined));
                join
            })
            .collect();
        Self {
            joining,
            next: AtomicUsize::new(0),
        }
    }

    /// Hands `connection` to the next writer in turn.
    fn join(&self, connection: Arc<Connection>) {
        let index = self.next.fetch_add(1, Relaxed) % self.joining.len();
        let _ = self.joining[index].send(connection);
    }
}

/// What a client's task and its writer share.
struct Connection {
    state: std::sync::Mutex<Outgoing>,
    /// Told when [`Outgoing::pending`] holds bytes the socket did not take at once.
    wake: Notify,
}

impl Connection {
    fn lock(&self) -> std::sync::MutexGuard<'_, Outgoing> {
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// The write side of a connection and what decides what it is sent.
struct Outgoing {
    write: Pin<Box<dyn AsyncWrite + Send>>,
    client: Client,
    /// Bytes to write before anything else, in order (whole frames, but for the front one, of
    /// which `offset` bytes went out).
    pending: VecDeque<Arc<[u8]>>,
    offset: usize,
    pending_bytes: usize,
    /// Batches were dropped while the client was behind: it gets the latest tickers and books
    /// once `pending` is written.
    behind: bool,
    /// When the next `HEARTBEAT` is due, and the period.
    next_heartbeat: Instant,
    heartbeat_every: Duration,
    /// The client's task has ended.
    closed: bool,
}

impl Outgoing {
    /// Queues `bytes` after what is pending.
    fn queue(&mut self, bytes: Arc<[u8]>) {
        if !bytes.is_empty() {
            self.pending_bytes += bytes.len();
            self.pending.push_back(bytes);
        }
    }

    /// Writes what it can of `pending` at once; `Ready(Err)` when the connection failed. With
    /// `cx` of the client's task, a socket without room wakes that task when it has.
    fn poll_pending(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), ()>> {
        while let Some(front) = self.pending.front() {
            match self.write.as_mut().poll_write(cx, &front[self.offset..]) {
                Poll::Ready(Ok(0) | Err(_)) => return Poll::Ready(Err(())),
                Poll::Ready(Ok(n)) => {
                    self.offset += n;
                    self.pending_bytes -= n;
                    if self.offset == front.len() {
                        self.pending.pop_front();
                        self.offset = 0;
                    }
                }
                Poll::Pending => return Poll::Pending,
            }
        }
        Poll::Ready(Ok(()))
    }

    /// As [`Outgoing::poll_pending`], and once written, when batches were dropped meanwhile, the
    /// latest tickers and books of the client's subscriptions (queued and written in turn).
    fn poll_caught_up(&mut self, cx: &mut Context<'_>, hub: &MarketHub) -> Poll<Result<(), ()>> {
        loop {
            match self.poll_pending(cx) {
                Poll::Ready(Ok(())) if self.behind => {
                    self.behind = false;
                    let mut out = Vec::new();
                    for text in snapshots(hub, &mut self.client, None) {
                        frame::put_frame(&mut out, frame::OP_TEXT, text.as_bytes());
                    }
                    self.queue(Arc::from(out));
                }
                other => return other,
            }
        }
    }

    /// What is left to write of the front of `pending` (a close frame must start on a frame
    /// boundary); the rest is dropped.
    fn cut(&mut self) -> Vec<u8> {
        let rest = self
            .pending
            .front()
            .map(|front| front[self.offset..].to_vec())
            .unwrap_or_default();
        self.pending.clear();
        self.offset = 0;
        self.pending_bytes = 0;
        rest
    }
}

/// A writer: every batch of the broadcast to each of its connections, in turn. A connection with
/// nothing pending is written at once with the batch's shared bytes (and a `HEARTBEAT` when one is
/// due); what the socket does not take waits in `pending` for the client's task, which is told.
/// Behind a connection's pending bytes a batch is queued, up to [`PENDING_LIMIT`]; past it the
/// batch is dropped and the client gets the latest tickers and books when it catches up.
async fn write_batches(
    mut events: Receiver<Batch>,
    mut joined: mpsc::UnboundedReceiver<Arc<Connection>>,
) {
    let mut connections: Vec<Arc<Connection>> = Vec::new();
    loop {
        let batch = match events.recv().await {
            Ok(batch) => Some(batch),
            Err(RecvError::Lagged(missed)) => {
                tracing::debug!(missed, "market writer lagged; clients get the latest");
                None
            }
            Err(RecvError::Closed) => return,
        };
        while let Ok(connection) = joined.try_recv() {
            connections.push(connection);
        }
        // One reading of the clock for the batch: whether a heartbeat is due is a matter of
        // seconds, the fan-out one of milliseconds.
        let now = Instant::now();
        let mut at = 0;
        while at < connections.len() {
            let open = write_batch(&connections[at], batch.as_deref(), now);
            if open {
                at += 1;
            } else {
                connections.swap_remove(at);
            }
            // A writer does not hold its worker for a whole fan-out.
            tokio::task::consume_budget().await;
        }
    }
}

/// Writes `batch` (`None`: batches were missed) to `connection` at `now`; `false` once its task
/// has ended.
fn write_batch(connection: &Connection, batch: Option<&Published>, now: Instant) -> bool {
    let mut state = connection.lock();
    if state.closed {
        return false;
    }
    let Some(batch) = batch else {
        state.behind = true;
        connection.wake.notify_one();
        return true;
    };
    let state = &mut *state;
    if !state.pending.is_empty() || state.behind {
        if !state.behind && state.pending_bytes < PENDING_LIMIT {
            let bytes = shared_write(batch, &mut state.client);
            state.queue(bytes);
        } else {
            state.behind = true;
        }
        connection.wake.notify_one();
        return true;
    }
    let mut bytes = shared_write(batch, &mut state.client);
    if bytes.is_empty() {
        return true;
    }
    // A heartbeat due within the last quarter of its period rides on this write (a tick comes
    // every second, a heartbeat every 10 s: while ticks flow the client's timer sends none).
    if now + state.heartbeat_every / 4 >= state.next_heartbeat {
        let mut out = Vec::with_capacity(bytes.len() + 64);
        out.extend_from_slice(&bytes);
        put_heartbeat(&mut out);
        bytes = Arc::from(out);
        state.next_heartbeat = now + state.heartbeat_every;
    }
    state.queue(bytes);
    let mut cx = Context::from_waker(std::task::Waker::noop());
    if !matches!(state.poll_pending(&mut cx), Poll::Ready(Ok(()))) {
        // The rest waits for the client's task (which writes with its own waker, or ends).
        connection.wake.notify_one();
    }
    true
}

/// Serves one client on `io`, the upgraded connection, until it leaves or is closed: reads its
/// messages and answers them, reads the candles' broadcast while it has a kline subscription,
/// sends heartbeats when no tick carried one, and writes what the writer left pending within
/// [`SEND_TIMEOUT`].
async fn serve<S>(io: S, hub: Arc<MarketHub>, lang: Lang, limits: Limits)
where
    S: AsyncRead + AsyncWrite + Send + Unpin + 'static,
{
    let (mut read, write) = tokio::io::split(io);
    let every = limits.heartbeat_every;
    let connection = Arc::new(Connection {
        state: std::sync::Mutex::new(Outgoing {
            write: Box::pin(write),
            client: Client::default(),
            pending: VecDeque::new(),
            offset: 0,
            pending_bytes: 0,
            behind: false,
            next_heartbeat: Instant::now() + every,
            heartbeat_every: every,
            closed: false,
        }),
        wake: Notify::new(),
    });
    hub.writers().join(connection.clone());
    // The candles' broadcast, read only while the client has a kline subscription.
    let mut klines: Option<Receiver<Batch>> = None;
    let mut reader = FrameReader::new(MAX_CLIENT_MESSAGE);
    let heartbeat = tokio::time::sleep(every);
    tokio::pin!(heartbeat);
    let mut last_heard = Instant::now();

    let end = loop {
        let mut out: Vec<u8> = Vec::new();
        let mut ended = None;
        let mut write = false;
        tokio::select! {
            biased;
            _ = connection.wake.notified() => write = true,
            Some(event) = next_candle(&mut klines) => {
                if let Some(candles) = klines.as_mut() {
                    let mut state = connection.lock();
                    if !take_published(event, candles, &hub, &mut state.client, &mut out) {
                        break End::ClientLeft;
                    }
                    state.queue(Arc::from(std::mem::take(&mut out)));
                    write = true;
                }
            }
            incoming = read.read_buf(reader.buffer(READ_CHUNK)) => match incoming {
                Ok(0) | Err(_) => break End::ClientLeft,
                Ok(_) => {
                    last_heard = Instant::now();
                    // Answered and queued in one hold of the lock: a batch the writer sends
                    // meanwhile goes before the answers or after them, never between a
                    // snapshot and the state it was read from.
                    let mut state = connection.lock();
                    ended = read_incoming(&mut reader, &hub, &mut state.client, &mut klines, lang, &mut out);
                    state.queue(Arc::from(std::mem::take(&mut out)));
                    drop(state);
                    write = true;
                    reader.shrink();
                }
            },
            _ = &mut heartbeat => {
                if last_heard.elapsed() > limits.idle_limit {
                    break End::Idle;
                }
                let mut state = connection.lock();
                // While ticks flow the writer sends the heartbeats: this one is due only when
                // none went out in the period.
                let now = Instant::now();
                if now >= state.next_heartbeat {
                    put_heartbeat(&mut out);
                    state.queue(Arc::from(std::mem::take(&mut out)));
                    state.next_heartbeat = now + every;
                    write = true;
                }
                heartbeat.as_mut().reset(state.next_heartbeat);
            }
        }
        if write {
            let written = std::future::poll_fn(|cx| connection.lock().poll_caught_up(cx, &hub));
            match tokio::time::timeout(limits.send_timeout, written).await {
                Ok(Ok(())) => {}
                Ok(Err(())) => break End::ClientLeft,
                Err(_) => break End::TooSlow,
            }
        }
        if let Some(end) = ended {
            break end;
        }
    };
    // The writer stops writing; the rest of a write cut short goes first: a close frame must
    // start on a frame boundary.
    let (mut last, mut write) = {
        let mut state = connection.lock();
        state.closed = true;
        let write = std::mem::replace(&mut state.write, Box::pin(tokio::io::sink()));
        (state.cut(), write)
    };
    match end {
        End::ClientLeft => return,
        End::ClientClosed(code) => match code {
            Some(code) => frame::put_close(&mut last, code, ""),
            None => frame::put_frame(&mut last, frame::OP_CLOSE, &[]),
        },
        End::TooSlow => frame::put_close(
            &mut last,
            frame::CLOSE_POLICY,
            &translate(lang, Msg::TooSlow, &[]),
        ),
        End::Idle => frame::put_close(&mut last, frame::CLOSE_POLICY, "idle"),
        End::Invalid(code, reason) => frame::put_close(&mut last, code, reason),
    }
    let close = async {
        write.write_all(&last).await?;
        write.flush().await
    };
    let _ = tokio::time::timeout(limits.send_timeout, close).await;
    let _ = tokio::time::timeout(limits.send_timeout, write.shutdown()).await;
}

/// Adds a `HEARTBEAT` frame to `out`.
fn put_heartbeat(out: &mut Vec<u8>) {
    let text = json!({"type": "HEARTBEAT", "ts": crate::clock::now_ms()}).to_string();
    frame::put_frame(out, frame::OP_TEXT, text.as_bytes());
}

/// Handles everything whole that the client has sent, adding the answers to `out`; what ends
/// the connection, if the client closed it or broke the protocol.
fn read_incoming(
    reader: &mut FrameReader,
    hub: &MarketHub,
    client: &mut Client,
    klines: &mut Option<Receiver<Batch>>,
    lang: Lang,
    out: &mut Vec<u8>,
) -> Option<End> {
    while let Some(incoming) = reader.next_incoming() {
        let answers = match incoming {
            Incoming::Text(text) => {
                // Listening before a kline subscription reads its snapshot: nothing falls
                // between the two.
                let candles = klines.take().unwrap_or_else(|| hub.subscribe_klines());
                let answers = handle(&text, hub, client, lang);
                *klines = client.wants_klines().then_some(candles);
                answers
            }
            Incoming::TooLong => vec![bad_message(lang)],
            Incoming::Other => Vec::new(),
            Incoming::Ping(payload) => {
                frame::put_frame(out, frame::OP_PONG, &payload);
                Vec::new()
            }
            Incoming::Close(code) => return Some(End::ClientClosed(code)),
            Incoming::Invalid(code, reason) => return Some(End::Invalid(code, reason)),
        };
        for answer in answers {
            frame::put_frame(out, frame::OP_TEXT, answer.as_bytes());
        }
    }
    None
}

/// The next batch of the candles' broadcast; never, while the client reads none (`None`).
async fn next_candle(klines: &mut Option<Receiver<Batch>>) -> Option<Result<Batch, RecvError>> {
    match klines {
        Some(receiver) => Some(receiver.recv().await),
        None => std::future::pending().await,
    }
}

/// Takes `first` (what `recv` gave) and every batch already published after it, up to [`BATCH`],
/// adding the frames the client wants to `out`. A client that fell behind gets the latest tickers
/// and books instead of what it missed. `false` when the broadcast has ended.
fn take_published(
    first: Result<Batch, RecvError>,
    events: &mut Receiver<Batch>,
    hub: &MarketHub,
    client: &mut Client,
    out: &mut Vec<u8>,
) -> bool {
    let mut next = first;
    for taken in 1.. {
        match next {
            Ok(batch) => add_wanted(&batch, client, out),
            Err(RecvError::Lagged(missed)) => {
                tracing::debug!(
                    missed,
                    "market client lagged; sending latest tickers and books"
                );
                for text in snapshots(hub, client, None) {
                    frame::put_frame(out, frame::OP_TEXT, text.as_bytes());
                }
            }
            Err(RecvError::Closed) => return false,
        }
        if taken == BATCH {
            break;
        }
        next = match events.try_recv() {
            Ok(batch) => Ok(batch),
            Err(TryRecvError::Empty) => break,
            Err(TryRecvError::Lagged(missed)) => Err(RecvError::Lagged(missed)),
            // Sent before the sender went: recv reports it on the next wake-up.
            Err(TryRecvError::Closed) => break,
        };
    }
    true
}

/// Adds the frames of `batch` the client wants to `out` (and notes the sequences it then holds).
fn add_wanted(batch: &[MarketEvent], client: &mut Client, out: &mut Vec<u8>) {
    for event in batch {
        if client.wants(event) {
            if event.topic.is_sequenced() {
                client.hold(event.topic, event.seq);
            }
            if out.capacity() == 0 {
                out.reserve(WRITE_START);
            }
            out.extend_from_slice(event.frame());
        }
    }
}

/// The frames of `batch` the client wants, as [`add_wanted`] would add them, shared with every
/// client of the same subscriptions holding the same sequences: the first of them builds the
/// bytes, the others take a reference count and the sequences they then hold.
fn shared_write(batch: &Published, client: &mut Client) -> Arc<[u8]> {
    if let Some((bytes, held)) = batch.written(&client.topics, &client.held) {
        client.held.clear();
        client.held.extend_from_slice(&held);
        return bytes;
    }
    let before = client.held.clone();
    let mut out = Vec::new();
    add_wanted(batch, client, &mut out);
    let bytes: Arc<[u8]> = Arc::from(out);
    batch.keep_written(
        &client.topics,
        &before,
        Arc::from(client.held.as_slice()),
        bytes.clone(),
    );
    bytes
}

/// The `error` answer to a message that cannot be read.
fn bad_message(lang: Lang) -> String {
    json!({"type": "error", "code": 400, "msg": translate(lang, Msg::BadMessage, &[])}).to_string()
}

impl Client {
    /// Whether `event` goes to this client: subscribed, and for depth and trades newer than what
    /// it holds (a diff or trades already inside its snapshot are skipped).
    fn wants(&self, event: &MarketEvent) -> bool {
        let topic = event.topic;
        if self.topics.binary_search(&topic).is_err()
            && self.topics.binary_search(&topic.every_pair()).is_err()
        {
            return false;
        }
        !topic.is_sequenced() || self.held(topic).is_none_or(|held| event.seq > held)
    }

    /// Rebuilds [`Client::topics`] after the subscriptions changed.
    fn refresh_topics(&mut self, hub: &MarketHub) {
        self.topics = self
            .subscriptions
            .iter()
            .flat_map(|(channel, symbols)| symbols.iter().filter_map(|s| hub.topic(channel, s)))
            .collect();
        self.topics.sort_unstable();
    }

    /// Where the client stands in `topic` (a depth `seq`, a trade id), if anywhere.
    fn held(&self, topic: Topic) -> Option<u64> {
        self.held
            .iter()
            .find(|(held, _)| *held == topic)
            .map(|(_, seq)| *seq)
    }

    /// Whether the client has a kline subscription (and so reads the candles' broadcast).
    fn wants_klines(&self) -> bool {
        self.subscriptions
            .keys()
            .any(|key| key.starts_with("kline:"))
    }

    /// Records `seq` as where the client stands in `topic`.
    fn hold(&mut self, topic: Topic, seq: u64) {
        hold(&mut self.held, topic, seq);
    }
}

/// Records `seq` as where a client stands in `topic` in its `held` list.
fn hold(held: &mut Vec<(Topic, u64)>, topic: Topic, seq: u64) {
    match held.iter_mut().find(|(known, _)| *known == topic) {
        Some((_, known)) => *known = seq,
        None => held.push((topic, seq)),
    }
}

fn is_subscribed(subscriptions: &Subscriptions, channel: &str, symbol: &str) -> bool {
    subscriptions
        .get(channel)
        .is_some_and(|symbols| symbols.contains(symbol) || symbols.contains("*"))
}

/// The latest ticker and book of every pair the client is subscribed to (`only`: of one
/// subscription), and the recent trades when `only` is a trade subscription. Books sent are
/// remembered, so the diffs they include are skipped.
fn snapshots(hub: &MarketHub, client: &mut Client, only: Option<(&str, &str)>) -> Vec<String> {
    let wanted = |channel: &str, symbol: &str| match only {
        Some((c, s)) => c == channel && (s == "*" || s == symbol),
        None => is_subscribed(&client.subscriptions, channel, symbol),
    };
    let mut symbols = hub.symbols();
    symbols.sort();
    let mut out = Vec::new();
    for symbol in symbols {
        if wanted("ticker", &symbol)
            && let Some(ticker) = hub.ticker(&symbol)
        {
            out.push(ticker_message(&symbol, &ticker));
        }
        if wanted("depth", &symbol)
            && let Some(book) = hub.book(&symbol)
        {
            out.push(depth_snapshot_message(&symbol, &book));
            if let Some(topic) = hub.topic("depth", &symbol) {
                hold(&mut client.held, topic, book.seq);
            }
        }
        if only.is_some() && wanted("trade", &symbol) {
            let recent = hub.recent_trades(&symbol, TRADE_SNAPSHOT);
            // Newest first: the live messages of trades already in the snapshot are skipped.
            if let (Some(newest), Some(topic)) = (recent.first(), hub.topic("trade", &symbol)) {
                hold(&mut client.held, topic, newest.id);
            }
            out.push(trades_message(&symbol, &recent, true));
        }
        if wanted("detail", &symbol)
            && let Some(detail) = hub.detail(&symbol)
        {
            out.push(detail_message(&symbol, &detail));
        }
        for interval in Interval::ALL {
            if wanted(kline_channel(interval), &symbol)
                && let Some(candle) = hub.live_kline(&symbol, interval)
            {
                out.push(kline_message("kline", &symbol, interval, &candle));
            }
        }
    }
    if wanted("simpleData", "*") {
        out.push(hub.simple_data_message(crate::clock::now_ms()));
    }
    out
}

/// Applies one client message and returns the answers to send.
fn handle(text: &str, hub: &MarketHub, client: &mut Client, lang: Lang) -> Vec<String> {
    let error = |msg: Msg, params: &[(&str, &str)]| {
        json!({"type": "error", "code": 400, "msg": translate(lang, msg, params)}).to_string()
    };
    if text.len() > MAX_CLIENT_MESSAGE {
        return vec![bad_message(lang)];
    }
    let message = match serde_json::from_str::<ClientMessage>(text) {
        Ok(message) => message,
        Err(_) => return vec![bad_message(lang)],
    };
    match message {
        ClientMessage::Ping { ts } => vec![json!({"type": "pong", "ts": ts}).to_string()],
        ClientMessage::Subscribe {
            channel,
            symbol,
            interval,
        } => {
            let key = match channel_key(&channel, interval.as_deref()) {
                Ok(key) => key,
                Err((msg, name, value)) => return vec![error(msg, &[(name, &value)])],
            };
            let symbol = if key == "simpleData" {
                "*".to_owned()
            } else {
                symbol.to_ascii_lowercase()
            };
            if symbol != "*" && hub.ticker(&symbol).is_none() {
                return vec![error(Msg::UnknownSymbol, &[("symbol", &symbol)])];
            }
            client
                .subscriptions
                .entry(key)
                .or_default()
                .insert(symbol.clone());
            client.refresh_topics(hub);
            let mut ack = json!({"type": "subscribed", "channel": channel, "symbol": symbol});
            if let Some(interval) = key.strip_prefix("kline:") {
                ack["interval"] = json!(interval);
            }
            let mut answers = vec![ack.to_string()];
            answers.extend(snapshots(hub, client, Some((key, &symbol))));
            answers
        }
        ClientMessage::Unsubscribe {
            channel,
            symbol,
            interval,
        } => {
            let key = match channel_key(&channel, interval.as_deref()) {
                Ok(key) => key,
                Err((msg, name, value)) => return vec![error(msg, &[(name, &value)])],
            };
            let symbol = symbol.to_ascii_lowercase();
            if let Some(symbols) = client.subscriptions.get_mut(key) {
                symbols.remove(&symbol);
                if symbols.is_empty() {
                    client.subscriptions.remove(key);
                }
            }
            client.refresh_topics(hub);
            if let Some(topic) = hub.topic(key, &symbol) {
                // `*` lets go of every pair of the channel.
                let every = symbol == "*";
                client.held.retain(|(held, _)| {
                    if every {
                        held.every_pair() != topic.every_pair()
                    } else {
                        *held != topic
                    }
                });
            }
            vec![json!({"type": "unsubscribed", "channel": channel, "symbol": symbol}).to_string()]
        }
    }
}

/// The subscription key of `channel` (for `kline`, per interval: `kline:1m`), or the message
/// that explains why it is refused.
fn channel_key(
    channel: &str,
    interval: Option<&str>,
) -> Result<&'static str, (Msg, &'static str, String)> {
    let known = CHANNELS
        .iter()
        .find(|c| **c == channel)
        .ok_or_else(|| (Msg::UnknownChannel, "channel", channel.to_owned()))?;
    if *known != "kline" {
        return Ok(known);
    }
    let text = interval.unwrap_or_default();
    Interval::parse(text.trim())
        .map(kline_channel)
        .map_err(|_| (Msg::UnknownInterval, "interval", text.to_owned()))
}

/// Upgrades to the business notice channel `GET /ws/business/notice`: an `OWNCOIN` message for every
/// newly listed pair, `HEARTBEAT` every [`HEARTBEAT_EVERY`]; clients may send `{"op":"ping"}`.
#[handler]
pub fn business_notice(ws: WebSocket, Data(hub): Data<&Arc<MarketHub>>) -> impl IntoResponse {
    let mut notices = hub.subscribe_notices();
    ws.on_upgrade(move |socket| async move {
        let (mut sink, mut stream) = socket.split();
        let mut heartbeat =
            tokio::time::interval_at(Instant::now() + HEARTBEAT_EVERY, HEARTBEAT_EVERY);
        let mut last_heard = Instant::now();
        loop {
            let text = tokio::select! {
                incoming = stream.next() => match incoming {
                    Some(Ok(Message::Text(text))) => {
                        last_heard = Instant::now();
                        match serde_json::from_str::<ClientMessage>(&text) {
                            Ok(ClientMessage::Ping { ts }) => json!({"type": "pong", "ts": ts}).to_string(),
                            _ => continue,
                        }
                    }
                    Some(Ok(Message::Close(_))) | None | Some(Err(_)) => break,
                    Some(Ok(_)) => {
                        last_heard = Instant::now();
                        continue;
                    }
                },
                notice = notices.recv() => match notice {
                    Ok(text) => text.to_string(),
                    // Listings are rare; a client this far behind has stopped reading.
                    Err(_) => break,
                },
                _ = heartbeat.tick() => {
                    if last_heard.elapsed() > CLIENT_IDLE_LIMIT {
                        break;
                    }
                    json!({"type": "HEARTBEAT", "ts": crate::clock::now_ms()}).to_string()
                }
            };
            match tokio::time::timeout(SEND_TIMEOUT, sink.send(Message::Text(text))).await {
                Ok(Ok(())) => {}
                _ => break,
            }
        }
    })
}

#[cfg(test)]
mod tests;
