//! A reference model of the book: the contract's rules written as plainly as possible, with none of
//! `Book`'s data structures (one `Vec` of resting orders in arrival order, best maker found by a
//! linear scan, fill-or-kill decided by running the order as IOC on a copy). The property tests
//! compare it with `Book` event for event.

use matching::{
    CancelReason, DepthLevels, Event, OrderId, OrderKind, OrderRequest, OwnerId, RejectReason,
    RestingOrder, Side, StopCondition, StopRequest, TimeInForce,
};

#[derive(Clone, Debug)]
struct Resting {
    id: OrderId,
    owner: OwnerId,
    side: Side,
    price: u64,
    remaining: u64,
}

/// The reference book.
#[derive(Clone, Debug, Default)]
pub struct Model {
    /// Resting orders in arrival order (both sides).
    resting: Vec<Resting>,
    stops: Vec<StopRequest>,
    last_price: Option<u64>,
}

fn better(side: Side, a: u64, b: u64) -> bool {
    match side {
        Side::Buy => a > b,
        Side::Sell => a < b,
    }
}

fn acceptable(taker_side: Side, limit: Option<u64>, price: u64) -> bool {
    match (taker_side, limit) {
        (_, None) => true,
        (Side::Buy, Some(limit)) => price <= limit,
        (Side::Sell, Some(limit)) => price >= limit,
    }
}

impl Model {
    pub fn new() -> Self {
        Self::default()
    }

    pub fn last_price(&self) -> Option<u64> {
        self.last_price
    }

    fn id_in_use(&self, id: OrderId) -> bool {
        self.resting.iter().any(|order| order.id == id)
            || self.stops.iter().any(|stop| stop.order.id == id)
    }

    fn valid(order: &OrderRequest) -> bool {
        if order.post_only {
            let limit = matches!(order.kind, OrderKind::Limit { .. });
            if !limit || order.time_in_force != TimeInForce::Gtc {
                return false;
            }
        }
        match order.kind {
            OrderKind::Limit { price, quantity } => price != 0 && quantity != 0,
            OrderKind::Market { quantity } => quantity != 0,
            OrderKind::MarketFunds { funds } => funds != 0 && order.side == Side::Buy,
        }
    }

    /// The index of the best resting order a taker on `side` could trade with (own orders
    /// included), or None.
    fn best_maker(&self, side: Side, limit: Option<u64>) -> Option<usize> {
        let maker_side = side.opposite();
        let mut best: Option<usize> = None;
        for (index, order) in self.resting.iter().enumerate() {
            if order.side != maker_side || !acceptable(side, limit, order.price) {
                continue;
            }
            match best {
                // Strictly better only: the earlier order keeps priority at the same price.
                Some(current) if !better(maker_side, order.price, self.resting[current].price) => {}
                _ => best = Some(index),
            }
        }
        best
    }

    pub fn place(&mut self, order: OrderRequest, events: &mut Vec<Event>) {
        if let Some(range) = self.execute(order, events) {
            self.cascade(range, events);
        }
    }

    pub fn place_stop(&mut self, stop: StopRequest, events: &mut Vec<Event>) {
        let id = stop.order.id;
        let is_limit = matches!(stop.order.kind, OrderKind::Limit { .. });
        if !is_limit || stop.trigger == 0 || !Self::valid(&stop.order) {
            events.push(Event::Rejected {
                id,
                reason: RejectReason::InvalidOrder,
            });
            return;
        }
        if self.id_in_use(id) {
            events.push(Event::Rejected {
                id,
                reason: RejectReason::DuplicateId,
            });
            return;
        }
        let holds = self.last_price.filter(|&last| match stop.condition {
            StopCondition::AtOrAbove => last >= stop.trigger,
            StopCondition::AtOrBelow => last <= stop.trigger,
        });
        if let Some(last) = holds {
            events.push(Event::StopTriggered {
                id,
                last_price: last,
            });
            self.place(stop.order, events);
        } else {
            self.stops.push(stop);
            events.push(Event::StopAccepted { id });
        }
    }

    pub fn cancel(&mut self, id: OrderId) -> Option<Event> {
        if let Some(index) = self.resting.iter().position(|order| order.id == id) {
            let order = self.resting.remove(index);
            return Some(Event::Cancelled {
                id,
                owner: order.owner,
                remaining: order.remaining,
                reason: CancelReason::Requested,
            });
        }
        let index = self.stops.iter().position(|stop| stop.order.id == id)?;
        let stop = self.stops.remove(index);
        let OrderKind::Limit { quantity, .. } = stop.order.kind else {
            unreachable!("only limit stops are accepted")
        };
        Some(Event::Cancelled {
            id,
            owner: stop.order.owner,
            remaining: quantity,
            reason: CancelReason::Requested,
        })
    }

