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
        BookDiff {
            seq: next.seq,
            prev_seq: self.seq,
            bids: side_changes(&self.bids, &next.bids, Side::Bids),
            asks: side_changes(&self.asks, &next.asks, Side::Asks),
            ts: next.ts,
        }
    }

    /// This snapshot with `diff` applied (what a client does); `None` when `diff` does not follow it.
    pub fn apply(&self, diff: &BookDiff) -> Option<BookSnapshot> {
        if diff.prev_seq != self.seq {
            return None;
        }
        Some(BookSnapshot {
            seq: diff.seq,
            bids: side_applied(&self.bids, &diff.bids, Side::Bids),
            asks: side_applied(&self.asks, &diff.asks, Side::Asks),
            ts: diff.ts,
        })
    }
}

/// A side of a book, by the order of its levels: bids from the highest price, asks from the
/// lowest. The diffs and their application walk both sides' levels once, in that order, instead
/// of rebuilding a sorted map of the whole book for every diff (each instance of a cluster applies
/// every diff of every pair).
#[derive(Clone, Copy)]
enum Side {
    Bids,
    Asks,
}

impl Side {
    /// How `a` and `b` compare in this side's order (`Less`: `a` comes first, nearer the touch).
    fn order(self, a: &Decimal, b: &Decimal) -> std::cmp::Ordering {
        match self {
            Side::Bids => b.cmp(a),
            Side::Asks => a.cmp(b),
        }
    }
}

/// The changes that turn `before` into `after`, one side, both in `side`'s order: the levels of
/// `after` new or resized (in its order), then those gone from it with quantity 0 (in `before`'s).
fn side_changes(before: &[Level], after: &[Level], side: Side) -> Vec<Level> {
    use std::cmp::Ordering::{Equal, Greater, Less};
    let mut changed = Vec::new();
    let mut gone = Vec::new();
    let (mut old, mut new) = (before.iter().peekable(), after.iter().peekable());
    loop {
        match (old.peek(), new.peek()) {
            (Some(was), Some(is)) => match side.order(&was.price, &is.price) {
                Less => {
                    gone.push(Level {
                        price: was.price,
                        quantity: Decimal::ZERO,
                    });
                    old.next();
                }
                Greater => {
                    changed.push(**is);
                    new.next();
                }
                Equal => {
                    if was.quantity != is.quantity {
                        changed.push(**is);
                    }
                    old.next();
                    new.next();
                }
            },
            (Some(was), None) => {
                gone.push(Level {
                    price: was.price,
                    quantity: Decimal::ZERO,
                });
                old.next();
            }
            (None, Some(is)) => {
                changed.push(**is);
                new.next();
            }
            (None, None) => break,
        }
    }
    changed.extend(gone);
    changed
}

/// `levels` (one side, in `side`'s order) with `changes` applied: a change sets its price's
/// quantity (0 removes the level; of two changes of one price the later counts), a level resized
/// keeps its price as it was written.
fn side_applied(levels: &[Level], changes: &[Level], side: Side) -> Vec<Level> {
    let mut changes = changes.to_vec();
    // Stable: of equal prices the later change stays last, and wins below.
    changes.sort_by(|a, b| side.order(&a.price, &b.price));
    let mut out = Vec::with_capacity(levels.len() + changes.len());
    let mut rest = levels;
    for (i, change) in changes.iter().enumerate() {
        if changes
            .get(i + 1)
            .is_some_and(|next| next.price == change.price)
        {
            continue;
        }
        let nearer = rest
            .iter()
            .take_while(|level| side.order(&level.price, &change.price).is_lt())
            .count();
        out.extend_from_slice(&rest[..nearer]);
        rest = &rest[nearer..];
        let price = match rest.first() {
            Some(level) if level.price == change.price => {
                rest = &rest[1..];
                level.price
            }
            _ => change.price,
        };
        if !change.quantity.is_zero() {
            out.push(Level {
                price,
                quantity: change.quantity,
            });
        }
    }
    out.extend_from_slice(rest);
    out
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

    /// The map every level passes through: what the linear walks of [`side_changes`] and
    /// [`side_applied`] must agree with.
    fn by_price(levels: &[Level]) -> BTreeMap<Decimal, Decimal> {
        levels.iter().map(|l| (l.price, l.quantity)).collect()
    }

    fn random_side(rng: &mut ChaCha8Rng, side: Side) -> Vec<Level> {
        let mut prices: Vec<Decimal> = (0..rng.random_range(0..40))
            .map(|_| Decimal::new(rng.random_range(1..60), 1))
            .collect();
        prices.sort_by(|a, b| side.order(a, b));
        prices.dedup();
        prices
            .into_iter()
            .map(|price| Level {
                price,
                quantity: Decimal::new(rng.random_range(1..4), 0),
            })
            .collect()
    }

    #[test]
    fn diffs_and_their_application_agree_with_a_map_of_every_level() {
        let mut rng = rng();
        for _ in 0..2_000 {
            for side in [Side::Bids, Side::Asks] {
                let before = random_side(&mut rng, side);
                let after = random_side(&mut rng, side);
                let changes = side_changes(&before, &after, side);
                let prices: Vec<Decimal> = changes.iter().map(|l| l.price).collect();
                assert_eq!(prices.len(), by_price(&changes).len(), "one change a price");
                let (old, new) = (by_price(&before), by_price(&after));
                for change in &changes {
                    assert_ne!(
                        old.get(&change.price),
                        new.get(&change.price).or(Some(&Decimal::ZERO))
                    );
                    assert_eq!(
                        change.quantity,
                        new.get(&change.price).copied().unwrap_or_default()
                    );
                }
                assert_eq!(side_applied(&before, &changes, side), after);
                // Changes in any order, a price changed twice: the later change counts.
                let mut shuffled = changes.clone();
                shuffled.reverse();
                if let Some(first) = before.first() {
                    shuffled.insert(
                        0,
                        Level {
                            price: first.price,
                            quantity: dec!(9),
                        },
                    );
                    shuffled.push(Level {
                        price: first.price,
                        quantity: new.get(&first.price).copied().unwrap_or_default(),
                    });
                }
                assert_eq!(side_applied(&before, &shuffled, side), after);
            }
        }
    }

    #[test]
    fn a_resized_level_keeps_its_price_as_written() {
        let levels = [Level {
            price: dec!(1.50),
            quantity: dec!(1),
        }];
        let changes = [Level {
            price: dec!(1.5),
            quantity: dec!(2),
        }];
        let applied = side_applied(&levels, &changes, Side::Asks);
        assert_eq!(applied[0].price.to_string(), "1.50");
        assert_eq!(applied[0].quantity, dec!(2));
    }
}
