//! Kline aggregation with a numeric result, for callers that cross a boundary with many trades (the
//! wasm class `KlineBuffer`): the trades are read from a [`TradeBuffer`] that JavaScript fills in
//! place, and each candle comes back as [`FIXED_CANDLE_FIELDS`] numbers instead of an object with
//! decimal strings.
//!
//! # Layout of a candle
//! Ten numbers, each an integer exact in an `f64` (below 2⁵³):
//!
//! | index | field |
//! |---|---|
//! | 0 | open time, milliseconds since the epoch |
//! | 1–4 | open, high, low, close, in units of 10^−`priceScale` |
//! | 5 | trade count |
//! | 6, 7 | base volume in units of 10^−`qtyScale`, as `hi × 2⁴⁸ + lo` |
//! | 8, 9 | quote volume in units of 10^−(`priceScale` + `qtyScale`), as `hi × 2⁴⁸ + lo` |
//!
//! The volumes are exact integer sums (they pass 2⁵³ with real markets, hence two parts of 48
//! bits each: 96 bits, a [`Decimal`](rust_decimal::Decimal)'s mantissa). Divided by their power of
//! ten and normalized they are the decimals of [`aggregate_records`](super::aggregate_records)
//! whenever that one is exact (a quote scale of at most 28); beyond it, this result stays exact where
//! the [`Decimal`](rust_decimal::Decimal) one rounds to 28 significant digits.

use super::interval::{Interval, offset_ms};
use super::packed::{PackedTrade, Raw, Scales, packed_sums, record_sums};
use crate::error::CoreError;

/// How many numbers one candle takes in a [`TradeBuffer`]'s result (see the module's layout).
pub const FIXED_CANDLE_FIELDS: usize = 10;

/// Volumes are written as two parts of this many bits.
const PART_BITS: u32 = 48;
const PART_MASK: u128 = (1 << PART_BITS) - 1;
// Two parts hold 96 bits.
const VOLUME_LIMIT: u128 = 1 << (2 * PART_BITS);

/// One candle with its prices and volumes as fixed-point integers at the batch's [`Scales`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct FixedCandle {
    /// The first millisecond of the interval.
    pub open_time: i64,
    /// The first trade's price, in units of 10^−[`Scales::price`].
    pub open: i64,
    /// The highest price.
    pub high: i64,
    /// The lowest price.
    pub low: i64,
    /// The last trade's price.
    pub close: i64,
    /// The sum of the quantities, in units of 10^−[`Scales::qty`]; below 2⁹⁶.
    pub base_volume: u128,
    /// The sum of price × quantity, in units of 10^−(price scale + quantity scale); below 2⁹⁶.
    pub quote_volume: u128,
    /// The number of trades.
    pub trade_count: u64,
}

impl FixedCandle {
    /// Writes the candle's [`FIXED_CANDLE_FIELDS`] numbers (the module's layout) into `out`.
    // Not marked for speed: once per candle, and the loops are (the sums of `record_sums`).
    pub fn write(&self, out: &mut [f64; FIXED_CANDLE_FIELDS]) {
        *out = [
            self.open_time as f64,
            self.open as f64,
            self.high as f64,
            self.low as f64,
            self.close as f64,
            self.trade_count as f64,
            (self.base_volume >> PART_BITS) as f64,
            (self.base_volume & PART_MASK) as f64,
            (self.quote_volume >> PART_BITS) as f64,
            (self.quote_volume & PART_MASK) as f64,
        ];
    }
}

/// [`aggregate_records`](super::aggregate_records) with fixed-point candles: the same flat
/// `[time, price, qty, …]` records, the same rules and the same errors (the same code up to the
/// sums), and in addition [`CoreError::VolumeOverflow`] when a volume reaches 2⁹⁶.
pub fn aggregate_records_fixed(
    records: &[f64],
    scales: Scales,
    interval: Interval,
    offset_minutes: i32,
) -> Result<Vec<FixedCandle>, CoreError> {
    let offset_ms = offset_ms(offset_minutes)?;
    let (raws, _) = record_sums(records, scales, interval, offset_ms)?;
    fixed_candles(&raws)
}

