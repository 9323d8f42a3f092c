//! The fast path of kline aggregation: trades as fixed-point integers ([`PackedTrade`], 24 bytes),
//! aggregated with one comparison per trade for the bucket, 64-bit products and 128-bit sums, and no
//! allocation per trade. It returns exactly the candles of the [`Decimal`] path, or hands over to it
//! when it cannot be exact. Trades go through in blocks of [`BLOCK`]: a short loop prepares a block
//! (converts `f64` records; natively also folds the quantities into one bound, [`qty_bits`], which
//! the scan does itself in wasm: [`QTY_RANGE_IN_SCAN`]), a second one sums it while (natively) the
//! next block is prefetched.

use std::cell::Cell;

use rust_decimal::Decimal;

use super::candle::{
    Candle, MAX_SAFE_INTEGER, Trade, aggregate_decimal, check_trade, sorted_by_time,
};
use super::interval::{Interval, offset_ms};
use crate::convert::{MAX_EPOCH_MS, integer_from_number};
use crate::error::CoreError;

/// The largest scale of a [`Decimal`] (and of [`Scales`]).
const MAX_SCALE: u32 = 28;
// A Decimal's mantissa has 96 bits.
const DECIMAL_MANTISSA_LIMIT: u128 = 1 << 96;

const POW10: [i128; 29] = {
    let mut table = [1_i128; 29];
    let mut i = 1;
    while i < table.len() {
        table[i] = table[i - 1] * 10;
        i += 1;
    }
    table
};

/// One trade as three 64-bit integers, 24 bytes: the time in milliseconds since the epoch, and the
/// price and quantity in units of 10^−scale of their batch's [`Scales`] (at price scale 2,
/// `6500012` is 65000.12).
#[repr(C)]
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PackedTrade {
    /// When it happened, in milliseconds since the epoch.
    pub time_ms: i64,
    /// The price in units of 10^−[`Scales::price`].
    pub price: i64,
    /// The quantity in units of 10^−[`Scales::qty`].
    pub qty: i64,
}

/// The decimal scales of a batch of [`PackedTrade`]s, each from 0 to 28.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct Scales {
    /// The number of decimals of every packed price.
    pub price: u32,
    /// The number of decimals of every packed quantity.
    pub qty: u32,
}

/// [`aggregate_trades`](super::aggregate_trades) for packed trades: the same candles, with the same
/// rules (any order, sorted stably; prices and quantities above zero; times in the JavaScript `Date`
/// range). Fails also with [`CoreError::IntegerOutOfRange`] for a scale above 28 (arguments
/// `priceScale`, `qtyScale`).
pub fn aggregate_packed(
    trades: &[PackedTrade],
    scales: Scales,
    interval: Interval,
    offset_minutes: i32,
) -> Result<Vec<Candle>, CoreError> {
    let offset_ms = offset_ms(offset_minutes)?;
    check_scales(scales)?;
    match aggregate_exact(trades, scales, interval, offset_ms) {
        Some(candles) => Ok(candles),
        // A bad trade, or values the fixed-point path cannot sum exactly: the Decimal path finds the
        // first bad trade in the order given, or computes the candles.
        None => {
            let trades: Vec<Trade> = trades.iter().map(|t| unpack(t, scales)).collect();
            for (index, trade) in trades.iter().enumerate() {
                check_trade(index, trade)?;
            }
            aggregate_decimal(&trades, interval, offset_ms)
        }
    }
}

/// [`aggregate_packed`] for trades given as one flat list of numbers, three per trade:
/// `[time₀, price₀, qty₀, time₁, price₁, qty₁, …]` with prices and quantities as whole numbers in
/// units of 10^−scale (the layout of the wasm export `aggregateTradesPacked`, which takes a
/// `Float64Array`).
///
/// Fails with [`CoreError::InvalidArgument`] (argument `trades`) when the length is not a multiple of
/// 3, then with the first number that is not whole or out of range ([`CoreError::NotAnInteger`],
/// [`CoreError::IntegerOutOfRange`]; arguments `time` within the JavaScript `Date` range, `price` and
/// `qty` within ±(2⁵³ − 1)), then as [`aggregate_packed`].
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn aggregate_records(
    records: &[f64],
    scales: Scales,
    interval: Interval,
    offset_minutes: i32,
) -> Result<Vec<Candle>, CoreError> {
    let offset_ms = offset_ms(offset_minutes)?;
    let (raws, trades) = record_sums(records, scales, interval, offset_ms)?;
    if raws.is_empty() {
        return Ok(Vec::new());
    }
    if let Some(candles) = to_candles(&raws, scales) {
        return Ok(candles);
    }
    // Sums a Decimal cannot hold exactly: the Decimal path, on trades known to be valid.
    let trades = match trades {
        Some(trades) => trades,
        None => records_to_trades(records)?,
    };
    let trades: Vec<Trade> = trades.iter().map(|t| unpack(t, scales)).collect();
    aggregate_decimal(&trades, interval, offset_ms)
}

