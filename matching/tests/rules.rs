//! One test per rule of the matching engine's contract: priority, trade price, time in force,
//! post-only, market orders by quantity and by funds, self-trade prevention, duplicates and invalid
//! orders, cancels, stops (both conditions, immediate triggers, order and cascades), cost to take and
//! the read side.

use matching::{
    Book, CancelReason, Event, OrderId, OrderKind, OrderRequest, OwnerId, RejectReason,
    RestingOrder, Side, StopCondition, StopRequest, TimeInForce,
};

use CancelReason::{ImmediateRemainder, NoLiquidity, Requested, SelfTrade};
use Side::{Buy, Sell};

fn place(book: &mut Book, order: OrderRequest) -> Vec<Event> {
    let mut events = Vec::new();
    book.place(order, &mut events);
    events
}

fn place_stop(book: &mut Book, stop: StopRequest) -> Vec<Event> {
    let mut events = Vec::new();
    book.place_stop(stop, &mut events);
    events
}

fn set_last(book: &mut Book, price: u64) -> Vec<Event> {
    let mut events = Vec::new();
    book.set_last_price(price, &mut events);
    events
}

fn limit(id: OrderId, owner: OwnerId, side: Side, price: u64, quantity: u64) -> OrderRequest {
    OrderRequest::limit(id, owner, side, price, quantity)
}

/// Places GTC limit orders that must rest.
fn seed(book: &mut Book, orders: &[(OrderId, OwnerId, Side, u64, u64)]) {
    for &(id, owner, side, price, quantity) in orders {
        let events = place(book, limit(id, owner, side, price, quantity));
        assert_eq!(
            events,
            [Event::Rested {
                id,
                remaining: quantity
            }],
            "seeding {id}"
        );
    }
}

#[allow(clippy::too_many_arguments)]
fn fill(
    taker: OrderId,
    taker_owner: OwnerId,
    maker: OrderId,
    maker_owner: OwnerId,
    taker_side: Side,
    price: u64,
    quantity: u64,
    maker_remaining: u64,
) -> Event {
    Event::Fill {
        taker,
        taker_owner,
        maker,
        maker_owner,
        taker_side,
        price,
        quantity,
        maker_remaining,
    }
}

fn cancelled(id: OrderId, owner: OwnerId, remaining: u64, reason: CancelReason) -> Event {
    Event::Cancelled {
        id,
        owner,
        remaining,
        reason,
    }
}

fn rejected(id: OrderId, reason: RejectReason) -> Event {
    Event::Rejected { id, reason }
}

fn stop(order: OrderRequest, trigger: u64, condition: StopCondition) -> StopRequest {
    StopRequest {
        order,
        trigger,
        condition,
    }
}

/// Everything observable about a book, to show that a refusal changed nothing.
fn snapshot(book: &Book) -> (Vec<RestingOrder>, Vec<StopRequest>, Option<u64>) {
    (
        book.resting_orders(),
        book.waiting_stops(),
        book.last_price(),
    )
}

// ---- limit orders, priority, trade price -------------------------------------------------------

#[test]
fn a_limit_order_that_crosses_nothing_rests() {
    let mut book = Book::new();
    assert_eq!(
        place(&mut book, limit(1, 1, Buy, 100, 5)),
        [Event::Rested {
            id: 1,
            remaining: 5
        }]
    );
    assert_eq!(
        place(&mut book, limit(2, 1, Sell, 101, 3)),
        [Event::Rested {
            id: 2,
            remaining: 3
        }]
    );
    assert_eq!(book.best_bid(), Some(100));
    assert_eq!(book.best_ask(), Some(101));
    assert_eq!(book.len(), 2);
    assert_eq!(book.last_price(), None);
}

#[test]
fn best_price_trades_first_then_the_oldest_order_at_that_price() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Sell, 101, 2),
            (2, 2, Sell, 100, 2),
            (3, 3, Sell, 101, 2),
            (4, 4, Sell, 100, 2),
        ],
    );
    let events = place(&mut book, limit(9, 9, Buy, 101, 7));
    assert_eq!(
        events,
        [
            fill(9, 9, 2, 2, Buy, 100, 2, 0),
            fill(9, 9, 4, 4, Buy, 100, 2, 0),
            fill(9, 9, 1, 1, Buy, 101, 2, 0),
            fill(9, 9, 3, 3, Buy, 101, 1, 1),
            Event::Filled { id: 9 },
        ]
    );
    assert_eq!(book.depth(10), (vec![], vec![(101, 1)]));
}

#[test]
fn sells_take_the_highest_bids_first() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[(1, 1, Buy, 99, 1), (2, 2, Buy, 100, 1), (3, 3, Buy, 98, 1)],
    );
    let events = place(&mut book, limit(9, 9, Sell, 99, 5));
    assert_eq!(
        events,
        [
            fill(9, 9, 2, 2, Sell, 100, 1, 0),
            fill(9, 9, 1, 1, Sell, 99, 1, 0),
            Event::Rested {
                id: 9,
                remaining: 3
            },
        ]
    );
    assert_eq!(book.depth(10), (vec![(98, 1)], vec![(99, 3)]));
}

#[test]
fn the_trade_price_is_the_makers_price() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 5)]);
    let events = place(&mut book, limit(2, 2, Buy, 120, 2));
    assert_eq!(
        events,
        [fill(2, 2, 1, 1, Buy, 100, 2, 3), Event::Filled { id: 2 }]
    );
    assert_eq!(book.last_price(), Some(100));
}

