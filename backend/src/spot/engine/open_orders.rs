//! Open orders: the index that finds the pair of any user's open order ([`OpenOrderIndex`], shared
//! by the markets and kept after each commit and each rebuild), and an open order as its engine
//! keeps it in memory (its row and its running figures, [`OpenOrder`]).

use std::collections::HashMap;
use std::sync::Arc;

use rust_decimal::Decimal;

use super::super::views::OrderSide;
use crate::entity::spot_order;

/// The pair of every open user order, kept by the markets (after each commit, and when a book is
/// rebuilt), so a cancellation finds its market without a query.
#[derive(Debug, Default)]
pub struct OpenOrderIndex(std::sync::Mutex<HashMap<i64, (i64, Arc<str>)>>);

impl OpenOrderIndex {
    fn entries(&self) -> std::sync::MutexGuard<'_, HashMap<i64, (i64, Arc<str>)>> {
        self.0.lock().unwrap_or_else(|e| e.into_inner())
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
        let mut entries = self.entries();
        entries.retain(|_, (_, pair)| pair != symbol);
        entries.extend(open.map(|(id, owner)| (id, (owner, symbol.clone()))));
    }

    /// Orders opened on `symbol` and orders that left its book.
    pub(super) fn update(
        &self,
        symbol: &Arc<str>,
        opened: &[(i64, i64)],
        closed: impl Iterator<Item = i64>,
    ) {
        let mut entries = self.entries();
        entries.extend(
            opened
                .iter()
                .map(|(id, owner)| (*id, (*owner, symbol.clone()))),
        );
        for id in closed {
            entries.remove(&id);
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
