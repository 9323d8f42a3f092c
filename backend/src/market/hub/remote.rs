//! The hub's publications shared with the other instances of a cluster
//! ([`crate::cluster::Fanout`]): a [`super::Publication`] made here records, beside its messages,
//! the state changes it makes ([`Op`]), and sends them as one NATS message when it is sent; an
//! instance that receives it ([`super::MarketHub::replay`]) makes the same publication on its own
//! hub — records the same tickers, books, trades and details, and broadcasts the same messages
//! (each serialised once there, for all its clients), in the same batching ([`Sending`]).
//!
//! A book travels as its diffs ([`Op::Book`], each with its `seq` and `prevSeq`), so each
//! instance's book is the producer's at that `seq` and its clients' resync (a new subscription:
//! snapshot, then the diffs after it) works as on the producer. A receiver applies each diff to
//! its copy ([`BookSnapshot::apply`]); one that does not follow its copy (a message lost, an
//! instance just started, a new producer numbering afresh) drops the copy — nothing serves a
//! wrong book: `POST /api/market/depth` and new subscriptions have none meanwhile; the diff is
//! still broadcast, so clients see the gap by its `prevSeq` and resubscribe as always — and asks
//! the producer for the whole book ([`Op::WantBook`], at most every [`WANT_EVERY`] per pair). The
//! producer (the instance whose own publications made the book) answers with [`Op::Snapshot`],
//! and sends one by itself with its first diff and then every [`WHOLE_EVERY`] at most, which
//! bounds how long a copy drifts. A starting instance asks for every book at once
//! ([`MarketHub::want_every_book`]). Live candles travel as their messages only (the instance
//! that simulates keeps them; the others broadcast them).

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use serde::{Deserialize, Serialize};

use crate::clock::now_ms;
use crate::market::book::{BookDiff, BookSnapshot};
use wasm_core::kline::Interval;

use super::{MarketHub, Publication, depth_diff_message, kline_channel};
use crate::market::hub::{Detail, Ticker, Trade};

/// How often a producer sends a book whole with its diffs, at most (milliseconds).
const WHOLE_EVERY: i64 = 2_000;
/// How often a receiver out of step with a book asks for it whole, at most (milliseconds).
const WANT_EVERY: i64 = 250;
/// The pair of [`Op::WantBook`] that asks for every book.
const EVERY_BOOK: &str = "*";

/// One state change of a publication.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub(super) enum Op {
    /// [`super::Publication::ticker`].
    Ticker { symbol: String, ticker: Ticker },
    /// [`super::Publication::book`]: the diff alone.
    Book { symbol: String, diff: BookDiff },
    /// A book whole, as its producer holds it.
    Snapshot {
        symbol: String,
        snapshot: BookSnapshot,
    },
    /// Asks the producer of `symbol`'s book (every producer for `*`) for [`Op::Snapshot`].
    WantBook { symbol: String },
    /// [`super::Publication::trades`], numbered as the producer numbered them.
    Trades { symbol: String, trades: Vec<Trade> },
    /// [`super::Publication::detail`].
    Detail { symbol: String, detail: Detail },
    /// [`super::Publication::simple_data`].
    SimpleData { ts: i64 },
    /// A candle message of [`super::Publication::klines`]: its channel key and text.
    Kline {
        symbol: String,
        channel: String,
        text: String,
    },
}

impl Op {
    /// The pair the change is about (`None`: every pair).
    fn symbol(&self) -> Option<&str> {
        match self {
            Op::Ticker { symbol, .. }
            | Op::Book { symbol, .. }
            | Op::Snapshot { symbol, .. }
            | Op::WantBook { symbol }
            | Op::Trades { symbol, .. }
            | Op::Detail { symbol, .. }
            | Op::Kline { symbol, .. } => Some(symbol),
            Op::SimpleData { .. } => None,
        }
    }

    /// The kind of change, as the last part of its subject.
    fn kind(&self) -> &'static str {
        match self {
            Op::Ticker { .. } => "ticker",
            Op::Book { .. } | Op::Snapshot { .. } => "depth",
            Op::WantBook { .. } => "want",
            Op::Trades { .. } => "trade",
            Op::Detail { .. } => "detail",
            Op::SimpleData { .. } => "simpleData",
            Op::Kline { .. } => "kline",
        }
    }
}

/// How the producer sent the publication: the receiver sends it the same way.
#[derive(Debug, Clone, Copy, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub(super) enum Sending {
    /// [`super::Publication::send`].
    Now,
    /// [`super::Publication::send_soon`].
    Soon,
    /// [`super::Publication::send_with_books`].
    WithBooks(usize),
}

/// A publication as it travels between instances.
#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Shared {
    pub(super) ops: Vec<Op>,
    pub(super) send: Sending,
}