#[test]
fn a_gtc_remainder_rests_at_its_limit_after_taking_what_crosses() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 2), (2, 1, Sell, 103, 2)]);
    let events = place(&mut book, limit(3, 2, Buy, 101, 5));
    assert_eq!(
        events,
        [
            fill(3, 2, 1, 1, Buy, 100, 2, 0),
            Event::Rested {
                id: 3,
                remaining: 3
            }
        ]
    );
    assert_eq!(book.depth(10), (vec![(101, 3)], vec![(103, 2)]));
    assert_eq!(
        book.order(3),
        Some(RestingOrder {
            id: 3,
            owner: 2,
            side: Buy,
            price: 101,
            remaining: 3,
            is_stop: false
        })
    );
}

#[test]
fn a_partly_filled_maker_keeps_its_place_in_the_queue() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 5), (2, 2, Sell, 100, 5)]);
    place(&mut book, OrderRequest::market(3, 3, Buy, 2));
    let events = place(&mut book, OrderRequest::market(4, 3, Buy, 4));
    assert_eq!(
        events,
        [
            fill(4, 3, 1, 1, Buy, 100, 3, 0),
            fill(4, 3, 2, 2, Buy, 100, 1, 4),
            Event::Filled { id: 4 }
        ]
    );
}

// ---- time in force ---------------------------------------------------------------------------

#[test]
fn ioc_cancels_the_remainder() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 2)]);
    let order = limit(2, 2, Buy, 100, 5).with_time_in_force(TimeInForce::Ioc);
    assert_eq!(
        place(&mut book, order),
        [
            fill(2, 2, 1, 1, Buy, 100, 2, 0),
            cancelled(2, 2, 3, ImmediateRemainder)
        ]
    );
    assert!(book.is_empty());
}

#[test]
fn ioc_that_crosses_nothing_is_cancelled_whole() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 101, 2)]);
    let order = limit(2, 2, Buy, 100, 5).with_time_in_force(TimeInForce::Ioc);
    assert_eq!(
        place(&mut book, order),
        [cancelled(2, 2, 5, ImmediateRemainder)]
    );
    assert_eq!(book.len(), 1);
}

#[test]
fn ioc_filled_completely_ends_filled() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 5)]);
    let order = limit(2, 2, Buy, 100, 5).with_time_in_force(TimeInForce::Ioc);
    assert_eq!(
        place(&mut book, order),
        [fill(2, 2, 1, 1, Buy, 100, 5, 0), Event::Filled { id: 2 }]
    );
}

#[test]
fn fok_executes_completely_when_the_book_allows() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 2), (2, 1, Sell, 101, 3)]);
    let order = limit(3, 2, Buy, 101, 5).with_time_in_force(TimeInForce::Fok);
    assert_eq!(
        place(&mut book, order),
        [
            fill(3, 2, 1, 1, Buy, 100, 2, 0),
            fill(3, 2, 2, 1, Buy, 101, 3, 0),
            Event::Filled { id: 3 }
        ]
    );
}

#[test]
fn fok_that_cannot_execute_completely_is_rejected_and_changes_nothing() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 2), (2, 1, Sell, 102, 9)]);
    let before = snapshot(&book);
    // 11 lots exist, but only 2 within the limit.
    let order = limit(3, 2, Buy, 101, 5).with_time_in_force(TimeInForce::Fok);
    assert_eq!(
        place(&mut book, order),
        [rejected(3, RejectReason::FokUnfillable)]
    );
    assert_eq!(snapshot(&book), before);
    assert_eq!(book.order(3), None);
}

#[test]
fn fok_does_not_count_own_orders_and_does_not_cancel_them_when_rejected() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 2, Sell, 100, 5), (2, 1, Sell, 100, 2)]);
    let before = snapshot(&book);
    let order = limit(3, 2, Buy, 100, 5).with_time_in_force(TimeInForce::Fok);
    assert_eq!(
        place(&mut book, order),
        [rejected(3, RejectReason::FokUnfillable)]
    );
    assert_eq!(snapshot(&book), before);
}

#[test]
fn fok_that_executes_cancels_own_orders_on_its_way() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 2, Sell, 100, 5), (2, 1, Sell, 100, 2)]);
    let order = limit(3, 2, Buy, 100, 2).with_time_in_force(TimeInForce::Fok);
    assert_eq!(
        place(&mut book, order),
        [
            cancelled(1, 2, 5, SelfTrade),
            fill(3, 2, 2, 1, Buy, 100, 2, 0),
            Event::Filled { id: 3 }
        ]
    );
    assert!(book.is_empty());
}

#[test]
fn fok_market_orders_by_quantity_are_all_or_nothing() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Buy, 100, 3)]);
    let too_big = OrderRequest::market(2, 2, Sell, 4).with_time_in_force(TimeInForce::Fok);
    assert_eq!(
        place(&mut book, too_big),
        [rejected(2, RejectReason::FokUnfillable)]
    );
    let fits = OrderRequest::market(3, 2, Sell, 3).with_time_in_force(TimeInForce::Fok);
    assert_eq!(
        place(&mut book, fits),
        [fill(3, 2, 1, 1, Sell, 100, 3, 0), Event::Filled { id: 3 }]
    );
}

// ---- post-only ---------------------------------------------------------------------------------

