//! Property tests over random sequences of place / place_stop / cancel / set_last_price (and
//! cost_to_take queries) with a few owners and small price ranges, plus a run with extreme values:
//!
//! - `Book` gives exactly the events, resting orders, depth, waiting stops, last price and costs of
//!   the reference model (`model/mod.rs`), operation by operation;
//! - the book is never crossed;
//! - quantity is conserved: for every order, executed + remaining (+ cancelled remaining) = its
//!   quantity, fills never exceed it, a market order by funds never spends more than its funds, and
//!   exactly one ending event closes every taker;
//! - replaying the resting orders (in priority order, as GTC limits) into a new book gives the same
//!   `depth()` and `resting_orders()`, and replaying the operation log gives identical events;
//! - nothing panics.

mod model;

use std::collections::HashMap;

use matching::{
    Book, CancelReason, Event, OrderId, OrderKind, OrderRequest, OwnerId, Side, StopCondition,
    StopRequest, TimeInForce,
};
use model::Model;
use proptest::prelude::*;

#[derive(Clone, Copy, Debug)]
enum Op {
    Place(OrderRequest),
    PlaceStop(StopRequest),
    Cancel(OrderId),
    SetLastPrice(u64),
    CostToTake {
        side: Side,
        quantity: u64,
        limit: Option<u64>,
        owner: OwnerId,
    },
}

/// The ranges of one run.
#[derive(Clone, Copy, Debug)]
struct Ranges {
    owners: i64,
    prices: fn() -> BoxedStrategy<u64>,
    quantities: fn() -> BoxedStrategy<u64>,
    funds: fn() -> BoxedStrategy<u128>,
}

// Zero (invalid) now and then, valid values mostly.
fn small_prices() -> BoxedStrategy<u64> {
    prop_oneof![1 => Just(0), 15 => 1_u64..=9].boxed()
}
fn small_quantities() -> BoxedStrategy<u64> {
    prop_oneof![1 => Just(0), 15 => 1_u64..=6].boxed()
}
fn small_funds() -> BoxedStrategy<u128> {
    prop_oneof![1 => Just(0), 15 => 1_u128..=80].boxed()
}
fn wide_prices() -> BoxedStrategy<u64> {
    prop_oneof![1 => Just(0), 30 => 1_u64..=40].boxed()
}
fn wide_quantities() -> BoxedStrategy<u64> {
    prop_oneof![1 => Just(0), 30 => 1_u64..=30].boxed()
}
fn wide_funds() -> BoxedStrategy<u128> {
    prop_oneof![1 => Just(0), 30 => 1_u128..=2_000].boxed()
}
fn extreme_prices() -> BoxedStrategy<u64> {
    prop_oneof![Just(0), 1_u64..=3, u64::MAX - 2..=u64::MAX, any::<u64>()].boxed()
}
fn extreme_quantities() -> BoxedStrategy<u64> {
    prop_oneof![Just(0), 1_u64..=3, u64::MAX - 2..=u64::MAX, any::<u64>()].boxed()
}
fn extreme_funds() -> BoxedStrategy<u128> {
    prop_oneof![
        Just(0),
        1_u128..=1_000,
        u128::MAX - 2..=u128::MAX,
        any::<u128>()
    ]
    .boxed()
}

const SMALL: Ranges = Ranges {
    owners: 3,
    prices: small_prices,
    quantities: small_quantities,
    funds: small_funds,
};
const WIDE: Ranges = Ranges {
    owners: 6,
    prices: wide_prices,
    quantities: wide_quantities,
    funds: wide_funds,
};
const EXTREME: Ranges = Ranges {
    owners: 3,
    prices: extreme_prices,
    quantities: extreme_quantities,
    funds: extreme_funds,
};

fn time_in_force() -> impl Strategy<Value = TimeInForce> {
    prop_oneof![6 => Just(TimeInForce::Gtc), 2 => Just(TimeInForce::Ioc), 2 => Just(TimeInForce::Fok)]
}

fn side() -> impl Strategy<Value = Side> {
    prop_oneof![Just(Side::Buy), Just(Side::Sell)]
}