/// [`aggregate_records_fixed`] for trades that are integers already: the same loops without the
/// conversion, the same candles and the same errors for the same values (times within the
/// JavaScript `Date` range, prices and quantities within ±(2⁵³ − 1) and above zero, any order).
pub fn aggregate_packed_fixed(
    trades: &[PackedTrade],
    scales: Scales,
    interval: Interval,
    offset_minutes: i32,
) -> Result<Vec<FixedCandle>, CoreError> {
    let offset_ms = offset_ms(offset_minutes)?;
    fixed_candles(&packed_sums(trades, scales, interval, offset_ms)?)
}

fn fixed_candles(raws: &[Raw]) -> Result<Vec<FixedCandle>, CoreError> {
    raws.iter()
        .map(|raw| {
            if raw.base >= VOLUME_LIMIT || raw.quote >= VOLUME_LIMIT {
                return Err(CoreError::VolumeOverflow);
            }
            Ok(FixedCandle {
                open_time: raw.open_time,
                open: raw.open,
                high: raw.high,
                low: raw.low,
                close: raw.close,
                base_volume: raw.base,
                quote_volume: raw.quote,
                trade_count: raw.count,
            })
        })
        .collect()
}

/// Trades written in place and the candles of the last aggregation, as flat numbers: the memory a
/// wasm caller fills and reads through typed-array views, so that no trade or candle is copied or
/// converted at the boundary. The trades are 24 bytes each, written either as three `f64`
/// ([`Self::records_mut`], aggregated by [`Self::aggregate`]) or as three `i64`
/// ([`Self::trades_mut`], aggregated by [`Self::aggregate_integers`]), over the same memory.
#[derive(Debug, Clone, Default)]
pub struct TradeBuffer {
    trades: Vec<PackedTrade>,
    candles: Vec<f64>,
}

impl TradeBuffer {
    /// The most trades a buffer holds (50 million: 1.2 GB).
    pub const MAX_CAPACITY: usize = 50_000_000;

    /// A buffer for `capacity` trades, every number 0. Fails with
    /// [`CoreError::IntegerOutOfRange`] (argument `capacity`) above [`Self::MAX_CAPACITY`].
    pub fn new(capacity: usize) -> Result<Self, CoreError> {
        if capacity > Self::MAX_CAPACITY {
            return Err(CoreError::IntegerOutOfRange {
                name: "capacity",
                value: capacity.to_string(),
                min: 0,
                max: Self::MAX_CAPACITY as i64,
            });
        }
        Ok(Self {
            trades: vec![PackedTrade::default(); capacity],
            candles: Vec::new(),
        })
    }

    /// How many trades the buffer holds.
    pub fn capacity(&self) -> usize {
        self.trades.len()
    }

    /// The trades to fill as numbers: `[time₀, price₀, qty₀, time₁, …]` as for
    /// [`aggregate_records`](super::aggregate_records), three per trade of the capacity.
    pub fn records_mut(&mut self) -> &mut [f64] {
        let len = 3 * self.trades.len();
        // SAFETY: `PackedTrade` is `repr(C)` with three `i64` and no padding, so the trades are
        // `len` contiguous 8-byte values aligned for `f64` (same size and alignment as `i64`), and
        // every bit pattern is a valid `f64` and a valid `i64`. The slice borrows `self` mutably.
        unsafe { std::slice::from_raw_parts_mut(self.trades.as_mut_ptr().cast::<f64>(), len) }
    }

    /// The trades to fill as integers (the same memory as [`Self::records_mut`]).
    pub fn trades_mut(&mut self) -> &mut [PackedTrade] {
        &mut self.trades
    }

    /// Aggregates the first `count` trades written as numbers (see [`aggregate_records_fixed`]) and
    /// keeps their candles for [`Self::candles`]; returns how many there are. Fails with
    /// [`CoreError::IntegerOutOfRange`] (argument `count`) beyond the capacity, then as
    /// [`aggregate_records_fixed`] (the candles are then empty).
    pub fn aggregate(
        &mut self,
        count: usize,
        scales: Scales,
        interval: Interval,
        offset_minutes: i32,
    ) -> Result<usize, CoreError> {
        self.candles.clear();
        self.check_count(count)?;
        let records = &self.records_mut()[..3 * count];
        let candles = aggregate_records_fixed(records, scales, interval, offset_minutes)?;
        Ok(self.keep(&candles))
    }

