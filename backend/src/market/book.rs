//! The simulated order book of a pair: a ladder of resting bids and asks on a fixed price grid
//! around the last price, re-centred every tick, and its wire forms — a full snapshot and
//! sequence-numbered diffs (`seq` increases by one per diff; a diff whose `prevSeq` is not the last
//! `seq` a client applied means it missed one and must take a new snapshot).
//!
//! Quantities are drawn log-normally around a quote-asset size that grows away from the touch, the
//! shape of a liquid venue's book; a few levels change size every tick even when the price stands
//! still, so the book looks alive.

use std::collections::BTreeMap;

use rand::RngExt;
use rand_chacha::ChaCha8Rng;
use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

/// Levels kept on each side.
pub const BOOK_LEVELS: usize = 50;
/// Grid spacing as a share of the start price (one basis point), never below the tick size.
const SPACING_SHARE: Decimal = Decimal::from_parts(1, 0, 0, false, 4);
/// Median resting size at the touch, in the quote asset.
const TOUCH_QUOTE: f64 = 4_000.0;
/// Chance that an unchanged level's size is redrawn during a tick.
const RESIZE_CHANCE: f64 = 0.15;

/// One price level: price and resting quantity (0 in a diff: the level is gone). Serialised as
/// `["price", "quantity"]`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Level {
    /// Price.
    pub price: Decimal,
    /// Resting quantity in the base asset.
    pub quantity: Decimal,
}

impl Serialize for Level {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        (self.price.to_string(), self.quantity.to_string()).serialize(serializer)
    }
}

impl<'de> Deserialize<'de> for Level {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let (price, quantity) = <(Decimal, Decimal)>::deserialize(deserializer)?;
        Ok(Level { price, quantity })
    }
}

/// The whole book at `seq`: bids best (highest) first, asks best (lowest) first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BookSnapshot {
    /// The sequence number of the last diff included.
    pub seq: u64,
    /// Bids, best first.
    pub bids: Vec<Level>,
    /// Asks, best first.
    pub asks: Vec<Level>,
    /// Time, epoch milliseconds.
    pub ts: i64,
}

impl BookSnapshot {
    /// The first `limit` levels of each side.
    pub fn top(&self, limit: usize) -> BookSnapshot {
        BookSnapshot {
            seq: self.seq,
            bids: self.bids.iter().take(limit).copied().collect(),
            asks: self.asks.iter().take(limit).copied().collect(),
            ts: self.ts,
        }
    }

    /// The diff that turns this snapshot into `next` (levels new or resized in `next`, and
    /// levels gone from it with quantity 0), numbered `next.seq` on top of `self.seq`.
    pub fn diff_to(&self, next: &BookSnapshot) -> BookDiff {
        let side = |before: &[Level], after: &[Level]| {
            let old: BTreeMap<Decimal, Decimal> =
                before.iter().map(|l| (l.price, l.quantity)).collect();
            let new: BTreeMap<Decimal, Decimal> =
                after.iter().map(|l| (l.price, l.quantity)).collect();
            let mut changes: Vec<Level> = after
                .iter()
                .filter(|level| old.get(&level.price) != Some(&level.quantity))
                .copied()
                .collect();
            changes.extend(
                before
                    .iter()
                    .filter(|level| !new.contains_key(&level.price))
                    .map(|level| Level {
                        price: level.price,
                        quantity: Decimal::ZERO,
                    }),
            );
            changes
        };
        BookDiff {
            seq: next.seq,
            prev_seq: self.seq,
            bids: side(&self.bids, &next.bids),
            asks: side(&self.asks, &next.asks),
            ts: next.ts,
        }
    }

    /// This snapshot with `diff` applied (what a client does); `None` when `diff` does not follow it.
    pub fn apply(&self, diff: &BookDiff) -> Option<BookSnapshot> {
        if diff.prev_seq != self.seq {
            return None;
        }
        let side = |levels: &[Level], changes: &[Level]| {
            let mut map: BTreeMap<Decimal, Decimal> =
                levels.iter().map(|l| (l.price, l.quantity)).collect();
            for change in changes {
                if change.quantity.is_zero() {
                    map.remove(&change.price);
                } else {
                    map.insert(change.price, change.quantity);
                }
            }
            map
        };
        let bids = side(&self.bids, &diff.bids);
        let asks = side(&self.asks, &diff.asks);
        Some(BookSnapshot {
            seq: diff.seq,
            bids: bids
                .iter()
                .rev()
                .map(|(p, q)| Level {
                    price: *p,
                    quantity: *q,
                })
                .collect(),
            asks: asks
                .iter()
                .map(|(p, q)| Level {
                    price: *p,
                    quantity: *q,
                })
                .collect(),
            ts: diff.ts,
        })
    }
}