/// An order with id 0 (ids are given in sequence later).
fn order(ranges: Ranges) -> impl Strategy<Value = OrderRequest> {
    let kind = prop_oneof![
        6 => ((ranges.prices)(), (ranges.quantities)())
            .prop_map(|(price, quantity)| OrderKind::Limit { price, quantity }),
        2 => (ranges.quantities)().prop_map(|quantity| OrderKind::Market { quantity }),
        1 => (ranges.funds)().prop_map(|funds| OrderKind::MarketFunds { funds }),
    ];
    (
        0..ranges.owners,
        side(),
        kind,
        time_in_force(),
        prop::bool::weighted(0.15),
        prop::bool::weighted(0.1),
    )
        .prop_map(
            |(owner, side, kind, time_in_force, post_only, funds_sell)| {
                // Market orders by funds are buys, but now and then an invalid sell.
                let side = match kind {
                    OrderKind::MarketFunds { .. } if !funds_sell => Side::Buy,
                    _ => side,
                };
                OrderRequest {
                    id: 0,
                    owner,
                    side,
                    kind,
                    time_in_force,
                    post_only,
                }
            },
        )
}

fn condition() -> impl Strategy<Value = StopCondition> {
    prop_oneof![
        Just(StopCondition::AtOrAbove),
        Just(StopCondition::AtOrBelow)
    ]
}

/// An operation with its order id still to assign: `id_pick` below 90 is a fresh id, else an id
/// used before (a duplicate while that order is live).
fn raw_op(ranges: Ranges) -> impl Strategy<Value = (Op, u8)> {
    let place = order(ranges).prop_map(Op::Place);
    let stop_order = prop_oneof![
        9 => ((ranges.prices)(), (ranges.quantities)(), order(ranges)).prop_map(|(price, quantity, order)| {
            OrderRequest { kind: OrderKind::Limit { price, quantity }, ..order }
        }),
        1 => order(ranges),
    ];
    let place_stop =
        (stop_order, (ranges.prices)(), condition()).prop_map(|(order, trigger, condition)| {
            Op::PlaceStop(StopRequest {
                order,
                trigger,
                condition,
            })
        });
    let cancel = Just(Op::Cancel(0));
    let last = (ranges.prices)().prop_map(Op::SetLastPrice);
    let cost = (
        side(),
        (ranges.quantities)(),
        prop::option::of((ranges.prices)()),
        0..ranges.owners,
    )
        .prop_map(|(side, quantity, limit, owner)| Op::CostToTake {
            side,
            quantity,
            limit,
            owner,
        });
    let op = prop_oneof![10 => place, 2 => place_stop, 3 => cancel, 1 => last, 1 => cost];
    (op, 0_u8..100)
}

/// A sequence of operations with ids: fresh ids in sequence, some reused; cancels aim at an id used
/// before (or one never used).
fn ops(ranges: Ranges, length: std::ops::Range<usize>) -> impl Strategy<Value = Vec<Op>> {
    prop::collection::vec(raw_op(ranges), length).prop_map(|raw| {
        let mut used: u64 = 0;
        raw.into_iter()
            .map(|(op, pick)| {
                let earlier = u64::from(pick) % (used + 2) + 1;
                let mut id = || {
                    if pick < 90 || used == 0 {
                        used += 1;
                        used
                    } else {
                        earlier.min(used)
                    }
                };
                match op {
                    Op::Place(order) => Op::Place(OrderRequest { id: id(), ..order }),
                    Op::PlaceStop(stop) => Op::PlaceStop(StopRequest {
                        order: OrderRequest {
                            id: id(),
                            ..stop.order
                        },
                        ..stop
                    }),
                    Op::Cancel(_) => Op::Cancel(earlier),
                    other => other,
                }
            })
            .collect()
    })
}

/// One order's accounting while it lives.
#[derive(Clone, Copy, Debug)]
struct Account {
    id: OrderId,
    /// Its quantity in lots (None for a market order by funds).
    quantity: Option<u64>,
    funds: Option<u128>,
    executed: u128,
    spent: u128,
}