    pub fn set_last_price(&mut self, price: u64, events: &mut Vec<Event>) {
        if price == 0 {
            return;
        }
        self.last_price = Some(price);
        self.cascade((price, price), events);
    }

    /// Triggers stops one at a time: any `AtOrAbove` stop met by the highest price traded so far
    /// (lowest trigger, then lowest id), else any `AtOrBelow` stop met by the lowest (highest trigger,
    /// then lowest id).
    fn cascade(&mut self, mut range: (u64, u64), events: &mut Vec<Event>) {
        loop {
            let rising = self
                .stops
                .iter()
                .enumerate()
                .filter(|(_, stop)| {
                    stop.condition == StopCondition::AtOrAbove && stop.trigger <= range.1
                })
                .min_by_key(|(_, stop)| (stop.trigger, stop.order.id))
                .map(|(index, _)| (index, range.1));
            let falling = || {
                self.stops
                    .iter()
                    .enumerate()
                    .filter(|(_, stop)| {
                        stop.condition == StopCondition::AtOrBelow && stop.trigger >= range.0
                    })
                    .min_by_key(|(_, stop)| (u64::MAX - stop.trigger, stop.order.id))
                    .map(|(index, _)| (index, range.0))
            };
            let Some((index, price)) = rising.or_else(falling) else {
                return;
            };
            let stop = self.stops.remove(index);
            events.push(Event::StopTriggered {
                id: stop.order.id,
                last_price: price,
            });
            if let Some((low, high)) = self.execute(stop.order, events) {
                range = (range.0.min(low), range.1.max(high));
            }
        }
    }

    /// Places one order without running stops; returns the (lowest, highest) price it traded at.
    fn execute(&mut self, order: OrderRequest, events: &mut Vec<Event>) -> Option<(u64, u64)> {
        let id = order.id;
        if !Self::valid(&order) {
            events.push(Event::Rejected {
                id,
                reason: RejectReason::InvalidOrder,
            });
            return None;
        }
        if self.id_in_use(id) {
            events.push(Event::Rejected {
                id,
                reason: RejectReason::DuplicateId,
            });
            return None;
        }
        if order.post_only
            && let OrderKind::Limit { price, .. } = order.kind
            && self.best_maker(order.side, Some(price)).is_some()
        {
            events.push(Event::Rejected {
                id,
                reason: RejectReason::PostOnlyWouldTake,
            });
            return None;
        }
        if order.time_in_force == TimeInForce::Fok {
            // Fill or kill, by definition: the same order as IOC would end Filled.
            let mut trial = self.clone();
            let mut trial_events = Vec::new();
            trial.execute(
                order.with_time_in_force(TimeInForce::Ioc),
                &mut trial_events,
            );
            if trial_events.last() != Some(&Event::Filled { id }) {
                events.push(Event::Rejected {
                    id,
                    reason: RejectReason::FokUnfillable,
                });
                return None;
            }
        }
        let limit = match order.kind {
            OrderKind::Limit { price, .. } => Some(price),
            _ => None,
        };
        let mut lots_left = match order.kind {
            OrderKind::Limit { quantity, .. } | OrderKind::Market { quantity } => quantity,
            OrderKind::MarketFunds { .. } => u64::MAX,
        };
        let mut funds_left = match order.kind {
            OrderKind::MarketFunds { funds } => Some(funds),
            _ => None,
        };
        let mut executed = 0_u64;
        let mut unaffordable = false;
        let mut range: Option<(u64, u64)> = None;
        while lots_left > 0 {
            let Some(index) = self.best_maker(order.side, limit) else {
                break;
            };
            let price = self.resting[index].price;
            let mut can_take = lots_left;
            if let Some(funds) = funds_left {
                let affordable = funds / u128::from(price);
                if affordable == 0 {
                    unaffordable = true;
                    break;
                }
                can_take = u64::try_from(affordable).unwrap_or(u64::MAX);
            }
            if self.resting[index].owner == order.owner {
                let maker = self.resting.remove(index);
                events.push(Event::Cancelled {
                    id: maker.id,
                    owner: maker.owner,
                    remaining: maker.remaining,
                    reason: CancelReason::SelfTrade,
                });
                continue;
            }
            let maker = &mut self.resting[index];
            let quantity = can_take.min(maker.remaining);
            maker.remaining -= quantity;
            events.push(Event::Fill {
                taker: id,
                taker_owner: order.owner,
                maker: maker.id,
                maker_owner: maker.owner,
                taker_side: order.side,
                price,
                quantity,
                maker_remaining: maker.remaining,
            });
            if maker.remaining == 0 {
                self.resting.remove(index);
            }
            executed = executed.saturating_add(quantity);
            if let Some(funds) = &mut funds_left {
                *funds -= u128::from(price) * u128::from(quantity);
            } else {
                lots_left -= quantity;
            }
            self.last_price = Some(price);
            range = Some(match range {
                None => (price, price),
                Some((low, high)) => (low.min(price), high.max(price)),
            });
        }
        let cancelled = |remaining, reason| Event::Cancelled {
            id,
            owner: order.owner,
            remaining,
            reason,
        };
        let end = match order.kind {
            OrderKind::Limit { price, .. } => {
                if lots_left == 0 {
                    Event::Filled { id }
                } else if order.time_in_force == TimeInForce::Gtc {
                    self.resting.push(Resting {
                        id,
                        owner: order.owner,
                        side: order.side,
                        price,
                        remaining: lots_left,
                    });
                    Event::Rested {
                        id,
                        remaining: lots_left,
                    }
                } else {
                    cancelled(lots_left, CancelReason::ImmediateRemainder)
                }
            }
            OrderKind::Market { .. } => {
                if lots_left == 0 {
                    Event::Filled { id }
                } else if executed == 0 {
                    cancelled(lots_left, CancelReason::NoLiquidity)
                } else {
                    cancelled(lots_left, CancelReason::ImmediateRemainder)
                }
            }
            OrderKind::MarketFunds { .. } => {
                if executed == 0 {
                    cancelled(0, CancelReason::NoLiquidity)
                } else if unaffordable || funds_left == Some(0) {
                    Event::Filled { id }
                } else {
                    cancelled(0, CancelReason::ImmediateRemainder)
                }
            }
        };
        events.push(end);
        range
    }

