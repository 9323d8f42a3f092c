//! The engine's vocabulary: the orders the backend submits and the events the book reports.
//!
//! Everything is an integer in the book's own units: prices in ticks (`price / tick_size`),
//! quantities in lots (`quantity / step_size`) and quote funds in notional units
//! (`price_ticks × lots`, i.e. units of `tick_size × step_size`). The backend converts decimals to
//! these units before calling the engine and back when it persists what the engine reports.

/// An order's id: unique per book (the backend uses database ids for users and ids with the top bit
/// set for the house market maker).
pub type OrderId = u64;

/// Who owns an order: a user id, or 0 for the house market maker. Orders of the same owner never
/// trade with each other (self-trade prevention).
pub type OwnerId = i64;

/// Aggregated price levels of one side, best first: (price ticks, total lots).
pub type DepthLevels = Vec<(u64, u64)>;

/// The side of an order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Side {
    /// Buys base with quote; takes from the asks, rests among the bids.
    Buy,
    /// Sells base for quote; takes from the bids, rests among the asks.
    Sell,
}

impl Side {
    /// The other side: the side an order of this side trades with.
    pub fn opposite(self) -> Side {
        match self {
            Side::Buy => Side::Sell,
            Side::Sell => Side::Buy,
        }
    }
}

/// How long an order may wait for the part it could not execute at once.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TimeInForce {
    /// Good till cancelled: a limit order's remainder rests in the book (market orders never rest).
    Gtc,
    /// Immediate or cancel: what does not execute at once is cancelled.
    Ioc,
    /// Fill or kill: executes completely at once, or is rejected without changing anything.
    Fok,
}

/// What an order asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum OrderKind {
    /// At `price` ticks or better, `quantity` lots (both greater than zero).
    Limit {
        /// The worst price accepted, in ticks.
        price: u64,
        /// The quantity, in lots.
        quantity: u64,
    },
    /// At any price, `quantity` lots (greater than zero); never rests.
    Market {
        /// The quantity, in lots.
        quantity: u64,
    },
    /// Buy only: spend up to `funds` notional units (greater than zero); never rests. At each level
    /// it takes `min(level quantity, floor(remaining funds / price))` lots and it ends when the next
    /// lot is unaffordable.
    MarketFunds {
        /// The quote budget, in notional units (ticks × lots).
        funds: u128,
    },
}

/// An order submitted to [`Book::place`](crate::Book::place).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct OrderRequest {
    /// Unique per book.
    pub id: OrderId,
    /// The owner, for self-trade prevention.
    pub owner: OwnerId,
    /// Buy or sell.
    pub side: Side,
    /// Limit, market by quantity or market by funds.
    pub kind: OrderKind,
    /// What happens to the part that does not execute at once.
    pub time_in_force: TimeInForce,
    /// Rejected instead of taking liquidity (limit GTC orders only).
    pub post_only: bool,
}

impl OrderRequest {
    /// A good-till-cancelled limit order of `quantity` lots at `price` ticks, not post-only.
    pub fn limit(id: OrderId, owner: OwnerId, side: Side, price: u64, quantity: u64) -> Self {
        Self::new(id, owner, side, OrderKind::Limit { price, quantity })
    }

    /// A market order of `quantity` lots.
    pub fn market(id: OrderId, owner: OwnerId, side: Side, quantity: u64) -> Self {
        Self::new(id, owner, side, OrderKind::Market { quantity })
    }

    /// A market buy spending up to `funds` notional units.
    pub fn market_funds(id: OrderId, owner: OwnerId, funds: u128) -> Self {
        Self::new(id, owner, Side::Buy, OrderKind::MarketFunds { funds })
    }

    /// The same order with another time in force.
    pub fn with_time_in_force(self, time_in_force: TimeInForce) -> Self {
        Self {
            time_in_force,
            ..self
        }
    }

    /// The same order, post-only.
    pub fn with_post_only(self) -> Self {
        Self {
            post_only: true,
            ..self
        }
    }

    fn new(id: OrderId, owner: OwnerId, side: Side, kind: OrderKind) -> Self {
        Self {
            id,
            owner,
            side,
            kind,
            time_in_force: TimeInForce::Gtc,
            post_only: false,
        }
    }
}