impl Account {
    fn of(order: &OrderRequest) -> Self {
        let (quantity, funds) = match order.kind {
            OrderKind::Limit { quantity, .. } | OrderKind::Market { quantity } => {
                (Some(quantity), None)
            }
            OrderKind::MarketFunds { funds } => (None, Some(funds)),
        };
        Self {
            id: order.id,
            quantity,
            funds,
            executed: 0,
            spent: 0,
        }
    }

    fn fill(&mut self, price: u64, quantity: u64) -> Result<(), TestCaseError> {
        prop_assert!(quantity > 0, "a fill of nothing for {}", self.id);
        self.executed += u128::from(quantity);
        self.spent += u128::from(price) * u128::from(quantity);
        if let Some(total) = self.quantity {
            prop_assert!(
                self.executed <= u128::from(total),
                "order {} overfilled",
                self.id
            );
        }
        if let Some(funds) = self.funds {
            prop_assert!(
                self.spent <= funds,
                "order {} spent more than its funds",
                self.id
            );
        }
        Ok(())
    }

    /// Checks executed + `remaining` = quantity (a market order by funds reports 0 remaining).
    fn closes_with(&self, remaining: u64) -> Result<(), TestCaseError> {
        match self.quantity {
            Some(total) => prop_assert_eq!(
                self.executed + u128::from(remaining),
                u128::from(total),
                "order {} does not add up",
                self.id
            ),
            None => prop_assert_eq!(remaining, 0),
        }
        Ok(())
    }
}

/// Follows every order through the events: accounts of resting orders, waiting stops and the taker
/// being executed.
#[derive(Debug, Default)]
struct Ledger {
    live: HashMap<OrderId, Account>,
    stops: HashMap<OrderId, StopRequest>,
}

impl Ledger {
    /// Checks the events of one operation (not a cancel).
    fn follow(&mut self, op: &Op, events: &[Event]) -> Result<(), TestCaseError> {
        let mut taker: Option<Account> = match op {
            Op::Place(order) => Some(Account::of(order)),
            _ => None,
        };
        for event in events {
            match *event {
                Event::Fill {
                    taker: taker_id,
                    maker,
                    price,
                    quantity,
                    maker_remaining,
                    ..
                } => {
                    let current = taker.as_mut().filter(|account| account.id == taker_id);
                    let current =
                        current.ok_or_else(|| TestCaseError::fail("a fill for no taker"))?;
                    current.fill(price, quantity)?;
                    let account = self
                        .live
                        .get_mut(&maker)
                        .ok_or_else(|| TestCaseError::fail("unknown maker"))?;
                    account.fill(price, quantity)?;
                    let left = account
                        .quantity
                        .map(|total| u128::from(total) - account.executed);
                    prop_assert_eq!(left, Some(u128::from(maker_remaining)));
                    if maker_remaining == 0 {
                        self.live.remove(&maker);
                    }
                }
                Event::Rested { id, remaining } => {
                    let account = taker.take().filter(|account| account.id == id);
                    let account =
                        account.ok_or_else(|| TestCaseError::fail("rested: not the taker"))?;
                    account.closes_with(remaining)?;
                    prop_assert!(remaining > 0);
                    prop_assert!(
                        self.live.insert(id, account).is_none(),
                        "two live orders {}",
                        id
                    );
                }
                Event::Filled { id } => {
                    let account = taker.take().filter(|account| account.id == id);
                    let account =
                        account.ok_or_else(|| TestCaseError::fail("filled: not the taker"))?;
                    account.closes_with(0)?;
                    prop_assert!(account.executed > 0);
                }
                Event::Cancelled {
                    id,
                    remaining,
                    reason,
                    ..
                } => match reason {
                    CancelReason::SelfTrade | CancelReason::Requested => {
                        let account = self
                            .live
                            .remove(&id)
                            .ok_or_else(|| TestCaseError::fail("unknown maker"))?;
                        account.closes_with(remaining)?;
                    }
                    CancelReason::ImmediateRemainder | CancelReason::NoLiquidity => {
                        let account = taker.take().filter(|account| account.id == id);
                        let account = account
                            .ok_or_else(|| TestCaseError::fail("cancelled: not the taker"))?;
                        account.closes_with(remaining)?;
                        if reason == CancelReason::NoLiquidity {
                            prop_assert_eq!(account.executed, 0);
                        }
                    }
                },
                Event::Rejected { id, .. } => match taker.take() {
                    Some(account) => {
                        prop_assert_eq!(account.id, id, "rejected: not the taker");
                        prop_assert_eq!(account.executed, 0);
                    }
                    // A refused stop: the operation's only event.
                    None => prop_assert!(
                        matches!(op, Op::PlaceStop(stop) if stop.order.id == id)
                            && events.len() == 1,
                        "rejected: no taker"
                    ),
                },
                Event::StopAccepted { id } => {
                    let Op::PlaceStop(stop) = op else {
                        return Err(TestCaseError::fail("a stop accepted by another operation"));
                    };
                    prop_assert_eq!(stop.order.id, id);
                    self.stops.insert(id, *stop);
                }
                Event::StopTriggered { id, .. } => {
                    prop_assert!(taker.is_none(), "a stop triggered before the taker ended");
                    let stop = match op {
                        Op::PlaceStop(stop)
                            if stop.order.id == id && !self.stops.contains_key(&id) =>
                        {
                            *stop
                        }
                        _ => self
                            .stops
                            .remove(&id)
                            .ok_or_else(|| TestCaseError::fail("unknown stop"))?,
                    };
                    taker = Some(Account::of(&stop.order));
                }
            }
        }
        prop_assert!(taker.is_none(), "a taker with no ending");
        Ok(())
    }

