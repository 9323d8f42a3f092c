//! Properties of the kline module over generated inputs: the paths agree (roll-ups, the live candle,
//! packed and decimal arithmetic), gap filling keeps the candles, and no public entry panics.

use proptest::prelude::*;
use rust_decimal::Decimal;

use super::candle::aggregate_decimal;
use super::*;
use crate::error::CoreError;

// 2024-01-25T00:00:00Z: generated trades span the end of January, so weeks and months have edges.
const START: i64 = 1_706_140_800_000;
const MIN: i64 = 60_000;

fn interval() -> impl Strategy<Value = Interval> {
    prop::sample::select(Interval::ALL.to_vec())
}

/// Offsets of the time zone table and a few odd ones (whole minutes).
fn offset() -> impl Strategy<Value = i32> {
    prop_oneof![
        prop::sample::select(vec![-720, -570, -300, 0, 345, 525, 765, 840]),
        -1080..=1080_i32,
    ]
}

/// A positive decimal of up to 10 digits with 0 to 8 decimals.
fn amount() -> impl Strategy<Value = Decimal> {
    (1_i64..10_000_000_000, 0_u32..=8).prop_map(|(mantissa, scale)| Decimal::new(mantissa, scale))
}

/// Up to 300 trades of one market over a few days, many in the same minute or millisecond, in time
/// order. Prices have a market's scale (0 to 8 decimals, trailing zeros dropped as a feed sends them)
/// and up to 7 digits, or 12 digits so that price × quantity passes 2⁶³; quantities up to 9 digits
/// with 0 to 8 decimals. Every sum then has at most 28 digits, where Decimal arithmetic is exact.
fn sorted_trades() -> impl Strategy<Value = Vec<Trade>> {
    (
        0_u32..=8,
        0_u32..=8,
        prop_oneof![Just(10_000_000_i64), Just(1_000_000_000_000_i64)],
    )
        .prop_flat_map(|(price_scale, qty_scale, price_limit)| {
            prop::collection::vec(
                (
                    1..price_limit,
                    1_i64..1_000_000_000,
                    prop_oneof![3 => 0_i64..3, 3 => 0_i64..90_000, 1 => 0_i64..21_600_000],
                ),
                0..300,
            )
            .prop_map(move |steps| {
                let mut time = START;
                steps
                    .into_iter()
                    .map(|(price, qty, step)| {
                        time += step;
                        Trade {
                            price: Decimal::new(price, price_scale).normalize(),
                            qty: Decimal::new(qty, qty_scale).normalize(),
                            time_ms: time,
                        }
                    })
                    .collect()
            })
        })
}

/// Any decimal the type holds.
fn any_decimal() -> impl Strategy<Value = Decimal> {
    (
        any::<u32>(),
        any::<u32>(),
        any::<u32>(),
        any::<bool>(),
        0_u32..=28,
    )
        .prop_map(|(lo, mid, hi, negative, scale)| {
            Decimal::from_parts(lo, mid, hi, negative, scale)
        })
}

fn any_trade() -> impl Strategy<Value = Trade> {
    (
        any_decimal(),
        any_decimal(),
        prop_oneof![any::<i64>(), START..START + 86_400_000],
    )
        .prop_map(|(price, qty, time_ms)| Trade {
            price,
            qty,
            time_ms,
        })
}

fn any_candle() -> impl Strategy<Value = Candle> {
    (
        prop_oneof![any::<i64>(), (0_i64..100).prop_map(|i| START + i * MIN)],
        prop::array::uniform6(prop_oneof![any_decimal(), amount()]),
        any::<u64>(),
    )
        .prop_map(|(open_time, d, trade_count)| Candle {
            open_time,
            open: d[0],
            high: d[1],
            low: d[2],
            close: d[3],
            base_volume: d[4],
            quote_volume: d[5],
            trade_count,
        })
}

