//! One side of the book: its price levels, each a FIFO queue of orders linked through the arena.
//!
//! A level is found by a key that orders both sides alike (the price for bids, its bitwise
//! complement for asks), and levels live in two tiers:
//! - the 1,024 levels nearest the touch in a `Vec` sorted so that the best level is the last one:
//!   taking from the touch and closing an emptied best level are `last`/`pop`, and levels open and
//!   close where few elements move; a binary search over contiguous memory finds a level;
//! - the levels beyond them in a `BTreeMap`, so that a book with very many levels (a ladder of
//!   orders far from the touch) costs O(log n) per order instead of moving the whole `Vec`: with the
//!   `Vec` alone, opening each of 100,000 ever-further levels cost 166 µs at the end.
//!
//! The `Vec` makes the benchmark's mixed workloads about 1.4× faster than a `BTreeMap` (even with the
//! best level kept apart); see docs/benchmarks.md, "Spot matching engine".

use std::collections::BTreeMap;

use crate::arena::{Arena, NIL, Node};
use crate::types::Side;

/// All the orders resting at one price, oldest first.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Level {
    /// The sort key: better prices have larger keys.
    key: u64,
    pub price: u64,
    /// The sum of the queue's remaining quantities (u128: many orders near `u64::MAX` cannot
    /// overflow it).
    pub total: u128,
    /// The oldest order (first to trade), or [`NIL`].
    pub head: usize,
    /// The newest order, or [`NIL`].
    pub tail: usize,
}

impl Level {
    /// Appends the node in `slot` (already in the arena) to the back of the queue.
    pub fn push_back(&mut self, arena: &mut Arena, slot: usize) {
        let remaining = {
            let node = arena.get_mut(slot);
            node.prev = self.tail;
            node.next = NIL;
            node.remaining
        };
        if self.tail == NIL {
            self.head = slot;
        } else {
            arena.get_mut(self.tail).next = slot;
        }
        self.tail = slot;
        self.total += u128::from(remaining);
    }

    /// Takes the node in `slot` out of the queue, wherever it is, and out of the level's total. The
    /// slot itself stays allocated.
    pub fn unlink(&mut self, arena: &mut Arena, slot: usize) {
        let Node {
            prev,
            next,
            remaining,
            ..
        } = *arena.get(slot);
        if prev == NIL {
            self.head = next;
        } else {
            arena.get_mut(prev).next = next;
        }
        if next == NIL {
            self.tail = prev;
        } else {
            arena.get_mut(next).prev = prev;
        }
        self.total -= u128::from(remaining);
    }

    pub fn is_empty(&self) -> bool {
        self.head == NIL
    }
}

/// How many levels nearest the touch the sorted `Vec` holds by default (48 KB of levels: opening or
/// closing one moves at most that much).
const NEAR_LEVELS: usize = 1024;

/// One side's levels: the ones nearest the touch in a sorted `Vec` (best last), the others in a
/// `BTreeMap`. Every key in `far` is below every key in `near`, and `near` is empty only when the
/// whole side is.
#[derive(Clone, Debug)]
pub(crate) struct Ladder {
    side: Side,
    near: Vec<Level>,
    far: BTreeMap<u64, Level>,
    /// At most this many levels in `near`; when it empties, half as many come back from `far`.
    near_capacity: usize,
}

impl Ladder {
    pub fn new(side: Side) -> Self {
        Self::with_near_capacity(side, NEAR_LEVELS)
    }

    /// A ladder with `near_capacity` (at least 2) levels in its `Vec`.
    pub fn with_near_capacity(side: Side, near_capacity: usize) -> Self {
        Self {
            side,
            near: Vec::new(),
            far: BTreeMap::new(),
            near_capacity: near_capacity.max(2),
        }
    }

    fn key(&self, price: u64) -> u64 {
        match self.side {
            Side::Buy => price,
            Side::Sell => !price,
        }
    }

    /// Whether a level with `key` belongs in `near`: at or above its worst level, or anywhere while
    /// `far` is empty.
    fn is_near(&self, key: u64) -> bool {
        self.far.is_empty() || self.near.first().is_some_and(|worst| key >= worst.key)
    }

    /// The best level, if any.
    pub fn best_mut(&mut self) -> Option<&mut Level> {
        self.near.last_mut()
    }

    pub fn best_price(&self) -> Option<u64> {
        self.near.last().map(|level| level.price)
    }

    /// Removes the best level (once its queue is empty).
    pub fn pop_best(&mut self) {
        self.near.pop();
        self.refill();
    }

    /// Brings the best levels of `far` into an emptied `near`.
    fn refill(&mut self) {
        if !self.near.is_empty() {
            return;
        }
        while self.near.len() < self.near_capacity / 2 {
            let Some((_, level)) = self.far.pop_last() else {
                break;
            };
            self.near.push(level);
        }
        self.near.reverse();
    }

