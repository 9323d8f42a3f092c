//! The price-trigger index of a symbol (pure): everything that fires when the mark price crosses
//! a level — liquidation prices, take-profit and stop-loss prices, stop orders, resting limit
//! orders — kept in two ordered maps, so a mark tick touches only what it crossed instead of
//! scanning every position.
//!
//! A target fires `Above` when the mark is at or above its price (a short's liquidation, a long's
//! take profit, a sell limit) and `Below` when the mark is at or below it (a long's liquidation, a
//! long's stop loss, a buy limit). [`TriggerIndex::crossed`] is a range query on each map:
//! `O(log n + k)` for `k` crossed targets.

use std::collections::{BTreeMap, BTreeSet, HashMap};
use std::hash::Hash;

use rust_decimal::Decimal;

/// When a target fires.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Direction {
    /// When the mark is at or above the price.
    Above,
    /// When the mark is at or below the price.
    Below,
}

impl Direction {
    /// Whether `mark` fires a target at `price` in this direction (the full-scan rule).
    pub fn fires(self, price: Decimal, mark: Decimal) -> bool {
        match self {
            Direction::Above => mark >= price,
            Direction::Below => mark <= price,
        }
    }
}

/// Targets `T` by trigger price, each at most once.
#[derive(Debug, Clone)]
pub struct TriggerIndex<T: Ord + Copy + Hash> {
    above: BTreeMap<Decimal, BTreeSet<T>>,
    below: BTreeMap<Decimal, BTreeSet<T>>,
    placed: HashMap<T, (Direction, Decimal)>,
}

impl<T: Ord + Copy + Hash> Default for TriggerIndex<T> {
    fn default() -> Self {
        Self {
            above: BTreeMap::new(),
            below: BTreeMap::new(),
            placed: HashMap::new(),
        }
    }
}

impl<T: Ord + Copy + Hash> TriggerIndex<T> {
    /// An empty index.
    pub fn new() -> Self {
        Self::default()
    }

    /// How many targets are placed.
    pub fn len(&self) -> usize {
        self.placed.len()
    }

    /// Whether nothing is placed.
    pub fn is_empty(&self) -> bool {
        self.placed.is_empty()
    }

    /// Places `target` at `price` (replacing where it was), or removes it when `price` is `None`
    /// (no liquidation price, no take profit, …).
    pub fn set(&mut self, target: T, direction: Direction, price: Option<Decimal>) {
        self.remove(target);
        if let Some(price) = price {
            self.side(direction)
                .entry(price)
                .or_default()
                .insert(target);
            self.placed.insert(target, (direction, price));
        }
    }

    /// Takes `target` out; `true` when it was placed.
    pub fn remove(&mut self, target: T) -> bool {
        let Some((direction, price)) = self.placed.remove(&target) else {
            return false;
        };
        let side = self.side(direction);
        if let Some(level) = side.get_mut(&price) {
            level.remove(&target);
            if level.is_empty() {
                side.remove(&price);
            }
        }
        true
    }

    /// Where `target` is placed.
    pub fn get(&self, target: T) -> Option<(Direction, Decimal)> {
        self.placed.get(&target).copied()
    }

    /// Every target `mark` fires: `Below` ones first (the highest price first), then `Above` ones
    /// (the lowest price first) — the same set a full scan with [`Direction::fires`] finds.
    pub fn crossed(&self, mark: Decimal) -> Vec<T> {
        let mut out = Vec::new();
        self.crossed_into(mark, &mut out);
        out
    }

    /// [`TriggerIndex::crossed`] into a caller's buffer (cleared first), so a tick allocates
    /// nothing when nothing is crossed.
    pub fn crossed_into(&self, mark: Decimal, out: &mut Vec<T>) {
        out.clear();
        for (_, level) in self.below.range(mark..).rev() {
            out.extend(level.iter().copied());
        }
        for (_, level) in self.above.range(..=mark) {
            out.extend(level.iter().copied());
        }
    }

    fn side(&mut self, direction: Direction) -> &mut BTreeMap<Decimal, BTreeSet<T>> {
        match direction {
            Direction::Above => &mut self.above,
            Direction::Below => &mut self.below,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;
    use rust_decimal_macros::dec;

    #[test]
    fn a_long_liquidates_below_and_a_short_above() {
        let mut index = TriggerIndex::new();
        index.set(1, Direction::Below, Some(dec!(45180.72)));
        index.set(2, Direction::Above, Some(dec!(54776.12)));
        assert!(index.crossed(dec!(50000)).is_empty());
        assert_eq!(index.crossed(dec!(45180.72)), vec![1]);
        assert_eq!(index.crossed(dec!(60000)), vec![2]);
        index.set(1, Direction::Below, Some(dec!(40000)));
        assert!(index.crossed(dec!(45000)).is_empty());
        assert!(index.remove(2));
        assert!(!index.remove(2));
        assert!(index.crossed(dec!(60000)).is_empty());
        index.set(1, Direction::Below, None);
        assert!(index.is_empty());
    }

    proptest! {
        #[test]
        fn the_index_finds_exactly_what_a_full_scan_finds(
            targets in prop::collection::vec((0u32..200, any::<bool>(), 1i64..1000), 0..150),
            removed in prop::collection::vec(0u32..200, 0..30),
            mark in 1i64..1000,
        ) {
            let mut index = TriggerIndex::new();
            let mut truth: HashMap<u32, (Direction, Decimal)> = HashMap::new();
            for (id, above, price) in targets {
                let direction = if above { Direction::Above } else { Direction::Below };
                let price = Decimal::new(price, 1);
                index.set(id, direction, Some(price));
                truth.insert(id, (direction, price));
            }
            for id in removed {
                prop_assert_eq!(index.remove(id), truth.remove(&id).is_some());
            }
            let mark = Decimal::new(mark, 1);
            let mut found = index.crossed(mark);
            found.sort_unstable();
            let mut scanned: Vec<u32> = truth
                .iter()
                .filter(|(_, (d, p))| d.fires(*p, mark))
                .map(|(id, _)| *id)
                .collect();
            scanned.sort_unstable();
            prop_assert_eq!(found, scanned);
            prop_assert_eq!(index.len(), truth.len());
        }
    }
}