#[test]
fn post_only_rests_when_it_would_not_take() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 101, 2)]);
    let order = limit(2, 2, Buy, 100, 5).with_post_only();
    assert_eq!(
        place(&mut book, order),
        [Event::Rested {
            id: 2,
            remaining: 5
        }]
    );
}

#[test]
fn post_only_that_would_take_is_rejected_even_at_the_same_price() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 101, 2), (2, 1, Buy, 99, 2)]);
    let before = snapshot(&book);
    assert_eq!(
        place(&mut book, limit(3, 2, Buy, 101, 1).with_post_only()),
        [rejected(3, RejectReason::PostOnlyWouldTake)]
    );
    assert_eq!(
        place(&mut book, limit(4, 2, Sell, 98, 1).with_post_only()),
        [rejected(4, RejectReason::PostOnlyWouldTake)]
    );
    assert_eq!(snapshot(&book), before);
}

#[test]
fn post_only_is_only_for_gtc_limit_orders() {
    let mut book = Book::new();
    for (id, tif) in [(1, TimeInForce::Ioc), (2, TimeInForce::Fok)] {
        let order = limit(id, 1, Buy, 100, 1)
            .with_time_in_force(tif)
            .with_post_only();
        assert_eq!(
            place(&mut book, order),
            [rejected(id, RejectReason::InvalidOrder)]
        );
    }
    let market = OrderRequest::market(3, 1, Buy, 1).with_post_only();
    assert_eq!(
        place(&mut book, market),
        [rejected(3, RejectReason::InvalidOrder)]
    );
    let funds = OrderRequest::market_funds(4, 1, 100).with_post_only();
    assert_eq!(
        place(&mut book, funds),
        [rejected(4, RejectReason::InvalidOrder)]
    );
}

// ---- market orders by quantity -------------------------------------------------------------------

#[test]
fn a_market_order_walks_the_levels_until_its_quantity_is_done() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Sell, 100, 1),
            (2, 1, Sell, 150, 1),
            (3, 1, Sell, 900, 5),
        ],
    );
    assert_eq!(
        place(&mut book, OrderRequest::market(4, 2, Buy, 3)),
        [
            fill(4, 2, 1, 1, Buy, 100, 1, 0),
            fill(4, 2, 2, 1, Buy, 150, 1, 0),
            fill(4, 2, 3, 1, Buy, 900, 1, 4),
            Event::Filled { id: 4 },
        ]
    );
    assert_eq!(book.last_price(), Some(900));
}

#[test]
fn a_market_order_that_empties_the_side_cancels_its_remainder() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Buy, 100, 2)]);
    assert_eq!(
        place(&mut book, OrderRequest::market(2, 2, Sell, 5)),
        [
            fill(2, 2, 1, 1, Sell, 100, 2, 0),
            cancelled(2, 2, 3, ImmediateRemainder)
        ]
    );
}

#[test]
fn a_market_order_on_an_empty_side_finds_no_liquidity() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Buy, 100, 2)]);
    assert_eq!(
        place(&mut book, OrderRequest::market(2, 2, Buy, 5)),
        [cancelled(2, 2, 5, NoLiquidity)]
    );
}

#[test]
fn market_orders_never_rest_whatever_their_time_in_force() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 1)]);
    let order = OrderRequest::market(2, 2, Buy, 3).with_time_in_force(TimeInForce::Gtc);
    assert_eq!(
        place(&mut book, order),
        [
            fill(2, 2, 1, 1, Buy, 100, 1, 0),
            cancelled(2, 2, 2, ImmediateRemainder)
        ]
    );
    assert!(book.is_empty());
}

// ---- market orders by funds ----------------------------------------------------------------------

#[test]
fn market_funds_takes_what_each_level_affords_and_ends_filled_when_the_next_lot_is_unaffordable() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Sell, 100, 2),
            (2, 1, Sell, 150, 5),
            (3, 1, Sell, 200, 5),
        ],
    );
    // 2 × 100 = 200; 220 left: floor(220 / 150) = 1 lot; 70 left < 150.
    assert_eq!(
        place(&mut book, OrderRequest::market_funds(4, 2, 420)),
        [
            fill(4, 2, 1, 1, Buy, 100, 2, 0),
            fill(4, 2, 2, 1, Buy, 150, 1, 4),
            Event::Filled { id: 4 }
        ]
    );
    assert_eq!(book.depth(10).1, vec![(150, 4), (200, 5)]);
}

#[test]
fn market_funds_spent_exactly_is_filled() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 2), (2, 1, Sell, 150, 5)]);
    assert_eq!(
        place(&mut book, OrderRequest::market_funds(3, 2, 500)),
        [
            fill(3, 2, 1, 1, Buy, 100, 2, 0),
            fill(3, 2, 2, 1, Buy, 150, 2, 3),
            Event::Filled { id: 3 }
        ]
    );
}

#[test]
fn market_funds_that_empties_the_asks_cancels_with_no_quantity_left() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 2)]);
    assert_eq!(
        place(&mut book, OrderRequest::market_funds(2, 2, 1_000)),
        [
            fill(2, 2, 1, 1, Buy, 100, 2, 0),
            cancelled(2, 2, 0, ImmediateRemainder)
        ]
    );
}