/// The fixed-point sums of flat `[time, price, qty, …]` records (the checks and errors of
/// [`aggregate_records`]; a quote sum may be saturated), and the packed trades when they had to be
/// converted one by one (a bad number, trades out of order). One copy of the loops serves both
/// [`aggregate_records`] and [`aggregate_records_fixed`](super::aggregate_records_fixed).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn record_sums(
    records: &[f64],
    scales: Scales,
    interval: Interval,
    offset_ms: i64,
) -> Result<(Vec<Raw>, Option<Vec<PackedTrade>>), CoreError> {
    check_scales(scales)?;
    if !records.len().is_multiple_of(3) {
        return Err(CoreError::InvalidArgument { name: "trades" });
    }
    let source = Records {
        records,
        all_whole: Cell::new(true),
    };
    if let Ok(raws) = sum_fast(&source, interval, offset_ms, MAX_SAFE_INTEGER)
        && source.all_whole.get()
    {
        return Ok((raws, None));
    }
    // The first bad number, then as the integer records.
    let trades = records_to_trades(records)?;
    let raws = checked_sums(&trades, scales, interval, offset_ms)?;
    Ok((raws, Some(trades)))
}

/// [`record_sums`] for trades that are integers already (the integer records of
/// [`TradeBuffer::aggregate_integers`](super::TradeBuffer::aggregate_integers)): the same loops
/// without the conversion, the same rules and the same errors for the same values (times within
/// the JavaScript `Date` range, prices and quantities within ±(2⁵³ − 1), then above zero).
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn packed_sums(
    trades: &[PackedTrade],
    scales: Scales,
    interval: Interval,
    offset_ms: i64,
) -> Result<Vec<Raw>, CoreError> {
    check_scales(scales)?;
    match sum_fast(&trades, interval, offset_ms, MAX_SAFE_INTEGER) {
        Ok(raws) => Ok(raws),
        Err(_) => {
            // The first number out of range, in the order given (as `records_to_trades` finds it).
            for trade in trades {
                in_range("time", trade.time_ms, MAX_EPOCH_MS)?;
                in_range("price", trade.price, MAX_SAFE_INTEGER)?;
                in_range("qty", trade.qty, MAX_SAFE_INTEGER)?;
            }
            checked_sums(trades, scales, interval, offset_ms)
        }
    }
}

/// `value` when it lies within ±`limit`, else [`CoreError::IntegerOutOfRange`] naming `name`.
fn in_range(name: &'static str, value: i64, limit: i64) -> Result<i64, CoreError> {
    if (-limit..=limit).contains(&value) {
        return Ok(value);
    }
    Err(CoreError::IntegerOutOfRange {
        name,
        value: value.to_string(),
        min: -limit,
        max: limit,
    })
}

/// The sums of trades whose numbers are in range: the first trade not above zero in the order
/// given fails; otherwise they are sorted stably and summed.
fn checked_sums(
    trades: &[PackedTrade],
    scales: Scales,
    interval: Interval,
    offset_ms: i64,
) -> Result<Vec<Raw>, CoreError> {
    for (index, trade) in trades.iter().enumerate() {
        check_trade(index, &unpack(trade, scales))?;
    }
    let sorted = sorted_by_time(trades, |t| t.time_ms);
    // Checked and sorted: the sums cannot fail (a quote sum saturates at worst). The limit is the
    // widest, since the scan bounds the largest quantity only to a power of two (`sum_fast`).
    sum_fast(&sorted.as_slice(), interval, offset_ms, i64::MAX)
        .map_err(|_| CoreError::VolumeOverflow)
}

/// The packed trades of flat records, or the first number that is not whole or out of range.
fn records_to_trades(records: &[f64]) -> Result<Vec<PackedTrade>, CoreError> {
    records
        .chunks_exact(3)
        .map(|r| {
            Ok(PackedTrade {
                time_ms: integer_from_number("time", r[0], -MAX_EPOCH_MS, MAX_EPOCH_MS)?,
                price: integer_from_number("price", r[1], -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)?,
                qty: integer_from_number("qty", r[2], -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER)?,
            })
        })
        .collect()
}

