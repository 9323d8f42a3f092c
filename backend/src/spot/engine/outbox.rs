//! What a batch sends out, and only once it is committed: the answers to its commands, its trades
//! on the market channel's tape, the pair's depth, and the users' `order` and `fill` messages. A
//! batch gathers them, with what it writes at its end, in its [`Outbox`]; an order that opened or
//! left the book reaches the [`OpenOrderIndex`](super::OpenOrderIndex) before its answer does.

use std::collections::{HashMap, HashSet, VecDeque};
use std::sync::Arc;

use tokio::sync::oneshot;

use super::super::views::{SpotFill, SpotOrder};
use super::{Answer, SpotEngine};
use crate::clock::now_ms;
use crate::entity::{spot_order, spot_trade};
use crate::funds::ledger::Idempotency;
use crate::funds::ledger::batch::{EntryIndex, LedgerBatch, NewIds};
use crate::market::book::{BookSnapshot, Level};
use crate::market::hub::Trade;
use crate::refusal::Refusal;
use crate::user::events::UserEvent;

/// Levels of the book published on the market channel.
const DEPTH_LEVELS: usize = crate::market::book::BOOK_LEVELS;

/// Where an answer goes, and the answer.
pub(super) type Reply<T> = (oneshot::Sender<Result<T, Refusal>>, Result<T, Refusal>);

/// A message for a user's channel, complete once the batch's trades have their ids.
pub(super) enum PendingEvent {
    /// Ready to send.
    Ready(UserEvent),
    /// The user's side of the batch's trade number `trade`.
    Fill {
        /// The user.
        user_id: i64,
        /// The trade's place in the batch.
        trade: usize,
    },
}

/// What a batch writes at its end and sends out once committed.
#[derive(Default)]
pub(super) struct Outbox {
    /// The answers to the batch's new orders.
    pub(super) submits: Vec<Reply<Answer>>,
    /// The answers to its cancellations.
    pub(super) cancels: Vec<Reply<SpotOrder>>,
    /// Its trades, for the market channel's tape.
    pub(super) tape: Vec<Trade>,
    /// Its messages for the users' channels.
    pub(super) user_events: Vec<PendingEvent>,
    /// Open orders it changed, written once at its end.
    pub(super) touched: HashSet<i64>,
    /// Whether the depth is to be published again.
    pub(super) book_changed: bool,
    /// The batch's journal entries.
    pub(super) ledger: LedgerBatch,
    /// The batch's trades, each with its entry (ids are given when the batch is written).
    pub(super) trades: Vec<(spot_trade::Model, EntryIndex)>,
    /// Ids reserved for the batch's new orders.
    pub(super) order_ids: VecDeque<i64>,
    /// Where the batch's other new ids come from.
    pub(super) new_ids: Option<NewIds>,
    /// Idempotency keys of the batch already stored: (user, key) → (request hash, answer).
    pub(super) stored_keys: HashMap<(i64, String), (String, String)>,
    /// Keys claimed by this batch, with their answers, written at its end.
    pub(super) new_keys: Vec<(Idempotency, String)>,
    /// Orders the batch opened (id, owner); some may have finished in it too.
    pub(super) opened: Vec<(i64, i64)>,
}

impl SpotEngine {
    /// Sends what a committed batch produced.
    pub(super) fn deliver(&mut self, outbox: Outbox) {
        // Before the answers: a cancellation sent on an answer finds its order.
        let opened: Vec<(i64, i64)> = outbox
            .opened
            .iter()
            .filter(|(id, _)| self.open.contains_key(id))
            .copied()
            .collect();
        self.context
            .open_orders
            .update(&self.symbol, &opened, self.finished.keys().copied());
        for (reply, answer) in outbox.submits {
            let _ = reply.send(answer);
        }
        for (reply, answer) in outbox.cancels {
            let _ = reply.send(answer);
        }
        let hub = &self.context.hub;
        hub.publish_trades(&self.rules.symbol, &outbox.tape);
        if outbox.book_changed {
            self.publish_depth();
        }
        for event in outbox.user_events {
            let event = match event {
                PendingEvent::Ready(event) => event,
                PendingEvent::Fill { user_id, trade } => {
                    let Some(view) = outbox.trades.get(trade).and_then(|(trade, _)| {
                        SpotFill::of(trade, user_id, &self.rules.base, &self.rules.quote)
                    }) else {
                        continue;
                    };
                    UserEvent::new(user_id, "fill", &view)
                }
            };
            // No receiver is not an error: the user is not watching.
            let _ = self.context.user_events.send(Arc::new(event));
        }
    }

    /// Publishes the book's top levels as the pair's depth (a diff against the last one).
    pub(super) fn publish_depth(&self) {
        let rules = &self.rules;
        let (bids, asks) = self.book.depth(DEPTH_LEVELS);
        let level = |(price, quantity): (u64, u64)| Level {
            price: rules.price(price),
            quantity: rules.quantity(quantity),
        };
        let hub = &self.context.hub;
        let previous = hub.book(&rules.symbol);
        let next = BookSnapshot {
            seq: previous.as_ref().map_or(0, |book| book.seq) + 1,
            bids: bids.into_iter().map(level).collect(),
            asks: asks.into_iter().map(level).collect(),
            ts: now_ms(),
        };
        let empty = BookSnapshot {
            seq: next.seq - 1,
            bids: Vec::new(),
            asks: Vec::new(),
            ts: next.ts,
        };
        let diff = previous.as_deref().unwrap_or(&empty).diff_to(&next);
        hub.publish_book(&rules.symbol, next, &diff);
    }
}

/// The user channel's `order` message for `row`.
pub(super) fn order_event(row: &spot_order::Model) -> UserEvent {
    UserEvent::new(row.user_id, "order", &SpotOrder::from(row))
}
