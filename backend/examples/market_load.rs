//! Load tool for the market channel `GET /ws/market/{clientId}` (a benchmark, not a test).
//!
//! Opens N WebSocket clients on loopback (default 10,000), each subscribed to `ticker`, `depth` and
//! `trade` of eight pairs, keeps them for `--secs` after every client is subscribed, and reports:
//! connect time, messages per second, delivery latency (the server's `ts` in a message against the
//! time the kernel received it into the client's socket — one machine, one clock — and, beside
//! it, against the time this tool read it), clients starved (nothing for more than 5 s, or closed
//! by the server), the server's memory per connection and the CPU it used.
//!
//! By default the server is `target/release/backend serve` started by the tool as its own process
//! (fresh SQLite database in a temporary folder, free port, simulator at its normal rate), so its
//! memory and CPU are read from `/proc/<pid>` apart from the clients'. `--in-process` runs it in
//! this process instead (on its own runtime; memory is then the sum of both), `--url` uses a
//! running server (`--server-pid` to read its memory and CPU).
//!
//! ```text
//! cargo build --release -p backend --bins --examples
//! cargo run --release -p backend --example market_load -- --clients 10000 --secs 60
//! ```
//!
//! The clients are light. Each connects and subscribes in a task of a two-worker tokio runtime,
//! then is handed to one of two reader threads, which wait on an epoll set of their own and read
//! every client whose data arrived, in a plain loop (no task, wake-up or timer per message). The
//! WebSocket is spoken by hand on a plain `TcpStream` (the opening handshake with its accept key
//! checked, masked frames out, server frames read in place: no message objects, no copies; a reader
//! thread receives every client's data into one buffer of its own, and only the start of a frame
//! cut by a read waits in the client's). Every message of one read is stamped with the arrival
//! time the kernel gives with the read (`SO_TIMESTAMPNS`: that of the last segment read, so a
//! message is never stamped before it arrived) and with the read's own time. A server frame that
//! is masked, fragmented or not UTF-8 text ends the client with an error (the server never sends
//! one). Of every message only `type`, `ts`, and for depth `symbol`, `kind`,
//! `seq` and `prevSeq` are read, walking its keys back from its end once (no JSON parse). The
//! counts every message adds to (latency histograms, each tick's first and last latency) are kept
//! per thread and summed at the end, so the two readers do not contend for the same cache lines.
//! The tool competes with the server for the same cores: on a 2-core machine its own CPU is
//! reported beside the server's. The reader threads run under `SCHED_IDLE` (`--reader-policy`):
//! they read on CPUs the server leaves idle, as clients on machines of their own would, so the
//! tool takes no CPU from a tick's fan-out; since a message's delivery is stamped by the kernel on
//! arrival, when the tool gets to read it changes only the read latency, reported beside it. A
//! message counts in the window when it arrived in it.

mod support;

use std::{
    collections::HashMap,
    os::fd::AsRawFd,
    path::PathBuf,
    process::ExitCode,
    sync::{
        Arc, Mutex, OnceLock,
        atomic::{AtomicBool, AtomicI64, AtomicU8, AtomicU64, AtomicUsize, Ordering::Relaxed},
    },
    time::{Duration, Instant},
};

use clap::Parser;
use tokio::{
    io::{AsyncReadExt, AsyncWriteExt},
    net::TcpStream,
    sync::Semaphore,
};

use support::{CpuMark, ServerProcess};

/// The pairs every client subscribes to.
const SYMBOLS: [&str; 8] = [
    "btcusdt", "ethusdt", "bnbusdt", "solusdt", "xrpusdt", "dogeusdt", "adausdt", "ltcusdt",
];
/// The channels every client subscribes to, per pair.
const CHANNELS: [&str; 3] = ["ticker", "depth", "trade"];
/// Silence longer than this makes a client starved.
const STARVED_AFTER: Duration = Duration::from_secs(5);
/// How often a client pings (as the webapp does; the server closes clients silent for 60 s).
const PING_EVERY: Duration = Duration::from_secs(15);
/// How long the readers go on after the window, for what arrived in it and was not read yet.
const READ_GRACE: Duration = Duration::from_millis(500);
/// Latencies above this land in the last bucket (the maximum is kept exactly).
const HISTOGRAM_MS: usize = 60_000;
/// WebSocket opcodes read or written.
const OP_TEXT: u8 = 0x1;
const OP_CLOSE: u8 = 0x8;
const OP_PING: u8 = 0x9;
const OP_PONG: u8 = 0xA;

/// Market channel load: N WebSocket clients, each on ticker, depth and trade of 8 pairs.
#[derive(Parser, Debug)]
#[command(version, about)]
struct Args {
    /// Number of WebSocket clients.
    #[arg(long, default_value_t = 10_000, env = "MARKET_LOAD_CLIENTS")]
    clients: usize,
    /// Seconds measured after every client is subscribed.
    #[arg(long, default_value_t = 60, env = "MARKET_LOAD_SECS")]
    secs: u64,
    /// A running server (`http://127.0.0.1:8080`) instead of starting one.
    #[arg(long, conflicts_with = "in_process")]
    url: Option<String>,
    /// With `--url`: the server's process id, to read its memory and CPU.
    #[arg(long, requires = "url")]
    server_pid: Option<u32>,
    /// Run the server in this process (its memory is then mixed with the clients').
    #[arg(long)]
    in_process: bool,
    /// The backend binary started as the server.
    #[arg(long)]
    server_bin: Option<PathBuf>,
    /// Milliseconds between two simulator ticks (the default is the simulator's normal rate).
    #[arg(long, default_value_t = 1000)]
    tick_ms: u64,
    /// Clients connecting at the same time.
    #[arg(long, default_value_t = 128)]
    connect_concurrency: usize,
    /// Threads that read the subscribed clients while measuring (each a loop on its own epoll set).
    #[arg(long, default_value_t = 2)]
    readers: usize,
    /// How the reader threads are scheduled: `idle` (Linux `SCHED_IDLE`: only on a CPU the server
    /// leaves idle), `batch` (`SCHED_BATCH`: a reader woken by a client's data does not preempt
    /// the server; it runs when a CPU is free) or `normal`.
    #[arg(long, value_enum, default_value_t = ReaderPolicy::Idle)]
    reader_policy: ReaderPolicy,
    /// Give up on connecting after this many seconds.
    #[arg(long, default_value_t = 600)]
    connect_timeout: u64,
}

/// How the reader threads are scheduled (see `--reader-policy`).
#[derive(clap::ValueEnum, Debug, Clone, Copy, PartialEq, Eq)]
enum ReaderPolicy {
    /// `SCHED_BATCH`: the clients are the harness, not the system measured; on shared cores a
    /// reader woken by every arriving message would preempt the server's writers (a thousand times
    /// a second each), which a client on a machine of its own never does.
    Batch,
    /// The default policy (`SCHED_OTHER`), with wake-up preemption.
    Normal,
    /// `SCHED_IDLE`: a reader runs only on a CPU nothing else wants, so the tool takes no CPU
    /// from the server while it sends, as clients on machines of their own take none; the
    /// delivery latency, stamped by the kernel on arrival, does not depend on when the tool reads
    /// (the read latency does).
    Idle,
}

impl ReaderPolicy {
    /// Applies the policy to the calling thread.
    fn apply(self) -> std::io::Result<()> {
        let policy = match self {
            ReaderPolicy::Batch => libc::SCHED_BATCH,
            ReaderPolicy::Normal => libc::SCHED_OTHER,
            ReaderPolicy::Idle => libc::SCHED_IDLE,
        };
        let param = libc::sched_param { sched_priority: 0 };
        // SAFETY: pid 0 is the calling thread; `param` lives through the call.
        if unsafe { libc::sched_setscheduler(0, policy, &param) } == 0 {
            Ok(())
        } else {
            Err(std::io::Error::last_os_error())
        }
    }
}

/// Shards of what every client updates (histograms, the per-tick extremes): each thread updates
/// its own, so the tool's two reader threads do not contend for the same cache lines on every message.
const SHARDS: usize = 4;

/// The shard of the calling thread.
fn shard() -> usize {
    static NEXT: AtomicUsize = AtomicUsize::new(0);
    thread_local! {
        static SHARD: usize = NEXT.fetch_add(1, Relaxed) % SHARDS;
    }
    SHARD.with(|shard| *shard)
}

/// Latency counts per millisecond, shared by every client (one set of counts per shard, summed
/// when read).
struct Histogram {
    buckets: Box<[Box<[AtomicU64]>]>,
    max: AtomicI64,
    /// Messages stamped after they were received (clock granularity), counted as 0 ms.
    early: AtomicU64,
}

impl Histogram {
    fn new() -> Self {
        Self {
            buckets: (0..SHARDS)
                .map(|_| (0..=HISTOGRAM_MS).map(|_| AtomicU64::new(0)).collect())
                .collect(),
            max: AtomicI64::new(i64::MIN),
            early: AtomicU64::new(0),
        }
    }

    fn record(&self, ms: i64) {
        if ms < 0 {
            self.early.fetch_add(1, Relaxed);
        }
        let index = (ms.max(0) as usize).min(HISTOGRAM_MS);
        self.buckets[shard()][index].fetch_add(1, Relaxed);
        // Read first: a shared maximum written by every message would be contended.
        if ms > self.max.load(Relaxed) {
            self.max.fetch_max(ms, Relaxed);
        }
    }

    fn counts(&self) -> Vec<u64> {
        (0..=HISTOGRAM_MS)
            .map(|i| self.buckets.iter().map(|b| b[i].load(Relaxed)).sum())
            .collect()
    }
}

/// Percentiles of one or more histograms' counts.
struct Summary {
    count: u64,
    p50: usize,
    p90: usize,
    p99: usize,
    p999: usize,
    max: i64,
    min: usize,
}