    /// Resting orders in priority order: bids best first, then asks best first.
    pub fn resting_orders(&self) -> Vec<RestingOrder> {
        let mut out = Vec::new();
        for side in [Side::Buy, Side::Sell] {
            let mut orders: Vec<(usize, &Resting)> = self
                .resting
                .iter()
                .enumerate()
                .filter(|(_, order)| order.side == side)
                .collect();
            // Stable by arrival; best price first.
            orders.sort_by(|(a_index, a), (b_index, b)| {
                let by_price = match side {
                    Side::Buy => b.price.cmp(&a.price),
                    Side::Sell => a.price.cmp(&b.price),
                };
                by_price.then(a_index.cmp(b_index))
            });
            out.extend(orders.into_iter().map(|(_, order)| RestingOrder {
                id: order.id,
                owner: order.owner,
                side: order.side,
                price: order.price,
                remaining: order.remaining,
                is_stop: false,
            }));
        }
        out
    }

    /// All levels, best first: (bids, asks).
    pub fn depth(&self) -> (DepthLevels, DepthLevels) {
        let mut bids: Vec<(u64, u128)> = Vec::new();
        let mut asks: Vec<(u64, u128)> = Vec::new();
        for order in self.resting_orders() {
            let levels = if order.side == Side::Buy {
                &mut bids
            } else {
                &mut asks
            };
            match levels.last_mut() {
                Some((price, total)) if *price == order.price => {
                    *total += u128::from(order.remaining)
                }
                _ => levels.push((order.price, u128::from(order.remaining))),
            }
        }
        let clamp = |levels: Vec<(u64, u128)>| {
            levels
                .into_iter()
                .map(|(price, total)| (price, u64::try_from(total).unwrap_or(u64::MAX)))
                .collect()
        };
        (clamp(bids), clamp(asks))
    }

    /// (lots, notional) a taker of `quantity` on `side` could execute within `limit`, not counting
    /// `owner`'s orders.
    pub fn cost_to_take(
        &self,
        side: Side,
        quantity: u64,
        limit: Option<u64>,
        owner: OwnerId,
    ) -> (u64, u128) {
        let mut lots = 0_u64;
        let mut cost = 0_u128;
        for order in self.resting_orders() {
            if order.side != side.opposite()
                || order.owner == owner
                || !acceptable(side, limit, order.price)
            {
                continue;
            }
            let take = (quantity - lots).min(order.remaining);
            lots += take;
            cost = cost.saturating_add(u128::from(order.price) * u128::from(take));
        }
        (lots, cost)
    }

    /// Waiting stops in trigger order.
    pub fn waiting_stops(&self) -> Vec<StopRequest> {
        let mut rising: Vec<StopRequest> = self
            .stops
            .iter()
            .copied()
            .filter(|stop| stop.condition == StopCondition::AtOrAbove)
            .collect();
        rising.sort_by_key(|stop| (stop.trigger, stop.order.id));
        let mut falling: Vec<StopRequest> = self
            .stops
            .iter()
            .copied()
            .filter(|stop| stop.condition == StopCondition::AtOrBelow)
            .collect();
        falling.sort_by_key(|stop| (u64::MAX - stop.trigger, stop.order.id));
        rising.into_iter().chain(falling).collect()
    }
}