/// Packs decimal trades at one price scale and one quantity scale (the largest of the batch), or
/// `None` when a value does not fit 64 bits at that scale.
pub fn pack_trades(trades: &[Trade]) -> Option<(Vec<PackedTrade>, Scales)> {
    let scales = Scales {
        price: trades.iter().map(|t| t.price.scale()).max().unwrap_or(0),
        qty: trades.iter().map(|t| t.qty.scale()).max().unwrap_or(0),
    };
    let packed = trades
        .iter()
        .map(|t| {
            Some(PackedTrade {
                time_ms: t.time_ms,
                price: fixed(t.price, scales.price)?,
                qty: fixed(t.qty, scales.qty)?,
            })
        })
        .collect::<Option<Vec<_>>>()?;
    Some((packed, scales))
}

/// `value` in units of 10^−`scale` (`scale` at least the value's own), if that fits an i64.
fn fixed(value: Decimal, scale: u32) -> Option<i64> {
    let factor = POW10[scale.checked_sub(value.scale())? as usize];
    i64::try_from(value.mantissa().checked_mul(factor)?).ok()
}

/// The decimal trade of a packed one, at scales already checked.
pub(super) fn unpack(trade: &PackedTrade, scales: Scales) -> Trade {
    // Scales were checked to be at most 28, the only way `Decimal::new` can fail.
    Trade {
        price: Decimal::new(trade.price, scales.price),
        qty: Decimal::new(trade.qty, scales.qty),
        time_ms: trade.time_ms,
    }
}

#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn check_scales(scales: Scales) -> Result<(), CoreError> {
    for (name, scale) in [("priceScale", scales.price), ("qtyScale", scales.qty)] {
        if scale > MAX_SCALE {
            return Err(CoreError::IntegerOutOfRange {
                name,
                value: scale.to_string(),
                min: 0,
                max: i64::from(MAX_SCALE),
            });
        }
    }
    Ok(())
}

/// The candles of packed trades (sorted here when they are not), or `None` when a trade is bad or the
/// candles cannot be exact in fixed point: the caller then takes the [`Decimal`] path.
pub(crate) fn aggregate_exact(
    trades: &[PackedTrade],
    scales: Scales,
    interval: Interval,
    offset_ms: i64,
) -> Option<Vec<Candle>> {
    let fast = match aggregate_fast(&trades, scales, interval, offset_ms, i64::MAX) {
        Fast::Unsorted => {
            let sorted = sorted_by_time(trades, |t| t.time_ms);
            aggregate_fast(&sorted.as_slice(), scales, interval, offset_ms, i64::MAX)
        }
        fast => fast,
    };
    match fast {
        Fast::Candles(candles) => Some(candles),
        Fast::Unsorted | Fast::Invalid | Fast::Inexact => None,
    }
}

/// What the fixed-point path made of a batch.
enum Fast {
    /// The candles, exactly those of the Decimal path.
    Candles(Vec<Candle>),
    /// The trades are not in time order.
    Unsorted,
    /// A time is out of range, or a price or quantity is not above zero or too large.
    Invalid,
    /// A sum or a scale is beyond what a [`Decimal`] holds exactly.
    Inexact,
}

/// Why a [`Scanner`] stopped early.
pub(super) enum Stop {
    Unsorted,
    Invalid,
}

/// Aggregates the trades of `source` into decimal candles (see [`sum_fast`]).
#[cfg_attr(optimize_hot, optimize(speed))]
fn aggregate_fast(
    source: &dyn Source,
    scales: Scales,
    interval: Interval,
    offset_ms: i64,
    max_value: i64,
) -> Fast {
    match sum_fast(source, interval, offset_ms, max_value) {
        Ok(raws) if raws.is_empty() => Fast::Candles(Vec::new()),
        Ok(raws) => match to_candles(&raws, scales) {
            Some(candles) => Fast::Candles(candles),
            None => Fast::Inexact,
        },
        Err(NoSums::Unsorted) => Fast::Unsorted,
        Err(NoSums::Invalid) => Fast::Invalid,
        Err(NoSums::Inexact) => Fast::Inexact,
    }
}

/// Why [`sum_fast`] gave no sums.
pub(super) enum NoSums {
    /// The trades are not in time order.
    Unsorted,
    /// A time is out of range, or a price or quantity is not above zero or too large.
    Invalid,
    /// The wide pass stopped (it cannot once the narrow one passed).
    Inexact,
}

