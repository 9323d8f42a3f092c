//! The order book of one symbol and its matching rules: price-time priority, the maker's price,
//! self-trade prevention by cancelling the maker, GTC/IOC/FOK, post-only, market orders by quantity
//! or by funds, and stop-limit orders triggered by the last price in a loop (a cascade never
//! recurses).
//!
//! Placing an order allocates nothing per order once the book's structures have grown to its size:
//! orders live in an [`Arena`] with intrusive per-level FIFO queues, found by id through an
//! `FxHashMap` (O(1) cancel), levels per side in a [`Ladder`] (a sorted `Vec` near the touch, a
//! `BTreeMap` beyond), and events go into the caller's buffer.

use rustc_hash::FxHashMap;

use crate::arena::{Arena, NIL, Node};
use crate::ladder::{Ladder, queue};
use crate::stops::{PriceRange, Stops};
use crate::types::{
    CancelReason, DepthLevels, Event, OrderId, OrderKind, OrderRequest, OwnerId, RejectReason,
    RestingOrder, Side, StopCondition, StopRequest, TimeInForce,
};

/// One symbol's order book: resting orders, waiting stops and the last traded price.
///
/// Single-threaded and pure: no IO, clock or randomness, so the same calls always give the same
/// events. It never panics on any input.
#[derive(Clone, Debug)]
pub struct Book {
    bids: Ladder,
    asks: Ladder,
    arena: Arena,
    index: FxHashMap<OrderId, usize>,
    stops: Stops,
    last_price: Option<u64>,
}

impl Default for Book {
    fn default() -> Self {
        Self::new()
    }
}

/// What is left for a taker to take.
#[derive(Clone, Copy, Debug)]
enum Want {
    /// Base lots.
    Lots(u64),
    /// Quote notional units (market buy by funds).
    Funds(u128),
}

/// An incoming order while it matches.
#[derive(Clone, Copy, Debug)]
struct Taker {
    id: OrderId,
    owner: OwnerId,
    side: Side,
    limit: Option<u64>,
    want: Want,
}

/// What one taker's matching did.
#[derive(Clone, Copy, Debug)]
struct Taken {
    executed: u64,
    /// A market order by funds stopped because its next lot was unaffordable.
    unaffordable: bool,
    traded: Option<PriceRange>,
}

/// Whether a taker on `side` with limit `limit` may trade at `price`.
fn crosses(side: Side, limit: u64, price: u64) -> bool {
    match side {
        Side::Buy => price <= limit,
        Side::Sell => price >= limit,
    }
}

fn quantity_of(order: &OrderRequest) -> u64 {
    match order.kind {
        OrderKind::Limit { quantity, .. } | OrderKind::Market { quantity } => quantity,
        OrderKind::MarketFunds { .. } => 0,
    }
}

fn resting(node: &Node) -> RestingOrder {
    RestingOrder {
        id: node.id,
        owner: node.owner,
        side: node.side,
        price: node.price,
        remaining: node.remaining,
        is_stop: false,
    }
}

fn notional(price: u64, lots: u64) -> u128 {
    u128::from(price) * u128::from(lots)
}

impl Book {
    /// An empty book with no last price.
    pub fn new() -> Self {
        Self::with_capacity(0)
    }

    /// An empty book with room for `orders` resting orders before it allocates.
    pub fn with_capacity(orders: usize) -> Self {
        let mut index = FxHashMap::default();
        index.reserve(orders);
        Self {
            bids: Ladder::new(Side::Buy),
            asks: Ladder::new(Side::Sell),
            arena: Arena::with_capacity(orders),
            index,
            stops: Stops::default(),
            last_price: None,
        }
    }

    /// An empty book keeping only `levels` (at least 2) levels per side in its sorted `Vec`, the
    /// rest in its `BTreeMap`: for tests that need both tiers with few levels.
    #[doc(hidden)]
    pub fn with_near_levels(levels: usize) -> Self {
        Self {
            bids: Ladder::with_near_capacity(Side::Buy, levels),
            asks: Ladder::with_near_capacity(Side::Sell, levels),
            ..Self::new()
        }
    }

