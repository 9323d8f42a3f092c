//! Stop orders waiting outside the book, in the order they trigger: `AtOrAbove` stops by ascending
//! trigger, `AtOrBelow` stops by descending trigger, ties by id.

use std::cmp::Reverse;
use std::collections::BTreeSet;

use rustc_hash::FxHashMap;

use crate::types::{OrderId, StopCondition, StopRequest};

/// The range of prices traded since the stops were last looked at: every one of them was the last
/// price for a moment, so a stop triggers if any of them meets its condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct PriceRange {
    pub low: u64,
    pub high: u64,
}

impl PriceRange {
    pub fn at(price: u64) -> Self {
        Self {
            low: price,
            high: price,
        }
    }

    pub fn include(&mut self, price: u64) {
        self.low = self.low.min(price);
        self.high = self.high.max(price);
    }

    pub fn merge(&mut self, other: PriceRange) {
        self.include(other.low);
        self.include(other.high);
    }
}

/// The waiting stops, by id and in trigger order.
#[derive(Clone, Debug, Default)]
pub(crate) struct Stops {
    by_id: FxHashMap<OrderId, StopRequest>,
    rising: BTreeSet<(u64, OrderId)>,
    falling: BTreeSet<(Reverse<u64>, OrderId)>,
}

impl Stops {
    pub fn len(&self) -> usize {
        self.by_id.len()
    }

    pub fn get(&self, id: OrderId) -> Option<&StopRequest> {
        self.by_id.get(&id)
    }

    pub fn contains(&self, id: OrderId) -> bool {
        self.by_id.contains_key(&id)
    }

    /// Registers `stop`; its order id must not be waiting already.
    pub fn insert(&mut self, stop: StopRequest) {
        let id = stop.order.id;
        match stop.condition {
            StopCondition::AtOrAbove => self.rising.insert((stop.trigger, id)),
            StopCondition::AtOrBelow => self.falling.insert((Reverse(stop.trigger), id)),
        };
        self.by_id.insert(id, stop);
    }

    pub fn remove(&mut self, id: OrderId) -> Option<StopRequest> {
        let stop = self.by_id.remove(&id)?;
        match stop.condition {
            StopCondition::AtOrAbove => self.rising.remove(&(stop.trigger, id)),
            StopCondition::AtOrBelow => self.falling.remove(&(Reverse(stop.trigger), id)),
        };
        Some(stop)
    }

    /// Removes and returns the next stop that `traded` triggers, with the price that met its
    /// condition: `AtOrAbove` stops first (lowest trigger first), then `AtOrBelow` (highest first).
    pub fn pop_triggered(&mut self, traded: PriceRange) -> Option<(StopRequest, u64)> {
        if let Some(&(trigger, id)) = self.rising.first()
            && trigger <= traded.high
        {
            return self.remove(id).map(|stop| (stop, traded.high));
        }
        if let Some(&(Reverse(trigger), id)) = self.falling.first()
            && trigger >= traded.low
        {
            return self.remove(id).map(|stop| (stop, traded.low));
        }
        None
    }

    /// Whether `traded` triggers at least one waiting stop (what [`Stops::pop_triggered`] would
    /// return first, without removing it).
    pub fn any_triggered(&self, traded: PriceRange) -> bool {
        self.rising
            .first()
            .is_some_and(|&(trigger, _)| trigger <= traded.high)
            || self
                .falling
                .first()
                .is_some_and(|&(Reverse(trigger), _)| trigger >= traded.low)
    }

    /// Every waiting stop, in trigger order (`AtOrAbove`, then `AtOrBelow`).
    pub fn in_trigger_order(&self) -> impl Iterator<Item = &StopRequest> {
        let rising = self.rising.iter().map(|(_, id)| id);
        let falling = self.falling.iter().map(|(_, id)| id);
        rising.chain(falling).filter_map(|id| self.by_id.get(id))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::types::{OrderRequest, Side};

    fn stop(id: OrderId, trigger: u64, condition: StopCondition) -> StopRequest {
        StopRequest {
            order: OrderRequest::limit(id, 1, Side::Buy, 10, 1),
            trigger,
            condition,
        }
    }

    #[test]
    fn rising_stops_trigger_lowest_first_then_falling_highest_first_ties_by_id() {
        let mut stops = Stops::default();
        for (id, trigger, condition) in [
            (5, 12, StopCondition::AtOrAbove),
            (4, 11, StopCondition::AtOrAbove),
            (3, 11, StopCondition::AtOrAbove),
            (9, 20, StopCondition::AtOrAbove),
            (7, 8, StopCondition::AtOrBelow),
            (6, 9, StopCondition::AtOrBelow),
            (8, 9, StopCondition::AtOrBelow),
            (2, 1, StopCondition::AtOrBelow),
        ] {
            stops.insert(stop(id, trigger, condition));
        }
        let traded = PriceRange { low: 8, high: 12 };
        let order: Vec<(OrderId, u64)> =
            std::iter::from_fn(|| stops.pop_triggered(traded).map(|(s, p)| (s.order.id, p)))
                .collect();
        assert_eq!(order, [(3, 12), (4, 12), (5, 12), (6, 8), (8, 8), (7, 8)]);
        assert_eq!(stops.len(), 2);
        let left: Vec<OrderId> = stops.in_trigger_order().map(|s| s.order.id).collect();
        assert_eq!(left, [9, 2]);
        assert_eq!(stops.remove(9).map(|s| s.trigger), Some(20));
        assert!(stops.remove(9).is_none());
        assert!(!stops.contains(9) && stops.contains(2));
    }
}
