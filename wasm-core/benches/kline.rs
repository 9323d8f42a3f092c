//! Native kline benchmark (`cargo bench -p wasm-core --bench kline`, run by `scripts/bench.sh`):
//! aggregating 200k, 1M and 5M synthetic trades into 1m candles (Decimal candles, and the numeric
//! candles of `TradeBuffer`, the wasm class `KlineBuffer`'s paths for numbers and integers), beside the memory-scan floor (summing the
//! same 24-byte trade records), all measured side by side in one process: each repetition runs every
//! case once, so machine noise hits them alike. Prints a table and one `RESULT {json}` line per case
//! for `scripts/bench.sh`, and a `CHECK {json}` line per size with a digest of the candles that the
//! node benchmark compares with its own (same data, same candles).
//!
//! No criterion: a small harness (warm-up, N repetitions, median and minimum, `black_box`). The
//! trade generator is the one of `bench-js/data.mjs`, step for step.

use std::hint::black_box;
use std::time::{Duration, Instant};

use rust_decimal::Decimal;
use wasm_core::kline::{
    Interval, PackedTrade, Scales, Trade, TradeBuffer, aggregate_packed, aggregate_records,
    aggregate_trades,
};

// 200k trades (4.8 MB) stay in the caches; 1M and 5M are the sizes.
const SIZES: [usize; 3] = [200_000, 1_000_000, 5_000_000];
const SCALES: Scales = Scales { price: 2, qty: 8 };

/// mulberry32: a 32-bit generator simple enough to write identically in JavaScript.
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 = self.0.wrapping_add(0x6D2B_79F5);
        let mut t = self.0;
        t = (t ^ (t >> 15)).wrapping_mul(t | 1);
        t ^= t.wrapping_add((t ^ (t >> 7)).wrapping_mul(t | 61));
        t ^ (t >> 14)
    }
}

/// `n` BTC/USDT-like trades from 2024-01-01T00:00Z: 0 to 199 ms apart (about 10 a second, many in
/// the same millisecond), the price a random walk of ±1.00 around 65,000.00 (2 decimals), the size
/// mostly small and now and then up to 50 BTC (8 decimals).
fn trades(n: usize) -> Vec<PackedTrade> {
    let mut rng = Rng(0x5EED);
    let mut time = 1_704_067_200_000_i64;
    let mut price = 6_500_000_i64;
    (0..n)
        .map(|_| {
            time += i64::from(rng.next() % 200);
            price = (price + i64::from(rng.next() % 201) - 100).clamp(1_000_000, 20_000_000);
            let mut qty = i64::from(rng.next() % 1000 + 1) * i64::from(rng.next() % 1000 + 1) * 10;
            if rng.next().is_multiple_of(100) {
                qty *= 500;
            }
            PackedTrade {
                time_ms: time,
                price,
                qty,
            }
        })
        .collect()
}

/// 32-bit FNV-1a of the candles' JSON (the same text the wasm export's objects stringify to).
fn digest(candles: &[wasm_core::kline::Candle]) -> (usize, u32) {
    let json = serde_json::to_string(candles).expect("candles serialize");
    let hash = json.bytes().fold(0x811C_9DC5_u32, |h, b| {
        (h ^ u32::from(b)).wrapping_mul(0x0100_0193)
    });
    (json.len(), hash)
}

struct Case<'a> {
    name: &'static str,
    run: Box<dyn FnMut() -> usize + 'a>,
    times: Vec<Duration>,
}

