//! The house market maker: on every tick of the simulated market ([`Command::Quote`]) its previous
//! ladder is withdrawn and a new one placed around the simulated price, as large as its own ledger
//! balances allow (bids within its quote balance, asks within its base balance). Its orders live
//! only in memory (re-quoted every tick, never resting long); its fills are real (`fills.rs`).
//!
//! A batch of quotes alone (the usual case) first tries to re-quote in memory: the market maker's
//! balances are read on the pool, outside any transaction and the write turn, and when the last
//! price triggers no stop and the new ladder crosses no user order (both checked before the book
//! changes) the house orders only rest, nothing is written and the book goes out at once. A quote
//! that would fill or trigger something goes through a write transaction, which reads the balances
//! again and settles the fills.

use matching::{Event, OrderKind, OrderRequest};
use rust_decimal::Decimal;

use super::batch::Stop;
use super::outbox::Outbox;
use super::{Command, SpotEngine};
use crate::db::WriterTransaction;
use crate::funds::ledger::{self, AccountRef, House};
use crate::market::book::BookSnapshot;

/// The owner id of the house market maker's orders.
pub const HOUSE: i64 = 0;
/// House order ids have the top bit set, so they never meet a database id.
pub(super) const HOUSE_ID_BIT: u64 = 1 << 63;

impl SpotEngine {
    /// Withdraws the ladder and places the next one on `simulated`'s levels, within the market
    /// maker's balances as the transaction reads them, and settles whatever it fills.
    pub(super) async fn quote(
        &mut self,
        txn: &WriterTransaction<'_>,
        simulated: &BookSnapshot,
        last: Decimal,
        outbox: &mut Outbox,
    ) -> Result<(), Stop> {
        let mut events = std::mem::take(&mut self.events);
        events.clear();
        self.withdraw_ladder();
        outbox.book_changed = true;
        if let Some(last) = self.rules.ticks_floor(last) {
            self.book.set_last_price(last, &mut events);
        }
        let house = AccountRef::House(House::MarketMaker);
        let quote_left = outbox.ledger.balance(txn, house, &self.rules.quote).await?;
        let base_left = outbox.ledger.balance(txn, house, &self.rules.base).await?;
        for (side, price, quantity) in self.ladder(simulated, quote_left, base_left) {
            self.place_house(side, price, quantity, &mut events);
        }
        let result = self.apply(txn, &events, outbox).await;
        self.events = events;
        result
    }

    /// The previous ladder goes; its cancellations need no settlement.
    fn withdraw_ladder(&mut self) {
        for id in self.house_orders.drain(..) {
            self.book.cancel(id);
        }
    }

    /// The house ladder on `simulated`'s levels (side, ticks, lots), bounded by what the market
    /// maker owns: bids by its quote balance `quote_left`, asks by its base balance `base_left`
    /// (each level's size is cut to what is left; a level cut to nothing is left out).
    fn ladder(
        &self,
        simulated: &BookSnapshot,
        mut quote_left: Decimal,
        mut base_left: Decimal,
    ) -> Vec<(matching::Side, u64, u64)> {
        let levels = self.context.house_levels;
        let candidates = simulated
            .bids
            .iter()
            .take(levels)
            .map(|level| (matching::Side::Buy, level))
            .chain(
                simulated
                    .asks
                    .iter()
                    .take(levels)
                    .map(|level| (matching::Side::Sell, level)),
            );
        let mut ladder = Vec::with_capacity(2 * levels);
        for (side, level) in candidates {
            let affordable = match side {
                matching::Side::Buy => quote_left
                    .checked_div(level.price)
                    .unwrap_or_default()
                    .min(level.quantity),
                matching::Side::Sell => base_left.min(level.quantity),
            };
            let (Some(price), Some(quantity)) = (
                self.rules.ticks(level.price),
                self.rules.lots_floor(affordable),
            ) else {
                continue;
            };
            match side {
                matching::Side::Buy => {
                    quote_left -= self.rules.price(price) * self.rules.quantity(quantity)
                }
                matching::Side::Sell => base_left -= self.rules.quantity(quantity),
            }
            ladder.push((side, price, quantity));
        }
        ladder
    }

    /// Places one house order of the ladder.
    fn place_house(
        &mut self,
        side: matching::Side,
        price: u64,
        quantity: u64,
        events: &mut Vec<Event>,
    ) {
        self.next_house_id += 1;
        let id = HOUSE_ID_BIT | self.next_house_id;
        self.book.place(
            OrderRequest {
                id,
                owner: HOUSE,
                side,
                kind: OrderKind::Limit { price, quantity },
                time_in_force: matching::TimeInForce::Gtc,
                post_only: false,
            },
            events,
        );
        self.house_orders.push(id);
    }