impl Shared {
    /// The subject of the publication, under `kestrel.live.`: `market.<pair>.<kind>` when it is
    /// about one pair (by its first change), `market.all.tick` otherwise.
    pub(super) fn subject(&self) -> String {
        let first = self.ops.first();
        let symbol = first.and_then(Op::symbol);
        let one_pair = symbol.is_some()
            && self
                .ops
                .iter()
                .all(|op| op.symbol().is_some() && op.symbol() == symbol);
        match (one_pair, symbol, first) {
            (true, Some(symbol), Some(first)) => {
                let pair = if symbol == EVERY_BOOK {
                    "all".to_owned()
                } else {
                    crate::cluster::fanout::subject_token(symbol)
                };
                format!("market.{pair}.{}", first.kind())
            }
            _ => "market.all.tick".to_owned(),
        }
    }
}

impl MarketHub {
    /// Makes a publication received from another instance (`market/hub/remote.rs`) on this hub,
    /// without sharing it again.
    pub fn replay(&self, payload: &[u8]) -> Result<(), serde_json::Error> {
        let shared: Shared = serde_json::from_slice(payload)?;
        let mut publication = Publication {
            hub: self,
            events: Vec::new(),
            candles: Vec::new(),
            shared: None,
        };
        // Books that come whole in this message too: no need to ask for them.
        let whole: Vec<String> = shared
            .ops
            .iter()
            .filter_map(|op| match op {
                Op::Snapshot { symbol, .. } => Some(symbol.clone()),
                _ => None,
            })
            .collect();
        for op in shared.ops {
            match op {
                Op::Ticker { symbol, ticker } => publication.ticker(&symbol, ticker),
                Op::Book { symbol, diff } => {
                    let comes_whole = whole.contains(&symbol);
                    publication.follow_book(&symbol, &diff, comes_whole);
                }
                Op::Snapshot { symbol, snapshot } => self.take_snapshot(&symbol, snapshot),
                Op::WantBook { symbol } => self.answer_want(&symbol),
                Op::Trades { symbol, trades } => publication.trades(&symbol, &trades),
                Op::Detail { symbol, detail } => publication.detail(&symbol, detail),
                Op::SimpleData { ts } => publication.simple_data(ts),
                Op::Kline {
                    symbol,
                    channel,
                    text,
                } => {
                    if let Some(channel) = Interval::ALL
                        .iter()
                        .map(|interval| kline_channel(*interval))
                        .find(|known| *known == channel)
                    {
                        let event = self.event(channel, &symbol, &text, 0);
                        publication.candles.push(event);
                    }
                }
            }
        }
        match shared.send {
            // Nothing to broadcast (a book whole or a request): no empty batch either.
            Sending::Now if publication.events.is_empty() && publication.candles.is_empty() => {}
            Sending::Now => publication.send(),
            Sending::Soon => publication.send_soon(),
            Sending::WithBooks(books) => publication.send_with_books(books),
        }
        Ok(())
    }

    /// Asks the other instances for every book they produce (a starting instance: see the
    /// module).
    pub fn want_every_book(&self) {
        self.send_ops(vec![Op::WantBook {
            symbol: EVERY_BOOK.to_owned(),
        }]);
    }

    /// Records a book received whole: the producer's, whatever this instance held.
    fn take_snapshot(&self, symbol: &str, snapshot: BookSnapshot) {
        self.book_sync.produced_elsewhere(symbol);
        self.books
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(symbol.to_owned(), Arc::new(snapshot));
    }

    /// Answers a request for `symbol`'s book (`*`: every book) with the books this instance
    /// produces.
    fn answer_want(&self, symbol: &str) {
        let now = now_ms();
        let ops: Vec<Op> = {
            let books = self.books.read().unwrap_or_else(|e| e.into_inner());
            self.book_sync
                .to_answer(symbol, now)
                .into_iter()
                .filter_map(|symbol| {
                    let snapshot = books.get(&symbol)?.as_ref().clone();
                    Some(Op::Snapshot { symbol, snapshot })
                })
                .collect()
        };
        // One message per book: each goes on its pair's subject.
        for op in ops {
            self.send_ops(vec![op]);
        }
    }

    /// Asks the producer of `symbol`'s book for it whole, unless asked within [`WANT_EVERY`].
    fn want_book(&self, symbol: &str) {
        if self.book_sync.may_ask(symbol, now_ms()) {
            self.send_ops(vec![Op::WantBook {
                symbol: symbol.to_owned(),
            }]);
        }
    }

    /// Publishes `ops` to the other instances, to make nothing here.
    fn send_ops(&self, ops: Vec<Op>) {
        let Some(fanout) = self.fanout.get().filter(|fanout| fanout.is_shared()) else {
            return;
        };
        let shared = Shared {
            ops,
            send: Sending::Now,
        };
        if let Ok(payload) = serde_json::to_vec(&shared) {
            fanout.publish(&shared.subject(), payload);
        }
    }

    /// Broadcasts a notice received from another instance on `/ws/business/notice`.
    pub fn relay_notice(&self, text: &str) {
        let _ = self.notices.send(Arc::from(text));
    }

    /// Sends a message on this instance's `/ws/business/notice` only, not shared: for what every
    /// instance finds on its own (the content announcer reads the publications from the
    /// database, which every instance shares).
    pub fn publish_notice_here(&self, kind: &str, data: &impl Serialize) {
        let text = serde_json::json!({"type": kind, "data": data}).to_string();
        self.relay_notice(&text);
    }
}