    /// [`Self::aggregate`] for trades written as integers (see [`aggregate_packed_fixed`]): the
    /// same loops without the conversion, the same candles and errors for the same values.
    pub fn aggregate_integers(
        &mut self,
        count: usize,
        scales: Scales,
        interval: Interval,
        offset_minutes: i32,
    ) -> Result<usize, CoreError> {
        self.candles.clear();
        self.check_count(count)?;
        let candles =
            aggregate_packed_fixed(&self.trades[..count], scales, interval, offset_minutes)?;
        Ok(self.keep(&candles))
    }

    fn check_count(&self, count: usize) -> Result<(), CoreError> {
        if count > self.capacity() {
            return Err(CoreError::IntegerOutOfRange {
                name: "count",
                value: count.to_string(),
                min: 0,
                max: self.capacity() as i64,
            });
        }
        Ok(())
    }

    /// Writes `candles` as the result and returns how many there are.
    fn keep(&mut self, candles: &[FixedCandle]) -> usize {
        self.candles
            .resize(FIXED_CANDLE_FIELDS * candles.len(), 0.0);
        for (candle, out) in candles
            .iter()
            .zip(self.candles.as_chunks_mut::<FIXED_CANDLE_FIELDS>().0)
        {
            candle.write(out);
        }
        candles.len()
    }

    /// The candles of the last [`Self::aggregate`] or [`Self::aggregate_integers`],
    /// [`FIXED_CANDLE_FIELDS`] numbers each (the module's layout).
    pub fn candles(&self) -> &[f64] {
        &self.candles
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::kline::{Candle, PackedTrade, aggregate_records};
    use proptest::prelude::*;
    use rust_decimal::Decimal;

    const T0: i64 = 1_704_067_200_000;

    /// The decimal candle of a fixed one (volumes normalized as the Decimal path writes them).
    fn to_candle(fixed: &FixedCandle, scales: Scales) -> Candle {
        let d = |v: i128, s: u32| Decimal::from_i128_with_scale(v, s).normalize();
        Candle {
            open_time: fixed.open_time,
            open: d(fixed.open.into(), scales.price),
            high: d(fixed.high.into(), scales.price),
            low: d(fixed.low.into(), scales.price),
            close: d(fixed.close.into(), scales.price),
            base_volume: d(fixed.base_volume as i128, scales.qty),
            quote_volume: d(fixed.quote_volume as i128, scales.price + scales.qty),
            trade_count: fixed.trade_count,
        }
    }

    fn same_as_decimal_path(records: &[f64], scales: Scales, interval: Interval, offset: i32) {
        let fixed = aggregate_records_fixed(records, scales, interval, offset);
        let decimal = aggregate_records(records, scales, interval, offset);
        match (fixed, decimal) {
            (Ok(fixed), Ok(decimal)) => {
                let fixed: Vec<Candle> = fixed.iter().map(|c| to_candle(c, scales)).collect();
                assert_eq!(fixed, decimal);
            }
            (fixed, decimal) => assert_eq!(fixed.map(|_| ()), decimal.map(|_| ())),
        }
    }

    /// The integer path against the number path on the same values (each exact as an `f64`).
    fn same_as_records_path(
        trades: &[PackedTrade],
        scales: Scales,
        interval: Interval,
        offset: i32,
    ) {
        let records: Vec<f64> = trades
            .iter()
            .flat_map(|t| [t.time_ms as f64, t.price as f64, t.qty as f64])
            .collect();
        assert_eq!(
            aggregate_packed_fixed(trades, scales, interval, offset),
            aggregate_records_fixed(&records, scales, interval, offset)
        );
        let mut buffer = TradeBuffer::new(trades.len()).unwrap();
        buffer.trades_mut().copy_from_slice(trades);
        let integers = buffer.aggregate_integers(trades.len(), scales, interval, offset);
        let candles = buffer.candles().to_vec();
        buffer.records_mut().copy_from_slice(&records);
        assert_eq!(
            buffer.aggregate(trades.len(), scales, interval, offset),
            integers
        );
        assert_eq!(buffer.candles(), candles);
    }

    #[test]
    fn integers_out_of_range_fail_as_numbers_do() {
        let good = PackedTrade {
            time_ms: T0,
            price: 1,
            qty: 1,
        };
        let scales = Scales { price: 2, qty: 3 };
        let call =
            |trades: &[PackedTrade]| aggregate_packed_fixed(trades, scales, Interval::OneMinute, 0);
        let out_of_range = |name: &'static str, value: i64, limit: i64| {
            Err(CoreError::IntegerOutOfRange {
                name,
                value: value.to_string(),
                min: -limit,
                max: limit,
            })
        };
        // Beyond what an f64 holds exactly: only the integer path sees these.
        let max_safe = (1 << 53) - 1;
        assert_eq!(
            call(&[
                good,
                PackedTrade {
                    price: i64::MAX,
                    ..good
                }
            ]),
            out_of_range("price", i64::MAX, max_safe)
        );
        assert_eq!(
            call(&[
                PackedTrade {
                    qty: (1 << 60) + 1,
                    ..good
                },
                PackedTrade {
                    time_ms: i64::MIN,
                    ..good
                }
            ]),
            out_of_range("qty", (1 << 60) + 1, max_safe)
        );
        assert_eq!(
            call(&[
                good,
                PackedTrade {
                    time_ms: i64::MIN,
                    ..good
                }
            ]),
            out_of_range("time", i64::MIN, 8_640_000_000_000_000)
        );
        // A product past 2⁶³ of values in range takes the wide loop and stays exact.
        let big = PackedTrade {
            time_ms: T0,
            price: max_safe,
            qty: 4_000_000_000,
        };
        same_as_records_path(&[big, good], scales, Interval::OneHour, 345);
        same_as_records_path(&[], scales, Interval::OneMinute, 0);
    }