fn summarise(histograms: &[&Histogram]) -> Option<Summary> {
    let mut counts = vec![0u64; HISTOGRAM_MS + 1];
    for histogram in histograms {
        for (total, count) in counts.iter_mut().zip(histogram.counts()) {
            *total += count;
        }
    }
    let count: u64 = counts.iter().sum();
    if count == 0 {
        return None;
    }
    let at = |q: f64| {
        let rank = ((q * count as f64).ceil() as u64).max(1);
        let mut seen = 0;
        for (ms, n) in counts.iter().enumerate() {
            seen += n;
            if seen >= rank {
                return ms;
            }
        }
        HISTOGRAM_MS
    };
    Some(Summary {
        count,
        p50: at(0.50),
        p90: at(0.90),
        p99: at(0.99),
        p999: at(0.999),
        max: histograms.iter().map(|h| h.max.load(Relaxed)).max()?,
        min: counts.iter().position(|n| *n > 0).unwrap_or(0),
    })
}

const CONNECTING: u8 = 0;
const MEASURING: u8 = 1;
const DONE: u8 = 2;

/// What every client shares.
struct Shared {
    phase: AtomicU8,
    /// The window on the clock the server stamps with (ms since the epoch, from inclusive, until
    /// exclusive): a message counts when it *arrived* in it, however late the tool read it.
    window_from_ms: AtomicI64,
    window_until_ms: AtomicI64,
    window_start: OnceLock<Instant>,
    window_end: OnceLock<Instant>,
    connected: AtomicUsize,
    ready: AtomicUsize,
    failed: AtomicUsize,
    ticker: Histogram,
    depth: Histogram,
    trade: Histogram,
    heartbeat: Histogram,
    /// Data messages (ticker, depth and TRADE) by the time the tool read them, not their arrival.
    read: Histogram,
    /// Reads for which the kernel gave no arrival time (their messages are stamped when read).
    unstamped: AtomicU64,
    /// Per tick (`ts`): the earliest and latest delivery latency of any client, in ms (per shard).
    ticks: Box<[Mutex<TickExtremes>]>,
}

impl Shared {
    /// Before the first client connects: no window yet.
    fn new() -> Self {
        Self {
            phase: AtomicU8::new(CONNECTING),
            window_from_ms: AtomicI64::new(i64::MAX),
            window_until_ms: AtomicI64::new(i64::MAX),
            window_start: OnceLock::new(),
            window_end: OnceLock::new(),
            connected: AtomicUsize::new(0),
            ready: AtomicUsize::new(0),
            failed: AtomicUsize::new(0),
            ticker: Histogram::new(),
            depth: Histogram::new(),
            trade: Histogram::new(),
            heartbeat: Histogram::new(),
            read: Histogram::new(),
            unstamped: AtomicU64::new(0),
            ticks: (0..SHARDS).map(|_| Mutex::new(HashMap::new())).collect(),
        }
    }

    /// Whether a message that arrived at `arrived_ms` arrived in the window.
    fn in_window(&self, arrived_ms: i64) -> bool {
        self.window_from_ms.load(Relaxed) <= arrived_ms
            && arrived_ms < self.window_until_ms.load(Relaxed)
    }

    fn merge_tick(&self, ts: i64, first: i64, last: i64) {
        let mut ticks = self.ticks[shard()]
            .lock()
            .unwrap_or_else(|e| e.into_inner());
        merge(&mut ticks, ts, (first, last));
    }

    /// Every tick's extremes, over all shards.
    fn take_ticks(&self) -> TickExtremes {
        let mut all = HashMap::new();
        for shard in self.ticks.iter() {
            let ticks = std::mem::take(&mut *shard.lock().unwrap_or_else(|e| e.into_inner()));
            for (ts, extremes) in ticks {
                merge(&mut all, ts, extremes);
            }
        }
        all
    }
}

/// Per tick (`ts`): the earliest and latest delivery latency, in ms.
type TickExtremes = HashMap<i64, (i64, i64)>;

/// Widens tick `ts`'s extremes in `ticks` by `(first, last)`.
fn merge(ticks: &mut TickExtremes, ts: i64, (first, last): (i64, i64)) {
    let entry = ticks.entry(ts).or_insert((first, last));
    entry.0 = entry.0.min(first);
    entry.1 = entry.1.max(last);
}

/// What one client saw.
#[derive(Default)]
struct ClientReport {
    connect: Option<Duration>,
    ready: Option<Duration>,
    error: Option<String>,
    /// The close frame's reason, when the server closed the connection.
    closed_by_server: Option<String>,
    /// The connection ended (closed, reset) while measuring.
    ended_in_window: bool,
    /// In the window: ticker, depth and TRADE messages.
    data_messages: u64,
    heartbeats: u64,
    others: u64,
    bytes: u64,
    /// In the window: depth snapshots (sent after the client fell behind).
    depth_snapshots: u64,
    /// In the window: diffs whose `prevSeq` was not the last `seq` held.
    depth_gaps: u64,
    /// The longest silence in the window.
    max_gap: Duration,
}

/// The fields the tool reads of a message, found in one pass over its end (see [`Fields::read`]).
#[derive(Debug, Default, PartialEq, Eq)]
struct Fields<'a> {
    /// `type`.
    kind: &'a str,
    /// `symbol`.
    symbol: Option<&'a str>,
    /// The last `ts` of the message: `data.ts` of ticker and depth, the newest trade's of `TRADE`.
    ts: Option<i64>,
    /// A depth message's `kind` (`snapshot` or `diff`), `seq` and `prevSeq`.
    depth_kind: Option<&'a str>,
    seq: Option<i64>,
    prev_seq: Option<i64>,
    /// A `TRADE` message's `snapshot`.
    snapshot: Option<bool>,
}

impl<'a> Fields<'a> {
    /// Reads the fields of `text` walking its keys backwards from its end, each byte at most
    /// once. The keys read sit near the end: `serde_json::json!` sorts the keys (`data` … `symbol`,
    /// `type` last), a depth message's `kind`, `prevSeq`, `seq` and `ts` close its `data` (after
    /// `asks` and `bids`), a `TRADE`'s newest trade (with its `ts`) is the last of `data`, and a
    /// ticker starts with `type` and closes its `data` with `ts`, `change`, `priceChangePercent`.
    /// The walk stops at the `ts` (and for depth at `kind`), or at `data`.
    fn read(text: &'a str) -> Self {
        let bytes = text.as_bytes();
        let mut fields = Fields::default();
        if let Some(rest) = text.strip_prefix("{\"type\":\"") {
            fields.kind = rest.split('"').next().unwrap_or("");
        }
        // `end`: where the part not yet walked ends; a key ends with `":`.
        let mut end = bytes.len();
        while let Some(colon) = memchr::memrchr(b':', &bytes[..end]) {
            end = colon;
            if colon == 0 || bytes[colon - 1] != b'"' {
                continue;
            }
            let Some(open) = memchr::memrchr(b'"', &bytes[..colon - 1]) else {
                break;
            };
            end = open;
            let key = &bytes[open + 1..colon - 1];
            let value = &text[colon + 1..];
            match key {
                b"type" if fields.kind.is_empty() => fields.kind = quoted(value).unwrap_or(""),
                b"symbol" if fields.symbol.is_none() => fields.symbol = quoted(value),
                b"ts" if fields.ts.is_none() => fields.ts = integer(value),
                b"seq" if fields.seq.is_none() => fields.seq = integer(value),
                b"prevSeq" if fields.prev_seq.is_none() => fields.prev_seq = integer(value),
                b"kind" if fields.depth_kind.is_none() => fields.depth_kind = quoted(value),
                b"snapshot" if fields.snapshot.is_none() => {
                    fields.snapshot = Some(value.starts_with("true"))
                }
                b"data" => break,
                _ => {}
            }
            if fields.ts.is_some() && (fields.kind != "depth" || fields.depth_kind.is_some()) {
                break;
            }
        }
        fields
    }
}

/// The string at the start of `value` (which starts with its opening quote).
fn quoted(value: &str) -> Option<&str> {
    let rest = value.strip_prefix('"')?;
    rest.get(..memchr::memchr(b'"', rest.as_bytes())?)
}

/// The integer at the start of `value`.
fn integer(value: &str) -> Option<i64> {
    let (negative, digits) = match value.as_bytes() {
        [b'-', rest @ ..] => (true, rest),
        rest => (false, rest),
    };
    let mut number: i64 = 0;
    let mut any = false;
    for digit in digits.iter().take_while(|b| b.is_ascii_digit()) {
        number = number
            .checked_mul(10)?
            .checked_add(i64::from(digit - b'0'))?;
        any = true;
    }
    any.then_some(if negative { -number } else { number })
}

fn symbol_index(symbol: Option<&str>) -> Option<usize> {
    SYMBOLS.iter().position(|s| Some(*s) == symbol)
}

/// Per-client reading state.
struct Reader {
    depth_seq: [Option<i64>; SYMBOLS.len()],
    /// The tick (`ts`) of the data messages being received, with their lowest and highest latency
    /// (merged into [`Shared::ticks`] once per tick).
    tick: Option<(i64, i64, i64)>,
    last_message: Instant,
    subscribed: usize,
    report: ClientReport,
}

