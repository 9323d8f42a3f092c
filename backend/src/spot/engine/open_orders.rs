//! Open orders: the index that finds the pair of any user's open order ([`OpenOrderIndex`], shared
//! by the markets and kept after each commit and each rebuild), and an open order as its engine
//! keeps it in memory (its row and its running figures, [`OpenOrder`]).
//!
//! In cluster mode the index covers the pairs other instances own too: each change the markets
//! make here is published on `kestrel.live.spot.open.<pair>` ([`crate::cluster::Fanout`]) and
//! applied by the other instances' indexes, so a cancellation sent to any instance finds its
//! pair — and its owner — without a query. An index that missed a change only costs a query (an
//! order not listed: its pair is read from the database) or a question to the owner (an order
//! listed that is no longer open: the owner answers "not open"); a rebuild sends the pair whole.

use std::collections::HashMap;
use std::sync::{Arc, OnceLock};

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::super::views::OrderSide;
use crate::cluster::Fanout;
use crate::cluster::fanout::subject_token;
use crate::entity::spot_order;

/// The subjects of the index's changes, under `kestrel.live.`: `spot.open.<pair>`.
const SUBJECT: &str = "spot.open.";

/// A change of one pair's open orders, as it travels between instances.
#[derive(Debug, Serialize, Deserialize, PartialEq)]
struct Change {
    symbol: String,
    /// The pair's open orders are exactly `opened` (a rebuild), rather than a change of them.
    whole: bool,
    /// Orders opened: (order id, owner).
    opened: Vec<(i64, i64)>,
    /// Orders that left the book.
    closed: Vec<i64>,
}

/// The pair of every open user order, kept by the markets (after each commit, and when a book is
/// rebuilt), so a cancellation finds its market without a query.
#[derive(Default)]
pub struct OpenOrderIndex {
    entries: std::sync::Mutex<HashMap<i64, (i64, Arc<str>)>>,
    /// Cluster mode: where the changes made here go.
    fanout: OnceLock<Fanout>,
}

impl std::fmt::Debug for OpenOrderIndex {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("OpenOrderIndex")
            .field("open", &self.entries().len())
            .field("shared", &self.fanout.get().is_some())
            .finish()
    }
}

impl OpenOrderIndex {
    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<i64, (i64, Arc<str>)>> {
        self.entries.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Cluster mode (a shared `fanout`): publishes the changes made here from now on, and applies
    /// those of the other instances (see the module). Set once; nothing in one process.
    pub fn share_through(self: &Arc<Self>, fanout: &Fanout) {
        if !fanout.is_shared() || self.fanout.set(fanout.clone()).is_err() {
            return;
        }
        let index = Arc::downgrade(self);
        fanout.receive_under(SUBJECT, move |_, payload| {
            if let Some(index) = index.upgrade() {
                index.apply_remote(payload);
            }
        });
    }

    /// The pair of `user_id`'s open order `order_id`; `None` for an order that is not open or
    /// not theirs.
    pub fn symbol_of(&self, user_id: i64, order_id: i64) -> Option<Arc<str>> {
        self.entries()
            .get(&order_id)
            .filter(|(owner, _)| *owner == user_id)
            .map(|(_, symbol)| symbol.clone())
    }

    /// `symbol`'s open orders are now exactly `open` (order id, owner).
    pub(super) fn replace(&self, symbol: &Arc<str>, open: impl Iterator<Item = (i64, i64)>) {
        let open: Vec<(i64, i64)> = open.collect();
        self.replace_here(symbol, &open);
        self.publish(Change {
            symbol: symbol.to_string(),
            whole: true,
            opened: open,
            closed: Vec::new(),
        });
    }

    /// Orders opened on `symbol` and orders that left its book.
    pub(super) fn update(
        &self,
        symbol: &Arc<str>,
        opened: &[(i64, i64)],
        closed: impl Iterator<Item = i64>,
    ) {
        let closed: Vec<i64> = closed.collect();
        if opened.is_empty() && closed.is_empty() {
            return;
        }
        self.update_here(symbol, opened, &closed);
        self.publish(Change {
            symbol: symbol.to_string(),
            whole: false,
            opened: opened.to_vec(),
            closed,
        });
    }

    fn replace_here(&self, symbol: &Arc<str>, open: &[(i64, i64)]) {
        let mut entries = self.entries();
        entries.retain(|_, (_, pair)| pair != symbol);
        entries.extend(
            open.iter()
                .map(|(id, owner)| (*id, (*owner, symbol.clone()))),
        );
    }

    fn update_here(&self, symbol: &Arc<str>, opened: &[(i64, i64)], closed: &[i64]) {
        let mut entries = self.entries();
        entries.extend(
            opened
                .iter()
                .map(|(id, owner)| (*id, (*owner, symbol.clone()))),
        );
        for id in closed {
            entries.remove(id);
        }
    }

    /// Sends `change` to the other instances (cluster mode).
    fn publish(&self, change: Change) {
        let Some(fanout) = self.fanout.get() else {
            return;
        };
        let subject = format!("{SUBJECT}{}", subject_token(&change.symbol));
        // Numbers and a symbol: serialising cannot fail.
        if let Ok(payload) = serde_json::to_vec(&change) {
            fanout.publish(&subject, payload);
        }
    }

    /// Applies a change another instance published.
    fn apply_remote(&self, payload: &[u8]) {
        let change: Change = match serde_json::from_slice(payload) {
            Ok(change) => change,
            Err(error) => {
                tracing::warn!(%error, "an unreadable change of open spot orders from the cluster");
                return;
            }
        };
        let symbol: Arc<str> = Arc::from(change.symbol);
        if change.whole {
            self.replace_here(&symbol, &change.opened);
        } else {
            self.update_here(&symbol, &change.opened, &change.closed);
        }
    }
}

/// An open order of a user, as the task keeps it.
#[derive(Debug, Clone)]
pub(super) struct OpenOrder {
    /// The order's row, as last written or about to be.
    pub(super) row: spot_order::Model,
    /// Base quantity filled so far.
    pub(super) filled_quantity: Decimal,
    /// Quote amount filled so far.
    pub(super) filled_amount: Decimal,
    /// Fees paid so far.
    pub(super) fee: Decimal,
    /// What the order still holds.
    pub(super) frozen: Decimal,
}

impl OpenOrder {
    /// The order of a row read from the database or just made.
    pub(super) fn of(row: spot_order::Model) -> Self {
        let parse = |text: &str| wasm_core::money::parse_decimal(text).unwrap_or_default();
        Self {
            filled_quantity: parse(&row.filled_quantity),
            filled_amount: parse(&row.filled_amount),
            fee: parse(&row.fee),
            frozen: parse(&row.frozen_remaining),
            row,
        }
    }