fn any_packed() -> impl Strategy<Value = PackedTrade> {
    (
        prop_oneof![any::<i64>(), START..START + 86_400_000],
        prop_oneof![any::<i64>(), 1_i64..1_000_000_000],
        prop_oneof![any::<i64>(), 1_i64..1_000_000_000],
    )
        .prop_map(|(time_ms, price, qty)| PackedTrade {
            time_ms,
            price,
            qty,
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn rolling_up_1m_candles_equals_aggregating_the_trades(
        trades in sorted_trades(),
        offset in offset(),
    ) {
        let minutes = aggregate_trades(&trades, Interval::OneMinute, offset).unwrap();
        for interval in Interval::ALL {
            prop_assert_eq!(
                rollup(&minutes, interval, offset).unwrap(),
                aggregate_trades(&trades, interval, offset).unwrap(),
                "{}", interval
            );
        }
    }

    #[test]
    fn the_fixed_point_path_equals_decimal_arithmetic(
        trades in sorted_trades(),
        interval in interval(),
        offset in offset(),
        shuffle_seed in any::<u64>(),
    ) {
        let offset_ms = i64::from(offset) * MIN;
        let expected = aggregate_decimal(&trades, interval, offset_ms).unwrap();
        prop_assert_eq!(&aggregate_trades(&trades, interval, offset).unwrap(), &expected);

        let (packed, scales) = pack_trades(&trades).unwrap();
        prop_assert_eq!(&aggregate_packed(&packed, scales, interval, offset).unwrap(), &expected);
        let records: Vec<f64> = packed
            .iter()
            .flat_map(|t| [t.time_ms as f64, t.price as f64, t.qty as f64])
            .collect();
        if packed.iter().all(|t| t.price < 1 << 53 && t.qty < 1 << 53) {
            prop_assert_eq!(&aggregate_records(&records, scales, interval, offset).unwrap(), &expected);
        }

        // Any order gives the same candles, as long as trades of one millisecond keep their order.
        let mut shuffled = trades.clone();
        let mut state = shuffle_seed | 1;
        for i in (1..shuffled.len()).rev() {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let j = (state % (i as u64 + 1)) as usize;
            if shuffled[i].time_ms != shuffled[j].time_ms {
                shuffled.swap(i, j);
            }
        }
        let mut stable = shuffled.clone();
        stable.sort_by_key(|t| t.time_ms);
        let expected = aggregate_decimal(&stable, interval, offset_ms).unwrap();
        prop_assert_eq!(&aggregate_trades(&shuffled, interval, offset).unwrap(), &expected);
        let (packed, scales) = pack_trades(&shuffled).unwrap();
        prop_assert_eq!(&aggregate_packed(&packed, scales, interval, offset).unwrap(), &expected);
    }

    #[test]
    fn the_live_candle_equals_aggregation(
        trades in sorted_trades(),
        interval in interval(),
        offset in offset(),
    ) {
        let mut candles = Vec::new();
        let mut live = None;
        for trade in &trades {
            let update = apply_trade(live, trade, interval, offset).unwrap();
            candles.extend(update.closed);
            live = Some(update.live);
        }
        candles.extend(live);
        prop_assert_eq!(candles, aggregate_trades(&trades, interval, offset).unwrap());
    }

    #[test]
    fn filling_gaps_keeps_every_candle_and_leaves_no_gap(
        trades in sorted_trades(),
        interval in interval(),
        offset in offset(),
    ) {
        let candles = aggregate_trades(&trades, interval, offset).unwrap();
        let filled = match fill_gaps(&candles, interval, offset) {
            Err(CoreError::TooManyCandles { count, max }) => {
                prop_assert!(count > max);
                let (first, last) = (candles[0].open_time, candles[candles.len() - 1].open_time);
                prop_assert!(interval.fixed_ms().is_some_and(|len| (last - first) / len >= 100_000));
                return Ok(());
            }
            filled => filled.unwrap(),
        };
        let real: Vec<Candle> = filled.iter().filter(|c| c.trade_count > 0).copied().collect();
        prop_assert_eq!(&real, &candles);
        for pair in filled.windows(2) {
            let bucket = interval.bucket(pair[0].open_time, offset).unwrap();
            prop_assert_eq!(bucket.close_time + 1, pair[1].open_time);
            if pair[1].trade_count == 0 {
                prop_assert_eq!(pair[1].open, pair[0].close);
                prop_assert_eq!(pair[1].base_volume, Decimal::ZERO);
            }
        }
    }

    #[test]
    fn no_entry_panics(
        trades in prop::collection::vec(any_trade(), 0..8),
        packed in prop::collection::vec(any_packed(), 0..8),
        records in prop::collection::vec(
            prop_oneof![any::<f64>(), (0_i64..1_000).prop_map(|v| v as f64), Just(START as f64)],
            0..25,
        ),
        candles in prop::collection::vec(any_candle(), 0..6),
        interval in interval(),
        offset in any::<i32>(),
        time in any::<i64>(),
        price_scale in prop_oneof![any::<u32>(), 0_u32..=28],
        qty_scale in prop_oneof![any::<u32>(), 0_u32..=28],
    ) {
        let scales = Scales { price: price_scale, qty: qty_scale };
        let _ = interval.bucket(time, offset);
        let _ = aggregate_trades(&trades, interval, offset);
        let _ = aggregate_packed(&packed, scales, interval, offset);
        let _ = aggregate_records(&records, scales, interval, offset);
        let _ = pack_trades(&trades);
        for trade in &trades {
            let _ = apply_trade(None, trade, interval, offset);
            for candle in &candles {
                let _ = apply_trade(Some(*candle), trade, interval, offset);
            }
        }
        let _ = rollup(&candles, interval, offset);
        let _ = fill_gaps(&candles, interval, offset);
        let _ = rolling_24h(&candles, time);
        let _ = Interval::parse(&format!("{time}"));
    }

    #[test]
    fn no_entry_panics_on_inputs_that_pass_the_checks(
        candles in prop::collection::vec(
            (0_i64..100_000, amount(), amount(), amount(), any::<u64>()),
            0..6,
        ),
        interval in interval(),
        offset in offset(),
    ) {
        // Aligned, consistent candles with extreme counts and volumes reach the arithmetic.
        let mut candles: Vec<Candle> = candles
            .into_iter()
            .map(|(minute, a, b, volume, trade_count)| Candle {
                open_time: interval
                    .bucket(START + minute * MIN * 97, offset)
                    .unwrap()
                    .open_time,
                open: a.min(b),
                high: a.max(b),
                low: a.min(b),
                close: a.max(b),
                base_volume: volume * Decimal::from(1_000_000_000_000_i64),
                quote_volume: Decimal::MAX,
                trade_count,
            })
            .collect();
        candles.sort_by_key(|c| c.open_time);
        candles.dedup_by_key(|c| c.open_time);
        let _ = rollup(&candles, interval, offset);
        let _ = fill_gaps(&candles, interval, offset);
        let _ = rolling_24h(&candles, START + 50_000 * MIN);
        if let Some(last) = candles.last() {
            let trade = Trade { price: Decimal::MAX, qty: Decimal::MAX, time_ms: last.open_time };
            let _ = apply_trade(Some(*last), &trade, interval, offset);
        }
    }
}