/// The fixed-point sums of the trades of `source`, one [`Raw`] per candle (fed twice when 64-bit
/// products could overflow: the second, wide pass has 128-bit products and saturating quote sums);
/// prices and quantities above `max_value` make the batch [`NoSums::Invalid`] — for quantities, also
/// some from `max_value` to twice that, whose callers then check every value exactly.
#[cfg_attr(optimize_hot, optimize(speed))]
pub(super) fn sum_fast(
    source: &dyn Source,
    interval: Interval,
    offset_ms: i64,
    max_value: i64,
) -> Result<Vec<Raw>, NoSums> {
    let mut scanner = Scanner::<false>::new(interval, offset_ms);
    match source.feed(&mut scanner) {
        Ok(()) => {}
        Err(Stop::Unsorted) => return Err(NoSums::Unsorted),
        Err(Stop::Invalid) => return Err(NoSums::Invalid),
    }
    let (raws, qty_bits) = scanner.finish();
    if raws.is_empty() {
        return Ok(raws);
    }
    let (min_price, max_price) = raws.iter().fold((i64::MAX, i64::MIN), |(low, high), raw| {
        (low.min(raw.low), high.max(raw.high))
    });
    // Every `qty − 1` is below 2^bits (a quantity not above zero sets the top bit, but for
    // `i64::MIN`, which sets bit 62 and so passes any limit below 2⁶³), so every quantity is from 1
    // to `qty_limit`: a bound, not the maximum.
    let qty_limit = 1_u128 << (u64::BITS - qty_bits.leading_zeros());
    if min_price <= 0
        || qty_bits >> 63 != 0
        || max_price > max_value
        || qty_limit > max_value as u128
    {
        return Err(NoSums::Invalid);
    }
    // The narrow pass sums quantities in 64 bits, which cannot wrap while a candle's trade count
    // times the largest quantity stays below 2⁶⁴.
    let products_fit = max_price as u128 * qty_limit <= i64::MAX as u128;
    let volumes_fit = raws
        .iter()
        .all(|raw| u128::from(raw.count) * qty_limit <= u128::from(u64::MAX));
    if products_fit && volumes_fit {
        return Ok(raws);
    }
    let mut wide = Scanner::<true>::new(interval, offset_ms);
    if source.feed(&mut wide).is_err() {
        return Err(NoSums::Inexact);
    }
    Ok(wide.finish().0)
}

/// `value` as an integer when it is a whole number from 0 to below 2⁵² (−0 included), with two
/// checks to fold over a batch: the integer, negative or 2⁵² or more when `value` is out of that
/// range, and the bits of `rounded − value`, zero only when `value` is whole (NaN and ±∞ give NaN).
///
/// Adding 2⁵² moves a whole number into the mantissa bits (and rounds a fraction away); no
/// comparison or branch, which keeps the conversion loop short natively and in wasm engines.
#[inline(always)]
#[cfg_attr(optimize_hot, optimize(speed))]
fn small_whole(value: f64) -> (i64, u64) {
    const TWO_POW_52: f64 = 4_503_599_627_370_496.0;
    let shifted = value + TWO_POW_52;
    // Wrapping: below −2⁵² the sum is negative, and the difference of the bits is then negative or
    // wraps to above 2⁶¹, never within 0..2⁵², so such a value still counts as out of range.
    let integer = (shifted.to_bits() as i64).wrapping_sub(TWO_POW_52.to_bits() as i64);
    let fraction = ((shifted - TWO_POW_52) - value).to_bits();
    (integer, fraction)
}

/// Trades for the fixed-point path, fed to a [`Sink`] (a scanner) block by block, in order. Both are
/// traits used as objects: one call per block of [`BLOCK`] trades costs nothing, and the wasm file
/// holds each loop once instead of once per pairing.
pub(super) trait Source {
    /// Feeds every trade, stopping at the first block the sink refuses.
    fn feed(&self, sink: &mut dyn Sink) -> Result<(), Stop>;
}

/// Takes blocks of trades with the OR of their quantities less one ([`qty_bits`]; 0 when
/// [`QTY_RANGE_IN_SCAN`]: the scan finds it), and where the next block's memory starts (a prefetch
/// hint).
pub(super) trait Sink {
    /// Takes the next block.
    fn block(
        &mut self,
        trades: &[PackedTrade],
        qty_bits: u64,
        ahead: *const u8,
    ) -> Result<(), Stop>;
}

impl<const WIDE: bool> Sink for Scanner<WIDE> {
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn block(
        &mut self,
        trades: &[PackedTrade],
        qty_bits: u64,
        ahead: *const u8,
    ) -> Result<(), Stop> {
        self.qty_bits |= qty_bits;
        self.scan(trades, ahead)
    }
}

/// A quantity's share of the OR that checks and bounds a batch's quantities in one value (one
/// register in the loop instead of a minimum and a maximum): `qty − 1`, whose top bit is set for a
/// quantity not above zero, and whose bit length bounds the largest quantity (see [`sum_fast`]).
#[inline(always)]
fn qty_bits(qty: i64) -> u64 {
    (qty as u64).wrapping_sub(1)
}

/// Whether the scan folds the quantities' [`qty_bits`] itself (in wasm) rather than the
/// [`Source`]'s preparing loop (natively). Measured both ways (with a minimum and a maximum):
/// natively the preparing loop's fold costs nothing (vectorised, and that loop waits on memory
/// anyway) while more values in the scan cost registers, 20–40% more time at 1M trades; in wasm the
/// separate loop is not vectorised and the scan with them is 20–25% faster on integer trades.
const QTY_RANGE_IN_SCAN: bool = cfg!(target_family = "wasm");