    #[test]
    fn layout_splits_volumes_at_2_pow_48() {
        let candle = FixedCandle {
            open_time: T0,
            open: 1,
            high: 2,
            low: 3,
            close: 4,
            base_volume: (5 << 48) + 6,
            quote_volume: (u128::from(u64::MAX) << 16) + 9,
            trade_count: 7,
        };
        let mut out = [0.0; FIXED_CANDLE_FIELDS];
        candle.write(&mut out);
        let two_48 = 2_f64.powi(48);
        assert_eq!(out[..8], [T0 as f64, 1.0, 2.0, 3.0, 4.0, 7.0, 5.0, 6.0]);
        // 2⁸⁰ − 2¹⁶ + 9 = (2³² − 1) × 2⁴⁸ + (2⁴⁸ − 2¹⁶ + 9)
        assert_eq!(out[8], 4_294_967_295.0);
        assert_eq!(out[9], two_48 - 65_536.0 + 9.0);
    }

    #[test]
    fn buffer_aggregates_in_place() {
        let mut buffer = TradeBuffer::new(4).unwrap();
        assert_eq!(buffer.capacity(), 4);
        buffer.records_mut()[..9].copy_from_slice(&[
            T0 as f64 + 2.0,
            10_050.0,
            1_500.0,
            T0 as f64,
            10_000.0,
            250.0,
            T0 as f64 + 60_000.0,
            10_000.0,
            1.0,
        ]);
        let scales = Scales { price: 2, qty: 3 };
        assert_eq!(buffer.aggregate(3, scales, Interval::OneMinute, 0), Ok(2));
        assert_eq!(
            buffer.candles(),
            [
                T0 as f64,
                10_000.0,
                10_050.0,
                10_000.0,
                10_050.0,
                2.0,
                0.0,
                1_750.0,
                0.0,
                17_575_000.0, // 100 × 0.25 + 100.5 × 1.5 = 175.75 at 5 decimals
                T0 as f64 + 60_000.0,
                10_000.0,
                10_000.0,
                10_000.0,
                10_000.0,
                1.0,
                0.0,
                1.0,
                0.0,
                10_000.0,
            ]
        );
        assert!(matches!(
            buffer.aggregate(5, scales, Interval::OneMinute, 0),
            Err(CoreError::IntegerOutOfRange { name: "count", .. })
        ));
        assert!(buffer.candles().is_empty());
        assert!(matches!(
            TradeBuffer::new(TradeBuffer::MAX_CAPACITY + 1),
            Err(CoreError::IntegerOutOfRange {
                name: "capacity",
                ..
            })
        ));
    }

