//! Liquidation checks per mark tick with many open positions (`make bench-futures`; figures in
//! docs/benchmarks.md): the futures engine's price-trigger index (`futures::index::TriggerIndex`, a
//! range query per tick) against a naive full scan of every position, side by side on the same
//! positions and the same mark path in one run.
//!
//! Setup: `POSITIONS` (100,000) BTCUSDT positions, long and short, isolated and cross, 0.001 to 2
//! BTC, entries within ±3 % of 50,000, leverage 2x to 100x; each liquidation price is wasm-core's
//! (`liquidation_price_in`, the function the engine stores). A tick moves the mark by a seeded
//! random walk (±0.05 % a tick, mean-reverting to 50,000); what a tick crosses is taken out of both
//! structures (liquidated), as the engine does.
//!
//! Measured per tick, `TICKS` ticks after a warm-up, alternating the two methods every tick:
//! - `index`: `crossed_into(mark)` — the engine's own query;
//! - `scan`: every position's stored liquidation price compared with the mark (`Direction::fires`),
//!   the cheapest full scan there is (no recomputation at all).
//!
//! Both must find the same positions on every tick, or the run fails.

use std::collections::HashMap;
use std::hint::black_box;
use std::time::{Duration, Instant};

use backend::config::FuturesConfig;
use backend::futures::index::{Direction, TriggerIndex};
use rand::{RngExt, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rust_decimal::Decimal;
use wasm_core::margin::{MarginMode, Position, Side, TierTable, liquidation_price_in};

fn main() {
    let positions: usize = std::env::var("POSITIONS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(100_000);
    let ticks: usize = std::env::var("TICKS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(2_000);
    let tiers = TierTable::new(FuturesConfig::default_tiers(Decimal::ONE)).expect("tiers");
    let tick_size = Decimal::new(1, 2);
    let mut rng = ChaCha8Rng::seed_from_u64(20_261_127);

    // The positions and their wasm-core liquidation prices.
    let setup = Instant::now();
    let mut index: TriggerIndex<u32> = TriggerIndex::new();
    let mut scan: HashMap<u32, (Direction, Decimal)> = HashMap::with_capacity(positions);
    let mut none = 0usize;
    for id in 0..positions as u32 {
        let side = if rng.random_bool(0.5) {
            Side::Long
        } else {
            Side::Short
        };
        let size = Decimal::new(rng.random_range(1..=2_000), 3);
        let entry = Decimal::new(rng.random_range(4_850_000..=5_150_000), 2);
        let leverage = Decimal::from(rng.random_range(2..=100));
        let cross = rng.random_bool(0.3);
        let margin = (size * entry / leverage).round_dp(8);
        let position = Position {
            side,
            size,
            entry_price: entry,
            leverage,
            margin_mode: if cross {
                MarginMode::Cross
            } else {
                MarginMode::Isolated
            },
            // A cross wallet holding one to three times the position's initial margin.
            wallet_balance: if cross {
                margin * Decimal::from(rng.random_range(1..=3))
            } else {
                margin
            },
            other_maintenance_margin: cross.then_some(Decimal::ZERO),
            other_unrealized_pnl: cross.then_some(Decimal::ZERO),
        };
        let direction = match side {
            Side::Long => Direction::Below,
            Side::Short => Direction::Above,
        };
        match liquidation_price_in(&tiers, &position, Some(tick_size)).expect("priced") {
            Some(price) => {
                index.set(id, direction, Some(price));
                scan.insert(id, (direction, price));
            }
            None => none += 1,
        }
    }
    let setup = setup.elapsed();

    // The mark path.
    let centre = 50_000.0f64;
    let mut mark = centre;
    let mut path = Vec::with_capacity(ticks + 200);
    for _ in 0..ticks + 200 {
        let step: f64 = rng.random_range(-0.0005..0.0005);
        mark = mark * (1.0 + step) + (centre - mark) * 0.01;
        path.push(Decimal::from_f64_retain(mark).unwrap().round_dp(2));
    }

    let mut index_times = Vec::with_capacity(ticks);
    let mut scan_times = Vec::with_capacity(ticks);
    let mut crossed = Vec::new();
    let mut scanned = Vec::new();
    let mut liquidated = 0usize;
    for (n, mark) in path.iter().copied().enumerate() {
        // Alternate which method runs first, so neither always finds the cache warm.
        let index_first = n % 2 == 0;
        let run_index = |crossed: &mut Vec<u32>| {
            let start = Instant::now();
            index.crossed_into(black_box(mark), crossed);
            start.elapsed()
        };
        let run_scan = |scanned: &mut Vec<u32>| {
            let start = Instant::now();
            scanned.clear();
            for (id, (direction, price)) in &scan {
                if direction.fires(*price, black_box(mark)) {
                    scanned.push(*id);
                }
            }
            start.elapsed()
        };
        let (index_time, scan_time) = if index_first {
            let i = run_index(&mut crossed);
            (i, run_scan(&mut scanned))
        } else {
            let s = run_scan(&mut scanned);
            (run_index(&mut crossed), s)
        };
        crossed.sort_unstable();
        scanned.sort_unstable();
        assert_eq!(
            crossed, scanned,
            "the index and the scan disagree at {mark}"
        );
        for id in &crossed {
            index.remove(*id);
            scan.remove(id);
        }
        liquidated += crossed.len();
        if n >= 200 {
            index_times.push(index_time);
            scan_times.push(scan_time);
        }
    }

    let stats = |times: &mut Vec<Duration>| {
        times.sort_unstable();
        let median = times[times.len() / 2];
        let p99 = times[times.len() * 99 / 100];
        let mean = times.iter().sum::<Duration>() / times.len() as u32;
        (median, p99, mean)
    };
    let (index_median, index_p99, index_mean) = stats(&mut index_times);
    let (scan_median, scan_p99, scan_mean) = stats(&mut scan_times);
    println!("positions: {positions} ({none} without a liquidation price), ticks: {ticks}");
    println!("setup (wasm-core liquidation prices + index): {setup:?}");
    println!(
        "liquidated along the path: {liquidated}, still open: {}",
        index.len()
    );
    println!(
        "index: median {:?}, p99 {:?}, mean {:?} per tick",
        index_median, index_p99, index_mean
    );
    println!(
        "scan:  median {:?}, p99 {:?}, mean {:?} per tick",
        scan_median, scan_p99, scan_mean
    );
    println!(
        "scan / index (medians): {:.0}x; goal under 1 ms per tick: {}",
        scan_median.as_secs_f64() / index_median.as_secs_f64().max(1e-9),
        if index_p99 < Duration::from_millis(1) {
            "met (p99)"
        } else {
            "NOT met"
        }
    );
}