/// How many trades a [`Source`] prepares at a time: 48 KB of packed trades, which stay in the fastest
/// cache between the preparing loop (conversion, the quantities' bound) and the scan.
/// Two small loops keep fewer values live than one large one, which matters most to wasm engines.
const BLOCK: usize = 2048;

impl Source for &[PackedTrade] {
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn feed(&self, sink: &mut dyn Sink) -> Result<(), Stop> {
        for block in self.chunks(BLOCK) {
            let bits = if QTY_RANGE_IN_SCAN {
                0
            } else {
                block.iter().fold(0, |bits, t| bits | qty_bits(t.qty))
            };
            let ahead = block.as_ptr().wrapping_add(BLOCK).cast();
            sink.block(block, bits, ahead)?;
        }
        Ok(())
    }
}

/// Flat `[time, price, qty, …]` records, converted block by block so that the conversion and the
/// scan each run as a tight loop. A number that is not a whole number from 0 to below 2⁵² (a
/// fraction, NaN, ±∞, a negative time, a huge value) clears `all_whole`, which sends the batch to
/// the checked path.
pub(super) struct Records<'a> {
    pub(super) records: &'a [f64],
    pub(super) all_whole: Cell<bool>,
}

impl Source for Records<'_> {
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn feed(&self, sink: &mut dyn Sink) -> Result<(), Stop> {
        const TWO_POW_52: u64 = 1 << 52;
        let mut block = [PackedTrade::default(); BLOCK];
        let (mut integers, mut fractions) = (0_u64, 0_u64);
        for chunk in self.records.chunks(3 * BLOCK) {
            let mut len = 0;
            let mut bits = 0;
            for (slot, r) in block.iter_mut().zip(chunk.chunks_exact(3)) {
                let (time_ms, time_fraction) = small_whole(r[0]);
                let (price, price_fraction) = small_whole(r[1]);
                let (qty, qty_fraction) = small_whole(r[2]);
                *slot = PackedTrade {
                    time_ms,
                    price,
                    qty,
                };
                integers |= (time_ms | price | qty) as u64;
                fractions |= time_fraction | price_fraction | qty_fraction;
                if !QTY_RANGE_IN_SCAN {
                    bits |= qty_bits(qty);
                }
                len += 1;
            }
            let ahead = chunk.as_ptr().wrapping_add(3 * BLOCK).cast();
            sink.block(&block[..len], bits, ahead)?;
        }
        let all_whole = integers < TWO_POW_52 && fractions == 0;
        self.all_whole.set(self.all_whole.get() & all_whole);
        Ok(())
    }
}

/// A candle being summed in fixed point.
#[derive(Clone, Copy, Default)]
pub(super) struct Raw {
    pub(super) open_time: i64,
    pub(super) open: i64,
    pub(super) high: i64,
    pub(super) low: i64,
    pub(super) close: i64,
    pub(super) base: u128,
    pub(super) quote: u128,
    pub(super) count: u64,
}

/// The fixed-point aggregation, fed trades in blocks. With `WIDE` the products are 128-bit (needed
/// when a price × quantity may pass 2⁶³) and the quote sums saturate.
///
/// Values are not checked here, only summed without overflow (wrapping): [`aggregate_fast`] checks
/// the minima and maxima afterwards, and a batch with a bad value is never returned.
struct Scanner<const WIDE: bool> {
    interval: Interval,
    offset_ms: i64,
    raws: Vec<Raw>,
    /// The candle being summed, valid once `started`.
    raw: Raw,
    started: bool,
    /// The last millisecond of `raw`'s bucket, clamped to the end of the time range so that a time
    /// past the range always reaches the bucket branch and its check.
    close_time: i64,
    previous: i64,
    /// The OR of the quantities' [`qty_bits`].
    qty_bits: u64,
}

impl<const WIDE: bool> Scanner<WIDE> {
    fn new(interval: Interval, offset_ms: i64) -> Self {
        Self {
            interval,
            offset_ms,
            raws: Vec::new(),
            raw: Raw::default(),
            started: false,
            close_time: i64::MIN,
            previous: i64::MIN,
            qty_bits: 0,
        }
    }