    fn cancelled(&mut self, event: Option<Event>) -> Result<(), TestCaseError> {
        if let Some(Event::Cancelled {
            id,
            remaining,
            reason,
            ..
        }) = event
        {
            prop_assert_eq!(reason, CancelReason::Requested);
            if let Some(account) = self.live.remove(&id) {
                account.closes_with(remaining)?;
            } else {
                let stop = self
                    .stops
                    .remove(&id)
                    .ok_or_else(|| TestCaseError::fail("unknown cancel"))?;
                prop_assert_eq!(Account::of(&stop.order).quantity, Some(remaining));
            }
        } else {
            prop_assert!(event.is_none(), "cancel answered {:?}", event);
        }
        Ok(())
    }
}

/// Runs one operation on the book, returning its events (a cancel's answer as an event list).
fn apply(book: &mut Book, op: &Op, events: &mut Vec<Event>) {
    match *op {
        Op::Place(order) => book.place(order, events),
        Op::PlaceStop(stop) => book.place_stop(stop, events),
        Op::Cancel(id) => events.extend(book.cancel(id)),
        Op::SetLastPrice(price) => book.set_last_price(price, events),
        Op::CostToTake { .. } => {}
    }
}

fn apply_model(model: &mut Model, op: &Op, events: &mut Vec<Event>) {
    match *op {
        Op::Place(order) => model.place(order, events),
        Op::PlaceStop(stop) => model.place_stop(stop, events),
        Op::Cancel(id) => events.extend(model.cancel(id)),
        Op::SetLastPrice(price) => model.set_last_price(price, events),
        Op::CostToTake { .. } => {}
    }
}

/// A new book holding `book`'s resting orders, placed in priority order as GTC limit orders.
fn rebuilt(book: &Book) -> Book {
    let mut copy = Book::new();
    let mut events = Vec::new();
    for order in book.resting_orders() {
        copy.place(
            OrderRequest::limit(
                order.id,
                order.owner,
                order.side,
                order.price,
                order.remaining,
            ),
            &mut events,
        );
    }
    copy
}