#[test]
fn market_funds_that_affords_nothing_finds_no_liquidity() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 2)]);
    assert_eq!(
        place(&mut book, OrderRequest::market_funds(2, 2, 99)),
        [cancelled(2, 2, 0, NoLiquidity)]
    );
    assert_eq!(
        place(&mut book, OrderRequest::market_funds(3, 2, 99_999)).len(),
        2
    );
    assert_eq!(
        place(&mut book, OrderRequest::market_funds(4, 2, 5)),
        [cancelled(4, 2, 0, NoLiquidity)]
    );
}

#[test]
fn market_funds_must_be_a_buy_with_funds() {
    let mut book = Book::new();
    let sell = OrderRequest {
        side: Sell,
        ..OrderRequest::market_funds(1, 1, 100)
    };
    assert_eq!(
        place(&mut book, sell),
        [rejected(1, RejectReason::InvalidOrder)]
    );
    assert_eq!(
        place(&mut book, OrderRequest::market_funds(2, 1, 0)),
        [rejected(2, RejectReason::InvalidOrder)]
    );
}

#[test]
fn fok_market_funds_is_rejected_only_when_the_asks_run_out_first() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 2), (2, 1, Sell, 150, 1)]);
    let before = snapshot(&book);
    let runs_out = OrderRequest::market_funds(3, 2, 1_000).with_time_in_force(TimeInForce::Fok);
    assert_eq!(
        place(&mut book, runs_out),
        [rejected(3, RejectReason::FokUnfillable)]
    );
    assert_eq!(snapshot(&book), before);
    // 200 for 2 lots at 100; the 140 left cannot buy a lot at 150: complete.
    let fits = OrderRequest::market_funds(4, 2, 340).with_time_in_force(TimeInForce::Fok);
    assert_eq!(
        place(&mut book, fits),
        [fill(4, 2, 1, 1, Buy, 100, 2, 0), Event::Filled { id: 4 }]
    );
}

// ---- self-trade prevention -----------------------------------------------------------------------

#[test]
fn a_taker_cancels_its_owners_resting_orders_and_keeps_matching() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 7, Sell, 100, 3),
            (2, 8, Sell, 100, 2),
            (3, 7, Sell, 101, 4),
            (4, 8, Sell, 101, 4),
        ],
    );
    assert_eq!(
        place(&mut book, limit(5, 7, Buy, 101, 4)),
        [
            cancelled(1, 7, 3, SelfTrade),
            fill(5, 7, 2, 8, Buy, 100, 2, 0),
            cancelled(3, 7, 4, SelfTrade),
            fill(5, 7, 4, 8, Buy, 101, 2, 2),
            Event::Filled { id: 5 },
        ]
    );
    assert_eq!(book.order(1), None);
    assert_eq!(book.order(3), None);
    assert_eq!(book.depth(10), (vec![], vec![(101, 2)]));
}

#[test]
fn self_trade_prevention_applies_to_the_house_too() {
    let mut book = Book::new();
    let house_bit = 1 << 63;
    seed(&mut book, &[(house_bit | 1, 0, Buy, 100, 3)]);
    assert_eq!(
        place(&mut book, OrderRequest::market(house_bit | 2, 0, Sell, 1)),
        [
            cancelled(house_bit | 1, 0, 3, SelfTrade),
            cancelled(house_bit | 2, 0, 1, NoLiquidity)
        ]
    );
    assert!(book.is_empty());
}

#[test]
fn self_trade_prevention_leaves_own_orders_the_taker_does_not_reach() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 8, Sell, 100, 1),
            (2, 7, Sell, 100, 1),
            (3, 7, Sell, 105, 1),
        ],
    );
    assert_eq!(
        place(&mut book, limit(4, 7, Buy, 100, 1)),
        [fill(4, 7, 1, 8, Buy, 100, 1, 0), Event::Filled { id: 4 }]
    );
    assert_eq!(book.len(), 2);
    // A limit stops at its price: the own order beyond it stays.
    assert_eq!(
        place(&mut book, limit(5, 7, Buy, 100, 1)),
        [
            cancelled(2, 7, 1, SelfTrade),
            Event::Rested {
                id: 5,
                remaining: 1
            }
        ]
    );
    assert_eq!(book.order(3).map(|order| order.remaining), Some(1));
}

// ---- ids and invalid orders ----------------------------------------------------------------------

#[test]
fn an_id_in_use_by_a_resting_order_or_a_stop_is_rejected() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Buy, 100, 1)]);
    place_stop(
        &mut book,
        stop(limit(2, 1, Sell, 90, 1), 95, StopCondition::AtOrBelow),
    );
    let before = snapshot(&book);
    assert_eq!(
        place(&mut book, limit(1, 2, Sell, 200, 1)),
        [rejected(1, RejectReason::DuplicateId)]
    );
    assert_eq!(
        place(&mut book, OrderRequest::market(2, 2, Sell, 1)),
        [rejected(2, RejectReason::DuplicateId)]
    );
    assert_eq!(
        place_stop(
            &mut book,
            stop(limit(1, 1, Sell, 90, 1), 95, StopCondition::AtOrBelow)
        ),
        [rejected(1, RejectReason::DuplicateId)]
    );
    assert_eq!(snapshot(&book), before);
}

#[test]
fn an_id_is_free_again_once_its_order_has_left_the_book() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Buy, 100, 1)]);
    place(&mut book, OrderRequest::market(2, 2, Sell, 1));
    assert_eq!(
        place(&mut book, limit(1, 3, Buy, 99, 1)),
        [Event::Rested {
            id: 1,
            remaining: 1
        }]
    );
}

