//! [`Publication`]: messages the hub broadcasts together, as one [`Batch`], and the outbox that
//! gathers the books the spot markets publish for a tick into the tick's batch
//! ([`Publication::send_soon`], [`Publication::send_with_books`], within [`GATHER_WINDOW`]).

use std::sync::{Arc, Mutex};
use std::time::Duration;

use tokio::sync::broadcast;
use wasm_core::kline::{Candle, Interval};

use super::{
    Batch, Detail, MarketEvent, MarketHub, Published, RECENT_TRADES, Ticker, Trade,
    depth_diff_message, detail_message, kline_channel, kline_message, remote, ticker_message,
    trades_message,
};
use crate::market::book::{BookDiff, BookSnapshot};

/// Messages to broadcast together, as one [`Batch`] (the candles as one of their own): each
/// method records the latest state at once, as the `publish_*` methods of [`MarketHub`] do, and
/// [`Publication::send`] broadcasts what was collected. Dropped unsent, nothing is broadcast.
pub struct Publication<'a> {
    pub(super) hub: &'a MarketHub,
    pub(super) events: Vec<MarketEvent>,
    pub(super) candles: Vec<MarketEvent>,
    /// The state changes to share with the other instances (cluster mode, made here).
    pub(super) shared: Option<Vec<remote::Op>>,
}

impl Publication<'_> {
    /// Records `ticker` as the latest of `symbol` and adds its message.
    pub fn ticker(&mut self, symbol: &str, ticker: Ticker) {
        self.share(|| remote::Op::Ticker {
            symbol: symbol.to_owned(),
            ticker: ticker.clone(),
        });
        let text = ticker_message(symbol, &ticker);
        self.hub.write().insert(symbol.to_owned(), ticker);
        self.events.push(self.hub.event("ticker", symbol, &text, 0));
    }

    /// Records `snapshot` as the book of `symbol` and adds `diff` (the snapshot is recorded first,
    /// so a client that takes it before the diff arrives skips the diff by its `seq`).
    pub fn book(&mut self, symbol: &str, snapshot: BookSnapshot, diff: &BookDiff) {
        self.share_book(symbol, &snapshot, diff);
        self.hub
            .books
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(symbol.to_owned(), Arc::new(snapshot));
        let text = depth_diff_message(symbol, diff);
        self.events
            .push(self.hub.event("depth", symbol, &text, diff.seq));
    }

    /// Records `trades` (oldest first) of `symbol` and adds them as one `TRADE` message (ids kept
    /// increasing per pair, see [`MarketHub::publish_trades`]). No trades, no message.
    pub fn trades(&mut self, symbol: &str, trades: &[Trade]) {
        if trades.is_empty() {
            return;
        }
        let numbered = {
            let mut all = self.hub.trades.write().unwrap_or_else(|e| e.into_inner());
            let recent = all.entry(symbol.to_owned()).or_default();
            let mut last = recent.back().map_or(0, |trade| trade.id);
            let numbered: Vec<Trade> = trades
                .iter()
                .map(|trade| {
                    last = trade.id.max(last + 1);
                    Trade {
                        id: last,
                        ..trade.clone()
                    }
                })
                .collect();
            recent.extend(numbered.iter().cloned());
            while recent.len() > RECENT_TRADES {
                recent.pop_front();
            }
            numbered
        };
        let text = trades_message(symbol, &numbered, false);
        self.share(|| remote::Op::Trades {
            symbol: symbol.to_owned(),
            trades: numbered.clone(),
        });
        // The newest id: a client whose snapshot already holds these trades skips the message
        // (they are recorded now, broadcast within the gather window).
        let newest = numbered.last().map_or(0, |trade| trade.id);
        self.events
            .push(self.hub.event("trade", symbol, &text, newest));
    }

    /// Records the `DETAIL` of `symbol` and adds its message.
    pub fn detail(&mut self, symbol: &str, detail: Detail) {
        self.share(|| remote::Op::Detail {
            symbol: symbol.to_owned(),
            detail: detail.clone(),
        });
        let text = detail_message(symbol, &detail);
        self.hub
            .details
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(symbol.to_owned(), detail);
        self.events.push(self.hub.event("detail", symbol, &text, 0));
    }

    /// Adds one `simpleData` message: last price and 24h change of every pair as recorded now.
    pub fn simple_data(&mut self, ts: i64) {
        self.share(|| remote::Op::SimpleData { ts });
        let text = self.hub.simple_data_message(ts);
        self.events
            .push(self.hub.event("simpleData", "*", &text, 0));
    }

    /// Records the live candles of `symbol` and adds them (`kline`) to the candles' batch, after
    /// the candles the last minute completed (`KLINE`).
    pub fn klines(
        &mut self,
        symbol: &str,
        live: Vec<(Interval, Candle)>,
        completed: &[(Interval, Candle)],
    ) {
        let kinds = completed
            .iter()
            .map(|(interval, candle)| ("KLINE", interval, candle))
            .chain(
                live.iter()
                    .map(|(interval, candle)| ("kline", interval, candle)),
            );
        for (kind, interval, candle) in kinds {
            let text = kline_message(kind, symbol, *interval, candle);
            self.share(|| remote::Op::Kline {
                symbol: symbol.to_owned(),
                channel: kline_channel(*interval).to_owned(),
                text: text.clone(),
            });
            self.candles
                .push(self.hub.event(kline_channel(*interval), symbol, &text, 0));
        }
        self.hub
            .klines
            .write()
            .unwrap_or_else(|e| e.into_inner())
            .insert(symbol.to_owned(), live);
    }

    /// Broadcasts what was collected now: one batch (after what was waiting to be sent soon), and
    /// one of candles.
    pub fn send(mut self) {
        self.send_shared(remote::Sending::Now);
        let Publication {
            hub,
            events,
            candles,
            ..
        } = self;
        hub.events.send(events);
        if !candles.is_empty() {
            // No receiver is not an error: nobody is watching.
            let _ = hub.candle_events.send(Arc::new(Published::new(candles)));
        }
    }

    /// Broadcasts what was collected within [`GATHER_WINDOW`], in one batch with everything else
    /// published meanwhile. The spot markets publish their books one pair at a time, a few
    /// milliseconds after the simulator's tick that quoted them: one batch for the tick and them
    /// all wakes each client once, and costs it one write, instead of once a pair. Outside a tokio
    /// runtime it sends at once.
    pub fn send_soon(mut self) {
        self.send_shared(remote::Sending::Soon);
        self.gather(None);
    }

    /// Broadcasts what was collected in one batch with everything else published meanwhile, as
    /// soon as `books` books published with [`Publication::send_soon`] (the spot markets' books of
    /// this tick) have joined it since the last batch went out, and within [`GATHER_WINDOW`] at the
    /// latest (a market that skips a quote does not hold the tick longer). With no book to wait
    /// for, it goes out at once. Outside a tokio runtime it sends at once.
    pub fn send_with_books(mut self, books: usize) {
        self.send_shared(remote::Sending::WithBooks(books));
        self.gather(Some(books));
    }

    fn gather(self, books: Option<usize>) {
        let Publication {
            hub,
            events,
            candles,
            ..
        } = self;
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            return Publication {
                hub,
                events,
                candles,
                shared: None,
            }
            .send();
        };
        if Outbox::wait(&hub.events, events, books) {
            let outbox = hub.events.clone();
            runtime.spawn(async move {
                tokio::time::sleep(GATHER_WINDOW).await;
                outbox.send(Vec::new());
            });
        }
        if !candles.is_empty() {
            // No receiver is not an error: nobody is watching.
            let _ = hub.candle_events.send(Arc::new(Published::new(candles)));
        }
    }
}