    /// The hot loop: runs of trades in one bucket, in order (the common case), with the least state
    /// live — per trade two comparisons of the time, the high, the low, the sums and the quantity
    /// bound; the close price and the count are taken once per run. Bucket arithmetic and the
    /// order error only when a run ends. The narrow pass sums quantities in 64 bits
    /// ([`aggregate_fast`] checks that they cannot wrap).
    #[inline(always)]
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn scan(&mut self, trades: &[PackedTrade], ahead: *const u8) -> Result<(), Stop> {
        // The close time starts at `i64::MIN` so that the first trade opens a bucket, except a first
        // trade at `i64::MIN` itself, which is out of range anyway.
        if !self.started && trades.first().is_some_and(|t| t.time_ms == i64::MIN) {
            return Err(Stop::Invalid);
        }
        // Locals, so that the loop keeps its state in registers.
        let (mut raw, mut close_time, mut previous) = (self.raw, self.close_time, self.previous);
        let mut base = raw.base as u64;
        let mut bits = self.qty_bits;
        // Where a trade's prefetch hint is, from the trade's own address.
        let ahead = (ahead as usize).wrapping_sub(trades.as_ptr() as usize);
        let mut i = 0;
        loop {
            // A run of trades in the bucket, in order, with the least state live (no close price or
            // count per trade): node's optimised code for the loop then keeps less of it on the
            // stack, 20-25% less time in wasm; an iterator, not an index, or LLVM spills natively.
            let run = &trades[i..];
            let mut len: usize = 0;
            for trade in run {
                if trade.time_ms < previous || trade.time_ms > close_time {
                    break;
                }
                prefetch(std::ptr::from_ref(trade).cast::<u8>().wrapping_add(ahead));
                previous = trade.time_ms;
                if QTY_RANGE_IN_SCAN {
                    bits |= qty_bits(trade.qty);
                }
                raw.high = raw.high.max(trade.price);
                raw.low = raw.low.min(trade.price);
                if WIDE {
                    raw.base = raw.base.wrapping_add(u128::from(trade.qty as u64));
                    raw.quote = raw.quote.saturating_add(turnover::<WIDE>(trade));
                } else {
                    base = base.wrapping_add(trade.qty as u64);
                    raw.quote = raw.quote.wrapping_add(turnover::<WIDE>(trade));
                }
                len += 1;
            }
            if let Some(last) = len.checked_sub(1).and_then(|last| run.get(last)) {
                raw.close = last.price;
                raw.count += len as u64;
            }
            i += len;
            // The end of the block, a trade out of order, or one that opens the next bucket.
            let Some(trade) = trades.get(i) else { break };
            prefetch(std::ptr::from_ref(trade).cast::<u8>().wrapping_add(ahead));
            if trade.time_ms < previous {
                return Err(Stop::Unsorted);
            }
            if !(-MAX_EPOCH_MS..=MAX_EPOCH_MS).contains(&trade.time_ms) {
                return Err(Stop::Invalid);
            }
            previous = trade.time_ms;
            if QTY_RANGE_IN_SCAN {
                bits |= qty_bits(trade.qty);
            }
            if self.started {
                if !WIDE {
                    raw.base = u128::from(base);
                }
                self.raws.push(raw);
            }
            self.started = true;
            let bucket = self
                .interval
                .bucket_unchecked(trade.time_ms, self.offset_ms);
            close_time = bucket.close_time.min(MAX_EPOCH_MS);
            raw = Raw::open(bucket.open_time, trade, turnover::<WIDE>(trade));
            base = trade.qty as u64;
            i += 1;
        }
        if !WIDE {
            raw.base = u128::from(base);
        }
        (self.raw, self.close_time, self.previous) = (raw, close_time, previous);
        self.qty_bits = bits;
        Ok(())
    }

    /// The summed candles, and the OR of the quantities' [`qty_bits`].
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn finish(mut self) -> (Vec<Raw>, u64) {
        if self.started {
            self.raws.push(self.raw);
        }
        (self.raws, self.qty_bits)
    }
}

/// Asks the CPU to bring the cache line at `address` into its caches: a hint that never faults,
/// whatever the address; nothing on targets without one (wasm).
#[inline(always)]
fn prefetch(address: *const u8) {
    #[cfg(target_arch = "x86_64")]
    // SAFETY: a prefetch only reads, never faults, and needs no alignment.
    unsafe {
        use std::arch::x86_64::{_MM_HINT_T0, _mm_prefetch};
        _mm_prefetch::<_MM_HINT_T0>(address.cast());
    }
    #[cfg(not(target_arch = "x86_64"))]
    let _ = address;
}

// Valid prices and quantities are above zero, so the sums are unsigned: adding a zero-extended
// 64-bit value to 128 bits is cheaper than a sign-extended one (in wasm especially). Bad values only
// make garbage sums of batches that are never returned.
#[inline(always)]
#[cfg_attr(optimize_hot, optimize(speed))]
fn turnover<const WIDE: bool>(trade: &PackedTrade) -> u128 {
    if WIDE {
        u128::from(trade.price as u64).wrapping_mul(u128::from(trade.qty as u64))
    } else {
        u128::from(trade.price.wrapping_mul(trade.qty) as u64)
    }
}