#[test]
fn zero_quantities_prices_and_funds_are_invalid() {
    let mut book = Book::new();
    let invalid = [
        limit(1, 1, Buy, 0, 1),
        limit(2, 1, Buy, 100, 0),
        OrderRequest::market(3, 1, Sell, 0),
        OrderRequest::market_funds(4, 1, 0),
    ];
    for order in invalid {
        assert_eq!(
            place(&mut book, order),
            [rejected(order.id, RejectReason::InvalidOrder)]
        );
    }
    assert!(book.is_empty());
}

#[test]
fn a_stop_must_carry_a_valid_limit_order_and_a_trigger() {
    let mut book = Book::new();
    let market = stop(
        OrderRequest::market(1, 1, Buy, 1),
        100,
        StopCondition::AtOrAbove,
    );
    assert_eq!(
        place_stop(&mut book, market),
        [rejected(1, RejectReason::InvalidOrder)]
    );
    let funds = stop(
        OrderRequest::market_funds(2, 1, 100),
        100,
        StopCondition::AtOrAbove,
    );
    assert_eq!(
        place_stop(&mut book, funds),
        [rejected(2, RejectReason::InvalidOrder)]
    );
    let no_trigger = stop(limit(3, 1, Buy, 100, 1), 0, StopCondition::AtOrBelow);
    assert_eq!(
        place_stop(&mut book, no_trigger),
        [rejected(3, RejectReason::InvalidOrder)]
    );
    let zero_quantity = stop(limit(4, 1, Buy, 100, 0), 100, StopCondition::AtOrAbove);
    assert_eq!(
        place_stop(&mut book, zero_quantity),
        [rejected(4, RejectReason::InvalidOrder)]
    );
    let post_only_ioc = limit(5, 1, Buy, 100, 1)
        .with_time_in_force(TimeInForce::Ioc)
        .with_post_only();
    assert_eq!(
        place_stop(
            &mut book,
            stop(post_only_ioc, 100, StopCondition::AtOrAbove)
        ),
        [rejected(5, RejectReason::InvalidOrder)]
    );
    assert_eq!(book.stop_count(), 0);
}

// ---- cancel ----------------------------------------------------------------------------------------

#[test]
fn cancel_removes_a_resting_order_with_what_it_had_left() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Sell, 100, 5),
            (2, 1, Sell, 100, 1),
            (3, 1, Sell, 101, 1),
        ],
    );
    place(&mut book, OrderRequest::market(4, 2, Buy, 2));
    assert_eq!(book.cancel(1), Some(cancelled(1, 1, 3, Requested)));
    assert_eq!(book.depth(10).1, vec![(100, 1), (101, 1)]);
    assert_eq!(book.cancel(2), Some(cancelled(2, 1, 1, Requested)));
    assert_eq!(book.depth(10).1, vec![(101, 1)]);
    assert_eq!(book.best_ask(), Some(101));
}

#[test]
fn cancel_of_an_unknown_filled_or_cancelled_id_is_none() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 1), (2, 1, Sell, 100, 1)]);
    place(&mut book, OrderRequest::market(3, 2, Buy, 1));
    assert_eq!(book.cancel(1), None, "filled");
    assert_eq!(book.cancel(3), None, "a market taker never rests");
    assert_eq!(book.cancel(42), None, "unknown");
    assert!(book.cancel(2).is_some());
    assert_eq!(book.cancel(2), None, "cancelled already");
    assert!(book.is_empty());
}

#[test]
fn cancel_in_the_middle_of_a_queue_keeps_the_others_order() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Buy, 100, 1),
            (2, 2, Buy, 100, 1),
            (3, 3, Buy, 100, 1),
        ],
    );
    book.cancel(2);
    let events = place(&mut book, OrderRequest::market(4, 4, Sell, 2));
    assert_eq!(
        events,
        [
            fill(4, 4, 1, 1, Sell, 100, 1, 0),
            fill(4, 4, 3, 3, Sell, 100, 1, 0),
            Event::Filled { id: 4 }
        ]
    );
}

#[test]
fn cancel_removes_a_waiting_stop() {
    let mut book = Book::new();
    place_stop(
        &mut book,
        stop(limit(1, 5, Sell, 90, 4), 95, StopCondition::AtOrBelow),
    );
    assert_eq!(book.cancel(1), Some(cancelled(1, 5, 4, Requested)));
    assert_eq!(book.stop_count(), 0);
    assert_eq!(set_last(&mut book, 90), []);
}

// ---- stops -------------------------------------------------------------------------------------------

#[test]
fn a_stop_waits_while_there_is_no_last_price_or_its_condition_does_not_hold() {
    let mut book = Book::new();
    let buy_stop = stop(limit(1, 1, Buy, 110, 1), 105, StopCondition::AtOrAbove);
    assert_eq!(
        place_stop(&mut book, buy_stop),
        [Event::StopAccepted { id: 1 }]
    );
    set_last(&mut book, 100);
    let sell_stop = stop(limit(2, 1, Sell, 90, 1), 95, StopCondition::AtOrBelow);
    assert_eq!(
        place_stop(&mut book, sell_stop),
        [Event::StopAccepted { id: 2 }]
    );
    assert_eq!(book.stop_count(), 2);
    assert!(book.is_empty());
    assert_eq!(
        book.order(2),
        Some(RestingOrder {
            id: 2,
            owner: 1,
            side: Sell,
            price: 90,
            remaining: 1,
            is_stop: true
        })
    );
    assert_eq!(book.waiting_stops(), [buy_stop, sell_stop]);
}