    /// The level at `price`, opened (empty) if there is none.
    pub fn level_or_open(&mut self, price: u64) -> &mut Level {
        let key = self.key(price);
        let open = Level {
            key,
            price,
            total: 0,
            head: NIL,
            tail: NIL,
        };
        if !self.is_near(key) {
            return self.far.entry(key).or_insert(open);
        }
        let mut index = match self.near.binary_search_by(|level| level.key.cmp(&key)) {
            Ok(index) => return &mut self.near[index],
            Err(index) => index,
        };
        if self.near.len() >= self.near_capacity {
            if index == 0 {
                // Worse than every near level: it is the one that would move out.
                return self.far.entry(key).or_insert(open);
            }
            let worst = self.near.remove(0);
            self.far.insert(worst.key, worst);
            index -= 1;
        }
        self.near.insert(index, open);
        &mut self.near[index]
    }

    /// Unlinks the node in `slot` (resting at `price` on this side) and closes its level if that
    /// leaves it empty. Returns false, touching nothing, when there is no level at `price`.
    pub fn unlink(&mut self, arena: &mut Arena, slot: usize, price: u64) -> bool {
        let key = self.key(price);
        if self.near.first().is_some_and(|worst| key >= worst.key) {
            let Ok(index) = self.near.binary_search_by(|level| level.key.cmp(&key)) else {
                return false;
            };
            let level = &mut self.near[index];
            level.unlink(arena, slot);
            if level.is_empty() {
                self.near.remove(index);
                self.refill();
            }
            return true;
        }
        let Some(level) = self.far.get_mut(&key) else {
            return false;
        };
        level.unlink(arena, slot);
        if level.is_empty() {
            self.far.remove(&key);
        }
        true
    }

    /// Levels from the best outwards.
    pub fn iter_best_first(&self) -> impl Iterator<Item = &Level> {
        self.near.iter().rev().chain(self.far.values().rev())
    }

    pub fn level_count(&self) -> usize {
        self.near.len() + self.far.len()
    }
}

