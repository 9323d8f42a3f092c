//! Matching engine benchmark (`cargo bench -p matching --bench engine`, run by
//! `scripts/bench-engine.sh`): the same pre-generated, seeded, mixed workload — 60% limit orders
//! (about 15% of them marketable), 30% cancels of random resting orders, 10% market orders — run on
//! [`matching::Book`] and, side by side in the same process, on the `lobster` crate (a single-threaded
//! limit order book from crates.io, integer prices and quantities, arena + `BTreeMap` levels) through a
//! thin adapter. Three workloads: limit prices near the touch (±50 ticks); spread wide (±2,000
//! ticks, thousands of levels); and a far ladder (100,000 orders each opening a level behind all the
//! others, then cancelled), the worst case for levels in a sorted `Vec`.
//!
//! Each repetition runs both engines (alternating which goes first) from a book pre-filled with the
//! same 10,000 resting orders (not timed; the ladder starts empty); only the 1,000,000 operations
//! (200,000 for the ladder) are timed. The workload is
//! generated before any timing, with `Book` as the oracle for which orders are resting when a cancel
//! is drawn. Owners are distinct per order, so self-trade prevention (which lobster lacks) never
//! applies and both engines must produce the same fills: each run compares the number of fills, the
//! lots traded and the final depth, and a difference fails the run.
//!
//! Prints a table and one `RESULT {json}` line per engine and workload for
//! `scripts/bench-engine.sh`. No criterion: a small harness (warm-up, N repetitions, median and
//! minimum, `black_box`), as in `wasm-core/benches/kline.rs`.

use std::alloc::{GlobalAlloc, Layout, System};
use std::collections::HashMap;
use std::hint::black_box;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use matching::{Book, DepthLevels, Event, OrderRequest, Side};

const PREFILL: usize = 10_000;
const OPS: usize = 1_000_000;
const REPETITIONS: usize = 11;
const START_MID: u64 = 1_000_000;
/// More levels than any workload opens.
const ALL_LEVELS: usize = 200_000;
/// Orders (and levels) of the far-ladder case.
const LADDER_LEVELS: usize = 100_000;

/// splitmix64: small, seeded, good enough for a workload.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in `0..n` (n > 0).
    fn below(&mut self, n: u64) -> u64 {
        ((u128::from(self.next()) * u128::from(n)) >> 64) as u64
    }
}

/// One operation of the workload, in the book's units.
#[derive(Clone, Copy, Debug)]
enum Op {
    Limit {
        id: u64,
        side: Side,
        price: u64,
        quantity: u64,
    },
    Market {
        id: u64,
        side: Side,
        quantity: u64,
    },
    Cancel {
        id: u64,
    },
}

/// The shape of a workload.
#[derive(Clone, Copy, Debug)]
struct Shape {
    name: &'static str,
    /// Passive limit prices lie up to this many ticks behind the touch, skewed towards it.
    spread: u64,
    seed: u64,
}

/// A workload: the pre-fill and the timed operations, with a few figures about them.
struct Workload {
    name: &'static str,
    prefill: Vec<Op>,
    ops: Vec<Op>,
    limits: usize,
    marketable: usize,
    cancels: usize,
    markets: usize,
    resting_at_end: usize,
    levels_at_end: (usize, usize),
    /// What the operations are, for the report.
    description: String,
}

/// The resting orders' ids, for drawing a random one to cancel in O(1).
#[derive(Default)]
struct Live {
    ids: Vec<u64>,
    position: HashMap<u64, usize>,
}

impl Live {
    fn add(&mut self, id: u64) {
        self.position.insert(id, self.ids.len());
        self.ids.push(id);
    }

    fn remove(&mut self, id: u64) {
        if let Some(index) = self.position.remove(&id) {
            self.ids.swap_remove(index);
            if let Some(&moved) = self.ids.get(index) {
                self.position.insert(moved, index);
            }
        }
    }

    fn follow(&mut self, events: &[Event]) {
        for event in events {
            match *event {
                Event::Rested { id, .. } => self.add(id),
                Event::Fill {
                    maker,
                    maker_remaining: 0,
                    ..
                } => self.remove(maker),
                Event::Cancelled { id, .. } => self.remove(id),
                _ => {}
            }
        }
    }
}