#[test]
fn an_at_or_above_stop_triggers_when_a_fill_reaches_its_trigger() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Sell, 104, 1),
            (2, 1, Sell, 105, 1),
            (3, 1, Sell, 108, 5),
        ],
    );
    place_stop(
        &mut book,
        stop(limit(10, 2, Buy, 110, 2), 105, StopCondition::AtOrAbove),
    );
    assert_eq!(
        place(&mut book, OrderRequest::market(4, 3, Buy, 1)),
        [fill(4, 3, 1, 1, Buy, 104, 1, 0), Event::Filled { id: 4 }]
    );
    assert_eq!(
        place(&mut book, OrderRequest::market(5, 3, Buy, 1)),
        [
            fill(5, 3, 2, 1, Buy, 105, 1, 0),
            Event::Filled { id: 5 },
            Event::StopTriggered {
                id: 10,
                last_price: 105
            },
            fill(10, 2, 3, 1, Buy, 108, 2, 3),
            Event::Filled { id: 10 },
        ]
    );
    assert_eq!(book.last_price(), Some(108));
    assert_eq!(book.stop_count(), 0);
}

#[test]
fn an_at_or_below_stop_triggers_when_a_fill_reaches_its_trigger() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Buy, 95, 1), (2, 1, Buy, 90, 5)]);
    set_last(&mut book, 100);
    place_stop(
        &mut book,
        stop(limit(10, 2, Sell, 90, 3), 95, StopCondition::AtOrBelow),
    );
    assert_eq!(
        place(&mut book, OrderRequest::market(4, 3, Sell, 1)),
        [
            fill(4, 3, 1, 1, Sell, 95, 1, 0),
            Event::Filled { id: 4 },
            Event::StopTriggered {
                id: 10,
                last_price: 95
            },
            fill(10, 2, 2, 1, Sell, 90, 3, 2),
            Event::Filled { id: 10 },
        ]
    );
}

#[test]
fn a_stop_whose_condition_already_holds_is_placed_at_once() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 101, 5)]);
    set_last(&mut book, 100);
    assert_eq!(
        place_stop(
            &mut book,
            stop(limit(2, 2, Buy, 101, 2), 100, StopCondition::AtOrAbove)
        ),
        [
            Event::StopTriggered {
                id: 2,
                last_price: 100
            },
            fill(2, 2, 1, 1, Buy, 101, 2, 3),
            Event::Filled { id: 2 }
        ]
    );
    assert_eq!(
        place_stop(
            &mut book,
            stop(limit(3, 2, Buy, 99, 2), 101, StopCondition::AtOrBelow)
        ),
        [
            Event::StopTriggered {
                id: 3,
                last_price: 101
            },
            Event::Rested {
                id: 3,
                remaining: 2
            }
        ]
    );
    assert_eq!(book.stop_count(), 0);
}

#[test]
fn an_outside_last_price_triggers_stops_in_their_order() {
    let mut book = Book::new();
    set_last(&mut book, 100);
    // Rising: lowest trigger first, ties by id. Falling: highest trigger first.
    place_stop(
        &mut book,
        stop(limit(13, 1, Buy, 50, 1), 104, StopCondition::AtOrAbove),
    );
    place_stop(
        &mut book,
        stop(limit(12, 1, Buy, 50, 1), 102, StopCondition::AtOrAbove),
    );
    place_stop(
        &mut book,
        stop(limit(11, 1, Buy, 50, 1), 102, StopCondition::AtOrAbove),
    );
    place_stop(
        &mut book,
        stop(limit(14, 1, Buy, 50, 1), 107, StopCondition::AtOrAbove),
    );
    place_stop(
        &mut book,
        stop(limit(21, 1, Sell, 500, 1), 96, StopCondition::AtOrBelow),
    );
    place_stop(
        &mut book,
        stop(limit(22, 1, Sell, 500, 1), 98, StopCondition::AtOrBelow),
    );
    place_stop(
        &mut book,
        stop(limit(23, 1, Sell, 500, 1), 90, StopCondition::AtOrBelow),
    );
    let triggered = |events: Vec<Event>| -> Vec<OrderId> {
        events
            .into_iter()
            .filter_map(|event| match event {
                Event::StopTriggered { id, .. } => Some(id),
                _ => None,
            })
            .collect()
    };
    assert_eq!(triggered(set_last(&mut book, 105)), [11, 12, 13]);
    assert_eq!(triggered(set_last(&mut book, 95)), [22, 21]);
    assert_eq!(book.stop_count(), 2);
    assert_eq!(book.last_price(), Some(95));
}