    #[test]
    fn volumes_from_2_pow_96_overflow() {
        // 2⁵³ − 1 squared is about 2¹⁰⁶: one trade is enough.
        let max = 9_007_199_254_740_991.0;
        assert_eq!(
            aggregate_records_fixed(
                &[T0 as f64, max, max],
                Scales::default(),
                Interval::OneMinute,
                0
            ),
            Err(CoreError::VolumeOverflow)
        );
    }

    #[test]
    fn errors_and_edge_cases_match_the_decimal_path() {
        let t0 = T0 as f64;
        let scales = Scales { price: 2, qty: 3 };
        for records in [
            &[][..],
            &[t0, 1.0][..],
            &[t0, 1.0, 1.0, t0, 1.5, 1.0][..],
            &[t0, 1.0, f64::NAN][..],
            &[t0, 9_007_199_254_740_992.0, 1.0][..],
            &[8.64e15 + 1.0, 1.0, 1.0][..],
            &[t0, 1.0, 1.0, t0, 1.0, -1.0][..],
            &[t0 + 5.0, 1.0, 1.0, t0, 2.0, 3.0, t0 + 5.0, 4.0, 5.0][..],
            &[-0.0, 1.0, 1.0][..],
        ] {
            same_as_decimal_path(records, scales, Interval::OneMinute, 0);
        }
    }

    proptest! {
        #[test]
        fn same_candles_as_the_decimal_path(
            trades in prop::collection::vec(
                (0_i64..400_000, 1_i64..10_000_000, 1_i64..5_000_000_000_000),
                0..200,
            ),
            sorted in any::<bool>(),
            interval in prop::sample::select(vec![
                Interval::OneMinute, Interval::FiveMinutes, Interval::OneHour, Interval::OneWeek,
                Interval::OneMonth,
            ]),
            offset in -1080_i32..=1080,
            price_scale in 0_u32..=12,
            qty_scale in 0_u32..=12,
        ) {
            let mut trades = trades;
            if sorted {
                trades.sort_by_key(|t| t.0);
            }
            let records: Vec<f64> = trades
                .iter()
                .flat_map(|&(dt, p, q)| [(T0 + dt * 997) as f64, p as f64, q as f64])
                .collect();
            same_as_decimal_path(
                &records,
                Scales { price: price_scale, qty: qty_scale },
                interval,
                offset,
            );
        }

        #[test]
        fn integers_give_the_candles_and_errors_of_numbers(
            trades in prop::collection::vec(
                (
                    prop_oneof![
                        8 => (0_i64..400_000).prop_map(|dt| T0 + dt * 997),
                        1 => prop::sample::select(vec![
                            -8_640_000_000_000_000, -8_640_000_000_000_001, 8_640_000_000_000_001,
                            -1, 0, 1 << 53, i64::MIN,
                        ]),
                    ],
                    prop_oneof![
                        8 => 1_i64..10_000_000,
                        1 => prop::sample::select(vec![
                            0, -5, (1 << 53) - 1, 1 << 53, -(1 << 53), i64::MIN,
                        ]),
                    ],
                    prop_oneof![
                        8 => 1_i64..5_000_000_000_000,
                        1 => prop::sample::select(vec![0, -1, (1 << 53) - 1, 1 << 53]),
                    ],
                ),
                0..100,
            ),
            sorted in any::<bool>(),
            interval in prop::sample::select(vec![
                Interval::OneMinute, Interval::FifteenMinutes, Interval::OneDay, Interval::OneWeek,
                Interval::OneMonth,
            ]),
            offset in -1080_i32..=1080,
            price_scale in 0_u32..=12,
            qty_scale in 0_u32..=12,
        ) {
            let mut trades: Vec<PackedTrade> = trades
                .into_iter()
                .map(|(time_ms, price, qty)| PackedTrade { time_ms, price, qty })
                .collect();
            if sorted {
                trades.sort_by_key(|t| t.time_ms);
            }
            same_as_records_path(
                &trades,
                Scales { price: price_scale, qty: qty_scale },
                interval,
                offset,
            );
        }
    }
}