/// When a stop order triggers, compared with the last traded price.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum StopCondition {
    /// When the last price is at or above the trigger (a buy stop, or a sell take-profit).
    AtOrAbove,
    /// When the last price is at or below the trigger (a sell stop-loss, or a buy take-profit).
    AtOrBelow,
}

/// A stop-limit order submitted to [`Book::place_stop`](crate::Book::place_stop): `order` (a limit
/// order) waits outside the book until the last price meets `condition` against `trigger`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct StopRequest {
    /// The limit order placed when the stop triggers (its time in force and post-only honoured).
    pub order: OrderRequest,
    /// The trigger price, in ticks (greater than zero).
    pub trigger: u64,
    /// Whether the stop triggers at or above, or at or below, the trigger.
    pub condition: StopCondition,
}

/// Why an order left the book or ended before executing completely.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CancelReason {
    /// Cancelled by [`Book::cancel`](crate::Book::cancel).
    Requested,
    /// A resting order met a taker of the same owner (self-trade prevention cancels the maker).
    SelfTrade,
    /// The remainder of an IOC/FOK limit order or of a market order, which never rests.
    ImmediateRemainder,
    /// A market order found nothing it could take.
    NoLiquidity,
}

/// Why an order was refused before anything happened.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RejectReason {
    /// A post-only order would have crossed the best opposite price.
    PostOnlyWouldTake,
    /// A fill-or-kill order could not execute completely at once.
    FokUnfillable,
    /// An order or waiting stop with the same id is in the book.
    DuplicateId,
    /// Zero quantity, price, funds or trigger; a market-by-funds sell; post-only with a market order
    /// or with IOC/FOK; a stop whose order is not a limit order.
    InvalidOrder,
}

/// What happened, in order. Exactly one of [`Rested`](Event::Rested), [`Filled`](Event::Filled),
/// [`Cancelled`](Event::Cancelled) or [`Rejected`](Event::Rejected) ends every taker.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Event {
    /// One match. `price` is the maker's price. `maker_remaining` is the maker's quantity left (0:
    /// the maker is done and has left the book).
    Fill {
        /// The incoming order.
        taker: OrderId,
        /// The incoming order's owner.
        taker_owner: OwnerId,
        /// The resting order.
        maker: OrderId,
        /// The resting order's owner.
        maker_owner: OwnerId,
        /// The incoming order's side.
        taker_side: Side,
        /// The trade price (the maker's), in ticks.
        price: u64,
        /// The traded quantity, in lots.
        quantity: u64,
        /// The maker's quantity left after this fill, in lots.
        maker_remaining: u64,
    },
    /// The taker (or a triggered stop) now rests with `remaining` lots (GTC limit orders only).
    Rested {
        /// The order that rests.
        id: OrderId,
        /// Its quantity left, in lots.
        remaining: u64,
    },
    /// The order executed completely (emitted for the taker after its last fill).
    Filled {
        /// The order.
        id: OrderId,
    },
    /// The order left the book or ended early with `remaining` lots not executed (a market order by
    /// funds reports `remaining` 0).
    Cancelled {
        /// The order.
        id: OrderId,
        /// Its owner.
        owner: OwnerId,
        /// Its quantity not executed, in lots.
        remaining: u64,
        /// Why.
        reason: CancelReason,
    },
    /// Refused before anything happened: the book is exactly as before.
    Rejected {
        /// The order.
        id: OrderId,
        /// Why.
        reason: RejectReason,
    },
    /// A stop order is registered and waiting.
    StopAccepted {
        /// The stop's order id.
        id: OrderId,
    },
    /// A stop's condition was met: its limit order is placed now (the events of that placement
    /// follow). `last_price` is the traded price that met the condition.
    StopTriggered {
        /// The stop's order id.
        id: OrderId,
        /// The price that met the condition, in ticks.
        last_price: u64,
    },
}

/// A resting order or a waiting stop, as [`Book::order`](crate::Book::order) and
/// [`Book::resting_orders`](crate::Book::resting_orders) report it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RestingOrder {
    /// The order id.
    pub id: OrderId,
    /// Its owner.
    pub owner: OwnerId,
    /// Its side.
    pub side: Side,
    /// Its limit price, in ticks.
    pub price: u64,
    /// Its quantity not executed yet, in lots (a stop's whole quantity).
    pub remaining: u64,
    /// A waiting stop (outside the book) rather than a resting order.
    pub is_stop: bool,
}