/// Runs `ops` on a book made by `new_book` and on the model, checking everything after each one.
fn check_run(ops: &[Op], new_book: fn() -> Book) -> Result<(), TestCaseError> {
    let mut book = new_book();
    let mut model = Model::new();
    let mut ledger = Ledger::default();
    let mut log = Vec::new();
    for op in ops {
        let mut events = Vec::new();
        let mut expected = Vec::new();
        let predicted = match *op {
            Op::SetLastPrice(price) => Some(book.would_trigger_stops(price)),
            _ => None,
        };
        apply(&mut book, op, &mut events);
        if let Some(predicted) = predicted {
            // The peek promises exactly whether the price changes the book.
            prop_assert_eq!(
                predicted,
                !events.is_empty(),
                "would_trigger_stops of {:?}",
                op
            );
        }
        apply_model(&mut model, op, &mut expected);
        prop_assert_eq!(&events, &expected, "events of {:?}", op);
        match op {
            Op::Cancel(_) => ledger.cancelled(events.first().copied())?,
            Op::CostToTake {
                side,
                quantity,
                limit,
                owner,
            } => prop_assert_eq!(
                book.cost_to_take(*side, *quantity, *limit, *owner),
                model.cost_to_take(*side, *quantity, *limit, *owner),
                "{:?}",
                op
            ),
            _ => ledger.follow(op, &events)?,
        }
        log.extend(events);

        if let (Some(bid), Some(ask)) = (book.best_bid(), book.best_ask()) {
            prop_assert!(bid < ask, "crossed: bid {} ask {}", bid, ask);
        }
        let resting = book.resting_orders();
        prop_assert_eq!(&resting, &model.resting_orders());
        prop_assert_eq!(book.depth(usize::MAX), model.depth());
        prop_assert_eq!(book.waiting_stops(), model.waiting_stops());
        prop_assert_eq!(book.last_price(), model.last_price());
        prop_assert_eq!(book.len(), resting.len());
        prop_assert_eq!(book.is_empty(), resting.is_empty());
        prop_assert_eq!(book.stop_count(), ledger.stops.len());
        prop_assert_eq!(book.len(), ledger.live.len());
        for order in &resting {
            prop_assert_eq!(book.order(order.id), Some(*order));
        }
        for stop in book.waiting_stops() {
            prop_assert!(book.order(stop.order.id).is_some_and(|order| order.is_stop));
        }
        let copy = rebuilt(&book);
        prop_assert_eq!(copy.resting_orders(), resting);
        prop_assert_eq!(copy.depth(usize::MAX), book.depth(usize::MAX));
    }

    let mut replay = new_book();
    let mut replayed = Vec::new();
    for op in ops {
        apply(&mut replay, op, &mut replayed);
    }
    prop_assert_eq!(replayed, log);
    Ok(())
}

/// `PROPTEST_CASES` in the environment, or `default`: a deeper run is `PROPTEST_CASES=20000 cargo test
/// -p matching --release --test properties`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|cases| cases.parse().ok())
        .unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(384), ..ProptestConfig::default() })]

    /// Short runs over 9 prices, 6 lots and 3 owners: every state is crowded with edge cases.
    #[test]
    fn small_books_match_the_model_and_keep_every_invariant(ops in ops(SMALL, 1..80)) {
        check_run(&ops, Book::new)?;
    }

    /// The same with only 2 levels per side in the ladder's `Vec`: levels keep moving between its
    /// two tiers.
    #[test]
    fn small_books_with_two_near_levels_match_the_model(ops in ops(SMALL, 1..80)) {
        check_run(&ops, || Book::with_near_levels(2))?;
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(64), ..ProptestConfig::default() })]

    /// Longer runs over 40 prices, 30 lots and 6 owners: deeper books and longer cascades.
    #[test]
    fn longer_runs_match_the_model_and_keep_every_invariant(ops in ops(WIDE, 100..400)) {
        check_run(&ops, Book::new)?;
    }

    /// Longer runs with 3 levels per side in the ladder's `Vec`.
    #[test]
    fn longer_runs_with_three_near_levels_match_the_model(ops in ops(WIDE, 100..400)) {
        check_run(&ops, || Book::with_near_levels(3))?;
    }

    /// Prices, quantities and funds at the ends of their types: nothing overflows or panics.
    #[test]
    fn extreme_values_match_the_model_and_never_panic(ops in ops(EXTREME, 1..80)) {
        check_run(&ops, Book::new)?;
    }
}