/// How long a message sent with [`Publication::send_soon`] may wait for others to join its batch.
pub const GATHER_WINDOW: Duration = Duration::from_millis(10);

/// The broadcast of live messages and those waiting to join its next batch.
pub(super) struct Outbox {
    pub(super) sender: broadcast::Sender<Batch>,
    /// What waits for the next batch.
    pub(super) waiting: Mutex<Waiting>,
}

/// What waits for the next batch of the broadcast.
#[derive(Default)]
pub(super) struct Waiting {
    /// Messages to send with the next batch, in the order they were published.
    events: Vec<MarketEvent>,
    /// Books (`depth` messages) that joined with [`Publication::send_soon`] since the last batch.
    books: usize,
    /// How many such books the publication waiting expects before it goes out
    /// ([`Publication::send_with_books`]).
    expected: Option<usize>,
    /// The last batch sent (its shared writes are dropped when the next one goes).
    last: Option<Batch>,
}

impl Outbox {
    /// Broadcasts what waits, then `events`, as one batch (nothing if both are empty).
    pub(super) fn send(&self, events: Vec<MarketEvent>) {
        // The lock is held while sending, so that batches go out in the order they were made.
        let mut waiting = self.lock();
        waiting.events.extend(events);
        Self::send_waiting(&self.sender, &mut waiting);
    }

    fn send_waiting(sender: &broadcast::Sender<Batch>, waiting: &mut Waiting) {
        waiting.books = 0;
        waiting.expected = None;
        if waiting.events.is_empty() {
            return;
        }
        let batch = Arc::new(Published::new(std::mem::take(&mut waiting.events)));
        if let Some(last) = waiting.last.replace(batch.clone()) {
            last.forget_writes();
        }
        // No receiver is not an error: nobody is watching.
        let _ = sender.send(batch);
    }

    /// Adds `events` to what waits; `true` when nothing waited before (a send must be arranged).
    /// With `expected`, they wait for that many books to join (counting those already there) and
    /// go out as soon as they have; books added without it count towards what is expected.
    fn wait(&self, events: Vec<MarketEvent>, expected: Option<usize>) -> bool {
        if events.is_empty() && expected.is_none() {
            return false;
        }
        let mut waiting = self.lock();
        let first = waiting.events.is_empty();
        if expected.is_none() {
            waiting.books += events.iter().filter(|e| e.topic.is_depth()).count();
        } else {
            waiting.expected = expected;
        }
        waiting.events.extend(events);
        if waiting
            .expected
            .is_some_and(|expected| waiting.books >= expected)
        {
            Self::send_waiting(&self.sender, &mut waiting);
            return false;
        }
        first && !waiting.events.is_empty()
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Waiting> {
        self.waiting.lock().unwrap_or_else(|e| e.into_inner())
    }
}