/// What changed between two books: new, resized and removed (quantity 0) levels.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct BookDiff {
    /// This diff's sequence number.
    pub seq: u64,
    /// The sequence number it applies on top of (`seq − 1`).
    pub prev_seq: u64,
    /// Changed bid levels.
    pub bids: Vec<Level>,
    /// Changed ask levels.
    pub asks: Vec<Level>,
    /// Time, epoch milliseconds.
    pub ts: i64,
}

/// A pair's simulated book.
pub struct SimBook {
    bids: BTreeMap<Decimal, Decimal>,
    asks: BTreeMap<Decimal, Decimal>,
    seq: u64,
    spacing: Decimal,
    step: Decimal,
    ts: i64,
}

impl SimBook {
    /// A book around `price` with levels every basis point of it (on the tick grid).
    pub fn new(price: Decimal, tick: Decimal, step: Decimal) -> Self {
        let raw = (price * SPACING_SHARE).max(tick);
        let spacing = if tick > Decimal::ZERO {
            ((raw / tick).round_dp_with_strategy(0, RoundingStrategy::AwayFromZero) * tick)
                .normalize()
        } else {
            raw
        };
        Self {
            bids: BTreeMap::new(),
            asks: BTreeMap::new(),
            seq: 0,
            spacing,
            step,
            ts: 0,
        }
    }

    /// The grid spacing between two levels.
    pub fn spacing(&self) -> Decimal {
        self.spacing
    }

    /// Re-centres the ladder on `price` at `ts` and returns what changed, numbered.
    pub fn update(&mut self, price: Decimal, ts: i64, rng: &mut ChaCha8Rng) -> BookDiff {
        let spacing = self.spacing;
        // The highest grid price strictly below `price`, and the lowest strictly above.
        let mut best_bid = (price / spacing).floor() * spacing;
        if best_bid >= price {
            best_bid -= spacing;
        }
        let best_ask = best_bid
            + spacing
            + if best_bid + spacing <= price {
                spacing
            } else {
                Decimal::ZERO
            };
        let mut bid_changes = Vec::new();
        let mut ask_changes = Vec::new();
        let wanted_bids: Vec<Decimal> = (0..BOOK_LEVELS)
            .map(|i| best_bid - spacing * Decimal::from(i))
            .filter(|p| *p > Decimal::ZERO)
            .collect();
        let wanted_asks: Vec<Decimal> = (0..BOOK_LEVELS)
            .map(|i| best_ask + spacing * Decimal::from(i))
            .collect();
        Self::reshape(
            &mut self.bids,
            &wanted_bids,
            price,
            self.step,
            rng,
            &mut bid_changes,
        );
        Self::reshape(
            &mut self.asks,
            &wanted_asks,
            price,
            self.step,
            rng,
            &mut ask_changes,
        );
        self.seq += 1;
        self.ts = ts;
        BookDiff {
            seq: self.seq,
            prev_seq: self.seq - 1,
            bids: bid_changes,
            asks: ask_changes,
            ts,
        }
    }

    /// Makes `side` hold exactly `wanted` (in order from the touch), redrawing some sizes; records
    /// every change.
    fn reshape(
        side: &mut BTreeMap<Decimal, Decimal>,
        wanted: &[Decimal],
        price: Decimal,
        step: Decimal,
        rng: &mut ChaCha8Rng,
        changes: &mut Vec<Level>,
    ) {
        let stale: Vec<Decimal> = side
            .keys()
            .filter(|p| !wanted.contains(p))
            .copied()
            .collect();
        for gone in stale {
            side.remove(&gone);
            changes.push(Level {
                price: gone,
                quantity: Decimal::ZERO,
            });
        }
        for (distance, level) in wanted.iter().enumerate() {
            let redraw = match side.get(level) {
                None => true,
                Some(_) => rng.random::<f64>() < RESIZE_CHANCE,
            };
            if redraw {
                let quantity = level_quantity(distance, price, step, rng);
                side.insert(*level, quantity);
                changes.push(Level {
                    price: *level,
                    quantity,
                });
            }
        }
    }

    /// The whole book now.
    pub fn snapshot(&self) -> BookSnapshot {
        BookSnapshot {
            seq: self.seq,
            bids: self
                .bids
                .iter()
                .rev()
                .map(|(p, q)| Level {
                    price: *p,
                    quantity: *q,
                })
                .collect(),
            asks: self
                .asks
                .iter()
                .map(|(p, q)| Level {
                    price: *p,
                    quantity: *q,
                })
                .collect(),
            ts: self.ts,
        }
    }
}

/// A resting size `distance` levels from the touch: log-normal around a quote size that grows away
/// from the touch, on the quantity step and at least one step.
fn level_quantity(distance: usize, price: Decimal, step: Decimal, rng: &mut ChaCha8Rng) -> Decimal {
    let u1: f64 = rng.random::<f64>().max(f64::MIN_POSITIVE);
    let u2: f64 = rng.random();
    let normal = (-2.0 * u1.ln()).sqrt() * (std::f64::consts::TAU * u2).cos();
    let quote = TOUCH_QUOTE * (1.0 + distance as f64 / 8.0) * (0.7 * normal).exp();
    let quantity =
        Decimal::try_from(quote).unwrap_or(Decimal::ONE) / price.max(Decimal::new(1, 12));
    super::simulator::round_to_step(quantity, step).max(step)
}