impl Reader {
    /// Reads one message, read by the tool at `now`: `stamps` are its arrival in the client's
    /// socket and that read, in ms on the clock the server stamps with.
    fn on_text(&mut self, text: &str, shared: &Shared, now: Instant, stamps: Stamps) {
        let measuring = shared.in_window(stamps.arrived_ms);
        let fields = Fields::read(text);
        let mut histogram = None;
        match fields.kind {
            "ticker" => histogram = Some(&shared.ticker),
            "depth" => {
                let index = symbol_index(fields.symbol);
                if fields.depth_kind == Some("snapshot") {
                    if measuring {
                        self.report.depth_snapshots += 1;
                    }
                } else if let Some(i) = index
                    && self.depth_seq[i].is_some()
                    && fields.prev_seq != self.depth_seq[i]
                    && measuring
                {
                    self.report.depth_gaps += 1;
                }
                if let Some(i) = index {
                    self.depth_seq[i] = fields.seq;
                }
                histogram = Some(&shared.depth);
            }
            "TRADE" if fields.snapshot == Some(false) => histogram = Some(&shared.trade),
            "HEARTBEAT" => {
                if measuring {
                    self.report.heartbeats += 1;
                    if let Some(ts) = fields.ts {
                        shared.heartbeat.record(stamps.arrived_ms - ts);
                    }
                }
            }
            "subscribed" => self.subscribed += 1,
            _ => {
                if measuring {
                    self.report.others += 1;
                }
            }
        }
        if measuring {
            if let Some(histogram) = histogram {
                self.report.data_messages += 1;
                if let Some(ts) = fields.ts {
                    let ms = stamps.arrived_ms - ts;
                    histogram.record(ms);
                    shared.read.record(stamps.read_ms - ts);
                    match &mut self.tick {
                        Some((current, low, high)) if *current == ts => {
                            *low = (*low).min(ms);
                            *high = (*high).max(ms);
                        }
                        _ => {
                            self.flush_tick(shared);
                            self.tick = Some((ts, ms, ms));
                        }
                    }
                }
            }
            self.report.bytes += text.len() as u64;
            if let Some(start) = shared.window_start.get() {
                let gap = now.saturating_duration_since(self.last_message.max(*start));
                self.report.max_gap = self.report.max_gap.max(gap);
            }
        }
        self.last_message = now;
    }

    fn flush_tick(&mut self, shared: &Shared) {
        if let Some((ts, low, high)) = self.tick.take() {
            shared.merge_tick(ts, low, high);
        }
    }
}

/// A WebSocket client connection spoken by hand: the opening handshake, masked text frames out,
/// and server frames read straight from the receive buffer (see the module's notes).
struct Connection {
    stream: TcpStream,
    /// Received bytes not parsed yet.
    buf: Vec<u8>,
    /// The masking keys' generator.
    mask: Mask,
}

/// The masking keys of a client's frames (xorshift).
struct Mask(u32);

impl Mask {
    /// Four bytes of masking key.
    fn next(&mut self) -> [u8; 4] {
        let mut x = self.0;
        x ^= x << 13;
        x ^= x >> 17;
        x ^= x << 5;
        self.0 = x;
        x.to_le_bytes()
    }

    /// Appends a masked, final frame of `opcode` with `payload` to `out` (clients must mask).
    fn put_frame(&mut self, out: &mut Vec<u8>, opcode: u8, payload: &[u8]) {
        let mask = self.next();
        backend::market::frame::put_masked_frame(out, 0x80 | opcode, mask, payload);
    }
}

/// A server frame found in [`Connection::buf`]: its opcode, and where its payload lies.
struct Frame {
    opcode: u8,
    payload: std::ops::Range<usize>,
}

/// What a client reads at most at once (a tick's messages to one client are about 10 KB).
const READ_CHUNK: usize = 16 * 1024;

impl Connection {
    /// Connects to `ws://host:port/path` and completes the opening handshake.
    async fn open(url: &str, seed: u32) -> Result<Self, String> {
        let rest = url
            .strip_prefix("ws://")
            .ok_or_else(|| format!("{url}: only ws:// is supported"))?;
        let (host, path) = rest.split_at(rest.find('/').unwrap_or(rest.len()));
        let stream = TcpStream::connect(host)
            .await
            .map_err(|e| format!("{host}: {e}"))?;
        stream.set_nodelay(true).map_err(|e| e.to_string())?;
        let mut connection = Self {
            stream,
            buf: Vec::with_capacity(1024),
            mask: Mask(seed | 1),
        };
        let nonce: Vec<u8> = (0..4).flat_map(|_| connection.mask.next()).collect();
        let key = data_encoding::BASE64.encode(&nonce);
        let request = format!(
            "GET {path} HTTP/1.1\r\nHost: {host}\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: {key}\r\nSec-WebSocket-Version: 13\r\n\r\n"
        );
        connection
            .stream
            .write_all(request.as_bytes())
            .await
            .map_err(|e| e.to_string())?;
        let end = loop {
            if let Some(at) = connection.buf.windows(4).position(|w| w == b"\r\n\r\n") {
                break at + 4;
            }
            if connection.buf.len() > 8192
                || connection.read().await.map_err(|e| e.to_string())? == 0
            {
                return Err("no handshake answer".into());
            }
        };
        let head = String::from_utf8_lossy(&connection.buf[..end]).to_ascii_lowercase();
        let accept = accept_key(&key).to_ascii_lowercase();
        if !head.starts_with("http/1.1 101")
            || !head.lines().any(|line| {
                line.strip_prefix("sec-websocket-accept:")
                    .is_some_and(|value| value.trim() == accept)
            })
        {
            return Err(format!(
                "handshake refused: {}",
                head.lines().next().unwrap_or_default()
            ));
        }
        connection.buf.drain(..end);
        Ok(connection)
    }

    /// Sends `frames` (built with [`Mask::put_frame`]) with one write.
    async fn send(&mut self, frames: &[u8]) -> std::io::Result<()> {
        self.stream.write_all(frames).await
    }

    /// Reads what has arrived (at most [`READ_CHUNK`]); 0 when the connection ended.
    async fn read(&mut self) -> std::io::Result<usize> {
        self.buf.reserve(READ_CHUNK);
        self.stream.read_buf(&mut self.buf).await
    }
}

/// The whole server frame at `at` in `buf`, if it has all arrived; an error for a frame a server
/// must not send (masked, fragmented, reserved bits).
fn frame_at(buf: &[u8], at: usize) -> Result<Option<Frame>, String> {
    let buf = &buf[at..];
    if buf.len() < 2 {
        return Ok(None);
    }
    if buf[0] & 0xF0 != 0x80 || buf[1] & 0x80 != 0 {
        return Err(format!(
            "unexpected frame header {:#04x} {:#04x} (fragmented, masked or reserved bits)",
            buf[0], buf[1]
        ));
    }
    let (len, header) = match buf[1] {
        126 if buf.len() >= 4 => (usize::from(u16::from_be_bytes([buf[2], buf[3]])), 4),
        127 if buf.len() >= 10 => {
            let mut len = [0u8; 8];
            len.copy_from_slice(&buf[2..10]);
            (
                usize::try_from(u64::from_be_bytes(len)).map_err(|e| e.to_string())?,
                10,
            )
        }
        126 | 127 => return Ok(None),
        len => (usize::from(len), 2),
    };
    if buf.len() < header + len {
        return Ok(None);
    }
    Ok(Some(Frame {
        opcode: buf[0] & 0x0F,
        payload: at + header..at + header + len,
    }))
}

/// base64(SHA-1(key + RFC 6455's GUID)): the answer a server must give to `key`.
fn accept_key(key: &str) -> String {
    use sha1::{Digest, Sha1};
    let mut sha1 = Sha1::new();
    sha1.update(key.as_bytes());
    sha1.update(b"258EAFA5-E914-47DA-95CA-C5AB0DC85B11");
    data_encoding::BASE64.encode(&sha1.finalize())
}

/// How reading the frames received so far ended.
enum Read {
    /// Everything whole was handled; more may come.
    More,
    /// The server sent a close frame (with its reason).
    Closed(String),
    /// The server broke the protocol.
    Failed(String),
}

/// When the messages of one read reached the client, in ms since the epoch.
#[derive(Debug, Clone, Copy)]
struct Stamps {
    /// Their arrival in the client's socket: the kernel's receive time of the last segment the
    /// read took (`SO_TIMESTAMPNS`), or the read's own time when the kernel gave none.
    arrived_ms: i64,
    /// The tool's read.
    read_ms: i64,
}

/// Handles every whole frame at the start of `buf`: text messages to `reader` (all stamped with
/// `arrived_ms`, the kernel's arrival time of this read, and the time of the read), the payloads
/// of pings to `pongs`. Returns how many bytes it handled and how reading ended (a close frame's
/// reason).
fn take_frames(
    buf: &[u8],
    reader: &mut Reader,
    shared: &Shared,
    pongs: &mut Vec<Vec<u8>>,
    arrived_ms: Option<i64>,
) -> (usize, Read) {
    let received = Instant::now();
    let read_ms = support::now_ms();
    let stamps = Stamps {
        arrived_ms: arrived_ms.unwrap_or(read_ms),
        read_ms,
    };
    let mut at = 0;
    loop {
        let frame = match frame_at(buf, at) {
            Ok(Some(frame)) => frame,
            Ok(None) => return (at, Read::More),
            Err(error) => return (at, Read::Failed(error)),
        };
        let payload = &buf[frame.payload.clone()];
        at = frame.payload.end;
        match frame.opcode {
            OP_TEXT => match std::str::from_utf8(payload) {
                Ok(text) => reader.on_text(text, shared, received, stamps),
                Err(_) => return (at, Read::Failed("a text frame that is not UTF-8".into())),
            },
            OP_CLOSE => {
                let reason = payload.get(2..).unwrap_or_default();
                return (
                    at,
                    Read::Closed(String::from_utf8_lossy(reason).into_owned()),
                );
            }
            OP_PING => pongs.push(payload.to_vec()),
            _ => {}
        }
    }
}

/// Drops the first `n` handled bytes of `buf`, and its room when a large frame grew it.
fn consume(buf: &mut Vec<u8>, n: usize) {
    buf.drain(..n);
    if buf.is_empty() && buf.capacity() > 4 * READ_CHUNK {
        *buf = Vec::new();
    }
}