fn main() {
    let reps_for = |n: usize| if n <= 1_000_000 { 21 } else { 9 };
    println!(
        "{:<34} {:>9} {:>11} {:>11} {:>9}",
        "native case", "trades", "median ms", "min ms", "ns/trade"
    );
    for n in SIZES {
        let packed = trades(n);
        let records: Vec<f64> = packed
            .iter()
            .flat_map(|t| [t.time_ms as f64, t.price as f64, t.qty as f64])
            .collect();
        let decimals: Vec<Trade> = packed
            .iter()
            .map(|t| Trade {
                price: Decimal::new(t.price, SCALES.price),
                qty: Decimal::new(t.qty, SCALES.qty),
                time_ms: t.time_ms,
            })
            .collect();

        let reference = aggregate_packed(&packed, SCALES, Interval::OneMinute, 0).unwrap();
        assert_eq!(
            aggregate_records(&records, SCALES, Interval::OneMinute, 0).unwrap(),
            reference
        );
        assert_eq!(
            aggregate_trades(&decimals, Interval::OneMinute, 0).unwrap(),
            reference
        );
        let (json_len, hash) = digest(&reference);
        println!(
            "CHECK {}",
            serde_json::json!({"n": n, "candles": reference.len(), "jsonLength": json_len, "fnv1a": hash})
        );

        // The path of the wasm class KlineBuffer: trades in place, numeric candles.
        let mut buffer = TradeBuffer::new(n).unwrap();
        buffer.records_mut().copy_from_slice(&records);
        assert_eq!(
            buffer.aggregate(n, SCALES, Interval::OneMinute, 0),
            Ok(reference.len())
        );

        // The same trades as integers: the path of `KlineBuffer.aggregateIntegers`.
        let mut integers = TradeBuffer::new(n).unwrap();
        integers.trades_mut().copy_from_slice(&packed);
        assert_eq!(
            integers.aggregate_integers(n, SCALES, Interval::OneMinute, 0),
            Ok(reference.len())
        );
        assert_eq!(integers.candles(), buffer.candles());

        let mut cases = vec![
            Case {
                name: "native.scan_floor",
                run: Box::new(|| {
                    let sum = black_box(&packed[..]).iter().fold(0_i64, |s, t| {
                        s.wrapping_add(t.time_ms)
                            .wrapping_add(t.price)
                            .wrapping_add(t.qty)
                    });
                    black_box(sum) as usize
                }),
                times: Vec::new(),
            },
            Case {
                name: "native.aggregate_packed",
                run: Box::new(|| {
                    aggregate_packed(black_box(&packed), SCALES, Interval::OneMinute, 0)
                        .unwrap()
                        .len()
                }),
                times: Vec::new(),
            },
            Case {
                name: "native.aggregate_records_f64",
                run: Box::new(|| {
                    aggregate_records(black_box(&records), SCALES, Interval::OneMinute, 0)
                        .unwrap()
                        .len()
                }),
                times: Vec::new(),
            },
            Case {
                name: "native.trade_buffer_fixed",
                run: Box::new(|| {
                    black_box(&mut buffer)
                        .aggregate(n, SCALES, Interval::OneMinute, 0)
                        .unwrap()
                }),
                times: Vec::new(),
            },
            Case {
                name: "native.trade_buffer_integers",
                run: Box::new(|| {
                    black_box(&mut integers)
                        .aggregate_integers(n, SCALES, Interval::OneMinute, 0)
                        .unwrap()
                }),
                times: Vec::new(),
            },
            Case {
                name: "native.aggregate_trades_decimal",
                run: Box::new(|| {
                    aggregate_trades(black_box(&decimals), Interval::OneMinute, 0)
                        .unwrap()
                        .len()
                }),
                times: Vec::new(),
            },
        ];
        for _ in 0..2 {
            for case in &mut cases {
                black_box((case.run)());
            }
        }
        for _ in 0..reps_for(n) {
            for case in &mut cases {
                let start = Instant::now();
                black_box((case.run)());
                case.times.push(start.elapsed());
            }
        }
        for case in &mut cases {
            case.times.sort();
            let median = case.times[case.times.len() / 2].as_secs_f64() * 1e3;
            let min = case.times[0].as_secs_f64() * 1e3;
            println!(
                "{:<34} {:>9} {:>11.3} {:>11.3} {:>9.3}",
                case.name,
                n,
                median,
                min,
                median * 1e6 / n as f64
            );
            println!(
                "RESULT {}",
                serde_json::json!({
                    "name": case.name, "n": n, "reps": case.times.len(),
                    "medianMs": median, "minMs": min
                })
            );
        }
    }
}