#[cfg(test)]
mod tests {
    use rand::SeedableRng;
    use rust_decimal_macros::dec;

    use super::*;

    #[test]
    fn the_market_maker_quotes_as_many_levels_as_the_book_has_by_default() {
        assert_eq!(
            crate::config::TradingConfig::default().market_maker_levels,
            BOOK_LEVELS
        );
    }

    fn rng() -> ChaCha8Rng {
        ChaCha8Rng::seed_from_u64(7)
    }

    #[test]
    fn the_ladder_straddles_the_price_on_the_grid() {
        let mut book = SimBook::new(dec!(67000), dec!(0.01), dec!(0.00001));
        assert_eq!(book.spacing(), dec!(6.7));
        book.update(dec!(67003.12), 1, &mut rng());
        let snapshot = book.snapshot();
        assert_eq!(snapshot.bids.len(), BOOK_LEVELS);
        assert_eq!(snapshot.asks.len(), BOOK_LEVELS);
        let best_bid = snapshot.bids[0].price;
        let best_ask = snapshot.asks[0].price;
        assert!(best_bid < dec!(67003.12) && dec!(67003.12) < best_ask);
        assert_eq!(best_ask - best_bid, dec!(6.7));
        assert!(snapshot.bids.windows(2).all(|w| w[0].price > w[1].price));
        assert!(snapshot.asks.windows(2).all(|w| w[0].price < w[1].price));
        for level in snapshot.bids.iter().chain(&snapshot.asks) {
            assert!(level.quantity >= dec!(0.00001));
            assert_eq!((level.price / dec!(0.01)).fract(), Decimal::ZERO);
        }
    }

    #[test]
    fn diffs_applied_to_a_snapshot_give_the_next_snapshot() {
        let mut rng = rng();
        let mut book = SimBook::new(dec!(2.5), dec!(0.0001), dec!(0.1));
        book.update(dec!(2.5), 1, &mut rng);
        let mut client = book.snapshot();
        for (i, price) in [dec!(2.5003), dec!(2.4991), dec!(2.4991), dec!(2.61)]
            .into_iter()
            .enumerate()
        {
            let diff = book.update(price, 2 + i as i64, &mut rng);
            assert_eq!(diff.prev_seq + 1, diff.seq);
            client = client.apply(&diff).expect("diffs follow each other");
            assert_eq!(client, book.snapshot());
        }
    }

    #[test]
    fn a_missed_diff_is_detected() {
        let mut rng = rng();
        let mut book = SimBook::new(dec!(100), dec!(0.01), dec!(0.001));
        book.update(dec!(100), 1, &mut rng);
        let client = book.snapshot();
        book.update(dec!(100.2), 2, &mut rng);
        let second = book.update(dec!(100.4), 3, &mut rng);
        assert_eq!(client.apply(&second), None);
    }

    #[test]
    fn a_still_price_changes_only_some_sizes() {
        let mut rng = rng();
        let mut book = SimBook::new(dec!(100), dec!(0.01), dec!(0.001));
        book.update(dec!(100), 1, &mut rng);
        let diff = book.update(dec!(100), 2, &mut rng);
        let changed = diff.bids.len() + diff.asks.len();
        assert!(changed > 0 && changed < BOOK_LEVELS, "{changed}");
        assert!(
            diff.bids
                .iter()
                .chain(&diff.asks)
                .all(|l| !l.quantity.is_zero())
        );
    }

    #[test]
    fn levels_serialise_as_string_pairs() {
        let level = Level {
            price: dec!(1.50),
            quantity: dec!(2),
        };
        assert_eq!(serde_json::to_string(&level).unwrap(), r#"["1.50","2"]"#);
    }

    #[test]
    fn a_diff_between_two_snapshots_applies_back_to_the_second() {
        let level = |price: i64, quantity: i64| Level {
            price: Decimal::from(price),
            quantity: Decimal::from(quantity),
        };
        let before = BookSnapshot {
            seq: 7,
            bids: vec![level(100, 1), level(99, 2)],
            asks: vec![level(101, 1), level(102, 5)],
            ts: 1,
        };
        let after = BookSnapshot {
            seq: 8,
            bids: vec![level(100, 3), level(98, 1)],
            asks: vec![level(102, 5)],
            ts: 2,
        };
        let diff = before.diff_to(&after);
        assert_eq!((diff.seq, diff.prev_seq), (8, 7));
        assert_eq!(diff.asks, vec![level(101, 0)]);
        assert_eq!(before.apply(&diff), Some(after));
    }
}