    /// Matches `order` by price-time priority and appends what happened to `events` (a buffer the
    /// caller reuses, so the hot path does not allocate). Exactly one of `Rested` / `Filled` /
    /// `Cancelled` / `Rejected` ends every taker. Fills update the last price and may trigger stops
    /// (their events follow, in trigger order: `AtOrAbove` lowest trigger first, then `AtOrBelow`
    /// highest first, ties by id).
    pub fn place(&mut self, order: OrderRequest, events: &mut Vec<Event>) {
        if let Some(traded) = self.execute(order, events) {
            self.run_stops(traded, events);
        }
    }

    /// Registers a stop-limit order (`StopAccepted`), or places its order at once if the condition
    /// already holds for the current last price (`StopTriggered` and the placement's events, then any
    /// stops that placement triggers), or refuses it (`Rejected`: its order is not a valid limit
    /// order, the trigger is 0, or the id is taken).
    pub fn place_stop(&mut self, stop: StopRequest, events: &mut Vec<Event>) {
        let order = stop.order;
        let admitted = match order.kind {
            OrderKind::Limit { .. } if stop.trigger > 0 => self.admit(&order),
            _ => Err(RejectReason::InvalidOrder),
        };
        if let Err(reason) = admitted {
            events.push(Event::Rejected {
                id: order.id,
                reason,
            });
            return;
        }
        let holds = |last: u64| match stop.condition {
            StopCondition::AtOrAbove => last >= stop.trigger,
            StopCondition::AtOrBelow => last <= stop.trigger,
        };
        match self.last_price {
            Some(last) if holds(last) => {
                events.push(Event::StopTriggered {
                    id: order.id,
                    last_price: last,
                });
                if let Some(traded) = self.execute(order, events) {
                    self.run_stops(traded, events);
                }
            }
            _ => {
                self.stops.insert(stop);
                events.push(Event::StopAccepted { id: order.id });
            }
        }
    }

    /// Cancels a resting order or a waiting stop: `Some(Cancelled { reason: Requested, .. })` with
    /// its remaining quantity, or `None` if no order or stop has this id (unknown, filled or
    /// cancelled already).
    pub fn cancel(&mut self, id: OrderId) -> Option<Event> {
        if let Some(slot) = self.index.remove(&id) {
            let node = *self.arena.get(slot);
            let ladder = match node.side {
                Side::Buy => &mut self.bids,
                Side::Sell => &mut self.asks,
            };
            ladder.unlink(&mut self.arena, slot, node.price);
            self.arena.release(slot);
            return Some(Event::Cancelled {
                id,
                owner: node.owner,
                remaining: node.remaining,
                reason: CancelReason::Requested,
            });
        }
        let stop = self.stops.remove(id)?;
        Some(Event::Cancelled {
            id,
            owner: stop.order.owner,
            remaining: quantity_of(&stop.order),
            reason: CancelReason::Requested,
        })
    }

    /// An outside last price (the simulated market's trade price): it becomes the last price and
    /// triggers stops as [`place`](Self::place) does. A price of 0 ticks is no price and is ignored.
    pub fn set_last_price(&mut self, price: u64, events: &mut Vec<Event>) {
        if price == 0 {
            return;
        }
        self.last_price = Some(price);
        self.run_stops(PriceRange::at(price), events);
    }

    /// Whether [`set_last_price`](Self::set_last_price) with `price` would trigger a waiting stop
    /// (and so change the book), without changing anything.
    pub fn would_trigger_stops(&self, price: u64) -> bool {
        price != 0 && self.stops.any_triggered(PriceRange::at(price))
    }

    /// The last traded (or outside) price, if any.
    pub fn last_price(&self) -> Option<u64> {
        self.last_price
    }