/// The orders of one level, oldest first.
pub(crate) fn queue<'a>(arena: &'a Arena, level: &Level) -> impl Iterator<Item = &'a Node> + 'a {
    let mut slot = level.head;
    std::iter::from_fn(move || {
        if slot == NIL {
            return None;
        }
        let node = arena.get(slot);
        slot = node.next;
        Some(node)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn node(id: u64, price: u64, remaining: u64, side: Side) -> Node {
        Node {
            id,
            owner: 0,
            price,
            remaining,
            prev: NIL,
            next: NIL,
            side,
        }
    }

    fn rest(ladder: &mut Ladder, arena: &mut Arena, id: u64, price: u64, remaining: u64) -> usize {
        let slot = arena.insert(node(id, price, remaining, ladder.side));
        ladder.level_or_open(price).push_back(arena, slot);
        slot
    }

    fn ids(arena: &Arena, ladder: &Ladder) -> Vec<(u64, Vec<u64>)> {
        ladder
            .iter_best_first()
            .map(|level| (level.price, queue(arena, level).map(|n| n.id).collect()))
            .collect()
    }

    #[test]
    fn bids_put_the_highest_price_last_and_asks_the_lowest() {
        let mut arena = Arena::default();
        let mut bids = Ladder::new(Side::Buy);
        let mut asks = Ladder::new(Side::Sell);
        for (id, price) in [(1, 100), (2, 102), (3, 101), (4, 102)] {
            rest(&mut bids, &mut arena, id, price, 1);
            rest(&mut asks, &mut arena, 10 + id, price, 1);
        }
        assert_eq!(bids.best_price(), Some(102));
        assert_eq!(asks.best_price(), Some(100));
        assert_eq!(
            ids(&arena, &bids),
            [(102, vec![2, 4]), (101, vec![3]), (100, vec![1])]
        );
        assert_eq!(
            ids(&arena, &asks),
            [(100, vec![11]), (101, vec![13]), (102, vec![12, 14])]
        );
        assert_eq!(bids.best_mut().map(|level| level.total), Some(2));
    }

    #[test]
    fn unlinking_keeps_the_queue_and_total_and_closes_an_emptied_level() {
        let mut arena = Arena::default();
        let mut asks = Ladder::new(Side::Sell);
        let a = rest(&mut asks, &mut arena, 1, 100, 3);
        let b = rest(&mut asks, &mut arena, 2, 100, 4);
        let c = rest(&mut asks, &mut arena, 3, 100, 5);
        let d = rest(&mut asks, &mut arena, 4, 105, 1);
        assert!(asks.unlink(&mut arena, b, 100));
        arena.release(b);
        assert_eq!(ids(&arena, &asks), [(100, vec![1, 3]), (105, vec![4])]);
        assert_eq!(asks.best_mut().map(|level| level.total), Some(8));
        assert!(asks.unlink(&mut arena, a, 100));
        assert!(asks.unlink(&mut arena, c, 100));
        assert_eq!(ids(&arena, &asks), [(105, vec![4])]);
        assert!(!asks.unlink(&mut arena, d, 999), "no level at that price");
        assert_eq!(asks.level_count(), 1);
    }

    #[test]
    fn levels_move_between_the_vec_and_the_map_keeping_their_order() {
        let mut arena = Arena::default();
        let mut bids = Ladder::with_near_capacity(Side::Buy, 4);
        let mut slots = Vec::new();
        for (id, price) in [
            (1, 100),
            (2, 90),
            (3, 95),
            (4, 80),
            (5, 99),
            (6, 85),
            (7, 100),
            (8, 70),
        ] {
            slots.push(rest(&mut bids, &mut arena, id, price, 1));
        }
        assert_eq!(bids.near.len(), 4);
        assert_eq!(bids.far.len(), 3);
        let expected = [
            (100, vec![1, 7]),
            (99, vec![5]),
            (95, vec![3]),
            (90, vec![2]),
            (85, vec![6]),
            (80, vec![4]),
            (70, vec![8]),
        ];
        assert_eq!(ids(&arena, &bids), expected);
        // Emptying the near levels brings the far ones back, best first.
        for _ in 0..4 {
            let best = bids.best_mut().map(|level| level.price).unwrap();
            while let Some(level) = bids.best_mut().filter(|level| !level.is_empty()) {
                let head = level.head;
                level.unlink(&mut arena, head);
            }
            assert_eq!(bids.best_price(), Some(best));
            bids.pop_best();
        }
        assert_eq!(bids.best_price(), Some(85));
        assert_eq!(bids.near.len(), 2);
        assert_eq!(ids(&arena, &bids), expected[4..]);
        // A far level is found and closed by its price.
        assert!(bids.unlink(&mut arena, slots[7], 70));
        assert_eq!(bids.level_count(), 2);
    }

    proptest::proptest! {
        /// Random opens and closes on a ladder with 3 near levels keep exactly the levels, in order,
        /// of a plain `BTreeMap`.
        #[test]
        fn a_small_ladder_matches_a_btreemap(
            ops in proptest::collection::vec((0_u8..4, 1_u64..40), 1..300),
            sell in proptest::bool::ANY,
        ) {
            let side = if sell { Side::Sell } else { Side::Buy };
            let mut arena = Arena::default();
            let mut ladder = Ladder::with_near_capacity(side, 3);
            let mut reference: BTreeMap<u64, Vec<(u64, usize)>> = BTreeMap::new();
            for (id, (action, price)) in (0_u64..).zip(ops) {
                match action {
                    0 | 1 => {
                        let slot = rest(&mut ladder, &mut arena, id, price, 1);
                        reference.entry(price).or_default().push((id, slot));
                    }
                    2 => {
                        // Close the oldest order at `price`, if any.
                        if let Some(queue) = reference.get_mut(&price) {
                            let (_, slot) = queue.remove(0);
                            proptest::prop_assert!(ladder.unlink(&mut arena, slot, price));
                            arena.release(slot);
                            if queue.is_empty() {
                                reference.remove(&price);
                            }
                        } else {
                            proptest::prop_assert!(!ladder.unlink(&mut arena, 0, price));
                        }
                    }
                    _ => {
                        // Empty and close the best level.
                        if let Some(level) = ladder.best_mut() {
                            let price = level.price;
                            while !level.is_empty() {
                                let head = level.head;
                                level.unlink(&mut arena, head);
                                arena.release(head);
                            }
                            ladder.pop_best();
                            reference.remove(&price);
                        }
                    }
                }
                let mut expected: Vec<(u64, Vec<u64>)> = reference
                    .iter()
                    .map(|(price, queue)| (*price, queue.iter().map(|(id, _)| *id).collect()))
                    .collect();
                if side == Side::Buy {
                    expected.reverse();
                }
                proptest::prop_assert_eq!(ids(&arena, &ladder), expected);
                proptest::prop_assert_eq!(ladder.level_count(), reference.len());
                proptest::prop_assert!(ladder.near.len() <= 3);
                proptest::prop_assert_eq!(ladder.near.is_empty(), reference.is_empty());
            }
        }
    }

    #[test]
    fn freed_slots_are_reused() {
        let mut arena = Arena::default();
        let first = arena.insert(node(1, 1, 1, Side::Buy));
        let second = arena.insert(node(2, 1, 1, Side::Buy));
        arena.release(first);
        arena.release(second);
        assert_eq!(arena.insert(node(3, 1, 1, Side::Buy)), second);
        assert_eq!(arena.insert(node(4, 1, 1, Side::Buy)), first);
        assert_eq!(arena.insert(node(5, 1, 1, Side::Buy)), 2);
        assert_eq!(arena.get(first).id, 4);
    }
}
