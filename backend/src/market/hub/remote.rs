//! The hub's publications shared with the other instances of a cluster
//! ([`crate::cluster::Fanout`]): a [`super::Publication`] made here records, beside its messages,
//! the state changes it makes ([`Op`]), and sends them as one NATS message when it is sent; an
//! instance that receives it ([`super::MarketHub::replay`]) makes the same publication on its own
//! hub — records the same tickers, books, trades and details, and broadcasts the same messages
//! (each serialised once there, for all its clients), in the same batching ([`Sending`]).
//!
//! A book travels as its snapshot and its diff, so every instance's snapshot is the producer's at
//! that `seq` and its clients' resync (a new subscription: snapshot, then the diffs after it)
//! works as on the producer. Live candles travel as their messages only (the instance that
//! simulates keeps them; the others broadcast them).

use serde::{Deserialize, Serialize};

use crate::market::book::{BookDiff, BookSnapshot};
use wasm_core::kline::Interval;

use super::{MarketHub, Publication, kline_channel};
use crate::market::hub::{Detail, Ticker, Trade};
use std::sync::Arc;

/// One state change of a publication.
#[derive(Debug, Serialize, Deserialize)]
#[serde(tag = "op", rename_all = "camelCase")]
pub(super) enum Op {
    /// [`super::Publication::ticker`].
    Ticker { symbol: String, ticker: Ticker },
    /// [`super::Publication::book`].
    Book {
        symbol: String,
        snapshot: BookSnapshot,
        diff: BookDiff,
    },
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
            Op::Book { .. } => "depth",
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
                let pair: String = symbol
                    .chars()
                    .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
                    .collect();
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
        for op in shared.ops {
            match op {
                Op::Ticker { symbol, ticker } => publication.ticker(&symbol, ticker),
                Op::Book {
                    symbol,
                    snapshot,
                    diff,
                } => publication.book(&symbol, snapshot, &diff),
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
            Sending::Now => publication.send(),
            Sending::Soon => publication.send_soon(),
            Sending::WithBooks(books) => publication.send_with_books(books),
        }
        Ok(())
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