fn generate(shape: Shape) -> Workload {
    let mut rng = Rng(shape.seed);
    let mut oracle = Book::new();
    let mut live = Live::default();
    let mut events = Vec::new();
    let mut mid = START_MID;
    let mut workload = Workload {
        name: shape.name,
        description: format!("limits ±{} ticks, drawn near the touch", shape.spread),
        prefill: Vec::with_capacity(PREFILL),
        ops: Vec::with_capacity(OPS),
        limits: 0,
        marketable: 0,
        cancels: 0,
        markets: 0,
        resting_at_end: 0,
        levels_at_end: (0, 0),
    };
    let side = |rng: &mut Rng| {
        if rng.below(2) == 0 {
            Side::Buy
        } else {
            Side::Sell
        }
    };
    for index in 0..PREFILL + OPS {
        let timed = index >= PREFILL;
        let next_id = index as u64 + 1;
        // The mid drifts a tick now and then, so levels open and empty at both ends.
        if rng.below(64) == 0 {
            mid = if rng.below(2) == 0 { mid + 1 } else { mid - 1 };
        }
        let draw = if timed { rng.below(100) } else { 0 };
        let op = if draw < 60 {
            let side = side(&mut rng);
            let quantity = 1 + rng.below(100);
            let marketable = timed && rng.below(100) < 15;
            let price = if marketable {
                workload.marketable += 1;
                match side {
                    Side::Buy => mid + rng.below(5),
                    Side::Sell => mid - rng.below(5),
                }
            } else {
                // The nearer of two draws: more orders near the touch than far from it.
                let behind = rng.below(shape.spread).min(rng.below(shape.spread));
                match side {
                    Side::Buy => mid - 1 - behind,
                    Side::Sell => mid + 1 + behind,
                }
            };
            workload.limits += usize::from(timed);
            Op::Limit {
                id: next_id,
                side,
                price,
                quantity,
            }
        } else if draw < 90 && !live.ids.is_empty() {
            workload.cancels += 1;
            let index = rng.below(live.ids.len() as u64) as usize;
            Op::Cancel {
                id: live.ids[index],
            }
        } else {
            workload.markets += 1;
            Op::Market {
                id: next_id,
                side: side(&mut rng),
                quantity: 1 + rng.below(200),
            }
        };
        events.clear();
        apply(&mut oracle, op, &mut events);
        live.follow(&events);
        if timed {
            workload.ops.push(op);
        } else {
            workload.prefill.push(op);
        }
    }
    workload.resting_at_end = oracle.len();
    workload.levels_at_end = oracle.level_count();
    workload
}

/// The far-ladder case: `LADDER_LEVELS` limit orders, each one tick further from the touch than all
/// before it (bids and asks in turn), then all of them cancelled in random order. Every order opens a
/// level behind every other, the worst case for a sorted `Vec` of levels.
fn ladder() -> Workload {
    let mut rng = Rng(0x5EED_0003);
    let mut ops = Vec::with_capacity(2 * LADDER_LEVELS);
    for index in 0..LADDER_LEVELS as u64 {
        let id = index + 1;
        let (side, price) = if index % 2 == 0 {
            (Side::Buy, START_MID - 1 - index / 2)
        } else {
            (Side::Sell, START_MID + 1 + index / 2)
        };
        ops.push(Op::Limit {
            id,
            side,
            price,
            quantity: 1 + rng.below(100),
        });
    }
    let mut ids: Vec<u64> = (1..=LADDER_LEVELS as u64).collect();
    for index in (1..ids.len()).rev() {
        ids.swap(index, rng.below(index as u64 + 1) as usize);
    }
    ops.extend(ids.into_iter().map(|id| Op::Cancel { id }));
    Workload {
        name: "ladder",
        description: format!(
            "{LADDER_LEVELS} orders each opening a level behind all others, then cancelled at random"
        ),
        prefill: Vec::new(),
        limits: LADDER_LEVELS,
        marketable: 0,
        cancels: LADDER_LEVELS,
        markets: 0,
        resting_at_end: 0,
        levels_at_end: (0, 0),
        ops,
    }
}

fn apply(book: &mut Book, op: Op, events: &mut Vec<Event>) {
    match op {
        Op::Limit {
            id,
            side,
            price,
            quantity,
        } => book.place(
            OrderRequest::limit(id, id as i64, side, price, quantity),
            events,
        ),
        Op::Market { id, side, quantity } => {
            book.place(OrderRequest::market(id, id as i64, side, quantity), events)
        }
        Op::Cancel { id } => events.extend(book.cancel(id)),
    }
}

/// What a run produced, compared between the engines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Outcome {
    fills: u64,
    lots: u64,
    /// Every level, best first: (bids, asks).
    depth: (DepthLevels, DepthLevels),
    /// Heap allocations during the timed operations (counted in the warm-up run only; not compared).
    allocations: u64,
}