    /// What taking `quantity` lots on the side opposite `side` would execute and cost right now,
    /// walking levels up to `limit` (None: no limit) and skipping `owner`'s own orders (self-trade
    /// prevention cancels them instead of filling them): (lots executable, notional units).
    pub fn cost_to_take(
        &self,
        side: Side,
        quantity: u64,
        limit: Option<u64>,
        owner: OwnerId,
    ) -> (u64, u128) {
        let mut lots = 0_u64;
        let mut cost = 0_u128;
        'levels: for level in self.ladder(side.opposite()).iter_best_first() {
            if lots == quantity {
                break;
            }
            if let Some(limit) = limit
                && !crosses(side, limit, level.price)
            {
                break;
            }
            for node in queue(&self.arena, level) {
                if node.owner == owner {
                    continue;
                }
                let take = (quantity - lots).min(node.remaining);
                lots += take;
                cost = cost.saturating_add(notional(level.price, take));
                if lots == quantity {
                    break 'levels;
                }
            }
        }
        (lots, cost)
    }

    /// The highest bid, in ticks.
    pub fn best_bid(&self) -> Option<u64> {
        self.bids.best_price()
    }

    /// The lowest ask, in ticks.
    pub fn best_ask(&self) -> Option<u64> {
        self.asks.best_price()
    }

    /// Aggregated levels, best first, at most `levels` per side: (bids, asks), each (price ticks,
    /// total lots; `u64::MAX` if a level's total exceeds it).
    pub fn depth(&self, levels: usize) -> (DepthLevels, DepthLevels) {
        let side = |ladder: &Ladder| {
            ladder
                .iter_best_first()
                .take(levels)
                .map(|level| {
                    let total = u64::try_from(level.total).unwrap_or(u64::MAX);
                    (level.price, total)
                })
                .collect()
        };
        (side(&self.bids), side(&self.asks))
    }

    /// A resting order or a waiting stop by id.
    pub fn order(&self, id: OrderId) -> Option<RestingOrder> {
        if let Some(&slot) = self.index.get(&id) {
            return Some(resting(self.arena.get(slot)));
        }
        let stop = self.stops.get(id)?;
        let price = match stop.order.kind {
            OrderKind::Limit { price, .. } => price,
            OrderKind::Market { .. } | OrderKind::MarketFunds { .. } => 0,
        };
        Some(RestingOrder {
            id,
            owner: stop.order.owner,
            side: stop.order.side,
            price,
            remaining: quantity_of(&stop.order),
            is_stop: true,
        })
    }

    /// Every resting order, in price-time priority per side (bids, then asks), for tests and
    /// rebuilds: placing them in this order as GTC limit orders into an empty book rebuilds this one.
    /// Waiting stops are not included (see [`waiting_stops`](Self::waiting_stops)).
    pub fn resting_orders(&self) -> Vec<RestingOrder> {
        let mut orders = Vec::with_capacity(self.index.len());
        for ladder in [&self.bids, &self.asks] {
            for level in ladder.iter_best_first() {
                orders.extend(queue(&self.arena, level).map(resting));
            }
        }
        orders
    }

    /// Every waiting stop, in trigger order (`AtOrAbove` by ascending trigger, then `AtOrBelow` by
    /// descending trigger, ties by id), for rebuilds.
    pub fn waiting_stops(&self) -> Vec<StopRequest> {
        self.stops.in_trigger_order().copied().collect()
    }

    /// The number of resting orders (waiting stops not included).
    pub fn len(&self) -> usize {
        self.index.len()
    }

    /// No resting order (there may be waiting stops).
    pub fn is_empty(&self) -> bool {
        self.index.is_empty()
    }

    /// The number of waiting stops.
    pub fn stop_count(&self) -> usize {
        self.stops.len()
    }

    /// The number of price levels: (bids, asks).
    pub fn level_count(&self) -> (usize, usize) {
        (self.bids.level_count(), self.asks.level_count())
    }

    fn ladder(&self, side: Side) -> &Ladder {
        match side {
            Side::Buy => &self.bids,
            Side::Sell => &self.asks,
        }
    }

    /// The checks before anything happens: well-formed, and the id not in use.
    fn admit(&self, order: &OrderRequest) -> Result<(), RejectReason> {
        let plain = !order.post_only;
        let valid = match order.kind {
            OrderKind::Limit { price, quantity } => {
                price > 0 && quantity > 0 && (plain || order.time_in_force == TimeInForce::Gtc)
            }
            OrderKind::Market { quantity } => quantity > 0 && plain,
            OrderKind::MarketFunds { funds } => funds > 0 && order.side == Side::Buy && plain,
        };
        if !valid {
            return Err(RejectReason::InvalidOrder);
        }
        if self.index.contains_key(&order.id) || self.stops.contains(order.id) {
            return Err(RejectReason::DuplicateId);
        }
        Ok(())
    }

    /// Places one order (no stops run): returns the range of prices it traded at, if it traded.
    fn execute(&mut self, order: OrderRequest, events: &mut Vec<Event>) -> Option<PriceRange> {
        let OrderRequest {
            id,
            owner,
            side,
            kind,
            time_in_force,
            post_only,
        } = order;
        let reject = |events: &mut Vec<Event>, reason| {
            events.push(Event::Rejected { id, reason });
            None
        };
        if let Err(reason) = self.admit(&order) {
            return reject(events, reason);
        }
        let fok = time_in_force == TimeInForce::Fok;
        match kind {
            OrderKind::Limit { price, quantity } => {
                let best_opposite = self.ladder(side.opposite()).best_price();
                if post_only && best_opposite.is_some_and(|best| crosses(side, price, best)) {
                    return reject(events, RejectReason::PostOnlyWouldTake);
                }
                if fok && self.cost_to_take(side, quantity, Some(price), owner).0 < quantity {
                    return reject(events, RejectReason::FokUnfillable);
                }
                let mut taker = Taker {
                    id,
                    owner,
                    side,
                    limit: Some(price),
                    want: Want::Lots(quantity),
                };
                let taken = self.take(&mut taker, events);
                let remaining = match taker.want {
                    Want::Lots(lots) => lots,
                    Want::Funds(_) => 0,
                };
                events.push(if remaining == 0 {
                    Event::Filled { id }
                } else if time_in_force == TimeInForce::Gtc {
                    self.rest(id, owner, side, price, remaining);
                    Event::Rested { id, remaining }
                } else {
                    Event::Cancelled {
                        id,
                        owner,
                        remaining,
                        reason: CancelReason::ImmediateRemainder,
                    }
                });
                taken.traded
            }
            OrderKind::Market { quantity } => {
                if fok && self.cost_to_take(side, quantity, None, owner).0 < quantity {
                    return reject(events, RejectReason::FokUnfillable);
                }
                let mut taker = Taker {
                    id,
                    owner,
                    side,
                    limit: None,
                    want: Want::Lots(quantity),
                };
                let taken = self.take(&mut taker, events);
                let remaining = match taker.want {
                    Want::Lots(lots) => lots,
                    Want::Funds(_) => 0,
                };
                events.push(match (remaining, taken.executed) {
                    (0, _) => Event::Filled { id },
                    (_, 0) => Event::Cancelled {
                        id,
                        owner,
                        remaining,
                        reason: CancelReason::NoLiquidity,
                    },
                    _ => Event::Cancelled {
                        id,
                        owner,
                        remaining,
                        reason: CancelReason::ImmediateRemainder,
                    },
                });
                taken.traded
            }
            OrderKind::MarketFunds { funds } => {
                if fok && !self.funds_fill_completely(funds, owner) {
                    return reject(events, RejectReason::FokUnfillable);
                }
                let mut taker = Taker {
                    id,
                    owner,
                    side,
                    limit: None,
                    want: Want::Funds(funds),
                };
                let taken = self.take(&mut taker, events);
                let spent_all = matches!(taker.want, Want::Funds(0));
                let cancelled = |reason| Event::Cancelled {
                    id,
                    owner,
                    remaining: 0,
                    reason,
                };
                events.push(if taken.executed == 0 {
                    cancelled(CancelReason::NoLiquidity)
                } else if taken.unaffordable || spent_all {
                    Event::Filled { id }
                } else {
                    cancelled(CancelReason::ImmediateRemainder)
                });
                taken.traded
            }
        }
    }

    /// Whether a market buy of `funds` would end `Filled`: it executes something and stops because
    /// the next lot is unaffordable (or the funds are spent), not because the asks ran out.
    fn funds_fill_completely(&self, funds: u128, owner: OwnerId) -> bool {
        let mut left = funds;
        let mut executed = false;
        for level in self.asks.iter_best_first() {
            let price = u128::from(level.price);
            for node in queue(&self.arena, level) {
                let affordable = left / price;
                if affordable == 0 {
                    return executed;
                }
                if node.owner == owner {
                    continue;
                }
                let take = affordable.min(u128::from(node.remaining));
                left -= take * price;
                executed = true;
                if take < u128::from(node.remaining) {
                    // The funds ran out inside this order: the next lot is unaffordable.
                    return true;
                }
            }
        }
        executed && left == 0
    }

    /// Takes from the opposite side for `taker` by price-time priority: fills at the makers' prices,
    /// cancels the taker owner's own resting orders on the way, removes makers and levels that are
    /// done, and updates the last price.
    fn take(&mut self, taker: &mut Taker, events: &mut Vec<Event>) -> Taken {
        let Book {
            bids,
            asks,
            arena,
            index,
            last_price,
            ..
        } = self;
        let opposite = match taker.side {
            Side::Buy => asks,
            Side::Sell => bids,
        };
        let mut taken = Taken {
            executed: 0,
            unaffordable: false,
            traded: None,
        };
        'levels: while let Some(level) = opposite.best_mut() {
            let price = level.price;
            if let Some(limit) = taker.limit
                && !crosses(taker.side, limit, price)
            {
                break;
            }
            while level.head != NIL {
                let wanted = match taker.want {
                    Want::Lots(0) => break 'levels,
                    Want::Lots(lots) => lots,
                    Want::Funds(funds) => {
                        // Prices at rest are never 0 (admit refuses them).
                        let affordable = funds / u128::from(price);
                        if affordable == 0 {
                            taken.unaffordable = true;
                            break 'levels;
                        }
                        u64::try_from(affordable).unwrap_or(u64::MAX)
                    }
                };
                let slot = level.head;
                let maker = *arena.get(slot);
                if maker.owner == taker.owner {
                    level.unlink(arena, slot);
                    arena.release(slot);
                    index.remove(&maker.id);
                    events.push(Event::Cancelled {
                        id: maker.id,
                        owner: maker.owner,
                        remaining: maker.remaining,
                        reason: CancelReason::SelfTrade,
                    });
                    continue;
                }
                let quantity = wanted.min(maker.remaining);
                let maker_remaining = maker.remaining - quantity;
                events.push(Event::Fill {
                    taker: taker.id,
                    taker_owner: taker.owner,
                    maker: maker.id,
                    maker_owner: maker.owner,
                    taker_side: taker.side,
                    price,
                    quantity,
                    maker_remaining,
                });
                taken.executed = taken.executed.saturating_add(quantity);
                match &mut taker.want {
                    Want::Lots(lots) => *lots -= quantity,
                    Want::Funds(funds) => *funds -= notional(price, quantity),
                }
                match &mut taken.traded {
                    Some(range) => range.include(price),
                    None => taken.traded = Some(PriceRange::at(price)),
                }
                *last_price = Some(price);
                if maker_remaining == 0 {
                    level.unlink(arena, slot);
                    arena.release(slot);
                    index.remove(&maker.id);
                } else {
                    arena.get_mut(slot).remaining = maker_remaining;
                    level.total -= u128::from(quantity);
                }
            }
            opposite.pop_best();
        }
        taken
    }

    /// Puts a limit order's remainder at the back of its level.
    fn rest(&mut self, id: OrderId, owner: OwnerId, side: Side, price: u64, remaining: u64) {
        let slot = self.arena.insert(Node {
            id,
            owner,
            price,
            remaining,
            prev: NIL,
            next: NIL,
            side,
        });
        let ladder = match side {
            Side::Buy => &mut self.bids,
            Side::Sell => &mut self.asks,
        };
        ladder.level_or_open(price).push_back(&mut self.arena, slot);
        self.index.insert(id, slot);
    }

    /// Triggers the stops that `traded` meets, one at a time in trigger order; the prices a
    /// triggered order trades at join the range, so a cascade runs in this loop, not by recursion.
    fn run_stops(&mut self, mut traded: PriceRange, events: &mut Vec<Event>) {
        while let Some((stop, price)) = self.stops.pop_triggered(traded) {
            events.push(Event::StopTriggered {
                id: stop.order.id,
                last_price: price,
            });
            if let Some(more) = self.execute(stop.order, events) {
                traded.merge(more);
            }
        }
    }
}