#[test]
fn a_triggered_stop_can_trigger_more_stops_in_a_cascade() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Sell, 101, 1),
            (2, 1, Sell, 103, 1),
            (3, 1, Sell, 106, 1),
        ],
    );
    set_last(&mut book, 100);
    place_stop(
        &mut book,
        stop(limit(10, 2, Buy, 103, 1), 101, StopCondition::AtOrAbove),
    );
    place_stop(
        &mut book,
        stop(limit(11, 3, Buy, 110, 1), 103, StopCondition::AtOrAbove),
    );
    place_stop(
        &mut book,
        stop(limit(12, 4, Buy, 110, 1), 106, StopCondition::AtOrAbove),
    );
    place_stop(
        &mut book,
        stop(limit(13, 5, Buy, 110, 1), 200, StopCondition::AtOrAbove),
    );
    assert_eq!(
        place(&mut book, OrderRequest::market(4, 9, Buy, 1)),
        [
            fill(4, 9, 1, 1, Buy, 101, 1, 0),
            Event::Filled { id: 4 },
            Event::StopTriggered {
                id: 10,
                last_price: 101
            },
            fill(10, 2, 2, 1, Buy, 103, 1, 0),
            Event::Filled { id: 10 },
            Event::StopTriggered {
                id: 11,
                last_price: 103
            },
            fill(11, 3, 3, 1, Buy, 106, 1, 0),
            Event::Filled { id: 11 },
            Event::StopTriggered {
                id: 12,
                last_price: 106
            },
            Event::Rested {
                id: 12,
                remaining: 1
            },
        ]
    );
    assert_eq!(book.waiting_stops().len(), 1);
    assert_eq!(book.best_bid(), Some(110));
}

#[test]
fn a_long_cascade_runs_in_a_loop() {
    // 20,000 stops, each triggered by the previous one's fill: recursion would overflow the stack
    // of a test thread.
    let mut book = Book::new();
    let n = 20_000_u64;
    for level in 1..=n {
        seed(&mut book, &[(level, 1, Sell, 1_000 + level, 1)]);
    }
    set_last(&mut book, 1_000);
    for level in 1..=n {
        let order = limit(100_000 + level, 2, Buy, 1_000 + level + 1, 1);
        place_stop(
            &mut book,
            stop(order, 1_000 + level, StopCondition::AtOrAbove),
        );
    }
    let events = place(&mut book, OrderRequest::market(999_999, 3, Buy, 1));
    let triggered = events
        .iter()
        .filter(|event| matches!(event, Event::StopTriggered { .. }))
        .count();
    assert_eq!(triggered as u64, n);
    assert!(book.best_ask().is_none());
}

#[test]
fn a_sweep_triggers_stops_met_by_any_of_its_prices() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 100, 1), (2, 1, Sell, 104, 1)]);
    set_last(&mut book, 102);
    // The sweep trades at 100 (≤ 101) and then at 104: the falling stop was met on the way.
    place_stop(
        &mut book,
        stop(limit(10, 2, Sell, 300, 1), 101, StopCondition::AtOrBelow),
    );
    let events = place(&mut book, OrderRequest::market(3, 3, Buy, 2));
    assert_eq!(
        events[3..],
        [
            Event::StopTriggered {
                id: 10,
                last_price: 100
            },
            Event::Rested {
                id: 10,
                remaining: 1
            }
        ]
    );
}

#[test]
fn a_triggered_stop_honours_post_only_and_time_in_force() {
    let mut book = Book::new();
    seed(&mut book, &[(1, 1, Sell, 101, 1), (2, 1, Sell, 102, 1)]);
    set_last(&mut book, 100);
    let post_only = limit(10, 2, Buy, 102, 1).with_post_only();
    place_stop(&mut book, stop(post_only, 101, StopCondition::AtOrAbove));
    let fok = limit(11, 3, Buy, 102, 5).with_time_in_force(TimeInForce::Fok);
    place_stop(&mut book, stop(fok, 101, StopCondition::AtOrAbove));
    let events = place(&mut book, OrderRequest::market(3, 4, Buy, 1));
    assert_eq!(
        events[2..],
        [
            Event::StopTriggered {
                id: 10,
                last_price: 101
            },
            rejected(10, RejectReason::PostOnlyWouldTake),
            Event::StopTriggered {
                id: 11,
                last_price: 101
            },
            rejected(11, RejectReason::FokUnfillable),
        ]
    );
    assert_eq!(book.stop_count(), 0);
}

#[test]
fn a_last_price_of_zero_is_ignored() {
    let mut book = Book::new();
    set_last(&mut book, 50);
    place_stop(
        &mut book,
        stop(limit(1, 1, Sell, 1, 1), 10, StopCondition::AtOrBelow),
    );
    assert_eq!(set_last(&mut book, 0), []);
    assert_eq!(book.last_price(), Some(50));
    assert_eq!(book.stop_count(), 1);
}

// ---- cost to take and the read side ------------------------------------------------------------

#[test]
fn cost_to_take_walks_levels_within_the_limit_skipping_the_owners_orders() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Sell, 100, 2),
            (2, 7, Sell, 100, 5),
            (3, 1, Sell, 101, 3),
            (4, 1, Sell, 103, 10),
        ],
    );
    assert_eq!(book.cost_to_take(Buy, 4, None, 9), (4, 400));
    assert_eq!(book.cost_to_take(Buy, 4, None, 7), (4, 2 * 100 + 2 * 101));
    assert_eq!(
        book.cost_to_take(Buy, 100, Some(101), 7),
        (5, 2 * 100 + 3 * 101)
    );
    assert_eq!(book.cost_to_take(Buy, 100, Some(99), 7), (0, 0));
    assert_eq!(book.cost_to_take(Buy, 100, None, 7), (15, 200 + 303 + 1030));
    assert_eq!(book.cost_to_take(Sell, 5, None, 7), (0, 0));
    assert_eq!(book.cost_to_take(Buy, 0, None, 7), (0, 0));
    // Reading changes nothing.
    assert_eq!(book.len(), 4);
}