impl Outcome {
    /// Whether two runs did the same trading (allocations aside).
    fn same_as(&self, other: &Outcome) -> bool {
        (self.fills, self.lots, &self.depth) == (other.fills, other.lots, &other.depth)
    }
}

/// An engine under test: built and pre-filled outside the timing, then the timed operations.
trait Engine {
    const NAME: &'static str;
    /// Runs the workload; with `count`, also counts the heap allocations of the timed operations
    /// (only in the warm-up run, so the timed runs pay nothing for it).
    fn run(workload: &Workload, count: bool) -> (Duration, Outcome);
}

/// The system allocator, counting allocations while `COUNTING` is set.
struct CountingAllocator;

static COUNTING: AtomicBool = AtomicBool::new(false);
static ALLOCATIONS: AtomicU64 = AtomicU64::new(0);

// SAFETY: every call is passed on to the system allocator unchanged.
unsafe impl GlobalAlloc for CountingAllocator {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.alloc(layout) }
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        unsafe { System.dealloc(ptr, layout) }
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        if COUNTING.load(Ordering::Relaxed) {
            ALLOCATIONS.fetch_add(1, Ordering::Relaxed);
        }
        unsafe { System.realloc(ptr, layout, new_size) }
    }
}

#[global_allocator]
static ALLOCATOR: CountingAllocator = CountingAllocator;

/// Starts counting allocations (when `count`).
fn count_from_here(count: bool) {
    ALLOCATIONS.store(0, Ordering::Relaxed);
    COUNTING.store(count, Ordering::Relaxed);
}

/// Stops counting; the allocations since [`count_from_here`].
fn allocations_so_far() -> u64 {
    COUNTING.store(false, Ordering::Relaxed);
    ALLOCATIONS.load(Ordering::Relaxed)
}

struct Matching;

impl Engine for Matching {
    const NAME: &'static str = "matching::Book";

    fn run(workload: &Workload, count: bool) -> (Duration, Outcome) {
        let mut book = Book::new();
        let mut events = Vec::with_capacity(64);
        for &op in &workload.prefill {
            events.clear();
            apply(&mut book, op, &mut events);
        }
        let mut outcome = Outcome::default();
        count_from_here(count);
        let start = Instant::now();
        for &op in &workload.ops {
            events.clear();
            apply(&mut book, black_box(op), &mut events);
            for event in &events {
                if let Event::Fill { quantity, .. } = *event {
                    outcome.fills += 1;
                    outcome.lots += quantity;
                }
            }
        }
        let elapsed = start.elapsed();
        outcome.allocations = allocations_so_far();
        outcome.depth = book.depth(ALL_LEVELS);
        (elapsed, outcome)
    }
}

struct Lobster;

fn lobster_side(side: Side) -> lobster::Side {
    match side {
        Side::Buy => lobster::Side::Bid,
        Side::Sell => lobster::Side::Ask,
    }
}

fn lobster_order(op: Op) -> lobster::OrderType {
    match op {
        Op::Limit {
            id,
            side,
            price,
            quantity,
        } => lobster::OrderType::Limit {
            id: u128::from(id),
            side: lobster_side(side),
            qty: quantity,
            price,
        },
        Op::Market { id, side, quantity } => lobster::OrderType::Market {
            id: u128::from(id),
            side: lobster_side(side),
            qty: quantity,
        },
        Op::Cancel { id } => lobster::OrderType::Cancel { id: u128::from(id) },
    }
}

impl Engine for Lobster {
    const NAME: &'static str = "lobster 0.7.0";

    fn run(workload: &Workload, count: bool) -> (Duration, Outcome) {
        let mut book = lobster::OrderBook::default();
        for &op in &workload.prefill {
            black_box(book.execute(lobster_order(op)));
        }
        let mut outcome = Outcome::default();
        count_from_here(count);
        let start = Instant::now();
        for &op in &workload.ops {
            let event = book.execute(lobster_order(black_box(op)));
            if let lobster::OrderEvent::Filled { fills, .. }
            | lobster::OrderEvent::PartiallyFilled { fills, .. } = &event
            {
                for fill in fills {
                    outcome.fills += 1;
                    outcome.lots += fill.qty;
                }
            }
            black_box(event);
        }
        let elapsed = start.elapsed();
        outcome.allocations = allocations_so_far();
        // lobster lists every level ascending by price (bids too), whatever the count asked for, but
        // reserves that count first.
        let depth = book.depth(ALL_LEVELS);
        let levels = |levels: Vec<lobster::BookLevel>| {
            levels.into_iter().map(|level| (level.price, level.qty))
        };
        outcome.depth = (
            levels(depth.bids).rev().collect(),
            levels(depth.asks).collect(),
        );
        (elapsed, outcome)
    }
}