    /// Re-quotes without a transaction when nothing is to be written: the last price triggers
    /// no stop and the new ladder crosses no user order (checked before the book changes), so
    /// the house orders only rest. `quote_left` and `base_left` are the market maker's balances,
    /// read outside any transaction. Returns `false`, with at most the old ladder withdrawn, when
    /// the quote would fill or trigger something: it must then go through [`Self::quote`],
    /// whose transaction reads the balances again and settles what it fills.
    fn quote_without_writes(
        &mut self,
        simulated: &BookSnapshot,
        last: Decimal,
        quote_left: Decimal,
        base_left: Decimal,
    ) -> Result<bool, String> {
        self.withdraw_ladder();
        let last = self.rules.ticks_floor(last);
        if last.is_some_and(|last| self.book.would_trigger_stops(last)) {
            return Ok(false);
        }
        // Only users' orders are left in the book.
        let (best_bid, best_ask) = (self.book.best_bid(), self.book.best_ask());
        let ladder = self.ladder(simulated, quote_left, base_left);
        let crosses = ladder.iter().any(|&(side, price, _)| match side {
            matching::Side::Buy => best_ask.is_some_and(|ask| price >= ask),
            matching::Side::Sell => best_bid.is_some_and(|bid| price <= bid),
        });
        if crosses {
            return Ok(false);
        }
        let mut events = std::mem::take(&mut self.events);
        events.clear();
        if let Some(last) = last {
            self.book.set_last_price(last, &mut events);
        }
        for (side, price, quantity) in ladder {
            self.place_house(side, price, quantity, &mut events);
        }
        // Nothing of a user's can have changed; a house order that met the house's own ladder
        // (a simulated book crossing itself) was cancelled by self-trade prevention.
        let mut unexpected = None;
        for event in &events {
            match *event {
                Event::Rested { id, .. } if id & HOUSE_ID_BIT != 0 => {}
                Event::Cancelled { id, .. } | Event::Rejected { id, .. }
                    if id & HOUSE_ID_BIT != 0 =>
                {
                    self.house_orders.retain(|house| *house != id);
                }
                _ => unexpected = Some(format!("{event:?}")),
            }
        }
        self.events = events;
        match unexpected {
            Some(event) => Err(format!(
                "a quote without writes changed a user order: {event}"
            )),
            None => Ok(true),
        }
    }

    /// A batch of quotes alone: each re-quoted in memory while none needs a write (see
    /// [`Self::quote_without_writes`]), the market maker's balances read once, on the pool, outside
    /// the markets' write turn. Returns the commands left for a write transaction: none, or
    /// every command from the first quote that fills or triggers something.
    pub(super) async fn quote_in_memory(&mut self, batch: Vec<Command>) -> Vec<Command> {
        let house = AccountRef::House(House::MarketMaker);
        // Not the writer's connection: another market's transaction may hold it. Read on the
        // server's runtime: sqlx gives a pool connection back in a task spawned where it is
        // dropped, and on the markets' own thread that task would wait behind their batches
        // while requests wait for the connection.
        let pool = self.context.pool.clone();
        let assets = (self.rules.quote.clone(), self.rules.base.clone());
        let read = self.context.server.spawn(async move {
            (
                ledger::balance(&pool, house, &assets.0).await,
                ledger::balance(&pool, house, &assets.1).await,
            )
        });
        let Ok((Ok(quote_left), Ok(base_left))) = read.await else {
            // The transaction reads them again and reports what fails.
            return batch;
        };
        let mut commands = batch.into_iter();
        let mut quoted = false;
        while let Some(command) = commands.next() {
            let Command::Quote { book, last } = &command else {
                return std::iter::once(command).chain(commands).collect();
            };
            match self.quote_without_writes(book, *last, quote_left, base_left) {
                Ok(true) => quoted = true,
                // The transaction's quote publishes the book once it is written.
                Ok(false) => return std::iter::once(command).chain(commands).collect(),
                Err(cause) => {
                    // Memory no longer equals the database: start again from what is stored.
                    tracing::error!(%cause, symbol = %self.rules.symbol, "reloading the spot book");
                    if let Err(error) = self.rebuild().await {
                        tracing::error!(%error, "reloading the spot book failed");
                    }
                    return Vec::new();
                }
            }
        }
        if quoted {
            self.publish_depth();
        }
        Vec::new()
    }
}