#[test]
fn depth_aggregates_levels_best_first_up_to_the_count() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Buy, 98, 1),
            (2, 1, Buy, 99, 2),
            (3, 2, Buy, 99, 3),
            (4, 1, Sell, 101, 4),
            (5, 1, Sell, 102, 5),
        ],
    );
    assert_eq!(
        book.depth(10),
        (vec![(99, 5), (98, 1)], vec![(101, 4), (102, 5)])
    );
    assert_eq!(book.depth(1), (vec![(99, 5)], vec![(101, 4)]));
    assert_eq!(book.depth(0), (vec![], vec![]));
    assert_eq!(book.level_count(), (2, 2));
}

#[test]
fn resting_orders_lists_bids_then_asks_in_priority_order() {
    let mut book = Book::new();
    seed(
        &mut book,
        &[
            (1, 1, Buy, 98, 1),
            (2, 2, Sell, 102, 2),
            (3, 3, Buy, 99, 3),
            (4, 4, Buy, 99, 4),
            (5, 5, Sell, 101, 5),
        ],
    );
    let ids: Vec<OrderId> = book.resting_orders().iter().map(|order| order.id).collect();
    assert_eq!(ids, [3, 4, 1, 5, 2]);
    assert_eq!(book.len(), 5);
}

#[test]
fn huge_quantities_prices_and_funds_do_not_overflow() {
    let mut book = Book::new();
    let max = u64::MAX;
    seed(
        &mut book,
        &[
            (1, 1, Sell, max, max),
            (2, 2, Sell, max, max),
            (3, 3, Sell, max - 1, max),
        ],
    );
    assert_eq!(
        book.depth(10).1,
        vec![(max - 1, max), (max, max)],
        "a level's total saturates"
    );
    assert_eq!(
        book.cost_to_take(Buy, max, None, 9),
        (max, u128::from(max - 1) * u128::from(max))
    );
    assert_eq!(
        book.cost_to_take(Buy, max, None, 3).1,
        u128::from(max) * u128::from(max)
    );
    // max lots at max − 1 cost (max − 1)·max, which leaves exactly 3·max of u128::MAX: 3 lots at max.
    let events = place(&mut book, OrderRequest::market_funds(4, 4, u128::MAX));
    assert_eq!(
        events,
        [
            fill(4, 4, 3, 3, Buy, max - 1, max, 0),
            fill(4, 4, 1, 1, Buy, max, 3, max - 3),
            Event::Filled { id: 4 }
        ]
    );
    let sweep = place(&mut book, OrderRequest::market(5, 5, Buy, max));
    assert_eq!(
        sweep,
        [
            fill(5, 5, 1, 1, Buy, max, max - 3, 0),
            fill(5, 5, 2, 2, Buy, max, 3, max - 3),
            Event::Filled { id: 5 }
        ]
    );
    assert_eq!(book.depth(10).1, vec![(max, max - 3)]);
    assert_eq!(
        place(&mut book, limit(6, 6, Buy, max - 1, max)),
        [Event::Rested {
            id: 6,
            remaining: max
        }]
    );
}

#[test]
fn order_kind_helpers_build_the_requests_the_contract_describes() {
    let order = OrderRequest::limit(1, 2, Buy, 3, 4);
    assert_eq!(
        order.kind,
        OrderKind::Limit {
            price: 3,
            quantity: 4
        }
    );
    assert_eq!(order.time_in_force, TimeInForce::Gtc);
    assert!(!order.post_only);
    assert_eq!(OrderRequest::market_funds(1, 2, 9).side, Buy);
    assert_eq!(Buy.opposite(), Sell);
    assert_eq!(Sell.opposite(), Buy);
}

#[test]
fn books_with_thousands_of_levels_keep_price_time_priority() {
    // More levels than the ladder keeps in its Vec: levels move to and from its BTreeMap.
    let mut book = Book::new();
    let levels = 5_000_u64;
    let mut prices: Vec<u64> = (1..=levels).map(|level| 10_000 + level * 3).collect();
    let mut state = 0x2545_F491_4F6C_DD1D_u64;
    for index in (1..prices.len()).rev() {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        prices.swap(index, (state % (index as u64 + 1)) as usize);
    }
    for (id, &price) in (1..).zip(&prices) {
        seed(
            &mut book,
            &[(id, 1, Buy, price, 2), (100_000 + id, 2, Buy, price, 1)],
        );
    }
    // Cancel every third level's first order.
    for (id, _) in (1..).zip(&prices).filter(|(id, _)| id % 3 == 0) {
        assert!(book.cancel(id).is_some());
    }
    assert_eq!(book.level_count(), (levels as usize, 0));
    let (bids, _) = book.depth(usize::MAX);
    assert_eq!(bids.len(), levels as usize);
    assert!(
        bids.windows(2).all(|pair| pair[0].0 > pair[1].0),
        "best first"
    );
    let events = place(&mut book, OrderRequest::market(999_999, 3, Sell, u64::MAX));
    let fills: Vec<(u64, OrderId)> = events
        .iter()
        .filter_map(|event| match *event {
            Event::Fill { price, maker, .. } => Some((price, maker)),
            _ => None,
        })
        .collect();
    assert_eq!(fills.len() as u64, 2 * levels - levels / 3);
    // Prices never rise, and within a price the older order (id below 100,000) comes first.
    assert!(
        fills
            .windows(2)
            .all(|pair| pair[0].0 > pair[1].0 || (pair[0].0 == pair[1].0 && pair[0].1 < pair[1].1))
    );
    assert!(book.is_empty());
    assert_eq!(book.level_count(), (0, 0));
}