fn median(times: &mut [Duration]) -> Duration {
    times.sort();
    times[times.len() / 2]
}

fn ms(duration: Duration) -> f64 {
    duration.as_secs_f64() * 1e3
}

fn main() {
    let workloads: [&dyn Fn() -> Workload; 3] = [
        &|| {
            generate(Shape {
                name: "touch",
                spread: 50,
                seed: 0x5EED_0001,
            })
        },
        &|| {
            generate(Shape {
                name: "wide",
                spread: 2_000,
                seed: 0x5EED_0002,
            })
        },
        &ladder,
    ];
    let mut failed = false;
    for make in workloads {
        let started = Instant::now();
        let workload = make();
        let generated = started.elapsed();
        println!(
            "\nworkload {}: {} timed operations after {} resting orders ({})",
            workload.name,
            workload.ops.len(),
            workload.prefill.len(),
            workload.description
        );
        println!(
            "  {} limit orders ({} marketable), {} cancels, {} market orders; {} orders on {} + {} levels at the end (generated in {:.0} ms)",
            workload.limits,
            workload.marketable,
            workload.cancels,
            workload.markets,
            workload.resting_at_end,
            workload.levels_at_end.0,
            workload.levels_at_end.1,
            ms(generated)
        );
        // Warm-up: one run each (also the reference outcome).
        let (_, expected) = Matching::run(&workload, true);
        let (_, lobster_outcome) = Lobster::run(&workload, true);
        if !lobster_outcome.same_as(&expected) {
            println!(
                "CHECK {{\"workload\":\"{}\",\"same\":false}} matching {} fills / {} lots, lobster {} fills / {} lots",
                workload.name,
                expected.fills,
                expected.lots,
                lobster_outcome.fills,
                lobster_outcome.lots
            );
            failed = true;
            continue;
        }
        println!(
            "  both engines: {} fills, {} lots traded, same final depth ({} bid and {} ask levels)",
            expected.fills,
            expected.lots,
            expected.depth.0.len(),
            expected.depth.1.len()
        );
        println!(
            "  heap allocations during the timed operations: matching::Book {}, lobster {}",
            expected.allocations, lobster_outcome.allocations
        );
        let mut ours = Vec::with_capacity(REPETITIONS);
        let mut theirs = Vec::with_capacity(REPETITIONS);
        for repetition in 0..REPETITIONS {
            let mut run_ours = || {
                let (time, outcome) = Matching::run(&workload, false);
                assert!(
                    outcome.same_as(&expected),
                    "matching::Book gave different fills between runs"
                );
                ours.push(time);
            };
            let mut run_theirs = || {
                let (time, outcome) = Lobster::run(&workload, false);
                assert!(
                    outcome.same_as(&expected),
                    "lobster gave different fills between runs"
                );
                theirs.push(time);
            };
            if repetition % 2 == 0 {
                run_ours();
                run_theirs();
            } else {
                run_theirs();
                run_ours();
            }
        }
        println!(
            "  {:<16} {:>10} {:>10} {:>14} {:>9}",
            "engine", "median ms", "min ms", "ops/s (median)", "ns/op"
        );
        let ops = workload.ops.len() as f64;
        let mut rates = Vec::new();
        for (name, times, allocations) in [
            (Matching::NAME, &mut ours, expected.allocations),
            (Lobster::NAME, &mut theirs, lobster_outcome.allocations),
        ] {
            let median = median(times);
            let min = times[0];
            let rate = ops / median.as_secs_f64();
            rates.push(rate);
            println!(
                "  {:<16} {:>10.1} {:>10.1} {:>14.0} {:>9.1}",
                name,
                ms(median),
                ms(min),
                rate,
                median.as_secs_f64() * 1e9 / ops
            );
            println!(
                "RESULT {{\"workload\":\"{}\",\"engine\":\"{}\",\"ops\":{},\"median_ms\":{:.3},\"min_ms\":{:.3},\"ops_per_s\":{:.0},\"allocations\":{}}}",
                workload.name,
                name,
                workload.ops.len(),
                ms(median),
                ms(min),
                rate,
                allocations
            );
        }
        println!(
            "  matching::Book / lobster: {:.2}× the operations per second",
            rates[0] / rates[1]
        );
        println!(
            "RATIO {{\"workload\":\"{}\",\"matching_over_lobster\":{:.3}}}",
            workload.name,
            rates[0] / rates[1]
        );
    }
    if failed {
        eprintln!("the engines disagree: see the CHECK lines");
        std::process::exit(1);
    }
}