impl Publication<'_> {
    /// Records `op` to share, when this publication is shared (its value is built only then).
    pub(super) fn share(&mut self, op: impl FnOnce() -> Op) {
        if let Some(shared) = &mut self.shared {
            shared.push(op());
        }
    }

    /// Records `diff` of `symbol` to share (its `snapshot` too when the book is due whole: see
    /// the module), when this publication is shared.
    pub(super) fn share_book(&mut self, symbol: &str, snapshot: &BookSnapshot, diff: &BookDiff) {
        let Some(shared) = &mut self.shared else {
            return;
        };
        shared.push(Op::Book {
            symbol: symbol.to_owned(),
            diff: diff.clone(),
        });
        if self.hub.book_sync.produced_here(symbol, now_ms()) {
            shared.push(Op::Snapshot {
                symbol: symbol.to_owned(),
                snapshot: snapshot.clone(),
            });
        }
    }

    /// Follows another instance's `diff` of `symbol`: applies it to this instance's copy when it
    /// follows it, else drops the copy and asks for the book whole unless it `comes_whole` in the
    /// same message (see the module); broadcasts the diff either way.
    fn follow_book(&mut self, symbol: &str, diff: &BookDiff, comes_whole: bool) {
        let hub = self.hub;
        hub.book_sync.produced_elsewhere(symbol);
        let in_step = {
            let mut books = hub.books.write().unwrap_or_else(|e| e.into_inner());
            match books.get(symbol).map(|held| (held.seq, held.apply(diff))) {
                // Had it already: a book whole answered before this diff was sent.
                Some((seq, _)) if seq == diff.seq => true,
                Some((_, Some(next))) => {
                    books.insert(symbol.to_owned(), Arc::new(next));
                    true
                }
                _ => {
                    books.remove(symbol);
                    false
                }
            }
        };
        if !in_step && !comes_whole {
            hub.want_book(symbol);
        }
        let text = depth_diff_message(symbol, diff);
        self.events
            .push(hub.event("depth", symbol, &text, diff.seq));
    }

    /// Publishes the changes recorded to share (once: the publication is no longer shared).
    pub(super) fn send_shared(&mut self, send: Sending) {
        let Some(ops) = self.shared.take().filter(|ops| !ops.is_empty()) else {
            return;
        };
        let Some(fanout) = self.hub.fanout.get() else {
            return;
        };
        let shared = Shared { ops, send };
        // Plain structs of strings and numbers: serialising cannot fail.
        if let Ok(payload) = serde_json::to_vec(&shared) {
            fanout.publish(&shared.subject(), payload);
        }
    }
}

/// What a hub knows of the books' producers (see the module), per pair.
#[derive(Default)]
pub(super) struct BookSync(Mutex<HashMap<String, PairSync>>);

#[derive(Default)]
struct PairSync {
    /// Whether this instance's own publications made the book last.
    produced_here: bool,
    /// When this instance last sent the book whole (epoch ms; 0: never).
    whole_at: i64,
    /// When this instance last asked for the book whole (epoch ms; 0: never).
    asked_at: i64,
}

impl BookSync {
    fn pairs(&self) -> std::sync::MutexGuard<'_, HashMap<String, PairSync>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Notes that this instance produced `symbol`'s book at `now`; whether the book is due whole
    /// (the first diff of this producer, or [`WHOLE_EVERY`] since the last whole one).
    fn produced_here(&self, symbol: &str, now: i64) -> bool {
        let mut pairs = self.pairs();
        let pair = pairs.entry(symbol.to_owned()).or_default();
        let due = !pair.produced_here || now - pair.whole_at >= WHOLE_EVERY;
        pair.produced_here = true;
        if due {
            pair.whole_at = now;
        }
        due
    }

    /// Notes that another instance produces `symbol`'s book now.
    fn produced_elsewhere(&self, symbol: &str) {
        if let Some(pair) = self.pairs().get_mut(symbol) {
            pair.produced_here = false;
        }
    }

    /// The pairs of a request for `symbol` (`*`: every one) whose book this instance produces,
    /// noted as sent whole at `now`.
    fn to_answer(&self, symbol: &str, now: i64) -> Vec<String> {
        let mut pairs = self.pairs();
        pairs
            .iter_mut()
            .filter(|(pair, sync)| sync.produced_here && (symbol == EVERY_BOOK || *pair == symbol))
            .map(|(pair, sync)| {
                sync.whole_at = now;
                pair.clone()
            })
            .collect()
    }

    /// Whether this instance may ask for `symbol`'s book at `now` (noted as asked if so).
    fn may_ask(&self, symbol: &str, now: i64) -> bool {
        let mut pairs = self.pairs();
        let pair = pairs.entry(symbol.to_owned()).or_default();
        let may = now - pair.asked_at >= WANT_EVERY;
        if may {
            pair.asked_at = now;
        }
        may
    }
}