/// [`take_frames`] on `buf` (what a client received, the last of it arrived at `arrived_ms`), the
/// handled bytes dropped; how reading ended, and the pong frames (masked with `mask`) that answer
/// its pings, to send.
fn handle_received(
    buf: &mut Vec<u8>,
    mask: &mut Mask,
    reader: &mut Reader,
    shared: &Shared,
    arrived_ms: Option<i64>,
) -> (Read, Vec<u8>) {
    let mut pings = Vec::new();
    let (at, outcome) = take_frames(buf, reader, shared, &mut pings, arrived_ms);
    consume(buf, at);
    let mut pongs = Vec::new();
    for payload in pings {
        mask.put_frame(&mut pongs, OP_PONG, &payload);
    }
    (outcome, pongs)
}

/// [`handle_received`] on what `connection` has received, the pongs sent.
async fn read_frames(connection: &mut Connection, reader: &mut Reader, shared: &Shared) -> Read {
    let (outcome, pongs) = handle_received(
        &mut connection.buf,
        &mut connection.mask,
        reader,
        shared,
        None,
    );
    if !pongs.is_empty()
        && let Err(error) = connection.send(&pongs).await
    {
        return Read::Failed(format!("pong: {error}"));
    }
    outcome
}

/// The most readiness events one wait of a reader thread takes.
const EVENTS_PER_WAIT: usize = 1024;

/// What a reader thread receives into, for every client it reads (a buffer of 16 KB per client
/// made the tool 24.6 KB a client; it is 3.1 KB with this).
const RECEIVE_ROOM: usize = 64 * 1024;

/// A subscribed client, read by a reader thread: its socket (non-blocking), what was received
/// and not handled yet (the start of a frame; empty after most reads), its masking keys, its
/// reading state and when it pings next.
struct Measured {
    stream: std::net::TcpStream,
    buf: Vec<u8>,
    mask: Mask,
    reader: Reader,
    next_ping: Instant,
}

impl Measured {
    /// Reads what has arrived into the thread's `room` and handles it (after what was left of
    /// the last read), stamped with the kernel's arrival time of the last segment read; why the
    /// client ended, if it did.
    fn receive(&mut self, shared: &Shared, room: &mut Vec<u8>) -> Option<Ended> {
        let arrived_ms = match receive_stamped(&self.stream, room) {
            Ok(Received::Bytes { arrived_ms }) => arrived_ms,
            Ok(Received::Ended) => return Some(Ended::Failed("read: connection ended".into())),
            Err(error) => {
                return match error.kind() {
                    std::io::ErrorKind::WouldBlock | std::io::ErrorKind::Interrupted => None,
                    _ => Some(Ended::Failed(format!("read: {error}"))),
                };
            }
        };
        if arrived_ms.is_none() {
            shared.unstamped.fetch_add(1, Relaxed);
        }
        let (outcome, pongs) = if self.buf.is_empty() {
            let handled =
                handle_received(room, &mut self.mask, &mut self.reader, shared, arrived_ms);
            // The start of a frame waits for the next read in the client's own buffer.
            self.buf.extend_from_slice(room);
            handled
        } else {
            self.buf.extend_from_slice(room);
            handle_received(
                &mut self.buf,
                &mut self.mask,
                &mut self.reader,
                shared,
                arrived_ms,
            )
        };
        if let Err(error) = self.send(&pongs) {
            return Some(Ended::Failed(format!("pong: {error}")));
        }
        match outcome {
            Read::More => self.ping_if_due(Instant::now()),
            Read::Closed(reason) => Some(Ended::Closed(reason)),
            Read::Failed(error) => Some(Ended::Failed(format!("read: {error}"))),
        }
    }