    /// Buy or sell.
    pub(super) fn side(&self) -> OrderSide {
        OrderSide::parse(&self.row.side)
    }

    /// The row with the figures written back.
    pub(super) fn synced(&mut self, now: i64) -> &spot_order::Model {
        self.row.filled_quantity = self.filled_quantity.normalize().to_string();
        self.row.filled_amount = self.filled_amount.normalize().to_string();
        self.row.fee = self.fee.normalize().to_string();
        self.row.frozen_remaining = self.frozen.normalize().to_string();
        self.row.updated_at = now;
        &self.row
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn another_instances_index_follows_the_changes_made_here() {
        let (fanout, mut sent) = Fanout::capturing();
        let here = Arc::new(OpenOrderIndex::default());
        here.share_through(&fanout);
        let there = OpenOrderIndex::default();
        let btc: Arc<str> = Arc::from("btcusdt");
        let eth: Arc<str> = Arc::from("ethusdt");
        let mut follow = |there: &OpenOrderIndex| {
            let (subject, payload) = sent.try_recv().expect("a change was published");
            assert!(subject.starts_with("kestrel.live.spot.open."), "{subject}");
            there.apply_remote(&payload);
        };

        // Another instance's own order of a pair it owns stays as it is.
        there.update_here(&eth, &[(9, 3)], &[]);
        here.replace(&btc, [(1, 7), (2, 8)].into_iter());
        follow(&there);
        assert_eq!(there.symbol_of(7, 1).as_deref(), Some("btcusdt"));
        assert_eq!(there.symbol_of(8, 1), None, "someone else's order");

        here.update(&btc, &[(3, 7)], [1].into_iter());
        follow(&there);
        assert_eq!(there.symbol_of(7, 3).as_deref(), Some("btcusdt"));
        assert_eq!(there.symbol_of(7, 1), None, "a closed order is gone");
        assert_eq!(there.symbol_of(8, 2).as_deref(), Some("btcusdt"));

        // Nothing changed, nothing sent.
        here.update(&btc, &[], std::iter::empty());
        assert!(sent.try_recv().is_err());

        // A rebuild sends the pair whole: what the other instance missed is set right.
        there.update_here(&btc, &[(4, 5)], &[]);
        here.replace(&btc, [(3, 7)].into_iter());
        let (subject, payload) = sent.try_recv().unwrap();
        assert_eq!(subject, "kestrel.live.spot.open.btcusdt");
        there.apply_remote(&payload);
        assert_eq!(there.symbol_of(5, 4), None);
        assert_eq!(there.symbol_of(8, 2), None);
        assert_eq!(there.symbol_of(7, 3).as_deref(), Some("btcusdt"));
        assert_eq!(there.symbol_of(3, 9).as_deref(), Some("ethusdt"));

        // An unreadable change changes nothing.
        there.apply_remote(b"{");
        assert_eq!(there.symbol_of(7, 3).as_deref(), Some("btcusdt"));
    }

    #[test]
    fn one_process_publishes_nothing() {
        let here = Arc::new(OpenOrderIndex::default());
        here.share_through(&Fanout::local());
        here.update(&Arc::from("btcusdt"), &[(1, 7)], std::iter::empty());
        assert_eq!(here.symbol_of(7, 1).as_deref(), Some("btcusdt"));
        assert!(here.fanout.get().is_none());
    }
}