impl Raw {
    #[inline(always)]
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn open(open_time: i64, trade: &PackedTrade, turnover: u128) -> Self {
        Self {
            open_time,
            open: trade.price,
            high: trade.price,
            low: trade.price,
            close: trade.price,
            base: u128::from(trade.qty as u64),
            quote: turnover,
            count: 1,
        }
    }
}

/// The decimal candles of positive fixed-point sums, or `None` when one is not exact as a
/// [`Decimal`] (a quote scale above 28, a sum of 96 bits or more).
#[cfg_attr(optimize_hot, optimize(speed))]
fn to_candles(raws: &[Raw], scales: Scales) -> Option<Vec<Candle>> {
    let quote_scale = scales.price + scales.qty;
    if quote_scale > MAX_SCALE {
        return None;
    }
    let decimal = |value: u128, scale: u32| {
        (value < DECIMAL_MANTISSA_LIMIT)
            .then(|| Decimal::try_from_i128_with_scale(value as i128, scale).ok())
            .flatten()
            .map(|d| d.normalize())
    };
    raws.iter()
        .map(|raw| {
            let price = |value: i64| decimal(u128::from(value as u64), scales.price);
            Some(Candle {
                open_time: raw.open_time,
                open: price(raw.open)?,
                high: price(raw.high)?,
                low: price(raw.low)?,
                close: price(raw.close)?,
                base_volume: decimal(raw.base, scales.qty)?,
                quote_volume: decimal(raw.quote, quote_scale)?,
                trade_count: raw.count,
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    const T0: i64 = 1_704_067_200_000;

    fn trade(price: &str, qty: &str, time_ms: i64) -> Trade {
        Trade {
            price: Decimal::from_str(price).unwrap(),
            qty: Decimal::from_str(qty).unwrap(),
            time_ms,
        }
    }

    fn reference(trades: &[Trade], interval: Interval) -> Vec<Candle> {
        aggregate_decimal(trades, interval, 0).unwrap()
    }

    #[test]
    fn packs_at_the_largest_scale_of_the_batch() {
        let trades = [trade("65000.1", "0.5", T0), trade("65000.12", "2", T0 + 1)];
        let (packed, scales) = pack_trades(&trades).unwrap();
        assert_eq!(scales, Scales { price: 2, qty: 1 });
        assert_eq!(
            packed,
            [
                PackedTrade {
                    time_ms: T0,
                    price: 6_500_010,
                    qty: 5
                },
                PackedTrade {
                    time_ms: T0 + 1,
                    price: 6_500_012,
                    qty: 20
                },
            ]
        );
        assert_eq!(
            aggregate_packed(&packed, scales, Interval::OneMinute, 0).unwrap(),
            reference(&trades, Interval::OneMinute)
        );
        // A value that does not fit 64 bits at the batch's scale cannot be packed.
        assert_eq!(
            pack_trades(&[
                trade("1.0000000000000000001", "1", T0),
                trade("100", "1", T0)
            ]),
            None
        );
    }

    #[test]
    fn products_past_64_bits_take_the_wide_loop() {
        let trades = [
            trade("12345678.12345678", "123456.12345678", T0),
            trade("12345679.5", "99999.99999999", T0 + 1),
        ];
        let (packed, scales) = pack_trades(&trades).unwrap();
        assert!(packed[0].price as i128 * packed[0].qty as i128 > i64::MAX as i128);
        assert_eq!(
            aggregate_packed(&packed, scales, Interval::OneMinute, 0).unwrap(),
            reference(&trades, Interval::OneMinute)
        );
    }

    #[test]
    fn scales_past_28_decimals_take_the_decimal_path() {
        // 20 + 10 decimals in a product: Decimal rounds it, and so must the result.
        let trades = [
            trade("0.00000000000000000003", "1.0000000001", T0),
            trade("0.00000000000000000007", "2", T0 + 1),
        ];
        let (packed, scales) = pack_trades(&trades).unwrap();
        assert_eq!(scales.price + scales.qty, 30);
        assert_eq!(
            aggregate_packed(&packed, scales, Interval::OneMinute, 0).unwrap(),
            reference(&trades, Interval::OneMinute)
        );
        assert_eq!(
            aggregate_trades_via_api(&trades),
            reference(&trades, Interval::OneMinute)
        );
    }

    fn aggregate_trades_via_api(trades: &[Trade]) -> Vec<Candle> {
        super::super::aggregate_trades(trades, Interval::OneMinute, 0).unwrap()
    }

    #[test]
    fn packed_errors() {
        let good = PackedTrade {
            time_ms: T0,
            price: 100,
            qty: 1,
        };
        let scales = Scales { price: 2, qty: 0 };
        let bad_qty = PackedTrade { qty: 0, ..good };
        assert_eq!(
            aggregate_packed(&[good, bad_qty], scales, Interval::OneMinute, 0),
            Err(CoreError::NonPositiveTrade {
                index: 1,
                name: "qty",
                value: "0".into()
            })
        );
        let bad_price = PackedTrade {
            price: -150,
            ..good
        };
        assert_eq!(
            aggregate_packed(&[bad_price], scales, Interval::OneMinute, 0),
            Err(CoreError::NonPositiveTrade {
                index: 0,
                name: "price",
                value: "-1.50".into()
            })
        );
        // The earliest i64 time is not above the scanner's initial close time: still out of range,
        // alone or before a good trade.
        let earliest = PackedTrade {
            time_ms: i64::MIN,
            ..good
        };
        for trades in [[earliest, earliest], [earliest, good]] {
            assert!(matches!(
                aggregate_packed(&trades, scales, Interval::OneMinute, 0),
                Err(CoreError::IntegerOutOfRange { name: "time", .. })
            ));
        }
        let too_late = PackedTrade {
            time_ms: MAX_EPOCH_MS + 1,
            ..good
        };
        assert!(matches!(
            aggregate_packed(&[good, too_late], scales, Interval::OneMonth, 0),
            Err(CoreError::IntegerOutOfRange { name: "time", .. })
        ));
        assert!(matches!(
            aggregate_packed(
                &[good],
                Scales { price: 29, qty: 0 },
                Interval::OneMinute,
                0
            ),
            Err(CoreError::IntegerOutOfRange {
                name: "priceScale",
                ..
            })
        ));
    }

    #[test]
    fn quantities_near_the_safe_limit_are_summed_exactly() {
        // The scan bounds the largest quantity by a power of two: from 2⁵² + 1 to 2⁵³ − 1 the bound
        // passes the limit of numbers, and the checked path must give the exact candles.
        let t0 = T0 as f64;
        let scales = Scales { price: 0, qty: 0 };
        for qty in [MAX_SAFE_INTEGER, (1 << 52) + 1, 1 << 52] {
            let candles = aggregate_records(
                &[t0, 3.0, qty as f64, t0 + 1.0, 2.0, 1.0],
                scales,
                Interval::OneMinute,
                0,
            )
            .unwrap();
            let expected = reference(
                &[trade("3", &qty.to_string(), T0), trade("2", "1", T0 + 1)],
                Interval::OneMinute,
            );
            assert_eq!(candles, expected);
            let packed = [
                PackedTrade {
                    time_ms: T0,
                    price: 3,
                    qty,
                },
                PackedTrade {
                    time_ms: T0 + 1,
                    price: 2,
                    qty: 1,
                },
            ];
            assert_eq!(
                aggregate_packed(&packed, scales, Interval::OneMinute, 0).unwrap(),
                expected
            );
        }
    }

    #[test]
    fn records_are_three_whole_numbers_per_trade() {
        let t0 = T0 as f64;
        let scales = Scales { price: 2, qty: 3 };
        let candles = aggregate_records(
            &[t0 + 2.0, 10_050.0, 1_500.0, t0, 10_000.0, 250.0],
            scales,
            Interval::OneMinute,
            0,
        )
        .unwrap();
        assert_eq!(
            candles,
            reference(
                &[trade("100", "0.25", T0), trade("100.5", "1.5", T0 + 2)],
                Interval::OneMinute
            )
        );
        let call = |records: &[f64]| aggregate_records(records, scales, Interval::OneMinute, 0);
        assert_eq!(
            call(&[t0, 1.0]),
            Err(CoreError::InvalidArgument { name: "trades" })
        );
        assert_eq!(
            call(&[t0, 1.0, 1.0, t0, 1.5, 1.0]),
            Err(CoreError::NotAnInteger {
                name: "price",
                value: "1.5".into()
            })
        );
        assert!(matches!(
            call(&[t0, 1.0, f64::NAN]),
            Err(CoreError::NotAnInteger { name: "qty", .. })
        ));
        assert!(matches!(
            call(&[t0, 9_007_199_254_740_992.0, 1.0]),
            Err(CoreError::IntegerOutOfRange { name: "price", .. })
        ));
        assert!(matches!(
            call(&[8.64e15 + 1.0, 1.0, 1.0]),
            Err(CoreError::IntegerOutOfRange { name: "time", .. })
        ));
        assert_eq!(
            call(&[t0, 1.0, 1.0, t0, 1.0, -1.0]),
            Err(CoreError::NonPositiveTrade {
                index: 1,
                name: "qty",
                value: "-0.001".into()
            })
        );
        assert_eq!(call(&[]).unwrap(), []);
    }
}