    /// Sends a ping when one is due at `now`.
    fn ping_if_due(&mut self, now: Instant) -> Option<Ended> {
        if now < self.next_ping {
            return None;
        }
        self.next_ping += PING_EVERY;
        let text = format!(r#"{{"op":"ping","ts":{}}}"#, support::now_ms());
        let mut out = Vec::new();
        self.mask.put_frame(&mut out, OP_TEXT, text.as_bytes());
        self.send(&out)
            .err()
            .map(|error| Ended::Failed(format!("ping: {error}")))
    }

    /// Writes `frames` at once (a few bytes into an idle socket's buffer: a socket without that
    /// much room is an error).
    fn send(&self, frames: &[u8]) -> std::io::Result<()> {
        if frames.is_empty() {
            return Ok(());
        }
        std::io::Write::write_all(&mut &self.stream, frames)
    }

    /// The client's report at the end: its last tick merged, and the silence from its last message
    /// to the end of the window counted.
    fn finish(mut self, shared: &Shared, ended: Option<Ended>) -> ClientReport {
        let in_window = shared.phase.load(Relaxed) == MEASURING;
        match ended {
            Some(Ended::Closed(reason)) => {
                self.reader.report.closed_by_server = Some(if reason.is_empty() {
                    "(no reason)".to_owned()
                } else {
                    reason
                });
                self.reader.report.ended_in_window = in_window;
            }
            Some(Ended::Failed(error)) => {
                self.reader.report.error = Some(error);
                self.reader.report.ended_in_window = in_window;
            }
            None => {}
        }
        self.reader.flush_tick(shared);
        if let (Some(start), Some(end)) = (shared.window_start.get(), shared.window_end.get()) {
            let last = self.reader.last_message.max(*start);
            let gap = end.saturating_duration_since(last);
            self.reader.report.max_gap = self.reader.report.max_gap.max(gap);
        }
        self.reader.report
    }
}

/// Asks the kernel to stamp what `socket` receives with its arrival time (`SO_TIMESTAMPNS`: the
/// time the segment entered the receive path, which on loopback is the sender's transmit), given
/// with each read by `recvmsg`.
fn stamp_arrivals(socket: &std::net::TcpStream) -> std::io::Result<()> {
    let on: libc::c_int = 1;
    // SAFETY: an open socket and an option of `c_int` size that lives through the call.
    let set = unsafe {
        libc::setsockopt(
            socket.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_TIMESTAMPNS,
            (&on as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        )
    };
    if set == 0 {
        Ok(())
    } else {
        Err(std::io::Error::last_os_error())
    }
}

/// What one [`receive_stamped`] took.
#[derive(Debug, PartialEq, Eq)]
enum Received {
    /// Bytes, now in the room, with the kernel's arrival time of the last segment read when it
    /// gave one (ms since the epoch).
    Bytes { arrived_ms: Option<i64> },
    /// The connection ended.
    Ended,
}

/// Receives what has arrived on `socket` into `room` (replacing its contents; up to
/// [`RECEIVE_ROOM`] bytes) without waiting, with the kernel's arrival time (see
/// [`stamp_arrivals`]; the kernel starts stamping a moment after it is first asked, so the very
/// first reads may come without).
fn receive_stamped(socket: &std::net::TcpStream, room: &mut Vec<u8>) -> std::io::Result<Received> {
    room.clear();
    room.reserve(RECEIVE_ROOM);
    let spare = room.spare_capacity_mut();
    let mut data = libc::iovec {
        iov_base: spare.as_mut_ptr().cast(),
        iov_len: spare.len(),
    };
    // Room for one `SCM_TIMESTAMPNS` message (a `timespec`), aligned for `cmsghdr`.
    let mut control = [0u64; 8];
    // SAFETY: a zeroed `msghdr` is valid (no name, no data); the pointers set below outlive the
    // call.
    let mut message: libc::msghdr = unsafe { std::mem::zeroed() };
    message.msg_iov = &mut data;
    message.msg_iovlen = 1;
    message.msg_control = control.as_mut_ptr().cast();
    message.msg_controllen = std::mem::size_of_val(&control);
    // SAFETY: `recvmsg` writes at most `spare.len()` bytes into the vector's spare capacity and
    // at most `msg_controllen` into `control`; only the bytes it reports written are then counted
    // as initialised.
    let received = unsafe { libc::recvmsg(socket.as_raw_fd(), &mut message, libc::MSG_DONTWAIT) };
    if received < 0 {
        return Err(std::io::Error::last_os_error());
    }
    if received == 0 {
        return Ok(Received::Ended);
    }
    // SAFETY: see above; `received` bytes were written.
    unsafe { room.set_len(received as usize) };
    Ok(Received::Bytes {
        arrived_ms: arrival_ms(&message),
    })
}

/// The arrival time (ms since the epoch) that `recvmsg` gave in `message`'s control data: for
/// TCP, that of the last segment the read took.
fn arrival_ms(message: &libc::msghdr) -> Option<i64> {
    // SAFETY: `message` was filled by `recvmsg`; the `CMSG_*` macros walk its control data within
    // `msg_controllen`, and a `SCM_TIMESTAMPNS` message holds one `timespec` (read unaligned).
    unsafe {
        let mut header = libc::CMSG_FIRSTHDR(message);
        while !header.is_null() {
            if (*header).cmsg_level == libc::SOL_SOCKET
                && (*header).cmsg_type == libc::SCM_TIMESTAMPNS
            {
                let time: libc::timespec = std::ptr::read_unaligned(libc::CMSG_DATA(header).cast());
                return (time.tv_sec != 0 || time.tv_nsec != 0)
                    .then(|| time.tv_sec * 1000 + time.tv_nsec / 1_000_000);
            }
            header = libc::CMSG_NXTHDR(message, header);
        }
    }
    None
}

/// Why a reader thread stopped reading a client.
enum Ended {
    /// The server sent a close frame (with its reason).
    Closed(String),
    /// The connection ended or failed, or the server broke the protocol.
    Failed(String),
}

/// A reader thread: waits on its own epoll set for the clients `arriving` from their tasks (the
/// WebSocket handshake and the subscriptions run on the tokio runtime), reads each when data
/// arrives, and pings each when due, until `stop`; returns every client's report. A plain loop
/// instead of a task per client: the tool shares the machine's cores with the server, and the
/// scheduler's wake-ups, polls and timers per message were most of what it did besides reading.
fn read_clients(
    arriving: std::sync::mpsc::Receiver<Measured>,
    shared: Arc<Shared>,
    stop: Arc<AtomicBool>,
) -> Vec<ClientReport> {
    // SAFETY: plain system calls on a descriptor this function owns and closes.
    let epoll = unsafe { libc::epoll_create1(libc::EPOLL_CLOEXEC) };
    assert!(
        epoll >= 0,
        "epoll_create1: {}",
        std::io::Error::last_os_error()
    );
    let mut clients: Vec<Option<Measured>> = Vec::new();
    let mut reports = Vec::new();
    let mut events = vec![libc::epoll_event { events: 0, u64: 0 }; EVENTS_PER_WAIT];
    let mut room = Vec::with_capacity(RECEIVE_ROOM);
    let mut pinged = Instant::now();
    while !stop.load(Relaxed) {
        while let Ok(client) = arriving.try_recv() {
            let mut event = libc::epoll_event {
                events: libc::EPOLLIN as u32,
                u64: clients.len() as u64,
            };
            // Level-triggered: what arrived before the client was added is reported at once.
            // SAFETY: the client's socket is open; `event` lives through the call.
            let added = unsafe {
                libc::epoll_ctl(
                    epoll,
                    libc::EPOLL_CTL_ADD,
                    client.stream.as_raw_fd(),
                    &mut event,
                )
            };
            if added < 0 {
                let error = std::io::Error::last_os_error();
                reports
                    .push(client.finish(&shared, Some(Ended::Failed(format!("epoll: {error}")))));
            } else {
                clients.push(Some(client));
            }
        }
        // SAFETY: `events` has room for `EVENTS_PER_WAIT` entries.
        let ready =
            unsafe { libc::epoll_wait(epoll, events.as_mut_ptr(), EVENTS_PER_WAIT as i32, 10) };
        for event in &events[..ready.max(0) as usize] {
            let slot = &mut clients[event.u64 as usize];
            if let Some(ended) = slot
                .as_mut()
                .and_then(|client| client.receive(&shared, &mut room))
            {
                // Closing the socket (dropping it) takes it out of the epoll set.
                if let Some(client) = slot.take() {
                    reports.push(client.finish(&shared, Some(ended)));
                }
            }
        }
        // Clients that hear nothing still ping (the server closes a client silent for 60 s).
        if pinged.elapsed() >= Duration::from_secs(1) {
            let now = Instant::now();
            pinged = now;
            for slot in clients.iter_mut() {
                if let Some(ended) = slot.as_mut().and_then(|client| client.ping_if_due(now))
                    && let Some(client) = slot.take()
                {
                    reports.push(client.finish(&shared, Some(ended)));
                }
            }
        }
    }
    reports.extend(
        clients
            .into_iter()
            .flatten()
            .map(|client| client.finish(&shared, None)),
    );
    // SAFETY: `epoll` is this function's and is not used after.
    unsafe { libc::close(epoll) };
    reports
}

async fn run_client(
    id: usize,
    url: String,
    shared: Arc<Shared>,
    permits: Arc<Semaphore>,
    readers: std::sync::mpsc::Sender<Measured>,
) -> Option<ClientReport> {
    let mut reader = Reader {
        depth_seq: [None; SYMBOLS.len()],
        tick: None,
        last_message: Instant::now(),
        subscribed: 0,
        report: ClientReport::default(),
    };
    let permit = permits.acquire_owned().await;
    let started = Instant::now();
    let request = format!("{url}/ws/market/load-{id}");
    let seed = (id as u32).wrapping_mul(2_654_435_761) ^ (support::now_ms() as u32);
    let connected =
        tokio::time::timeout(Duration::from_secs(30), Connection::open(&request, seed)).await;
    let mut ws = match connected {
        Ok(Ok(ws)) => ws,
        Ok(Err(error)) => {
            shared.failed.fetch_add(1, Relaxed);
            reader.report.error = Some(format!("connect: {error}"));
            return Some(reader.report);
        }
        Err(_) => {
            shared.failed.fetch_add(1, Relaxed);
            reader.report.error = Some("connect: timed out".into());
            return Some(reader.report);
        }
    };
    reader.report.connect = Some(started.elapsed());
    shared.connected.fetch_add(1, Relaxed);

    // Subscribe (24 frames, one write), then wait for every acknowledgement (the snapshots come
    // with them).
    let subscribe = async {
        let mut out = Vec::new();
        for symbol in SYMBOLS {
            for channel in CHANNELS {
                let text =
                    format!(r#"{{"op":"subscribe","channel":"{channel}","symbol":"{symbol}"}}"#);
                ws.mask.put_frame(&mut out, OP_TEXT, text.as_bytes());
            }
        }
        ws.send(&out).await.map_err(|e| e.to_string())?;
        while reader.subscribed < SYMBOLS.len() * CHANNELS.len() {
            if ws.read().await.map_err(|e| e.to_string())? == 0 {
                return Err("connection ended".to_owned());
            }
            match read_frames(&mut ws, &mut reader, &shared).await {
                Read::More => {}
                Read::Closed(reason) => {
                    reader.report.closed_by_server = Some(reason);
                    return Err("closed by the server".to_owned());
                }
                Read::Failed(error) => return Err(error),
            }
        }
        Ok(())
    };
    match tokio::time::timeout(Duration::from_secs(60), subscribe).await {
        Ok(Ok(())) => {}
        Ok(Err(error)) => {
            shared.failed.fetch_add(1, Relaxed);
            reader.report.error = Some(format!("subscribe: {error}"));
            return Some(reader.report);
        }
        Err(_) => {
            shared.failed.fetch_add(1, Relaxed);
            reader.report.error = Some("subscribe: no acknowledgement within 60 s".into());
            return Some(reader.report);
        }
    }
    reader.report.ready = Some(started.elapsed());
    shared.ready.fetch_add(1, Relaxed);
    drop(permit);

    // Spread the pings over the period, as independent browsers would.
    let offset = Duration::from_millis((id as u64 * 7919) % PING_EVERY.as_millis() as u64);
    let next_ping = Instant::now() + offset;
    // From here a reader thread reads the client (see `read_clients`).
    match ws.stream.into_std().and_then(|stream| {
        stamp_arrivals(&stream)?;
        Ok(stream)
    }) {
        Ok(stream) => {
            // What the connecting phase left unread, if anything (its 16 KB of room is not kept).
            let buf = if ws.buf.is_empty() {
                Vec::new()
            } else {
                ws.buf
            };
            let measured = Measured {
                stream,
                buf,
                mask: ws.mask,
                reader,
                next_ping,
            };
            match readers.send(measured) {
                Ok(()) => None,
                Err(std::sync::mpsc::SendError(measured)) => {
                    let mut report = measured.reader.report;
                    report.error = Some("no reader thread".into());
                    Some(report)
                }
            }
        }
        Err(error) => {
            reader.report.error = Some(format!("socket: {error}"));
            Some(reader.report)
        }
    }
}

/// The server under test.
enum Target {
    Process(ServerProcess),
    InProcess {
        stop: Option<std::sync::mpsc::Sender<()>>,
        thread: Option<std::thread::JoinHandle<()>>,
        _data_dir: tempfile::TempDir,
    },
    External,
}

impl Target {
    fn stop(&mut self) {
        match self {
            Target::Process(server) => server.stop(),
            Target::InProcess { stop, thread, .. } => {
                drop(stop.take());
                if let Some(thread) = thread.take() {
                    let _ = thread.join();
                }
            }
            Target::External => {}
        }
    }
}

/// Starts the server in this process on a runtime of its own (like `backend serve`'s); returns its
/// base URL.
fn start_in_process(tick_ms: u64) -> Result<(Target, String), String> {
    let data_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
    let config = backend::config::Config {
        host: "127.0.0.1".into(),
        port: 0,
        data_dir: data_dir.path().to_path_buf(),
        webapp_dir: data_dir.path().join("webapp"),
        simulator: backend::config::SimulatorConfig {
            tick_ms,
            ..Default::default()
        },
        ..backend::config::Config::default()
    };
    let (addr_tx, addr_rx) = std::sync::mpsc::channel();
    let (stop_tx, stop_rx) = std::sync::mpsc::channel::<()>();
    let thread = std::thread::spawn(move || {
        let runtime = match tokio::runtime::Builder::new_multi_thread()
            .enable_all()
            .build()
        {
            Ok(runtime) => runtime,
            Err(error) => {
                let _ = addr_tx.send(Err(error.to_string()));
                return;
            }
        };
        runtime.block_on(async move {
            match backend::app::start(config).await {
                Ok(app) => {
                    let _ = addr_tx.send(Ok(app.addr));
                    // Until the sender is dropped.
                    let _ = tokio::task::spawn_blocking(move || stop_rx.recv()).await;
                    drop(app);
                }
                Err(error) => {
                    let _ = addr_tx.send(Err(error.to_string()));
                }
            }
        });
    });
    let addr = addr_rx
        .recv()
        .map_err(|e| e.to_string())?
        .map_err(|e| format!("the server did not start: {e}"))?;
    Ok((
        Target::InProcess {
            stop: Some(stop_tx),
            thread: Some(thread),
            _data_dir: data_dir,
        },
        format!("http://{addr}"),
    ))
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1000.0
}

fn kib_per(delta_kib: Option<i64>, n: usize) -> String {
    match delta_kib {
        Some(delta) if n > 0 => format!("{:.1} KB", delta as f64 * 1.024 / n as f64),
        _ => "n/a".into(),
    }
}

#[tokio::main(flavor = "multi_thread", worker_threads = 2)]
async fn main() -> ExitCode {
    let args = Args::parse();
    match run(args).await {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            eprintln!("market_load: {error}");
            ExitCode::FAILURE
        }
    }
}

async fn run(args: Args) -> Result<(), String> {
    let want = (args.clients as u64 * 2 + 4096).max(65_536);
    let limit = support::raise_nofile(want);
    let needed = args.clients as u64 + 256;
    let needed_here = if args.in_process { needed * 2 } else { needed };
    if limit < needed_here {
        return Err(format!(
            "the open-file limit is {limit}, {needed_here} are needed for {} clients (ulimit -n)",
            args.clients
        ));
    }

    println!(
        "market_load: {} clients x {} channels x {} pairs, {} s measured, simulator tick {} ms, \
         {} reader threads ({:?} scheduling)",
        args.clients,
        CHANNELS.len(),
        SYMBOLS.len(),
        args.secs,
        args.tick_ms,
        args.readers.max(1),
        args.reader_policy
    );
    println!(
        "  date {} | {} CPUs | {} MiB RAM | load average {} | open-file limit {limit}",
        chrono::Utc::now().format("%Y-%m-%d %H:%M UTC"),
        support::cpus(),
        meminfo_mib(),
        support::load_average(),
    );

    let (mut target, base, server_pid) = if let Some(url) = &args.url {
        (
            Target::External,
            url.trim_end_matches('/').to_owned(),
            args.server_pid,
        )
    } else if args.in_process {
        let (target, base) = start_in_process(args.tick_ms)?;
        (target, base, None)
    } else {
        let bin = args
            .server_bin
            .clone()
            .unwrap_or_else(support::default_server_bin);
        let data_dir = tempfile::tempdir().map_err(|e| e.to_string())?;
        let mut server = ServerProcess::spawn(&bin, data_dir, args.tick_ms)?;
        server.wait_ready(Duration::from_secs(120)).await?;
        println!(
            "  server: {} serve, pid {}, {} (log {})",
            bin.display(),
            server.pid,
            server.base,
            server.log.display()
        );
        let (pid, base) = (server.pid, server.base.clone());
        (Target::Process(server), base, Some(pid))
    };
    let result = measure(&args, &base, server_pid).await;
    target.stop();
    result
}

fn meminfo_mib() -> u64 {
    std::fs::read_to_string("/proc/meminfo")
        .ok()
        .and_then(|text| {
            text.lines()
                .find_map(|l| l.strip_prefix("MemTotal:"))
                .and_then(|v| v.trim().trim_end_matches("kB").trim().parse::<u64>().ok())
        })
        .map_or(0, |kib| kib / 1024)
}

async fn measure(args: &Args, base: &str, server_pid: Option<u32>) -> Result<(), String> {
    let ws_base = base
        .replacen("http://", "ws://", 1)
        .replacen("https://", "wss://", 1);
    let in_process = args.in_process;
    // The server settles (first ticks, allocator warm) before the baseline.
    tokio::time::sleep(Duration::from_secs(2)).await;
    let server_rss0 = server_pid.and_then(|pid| support::rss_kib(Some(pid)));
    let own_rss0 = support::rss_kib(None);
    let tcp0 = support::tcp_buffers_kib();

    let shared = Arc::new(Shared::new());
    let permits = Arc::new(Semaphore::new(args.connect_concurrency.max(1)));
    let stop = Arc::new(AtomicBool::new(false));
    let (senders, threads): (Vec<_>, Vec<_>) = (0..args.readers.max(1))
        .map(|i| {
            let (sender, arriving) = std::sync::mpsc::channel();
            let (shared, stop) = (shared.clone(), stop.clone());
            let policy = args.reader_policy;
            let thread = std::thread::Builder::new()
                .name(format!("reader-{i}"))
                .spawn(move || {
                    if let Err(error) = policy.apply() {
                        eprintln!("reader-{i}: scheduling policy {policy:?} not applied: {error}");
                    }
                    read_clients(arriving, shared, stop)
                })
                .expect("a reader thread");
            (sender, thread)
        })
        .unzip();
    // Stops the reader threads and gathers every client's report, those whose task ended before
    // it was subscribed and those the threads read.
    let gather = |handles: Vec<tokio::task::JoinHandle<Option<ClientReport>>>| async {
        stop.store(true, Relaxed);
        let mut reports = Vec::with_capacity(handles.len());
        for handle in handles {
            match handle.await {
                Ok(Some(report)) => reports.push(report),
                Ok(None) => {}
                Err(error) => reports.push(ClientReport {
                    error: Some(format!("task: {error}")),
                    ..Default::default()
                }),
            }
        }
        for thread in threads {
            match tokio::task::spawn_blocking(move || thread.join()).await {
                Ok(Ok(read)) => reports.extend(read),
                _ => reports.push(ClientReport {
                    error: Some("a reader thread failed".into()),
                    ..Default::default()
                }),
            }
        }
        reports
    };
    // Without a server process id (in-process, or --url alone) these readings are not taken:
    // `/proc/self` would be the tool's.
    let server_reading = || server_pid.map(|pid| CpuMark::now(Some(pid)));
    let connect_mark = server_reading();
    let connect_started = Instant::now();
    let handles: Vec<_> = (0..args.clients)
        .map(|id| {
            tokio::spawn(run_client(
                id,
                ws_base.clone(),
                shared.clone(),
                permits.clone(),
                senders[id % senders.len()].clone(),
            ))
        })
        .collect();

    let deadline = connect_started + Duration::from_secs(args.connect_timeout);
    let mut last_print = Instant::now();
    loop {
        let ready = shared.ready.load(Relaxed);
        let failed = shared.failed.load(Relaxed);
        if ready + failed >= args.clients || Instant::now() > deadline {
            break;
        }
        if last_print.elapsed() >= Duration::from_secs(5) {
            println!(
                "  connecting: {} connected, {ready} subscribed, {failed} failed ({:.0} s)",
                shared.connected.load(Relaxed),
                connect_started.elapsed().as_secs_f64()
            );
            last_print = Instant::now();
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let connect_wall = connect_started.elapsed();
    let connect_cpu = connect_mark
        .zip(server_reading())
        .and_then(|(a, b)| a.process_percent(&b));
    let ready = shared.ready.load(Relaxed);
    if ready == 0 {
        let mut failures: std::collections::BTreeMap<String, usize> = Default::default();
        for report in gather(handles).await {
            *failures
                .entry(report.error.unwrap_or_default())
                .or_default() += 1;
        }
        let list: Vec<String> = failures.iter().map(|(e, n)| format!("{n} x {e}")).collect();
        return Err(format!("no client could subscribe: {}", list.join("; ")));
    }
    println!(
        "  {ready} of {} clients subscribed in {:.1} s ({} failed)",
        args.clients,
        connect_wall.as_secs_f64(),
        shared.failed.load(Relaxed)
    );
    // Let the subscription snapshots drain before measuring.
    tokio::time::sleep(Duration::from_secs(1)).await;
    let server_rss1 = server_pid.and_then(|pid| support::rss_kib(Some(pid)));
    let own_rss1 = support::rss_kib(None);

    let server_mark = server_reading();
    let own_mark = CpuMark::now(None);
    let server_wait0 = server_pid.and_then(|pid| support::run_queue_wait_ms(Some(pid)));
    let server_preempted0 = server_pid.and_then(|pid| support::preemptions(Some(pid)));
    let load_before = support::load_average();
    let _ = shared.window_start.set(Instant::now());
    shared.window_from_ms.store(support::now_ms(), Relaxed);
    shared.phase.store(MEASURING, Relaxed);
    let window_started = Instant::now();
    let window = Duration::from_secs(args.secs);
    while window_started.elapsed() < window {
        let left = window.saturating_sub(window_started.elapsed());
        tokio::time::sleep(left.min(Duration::from_secs(10))).await;
        let delivered: u64 = [&shared.ticker, &shared.depth, &shared.trade]
            .iter()
            .map(|h| h.counts().iter().sum::<u64>())
            .sum();
        println!(
            "  measuring: {:.0} s, {:.0} data messages/s so far",
            window_started.elapsed().as_secs_f64(),
            delivered as f64 / window_started.elapsed().as_secs_f64()
        );
    }
    shared.window_until_ms.store(support::now_ms(), Relaxed);
    shared.phase.store(DONE, Relaxed);
    let _ = shared.window_end.set(Instant::now());
    let measured = window_started.elapsed();
    let server_end = server_reading();
    let own_end = CpuMark::now(None);
    let server_wait2 = server_pid.and_then(|pid| support::run_queue_wait_ms(Some(pid)));
    let server_preempted2 = server_pid.and_then(|pid| support::preemptions(Some(pid)));
    let server_rss2 = server_pid.and_then(|pid| support::rss_kib(Some(pid)));
    let server_hwm = server_pid.and_then(|pid| support::status_kib(Some(pid), "VmHWM"));
    let own_rss2 = support::rss_kib(None);
    let tcp2 = support::tcp_buffers_kib();
    let load_after = support::load_average();

    // What arrived in the window and is not read yet (a reader may wait for a CPU) still counts.
    tokio::time::sleep(READ_GRACE).await;
    let reports = gather(handles).await;

    // Report.
    let secs = measured.as_secs_f64();
    let subscribed: Vec<&ClientReport> = reports.iter().filter(|r| r.ready.is_some()).collect();
    let mut connects: Vec<Duration> = reports.iter().filter_map(|r| r.connect).collect();
    let mut readies: Vec<Duration> = reports.iter().filter_map(|r| r.ready).collect();
    connects.sort();
    readies.sort();
    let q = |v: &[Duration], p: f64| support::quantile(v, p).map_or(f64::NAN, ms);
    println!();
    println!("connect");
    println!(
        "  {} of {} subscribed; all in {:.1} s ({:.0} clients/s, {} at a time); server CPU while connecting {}",
        subscribed.len(),
        args.clients,
        connect_wall.as_secs_f64(),
        subscribed.len() as f64 / connect_wall.as_secs_f64(),
        args.connect_concurrency,
        connect_cpu.map_or("n/a".into(), |p| format!("{p:.0}% of a core")),
    );
    println!(
        "  handshake p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms; handshake + 24 subscriptions acknowledged p50 {:.1} ms, p99 {:.1} ms, max {:.1} ms",
        q(&connects, 0.5),
        q(&connects, 0.99),
        q(&connects, 1.0),
        q(&readies, 0.5),
        q(&readies, 0.99),
        q(&readies, 1.0)
    );
    let mut failures: std::collections::BTreeMap<String, usize> = Default::default();
    for report in reports.iter().filter(|r| r.ready.is_none()) {
        *failures
            .entry(report.error.clone().unwrap_or_default())
            .or_default() += 1;
    }
    for (error, count) in &failures {
        println!("  failed: {count} x {error}");
    }

    let data: u64 = subscribed.iter().map(|r| r.data_messages).sum();
    let heartbeats: u64 = subscribed.iter().map(|r| r.heartbeats).sum();
    let bytes: u64 = subscribed.iter().map(|r| r.bytes).sum();
    let snapshots: u64 = subscribed.iter().map(|r| r.depth_snapshots).sum();
    let gaps: u64 = subscribed.iter().map(|r| r.depth_gaps).sum();
    let expected_per_client =
        (SYMBOLS.len() * CHANNELS.len()) as f64 * secs * 1000.0 / args.tick_ms as f64;
    let mut rates: Vec<f64> = subscribed
        .iter()
        .map(|r| r.data_messages as f64 / expected_per_client)
        .collect();
    rates.sort_by(f64::total_cmp);
    println!();
    println!("throughput over {secs:.1} s");
    println!(
        "  {:.0} data messages/s (ticker, depth, TRADE; {:.0} per client/s), {:.1} MB/s of JSON, {:.0} heartbeats/s",
        data as f64 / secs,
        data as f64 / secs / subscribed.len().max(1) as f64,
        bytes as f64 / secs / 1e6,
        heartbeats as f64 / secs
    );
    println!(
        "  delivered of the expected {} a client/s: min {:.3}, p1 {:.3}, median {:.3}; depth snapshots after lag {snapshots}, depth diff gaps {gaps}",
        (SYMBOLS.len() * CHANNELS.len()) as f64 * 1000.0 / args.tick_ms as f64,
        rates.first().copied().unwrap_or(f64::NAN),
        support::quantile(&rates, 0.01).unwrap_or(f64::NAN),
        support::quantile(&rates, 0.5).unwrap_or(f64::NAN),
    );

    println!();
    println!(
        "delivery latency (arrival in the client's socket, the kernel's receive time - message ts), ms"
    );
    let line = |name: &str, summary: Option<Summary>| match summary {
        Some(s) => println!(
            "  {name:<22} n={:<10} min {:>4}  p50 {:>4}  p90 {:>4}  p99 {:>5}  p99.9 {:>5}  max {:>5}",
            s.count, s.min, s.p50, s.p90, s.p99, s.p999, s.max
        ),
        None => println!("  {name:<22} none"),
    };
    let all = summarise(&[&shared.ticker, &shared.depth, &shared.trade]);
    let (p50, p90, p99, max) = all
        .as_ref()
        .map_or((0, 0, 0, 0), |s| (s.p50, s.p90, s.p99, s.max));
    line("ticker+depth+TRADE", all);
    line("  ticker", summarise(&[&shared.ticker]));
    line("  depth", summarise(&[&shared.depth]));
    line("  TRADE", summarise(&[&shared.trade]));
    line("HEARTBEAT (send time)", summarise(&[&shared.heartbeat]));
    let read = summarise(&[&shared.read]);
    let read_p99 = read.as_ref().map_or(0, |s| s.p99);
    line("read by this tool", read);
    // Per tick: the first delivery (the tick's time to publish: storing it, then the broadcast)
    // and the last (every client served), and their difference (the fan-out).
    let ticks = shared.take_ticks();
    let mut firsts: Vec<i64> = ticks.values().map(|(first, _)| *first).collect();
    let mut lasts: Vec<i64> = ticks.values().map(|(_, last)| *last).collect();
    let mut spreads: Vec<i64> = ticks.values().map(|(first, last)| last - first).collect();
    firsts.sort_unstable();
    lasts.sort_unstable();
    spreads.sort_unstable();
    let tq = |v: &[i64], p: f64| support::quantile(v, p).map_or("n/a".into(), |x| x.to_string());
    for (name, values) in [
        ("first client, per tick", &firsts),
        ("last client, per tick", &lasts),
        ("fan-out (last - first)", &spreads),
    ] {
        println!(
            "  {name:<22} n={:<10} min {:>4}  p50 {:>4}  p90 {:>4}  p99 {:>5}  max {:>5}",
            values.len(),
            tq(values, 0.0),
            tq(values, 0.5),
            tq(values, 0.9),
            tq(values, 0.99),
            tq(values, 1.0)
        );
    }
    // The slowest ticks, with the second of the minute they fell on (periodic work shows).
    let mut slowest: Vec<(i64, i64, i64)> = ticks
        .iter()
        .map(|(ts, (first, last))| (*last, *first, *ts))
        .collect();
    slowest.sort_unstable_by(|a, b| b.cmp(a));
    let listed: Vec<String> = slowest
        .iter()
        .take(8)
        .map(|(last, first, ts)| {
            format!(
                "{last} ms (first {first}) at :{:02}.{:03}",
                ts / 1000 % 60,
                ts % 1000
            )
        })
        .collect();
    println!(
        "  slowest ticks (last client, first client; the tick's second of the minute): {}",
        listed.join(", ")
    );
    let early: u64 = [&shared.ticker, &shared.depth, &shared.trade]
        .iter()
        .map(|h| h.early.load(Relaxed))
        .sum();
    if early > 0 {
        println!("  ({early} messages arrived in the millisecond before their ts: counted as 0)");
    }
    let unstamped = shared.unstamped.load(Relaxed);
    if unstamped > 0 {
        println!("  ({unstamped} reads came without the kernel's arrival time: stamped when read)");
    }

    let starved_silent = subscribed
        .iter()
        .filter(|r| r.max_gap > STARVED_AFTER)
        .count();
    let closed = subscribed
        .iter()
        .filter(|r| r.closed_by_server.is_some())
        .count();
    let ended = subscribed.iter().filter(|r| r.ended_in_window).count();
    let starved = subscribed
        .iter()
        .filter(|r| r.max_gap > STARVED_AFTER || r.closed_by_server.is_some() || r.ended_in_window)
        .count();
    let mut gaps_ms: Vec<Duration> = subscribed.iter().map(|r| r.max_gap).collect();
    gaps_ms.sort();
    println!();
    println!("starvation");
    println!(
        "  starved clients: {starved} (silent > 5 s: {starved_silent}; closed by the server: {closed}; connection ended in the window: {ended})"
    );
    println!(
        "  longest silence per client: p50 {:.0} ms, p99 {:.0} ms, max {:.0} ms",
        q(&gaps_ms, 0.5),
        q(&gaps_ms, 0.99),
        q(&gaps_ms, 1.0)
    );
    let mut reasons: std::collections::BTreeMap<String, usize> = Default::default();
    for report in subscribed
        .iter()
        .filter(|r| r.closed_by_server.is_some() || r.ended_in_window)
    {
        let reason = report
            .closed_by_server
            .clone()
            .or_else(|| report.error.clone())
            .unwrap_or_default();
        *reasons.entry(reason).or_default() += 1;
    }
    for (reason, count) in &reasons {
        println!("  ended: {count} x {reason}");
    }

    println!();
    println!("server");
    let n = subscribed.len();
    let delta = |a: Option<u64>, b: Option<u64>| Some(b? as i64 - a? as i64);
    let server_cpu = server_mark
        .zip(server_end)
        .and_then(|(a, b)| a.process_percent(&b));
    if server_pid.is_some() {
        println!(
            "  RSS before connecting {} MiB, after connecting {} MiB, at the end {} MiB (peak {} MiB)",
            server_rss0.map_or(0, |k| k / 1024),
            server_rss1.map_or(0, |k| k / 1024),
            server_rss2.map_or(0, |k| k / 1024),
            server_hwm.map_or(0, |k| k / 1024),
        );
        println!(
            "  memory per connection: {} after connecting, {} at the end (RSS delta / {n})",
            kib_per(delta(server_rss0, server_rss1), n),
            kib_per(delta(server_rss0, server_rss2), n),
        );
        println!(
            "  CPU while measuring: {} of one core, {} per delivered message; its threads waited {} for a CPU (run queue, summed over threads) and were preempted {} times a second",
            server_cpu.map_or("n/a".into(), |p| format!("{p:.1}%")),
            server_cpu
                .filter(|_| data > 0)
                .map_or("n/a".into(), |p| format!(
                    "{:.2} us",
                    p / 100.0 * secs * 1e6 / data as f64
                )),
            match (server_wait0, server_wait2) {
                (Some(a), Some(b)) => format!("{:.1} s in {secs:.0} s", (b - a) / 1000.0),
                _ => "n/a".into(),
            },
            match (server_preempted0, server_preempted2) {
                (Some(a), Some(b)) => format!("{:.0}", b.saturating_sub(a) as f64 / secs),
                _ => "n/a".into(),
            }
        );
    } else if in_process {
        println!(
            "  in-process: server and clients share this process; RSS delta per connection (both sides) {} after connecting, {} at the end; CPU of both {}",
            kib_per(delta(own_rss0, own_rss1), n),
            kib_per(delta(own_rss0, own_rss2), n),
            own_mark
                .process_percent(&own_end)
                .map_or("n/a".into(), |p| format!("{p:.0}% of one core"))
        );
    } else {
        println!("  memory and CPU not read (an external server without --server-pid)");
    }
    if let (Some(before), Some(after)) = (tcp0, tcp2) {
        println!(
            "  kernel TCP buffers (machine-wide, not in any RSS; both ends on loopback): {} MiB before, {} MiB at the end ({} per connection)",
            before / 1024,
            after / 1024,
            kib_per(Some(after as i64 - before as i64), n)
        );
    }
    let own_cpu = own_mark.process_percent(&own_end);
    let machine = own_mark.machine_percent(&own_end);
    println!(
        "  this tool: CPU {} of one core, RSS {} MiB ({} per client); machine busy {} of {} cores; load average {load_before} before, {load_after} after",
        own_cpu.map_or("n/a".into(), |p| format!("{p:.1}%")),
        own_rss2.map_or(0, |k| k / 1024),
        if in_process {
            "n/a".into()
        } else {
            kib_per(delta(own_rss0, own_rss1), n)
        },
        machine.map_or("n/a".into(), |p| format!("{p:.0}%")),
        support::cpus()
    );

    let per_connection_kb =
        delta(server_rss0, server_rss2).map(|d| d as f64 * 1.024 / n.max(1) as f64);
    println!();
    println!("goals");
    let verdict = |met: bool| if met { "met" } else { "NOT MET" };
    println!(
        "  p99 delivery latency < 100 ms: {p99} ms ({}; read by this tool: {read_p99} ms)",
        verdict(p99 < 100 && n > 0)
    );
    match per_connection_kb {
        Some(kb) => println!(
            "  server memory < 100 KB per connection: {kb:.1} KB ({})",
            verdict(kb < 100.0)
        ),
        None => println!("  server memory < 100 KB per connection: not measured"),
    }
    println!(
        "  no client starved: {starved} starved, {} not subscribed ({})",
        args.clients - n,
        verdict(starved == 0 && n == args.clients)
    );
    println!(
        "  CPU reported: server {}",
        server_cpu.map_or("not measured (no server process id)".into(), |p| format!(
            "{p:.0}% of one core"
        ))
    );
    println!(
        "RESULT {{\"clients\":{},\"subscribed\":{n},\"secs\":{secs:.1},\"connectSecs\":{:.2},\"messagesPerSec\":{:.0},\"p50Ms\":{p50},\"p90Ms\":{p90},\"p99Ms\":{p99},\"readP99Ms\":{read_p99},\"maxMs\":{max},\"starved\":{starved},\"serverKbPerConnection\":{},\"serverCpuPercent\":{},\"toolCpuPercent\":{},\"machineBusyPercent\":{}}}",
        args.clients,
        connect_wall.as_secs_f64(),
        data as f64 / secs,
        per_connection_kb.map_or("null".into(), |v| format!("{v:.1}")),
        server_cpu.map_or("null".into(), |v| format!("{v:.0}")),
        own_cpu.map_or("null".into(), |v| format!("{v:.0}")),
        machine.map_or("null".into(), |v| format!("{v:.0}")),
    );
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_fields_read_are_found_in_every_message_kind() {
        let ticker = r#"{"type":"ticker","symbol":"btcusdt","data":{"close":"1","ts":1700000000123,"change":"0.5","priceChangePercent":null}}"#;
        let read = Fields::read(ticker);
        assert_eq!((read.kind, read.ts), ("ticker", Some(1_700_000_000_123)));
        let depth = r#"{"data":{"asks":[],"bids":[["1","0"]],"kind":"diff","prevSeq":812,"seq":813,"ts":1700000001000},"symbol":"ethusdt","type":"depth"}"#;
        assert_eq!(
            Fields::read(depth),
            Fields {
                kind: "depth",
                symbol: Some("ethusdt"),
                ts: Some(1_700_000_001_000),
                depth_kind: Some("diff"),
                seq: Some(813),
                prev_seq: Some(812),
                snapshot: None,
            }
        );
        assert_eq!(symbol_index(Fields::read(depth).symbol), Some(1));
        let snapshot = r#"{"data":{"asks":[["2","1"]],"bids":[],"kind":"snapshot","seq":9,"ts":1700000001000},"symbol":"btcusdt","type":"depth"}"#;
        let read = Fields::read(snapshot);
        assert_eq!(
            (read.depth_kind, read.seq, read.prev_seq),
            (Some("snapshot"), Some(9), None)
        );
        let trades = r#"{"data":[{"id":1,"ts":1700000000999},{"id":2,"ts":1700000001000}],"snapshot":false,"symbol":"ltcusdt","type":"TRADE"}"#;
        let read = Fields::read(trades);
        assert_eq!(
            (read.kind, read.ts, read.snapshot, read.symbol),
            (
                "TRADE",
                Some(1_700_000_001_000),
                Some(false),
                Some("ltcusdt")
            )
        );
        let heartbeat = r#"{"ts":1700000000000,"type":"HEARTBEAT"}"#;
        let read = Fields::read(heartbeat);
        assert_eq!((read.kind, read.ts), ("HEARTBEAT", Some(1_700_000_000_000)));
        assert_eq!(Fields::read("{}"), Fields::default());
        assert_eq!(integer("-12,"), Some(-12));
        assert_eq!(integer("x"), None);
        assert_eq!(integer("99999999999999999999"), None);
    }

    #[test]
    fn the_kernel_stamps_what_arrives_between_its_write_and_its_read() {
        use std::io::Write;
        let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
        let mut sender = std::net::TcpStream::connect(listener.local_addr().unwrap()).unwrap();
        let (receiver, _) = listener.accept().unwrap();
        stamp_arrivals(&receiver).unwrap();
        let mut ready = libc::pollfd {
            fd: receiver.as_raw_fd(),
            events: libc::POLLIN,
            revents: 0,
        };
        let mut room = Vec::new();
        // The kernel turns its stamping on a moment after it is first asked (a deferred work
        // item): what arrives before is read without a stamp. Writes until one is stamped.
        let started = Instant::now();
        let (written_ms, arrived_ms, read_ms) = loop {
            assert!(
                started.elapsed() < Duration::from_secs(10),
                "the kernel never stamped an arrival"
            );
            let written_ms = support::now_ms();
            sender.write_all(b"tick").unwrap();
            // SAFETY: one valid `pollfd` for the duration of the call.
            let polled = unsafe { libc::poll(&mut ready, 1, 10_000) };
            assert_eq!(polled, 1, "data arrives");
            let received = receive_stamped(&receiver, &mut room).unwrap();
            let read_ms = support::now_ms();
            assert_eq!(room, b"tick", "one write, one read");
            match received {
                Received::Bytes {
                    arrived_ms: Some(arrived_ms),
                } => break (written_ms, arrived_ms, read_ms),
                Received::Bytes { arrived_ms: None } => continue,
                Received::Ended => panic!("the connection is open"),
            }
        };
        assert!(
            (written_ms..=read_ms).contains(&arrived_ms),
            "{written_ms} <= {arrived_ms} <= {read_ms}"
        );
        // Nothing more has arrived: the read would wait.
        let error = receive_stamped(&receiver, &mut room).unwrap_err();
        assert_eq!(error.kind(), std::io::ErrorKind::WouldBlock);
        drop(sender);
        assert_eq!(
            receive_stamped(&receiver, &mut room).unwrap(),
            Received::Ended
        );
    }

    #[test]
    fn a_message_counts_when_it_arrived_in_the_window() {
        let shared = Shared::new();
        assert!(!shared.in_window(1_000), "no window yet");
        shared.window_from_ms.store(1_000, Relaxed);
        assert!(!shared.in_window(999));
        assert!(shared.in_window(1_000));
        assert!(shared.in_window(5_000), "the window is open");
        shared.window_until_ms.store(2_000, Relaxed);
        assert!(shared.in_window(1_999));
        assert!(
            !shared.in_window(2_000),
            "arrived after the window, however soon it was read"
        );
    }

    #[test]
    fn server_frames_are_read_in_place_and_bad_ones_refused() {
        let long = "y".repeat(300);
        let mut buf = vec![0x81, 5];
        buf.extend_from_slice(b"hello");
        buf.extend_from_slice(&[0x81, 126, 1, 44]);
        buf.extend_from_slice(long.as_bytes());
        buf.extend_from_slice(&[0x89, 0]);
        let first = frame_at(&buf, 0).unwrap().unwrap();
        assert_eq!(
            (first.opcode, &buf[first.payload.clone()]),
            (OP_TEXT, &b"hello"[..])
        );
        let second = frame_at(&buf, first.payload.end).unwrap().unwrap();
        assert_eq!(&buf[second.payload.clone()], long.as_bytes());
        let ping = frame_at(&buf, second.payload.end).unwrap().unwrap();
        assert_eq!((ping.opcode, ping.payload.len()), (OP_PING, 0));
        // Not all there yet.
        assert!(
            frame_at(&buf[..buf.len() - 1], second.payload.end)
                .unwrap()
                .is_none()
        );
        assert!(frame_at(&buf[..10], 7).unwrap().is_none());
        // Masked, or fragmented: not what a server sends.
        assert!(frame_at(&[0x81, 0x85, 0, 0, 0, 0, 1], 0).is_err());
        assert!(frame_at(&[0x01, 0x01, b'a'], 0).is_err());
        assert_eq!(
            accept_key("dGhlIHNhbXBsZSBub25jZQ=="),
            "s3pPLMBiTxaQ9kYGzzhZRbK+xOo="
        );
    }
}
