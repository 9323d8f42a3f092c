//! The order book: levels grouped to a tick, cumulative depth, and the whole formatted table in one
//! call, so the page crosses the wasm boundary once per update, not once per cell.
//!
//! # Grouping ([`group_order_book`])
//! Each bid price is rounded down to a multiple of the tick and each ask price up (so a grouped level
//! never looks better than the orders in it), quantities at the same grouped price are summed, and
//! levels with a zero quantity (removals in a diff update) are dropped. Bids come out best first
//! (descending), asks best first (ascending), whatever the input order; the cumulative quantity runs
//! from the best price outward. A level's depth is its cumulative quantity as a share of the larger of
//! the two sides' totals, so the depth bars of both sides share one scale. With a `limit`, each side
//! keeps only its best `limit` levels, and totals and depth refer to what is kept.
//!
//! # Formatting ([`format_order_book`], [`format_order_book_packed`])
//! | column | rule |
//! |---|---|
//! | price | [`format_price`](super::format_price): the pair's price precision; without one, the tick's decimals when grouping, otherwise decimals by magnitude |
//! | quantity, cumulative | [`format_quantity`](super::format_quantity) with the quantity precision |
//! | total (price × quantity, in the quote coin) | [`format_amount`](super::format_amount): 2 decimals, from the exact product |
//! | depth | the depth share in percent with 2 decimals and no sign or `%` (`"45.67"`), for a bar's width |
//!
//! # Two ways in and out
//! [`format_order_book`] takes the levels as `[price, quantity]` string pairs and returns a row object
//! per level: the natural shape for a page, but in wasm each string and each object crosses the
//! boundary on its own (about 0.3 ms to bring 1,000 levels in and 1.4 ms to hand 1,000 rows out, in
//! node). [`format_order_book_packed`] takes the depth message's JSON text as it arrives from the
//! socket and returns each side as one string (`price\tquantity\ttotal\tcumulative\tdepth` rows
//! joined by `\n`), so a whole book crosses as three strings; the rows are the same.
//!
//! The arithmetic is integer wherever the numbers allow (prices rounded to the tick with an exact
//! remainder, totals as exact products of the two mantissas, depth as integer basis points), with
//! [`Decimal`] arithmetic as the fallback for numbers too wide for it.

mod message;

use rust_decimal::{Decimal, RoundingStrategy};
use serde::{Deserialize, Serialize};

use super::amount::push_amount;
use super::number::{POW10_U64, into_text, push_fixed, push_scaled};
use super::price::{MAX_PRECISION, auto_price_decimals};
use super::quantity::push_quantity;
use crate::error::CoreError;
use crate::money::parse_decimal;

/// Decimals of the depth share returned by [`group_order_book`].
pub const DEPTH_DECIMALS: u32 = 4;

/// One side of the book.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BookSide {
    /// Buy orders: grouped prices round down, best (highest) first.
    Bids,
    /// Sell orders: grouped prices round up, best (lowest) first.
    Asks,
}

impl BookSide {
    fn name(self) -> &'static str {
        match self {
            Self::Bids => "bids",
            Self::Asks => "asks",
        }
    }
}

/// One grouped level with its cumulative depth.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct GroupedLevel {
    /// The price, a multiple of the tick, with the tick's decimals.
    pub price: Decimal,
    /// The summed quantity at this price, without trailing zeros.
    pub quantity: Decimal,
    /// The quantity of this level and every better one, without trailing zeros.
    pub cumulative: Decimal,
    /// `cumulative` as a share of the larger side's total, from 0 to 1 with [`DEPTH_DECIMALS`]
    /// decimals (midpoint away from zero).
    pub depth: Decimal,
}

/// Both sides of a grouped book, each best first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct GroupedBook {
    /// Bids, highest price first.
    pub bids: Vec<GroupedLevel>,
    /// Asks, lowest price first.
    pub asks: Vec<GroupedLevel>,
}

/// Groups the levels of both sides to `tick` (rules in [`crate::format::book`](self)). Levels are
/// `[price, quantity]` decimal strings.
///
/// Fails with the decimal error of the first malformed price or quantity,
/// [`CoreError::InvalidArgument`] named `tick` unless `tick` is above zero, or named `bids` / `asks`
/// for a negative price or quantity, and [`CoreError::DecimalOutOfRange`] if a sum leaves the range of
/// the core's decimals.
pub fn group_order_book<S: AsRef<str>>(
    bids: &[[S; 2]],
    asks: &[[S; 2]],
    tick: Decimal,
    limit: Option<usize>,
) -> Result<GroupedBook, CoreError> {
    let tick = checked_tick(Some(tick))?;
    let bids = grouped_side(pairs(bids), BookSide::Bids, tick, limit)?;
    let asks = grouped_side(pairs(asks), BookSide::Asks, tick, limit)?;
    let max = max_cumulative(&bids, &asks);
    let view = |levels: Vec<Level>| {
        levels
            .into_iter()
            .map(|level| GroupedLevel {
                price: level.price,
                quantity: level.quantity.normalize(),
                cumulative: level.cumulative.normalize(),
                depth: Decimal::from_i128_with_scale(
                    basis_points(level.cumulative, max) as i128,
                    DEPTH_DECIMALS,
                ),
            })
            .collect()
    };
    Ok(GroupedBook {
        bids: view(bids),
        asks: view(asks),
    })
}

/// How to show an order book: all optional.
#[derive(Debug, Clone, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderBookOptions {
    /// The tick to group to, a decimal string above zero; absent to keep the prices as they are
    /// (equal prices are still merged).
    #[serde(default)]
    pub tick: Option<String>,
    /// The pair's price precision (0 to 28).
    #[serde(default)]
    pub price_precision: Option<u32>,
    /// The coin's quantity precision (0 to 28); absent to show each quantity's own decimals.
    #[serde(default)]
    pub quantity_precision: Option<u32>,
    /// The most levels per side to return; absent for all.
    #[serde(default)]
    pub limit: Option<u32>,
}

/// The order book as the page holds it, with the [`OrderBookOptions`] fields beside the levels.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderBookInput {
    /// Bids as `[price, quantity]` decimal strings, in any order.
    pub bids: Vec<[String; 2]>,
    /// Asks as `[price, quantity]` decimal strings, in any order.
    pub asks: Vec<[String; 2]>,
    /// See [`OrderBookOptions::tick`].
    #[serde(default)]
    pub tick: Option<String>,
    /// See [`OrderBookOptions::price_precision`].
    #[serde(default)]
    pub price_precision: Option<u32>,
    /// See [`OrderBookOptions::quantity_precision`].
    #[serde(default)]
    pub quantity_precision: Option<u32>,
    /// See [`OrderBookOptions::limit`].
    #[serde(default)]
    pub limit: Option<u32>,
}

/// One formatted row of the order book.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct OrderBookRow {
    /// The (grouped) price.
    pub price: String,
    /// The quantity at this price.
    pub quantity: String,
    /// Price × quantity in the quote coin.
    pub total: String,
    /// The quantity of this row and every better one.
    pub cumulative: String,
    /// The depth bar's width in percent, `"0.00"` to `"100.00"`.
    pub depth: String,
}

/// The formatted order book, each side best first (the page shows asks bottom-up).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct OrderBookView {
    /// Bids, highest price first.
    pub bids: Vec<OrderBookRow>,
    /// Asks, lowest price first.
    pub asks: Vec<OrderBookRow>,
}

/// The formatted order book with each side as one string: rows joined by `\n`, each row's price,
/// quantity, total, cumulative and depth joined by `\t` (an empty string for a side without rows).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct PackedOrderBook {
    /// Bids, highest price first.
    pub bids: String,
    /// Asks, lowest price first.
    pub asks: String,
}

/// Groups (when a tick is given) and formats the whole book in one call (rules in
/// [`crate::format::book`](self)).
///
/// Fails like [`group_order_book`], and with [`CoreError::IntegerOutOfRange`] for a precision above
/// 28.
pub fn format_order_book(input: &OrderBookInput) -> Result<OrderBookView, CoreError> {
    let settings = Settings::new(
        input.tick.as_deref(),
        input.price_precision,
        input.quantity_precision,
        input.limit,
    )?;
    let bids = grouped_side(
        pairs(&input.bids),
        BookSide::Bids,
        settings.tick,
        settings.limit,
    )?;
    let asks = grouped_side(
        pairs(&input.asks),
        BookSide::Asks,
        settings.tick,
        settings.limit,
    )?;
    let max = max_cumulative(&bids, &asks);
    let rows = |levels: &[Level]| -> Result<Vec<OrderBookRow>, CoreError> {
        levels
            .iter()
            .map(|level| {
                let [price, quantity, total, cumulative, depth] = COLUMNS.map(|column| {
                    let mut cell = Vec::new();
                    let pushed = settings.push_cell(&mut cell, column, level, max);
                    pushed.map(|()| into_text(cell))
                });
                Ok(OrderBookRow {
                    price: price?,
                    quantity: quantity?,
                    total: total?,
                    cumulative: cumulative?,
                    depth: depth?,
                })
            })
            .collect()
    };
    Ok(OrderBookView {
        bids: rows(&bids)?,
        asks: rows(&asks)?,
    })
}

/// [`format_order_book`] for a depth message as the socket delivers it: a JSON object whose `bids`
/// and `asks` members are arrays of `[price, quantity]` pairs, each a decimal string or a JSON number
/// (read as its exact decimal text; never through a float). Other members are skipped. Rows come out
/// packed ([`PackedOrderBook`]) with the same cells as [`format_order_book`]'s.
///
/// Fails with [`CoreError::InvalidArgument`] named `message` when the text is not such an object,
/// otherwise like [`format_order_book`].
#[cfg_attr(optimize_hot, optimize(speed))]
pub fn format_order_book_packed(
    message: &str,
    options: &OrderBookOptions,
) -> Result<PackedOrderBook, CoreError> {
    let settings = Settings::new(
        options.tick.as_deref(),
        options.price_precision,
        options.quantity_precision,
        options.limit,
    )?;
    let (bids, asks) = message::parse(message)?;
    let bids = grouped_side(
        bids.into_iter(),
        BookSide::Bids,
        settings.tick,
        settings.limit,
    )?;
    let asks = grouped_side(
        asks.into_iter(),
        BookSide::Asks,
        settings.tick,
        settings.limit,
    )?;
    let max = max_cumulative(&bids, &asks);
    let packed = |levels: &[Level]| -> Result<String, CoreError> {
        // About 60 bytes a row for typical prices: one allocation per side, made text once.
        let mut text = Vec::with_capacity(levels.len() * 64);
        for (i, level) in levels.iter().enumerate() {
            if i > 0 {
                text.push(b'\n');
            }
            for (j, column) in COLUMNS.into_iter().enumerate() {
                if j > 0 {
                    text.push(b'\t');
                }
                settings.push_cell(&mut text, column, level, max)?;
            }
        }
        Ok(into_text(text))
    };
    Ok(PackedOrderBook {
        bids: packed(&bids)?,
        asks: packed(&asks)?,
    })
}

/// A parsed, grouped level.
struct Level {
    price: Decimal,
    quantity: Decimal,
    cumulative: Decimal,
}

/// The columns of a formatted row, in order.
#[derive(Debug, Clone, Copy)]
enum Column {
    Price,
    Quantity,
    Total,
    Cumulative,
    Depth,
}

const COLUMNS: [Column; 5] = [
    Column::Price,
    Column::Quantity,
    Column::Total,
    Column::Cumulative,
    Column::Depth,
];

/// Checked options of a formatting call.
struct Settings {
    tick: Option<Decimal>,
    limit: Option<usize>,
    /// The price decimals: the precision, else the tick's decimals, else by magnitude per price.
    price_decimals: Option<u32>,
    quantity_precision: Option<u32>,
}

impl Settings {
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn new(
        tick: Option<&str>,
        price_precision: Option<u32>,
        quantity_precision: Option<u32>,
        limit: Option<u32>,
    ) -> Result<Self, CoreError> {
        let price_precision = checked_precision("pricePrecision", price_precision)?;
        let quantity_precision = checked_precision("quantityPrecision", quantity_precision)?;
        let tick = checked_tick(tick.map(parse_decimal).transpose()?)?;
        Ok(Self {
            tick,
            limit: limit.map(|limit| limit as usize),
            // The tick's own decimals (0.10 → 1) are the natural precision of grouped prices.
            price_decimals: price_precision.or(tick.map(|tick| tick.normalize().scale())),
            quantity_precision,
        })
    }

    /// Appends the cell of `column` for `level` to `out`; `max` is the larger side's total.
    #[cfg_attr(optimize_hot, optimize(speed))]
    fn push_cell(
        &self,
        out: &mut Vec<u8>,
        column: Column,
        level: &Level,
        max: Decimal,
    ) -> Result<(), CoreError> {
        match column {
            Column::Price => {
                let decimals = self
                    .price_decimals
                    .unwrap_or_else(|| auto_price_decimals(level.price));
                push_fixed(out, level.price, decimals, RoundingStrategy::ToZero, true);
            }
            Column::Quantity => push_quantity(out, level.quantity, self.quantity_precision),
            Column::Total => push_total(out, level.price, level.quantity)?,
            Column::Cumulative => push_quantity(out, level.cumulative, self.quantity_precision),
            Column::Depth => {
                let points = basis_points(level.cumulative, max);
                push_scaled(out, false, points, 2, 2, false, false);
            }
        }
        Ok(())
    }
}

/// The `[price, quantity]` pairs of `levels` as string slices.
#[cfg_attr(optimize_hot, optimize(speed))]
fn pairs<S: AsRef<str>>(levels: &[[S; 2]]) -> impl Iterator<Item = (&str, &str)> {
    levels
        .iter()
        .map(|[price, quantity]| (price.as_ref(), quantity.as_ref()))
}

#[cfg_attr(optimize_hot, optimize(speed))]
fn checked_tick(tick: Option<Decimal>) -> Result<Option<Decimal>, CoreError> {
    match tick {
        Some(tick) if tick <= Decimal::ZERO => Err(CoreError::InvalidArgument { name: "tick" }),
        tick => Ok(tick),
    }
}

#[cfg_attr(optimize_hot, optimize(speed))]
fn checked_precision(name: &'static str, precision: Option<u32>) -> Result<Option<u32>, CoreError> {
    match precision {
        Some(precision) if precision > MAX_PRECISION => Err(CoreError::IntegerOutOfRange {
            name,
            value: precision.to_string(),
            min: 0,
            max: i64::from(MAX_PRECISION),
        }),
        precision => Ok(precision),
    }
}

/// Parses, groups, orders, merges, limits and accumulates one side.
#[cfg_attr(optimize_hot, optimize(speed))]
fn grouped_side<'a>(
    levels: impl Iterator<Item = (&'a str, &'a str)>,
    side: BookSide,
    tick: Option<Decimal>,
    limit: Option<usize>,
) -> Result<Vec<Level>, CoreError> {
    let mut parsed: Vec<(Decimal, Decimal)> = Vec::with_capacity(levels.size_hint().0);
    for (price, quantity) in levels {
        let price = parse_level_value(price)?;
        let quantity = parse_level_value(quantity)?;
        if price.is_sign_negative() && !price.is_zero()
            || quantity.is_sign_negative() && !quantity.is_zero()
        {
            return Err(CoreError::InvalidArgument { name: side.name() });
        }
        if quantity.is_zero() {
            continue;
        }
        let price = match tick {
            Some(tick) => to_tick(price, tick, side)?,
            None => price,
        };
        parsed.push((price, quantity));
    }
    ordered_levels(parsed, side, limit)
}

/// Orders, merges, limits and accumulates one side's grouped levels (not generic, so the sort is
/// compiled once).
#[cfg_attr(optimize_hot, optimize(speed))]
fn ordered_levels(
    mut parsed: Vec<(Decimal, Decimal)>,
    side: BookSide,
    limit: Option<usize>,
) -> Result<Vec<Level>, CoreError> {
    let better = |a: &Decimal, b: &Decimal| match side {
        BookSide::Bids => b.cmp(a),
        BookSide::Asks => a.cmp(b),
    };
    // Feeds arrive sorted; sort only when they do not (the sort is stable, so merging keeps order).
    if !parsed.is_sorted_by(|a, b| better(&a.0, &b.0).is_le()) {
        parsed.sort_by(|a, b| better(&a.0, &b.0));
    }

    let mut merged: Vec<Level> = Vec::with_capacity(parsed.len().min(limit.unwrap_or(usize::MAX)));
    for (price, quantity) in parsed {
        if let Some(last) = merged.last_mut().filter(|last| last.price == price) {
            last.quantity = checked_sum(last.quantity, quantity)?;
        } else if limit.is_some_and(|limit| merged.len() >= limit) {
            break;
        } else {
            merged.push(Level {
                price,
                quantity,
                cumulative: Decimal::ZERO,
            });
        }
    }
    let mut running = Decimal::ZERO;
    for level in &mut merged {
        running = checked_sum(running, level.quantity)?;
        level.cumulative = running;
    }
    Ok(merged)
}

/// [`parse_decimal`], with a fast path for the form every feed sends: up to 19 digits with at most
/// one decimal point between them (the same decimal, scale included, as [`parse_decimal`] gives).
#[cfg_attr(optimize_hot, optimize(speed))]
fn parse_level_value(text: &str) -> Result<Decimal, CoreError> {
    let bytes = text.as_bytes();
    if (1..=20).contains(&bytes.len()) {
        let (mut mantissa, mut digits, mut point) = (0_u64, 0_u32, None);
        let plain = bytes.iter().enumerate().all(|(i, &byte)| match byte {
            b'0'..=b'9' if digits < 19 => {
                mantissa = mantissa * 10 + u64::from(byte - b'0');
                digits += 1;
                true
            }
            b'.' if point.is_none() && i > 0 && i + 1 < bytes.len() => {
                point = Some(i);
                true
            }
            _ => false,
        });
        if plain {
            let scale = point.map_or(0, |point| bytes.len() - point - 1) as u32;
            return Ok(Decimal::from_i128_with_scale(i128::from(mantissa), scale));
        }
    }
    parse_decimal(text)
}

/// `price` rounded to a multiple of `tick`: down for bids, up for asks, exactly (with the remainder,
/// as a quotient could round at 28 digits), with the tick's decimals.
#[cfg_attr(optimize_hot, optimize(speed))]
fn to_tick(price: Decimal, tick: Decimal, side: BookSide) -> Result<Decimal, CoreError> {
    let tick_scale = tick.normalize().scale();
    // 64-bit integers at the finer of the two scales when both fit (the usual case).
    let scale = price.scale().max(tick.scale());
    let widen = |value: Decimal| {
        let factor = *POW10_U64.get((scale - value.scale()) as usize)?;
        u64::try_from(value.mantissa()).ok()?.checked_mul(factor)
    };
    if let (Some(p), Some(t)) = (widen(price), widen(tick)) {
        let remainder = p % t;
        let grouped = match side {
            BookSide::Asks if remainder != 0 => (p - remainder).checked_add(t),
            _ => Some(p - remainder),
        };
        // A multiple of the tick ends in at least `scale - tick_scale` zeros: drop them exactly.
        if let (Some(grouped), Some(&unit)) =
            (grouped, POW10_U64.get((scale - tick_scale) as usize))
        {
            return Ok(Decimal::from_i128_with_scale(
                i128::from(grouped / unit),
                tick_scale,
            ));
        }
    }
    let out_of_range = || CoreError::DecimalOutOfRange {
        value: price.to_string(),
    };
    let remainder = price.checked_rem(tick).ok_or_else(out_of_range)?;
    let floor = price - remainder;
    let mut grouped = match side {
        BookSide::Asks if !remainder.is_zero() => {
            floor.checked_add(tick).ok_or_else(out_of_range)?
        }
        _ => floor,
    };
    grouped.rescale(tick_scale);
    Ok(grouped)
}

/// Appends price × quantity (both at least zero) as [`format_amount`](super::format_amount) shows it,
/// from the exact product of the mantissas when it fits 128 bits.
#[cfg_attr(optimize_hot, optimize(speed))]
fn push_total(out: &mut Vec<u8>, price: Decimal, quantity: Decimal) -> Result<(), CoreError> {
    let (p, q) = (
        price.mantissa().unsigned_abs(),
        quantity.mantissa().unsigned_abs(),
    );
    // A 64-bit product when both fit 32 bits or the product does not overflow (the usual case).
    let product = match (u64::try_from(p), u64::try_from(q)) {
        (Ok(p), Ok(q)) => p.checked_mul(q).map(u128::from),
        _ => None,
    }
    .or_else(|| p.checked_mul(q));
    match product {
        Some(product) => {
            let scale = price.scale() + quantity.scale();
            push_scaled(out, false, product, scale, 2, true, true);
        }
        None => {
            let total =
                price
                    .checked_mul(quantity)
                    .ok_or_else(|| CoreError::DecimalOutOfRange {
                        value: format!("{price} * {quantity}"),
                    })?;
            push_amount(out, total);
        }
    }
    Ok(())
}

#[cfg_attr(optimize_hot, optimize(speed))]
fn checked_sum(a: Decimal, b: Decimal) -> Result<Decimal, CoreError> {
    a.checked_add(b)
        .ok_or_else(|| CoreError::DecimalOutOfRange {
            value: b.to_string(),
        })
}

#[cfg_attr(optimize_hot, optimize(speed))]
fn max_cumulative(bids: &[Level], asks: &[Level]) -> Decimal {
    let total = |levels: &[Level]| {
        levels
            .last()
            .map_or(Decimal::ZERO, |level| level.cumulative)
    };
    total(bids).max(total(asks))
}

/// `part / whole` in basis points (0 to 10000 for `0 ≤ part ≤ whole`), midpoint away from zero; 0 when
/// `whole` is zero. Integer arithmetic at the common scale, [`Decimal`] division when that overflows.
#[cfg_attr(optimize_hot, optimize(speed))]
fn basis_points(part: Decimal, whole: Decimal) -> u128 {
    if whole.is_zero() {
        return 0;
    }
    let scale = part.scale().max(whole.scale());
    // 64-bit arithmetic when the numbers fit it (128-bit division is slow in wasm32), then 128-bit.
    let widen64 = |value: Decimal| {
        let factor = *POW10_U64.get((scale - value.scale()) as usize)?;
        u64::try_from(value.mantissa().unsigned_abs())
            .ok()?
            .checked_mul(factor)
    };
    if let (Some(part), Some(whole)) = (widen64(part), widen64(whole))
        && let Some(numerator) = part.checked_mul(10_000)
    {
        let (quotient, remainder) = (numerator / whole, numerator % whole);
        return u128::from(quotient + u64::from(remainder >= whole - remainder));
    }
    let widen = |value: Decimal| {
        10_u128
            .checked_pow(scale - value.scale())
            .and_then(|factor| value.mantissa().unsigned_abs().checked_mul(factor))
    };
    if let (Some(part), Some(whole)) = (widen(part), widen(whole))
        && let Some(numerator) = part.checked_mul(10_000)
    {
        let (quotient, remainder) = (numerator / whole, numerator % whole);
        return quotient + u128::from(remainder >= whole - remainder);
    }
    let ratio = part.checked_div(whole).unwrap_or(Decimal::ZERO) * Decimal::from(10_000);
    let rounded = ratio.round_dp_with_strategy(0, RoundingStrategy::MidpointAwayFromZero);
    rounded.mantissa().unsigned_abs() / 10_u128.pow(rounded.scale())
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::str::FromStr;

    fn d(text: &str) -> Decimal {
        Decimal::from_str(text).unwrap()
    }

    fn levels(pairs: &[(&str, &str)]) -> Vec<[String; 2]> {
        pairs
            .iter()
            .map(|(p, q)| [p.to_string(), q.to_string()])
            .collect()
    }

    fn rows(levels: &[GroupedLevel]) -> Vec<[String; 4]> {
        levels
            .iter()
            .map(|l| {
                [
                    l.price.to_string(),
                    l.quantity.to_string(),
                    l.cumulative.to_string(),
                    l.depth.to_string(),
                ]
            })
            .collect()
    }

    proptest::proptest! {
        #[test]
        fn fast_parse_matches_parse_decimal(text in "[0-9]{0,12}\\.?[0-9]{0,12}|[0-9.+\\- e]{0,22}") {
            let fast = parse_level_value(&text);
            let slow = parse_decimal(&text);
            proptest::prop_assert_eq!(&fast, &slow);
            if let (Ok(fast), Ok(slow)) = (fast, slow) {
                proptest::prop_assert_eq!(fast.to_string(), slow.to_string());
            }
        }
    }

    #[test]
    fn basis_points_on_every_path() {
        let cases = [
            ("1", "3", 3333),
            ("2", "3", 6667),
            ("0.00005", "1", 1),
            ("0.000049", "1", 0),
            ("1.5", "1.5", 10000),
            ("0", "7", 0),
            ("0", "0", 0),
            // 64-bit overflow: 128-bit arithmetic.
            ("12345678901234567.89", "98765432109876543.21", 1250),
            // 128-bit overflow: Decimal division.
            (
                "7922816251426433759354395033.5",
                "79228162514264337593543950335",
                1000,
            ),
            (
                "0.0000000000000000000000000001",
                "79228162514264337593543950335",
                0,
            ),
        ];
        for (part, whole, points) in cases {
            assert_eq!(basis_points(d(part), d(whole)), points, "{part} / {whole}");
        }
    }

    #[test]
    fn totals_on_every_path() {
        let total = |price: &str, quantity: &str| {
            let mut out = Vec::new();
            push_total(&mut out, d(price), d(quantity)).map(|()| into_text(out))
        };
        assert_eq!(total("65000.12", "0.12345").unwrap(), "8,024.26");
        assert_eq!(total("0.005", "1").unwrap(), "0.01");
        assert_eq!(total("0.0049", "1").unwrap(), "0.00");
        // A 64-bit overflow, exact in 128 bits.
        assert_eq!(
            total("123456789012.345678", "987654321.987654321").unwrap(),
            "121,932,631,246,761,162,347.20"
        );
        // Beyond a Decimal but exact in 128 bits.
        assert_eq!(
            total("79228162514264337593543950335", "2").unwrap(),
            "158,456,325,028,528,675,187,087,900,670.00"
        );
        // A 128-bit overflow: Decimal multiplication, or an error beyond its range.
        assert_eq!(
            total("7922816251426433759354395033.5", "1.0000000000").unwrap(),
            "7,922,816,251,426,433,759,354,395,033.50"
        );
        assert_eq!(
            total(
                "79228162514264337593543950335",
                "79228162514264337593543950335"
            )
            .unwrap_err()
            .code(),
            "decimal_out_of_range"
        );
    }

    #[test]
    fn rounding_to_the_tick() {
        let cases = [
            ("100.57", "0.1", "100.5", "100.6"),
            ("100.50", "0.1", "100.5", "100.5"),
            ("100.5", "1", "100", "101"),
            ("105", "10", "100", "110"),
            ("100", "10", "100", "100"),
            ("0.00012345", "0.0001", "0.0001", "0.0002"),
            ("7.3", "0.25", "7.25", "7.50"),
            ("7", "3", "6", "9"),
            ("0", "0.01", "0.00", "0.00"),
            ("65000.1234", "0.10", "65000.1", "65000.2"),
            // Beyond 64 bits at the common scale: Decimal arithmetic.
            (
                "12345678901234567890.5",
                "0.0001",
                "12345678901234567890.5000",
                "12345678901234567890.5000",
            ),
            (
                "79228162514264337593543950335",
                "10",
                "79228162514264337593543950330",
                "out of range",
            ),
        ];
        for (price, tick, down, up) in cases {
            let (price, tick) = (d(price), d(tick));
            let text = |side| match to_tick(price, tick, side) {
                Ok(grouped) => grouped.to_string(),
                Err(_) => "out of range".to_owned(),
            };
            assert_eq!(text(BookSide::Bids), down, "{price} {tick}");
            assert_eq!(text(BookSide::Asks), up, "{price} {tick}");
        }
    }

    #[test]
    fn groups_merges_and_accumulates() {
        let bids = levels(&[
            ("100.57", "1"),
            ("100.51", "2"),
            ("100.49", "3"),
            ("99.9", "0.5"),
        ]);
        let asks = levels(&[
            ("100.61", "1.5"),
            ("100.7", "1"),
            ("100.71", "2"),
            ("100.65", "0"),
        ]);
        let book = group_order_book(&bids, &asks, d("0.1"), None).unwrap();
        assert_eq!(
            rows(&book.bids),
            [
                ["100.5", "3", "3", "0.4615"],
                ["100.4", "3", "6", "0.9231"],
                ["99.9", "0.5", "6.5", "1.0000"],
            ]
        );
        assert_eq!(
            rows(&book.asks),
            [
                ["100.7", "2.5", "2.5", "0.3846"],
                ["100.8", "2", "4.5", "0.6923"],
            ]
        );
    }

    #[test]
    fn sorts_unsorted_input_and_limits() {
        let bids = levels(&[("99", "1"), ("101", "1"), ("100", "1"), ("101", "2")]);
        let asks = levels(&[("105", "1"), ("103", "1"), ("104", "1")]);
        let book = group_order_book(&bids, &asks, d("1"), Some(2)).unwrap();
        assert_eq!(
            rows(&book.bids),
            [["101", "3", "3", "0.7500"], ["100", "1", "4", "1.0000"]]
        );
        assert_eq!(
            rows(&book.asks),
            [["103", "1", "1", "0.2500"], ["104", "1", "2", "0.5000"]]
        );
        let empty = group_order_book::<&str>(&[], &[], d("1"), None).unwrap();
        assert!(empty.bids.is_empty() && empty.asks.is_empty());
    }

    #[test]
    fn bad_input() {
        let one = levels(&[("1", "1")]);
        for tick in ["0", "-1"] {
            assert_eq!(
                group_order_book(&one, &one, d(tick), None),
                Err(CoreError::InvalidArgument { name: "tick" })
            );
        }
        assert_eq!(
            group_order_book(&levels(&[("1", "-1")]), &one, d("1"), None),
            Err(CoreError::InvalidArgument { name: "bids" })
        );
        assert_eq!(
            group_order_book(&one, &levels(&[("-1", "1")]), d("1"), None),
            Err(CoreError::InvalidArgument { name: "asks" })
        );
        assert_eq!(
            group_order_book(&levels(&[("x", "1")]), &one, d("1"), None),
            Err(CoreError::InvalidDecimal { value: "x".into() })
        );
        let huge = levels(&[("1", "79228162514264337593543950335"), ("2", "1")]);
        assert_eq!(
            group_order_book(&huge, &one, d("1"), None)
                .unwrap_err()
                .code(),
            "decimal_out_of_range"
        );
    }

    fn input(tick: Option<&str>, price: Option<u32>, quantity: Option<u32>) -> OrderBookInput {
        OrderBookInput {
            bids: levels(&[("65432.17", "0.5"), ("65431.99", "1.25"), ("65420", "2")]),
            asks: levels(&[("65432.5", "0.75"), ("65433.01", "3")]),
            tick: tick.map(String::from),
            price_precision: price,
            quantity_precision: quantity,
            limit: None,
        }
    }

    #[test]
    fn formats_rows() {
        let view = format_order_book(&input(Some("10"), None, Some(4))).unwrap();
        assert_eq!(
            view.bids,
            [
                OrderBookRow {
                    price: "65,430".into(),
                    quantity: "1.7500".into(),
                    total: "114,502.50".into(),
                    cumulative: "1.7500".into(),
                    depth: "46.67".into(),
                },
                OrderBookRow {
                    price: "65,420".into(),
                    quantity: "2.0000".into(),
                    total: "130,840.00".into(),
                    cumulative: "3.7500".into(),
                    depth: "100.00".into(),
                },
            ]
        );
        assert_eq!(view.asks.len(), 1);
        assert_eq!(view.asks[0].price, "65,440");
        assert_eq!(view.asks[0].depth, "100.00");
        let ungrouped = format_order_book(&input(None, Some(2), None)).unwrap();
        assert_eq!(ungrouped.bids[0].price, "65,432.17");
        assert_eq!(ungrouped.bids[0].quantity, "0.5");
        assert_eq!(ungrouped.bids[0].total, "32,716.09");
        assert_eq!(ungrouped.asks[1].price, "65,433.01");
        let auto = format_order_book(&input(None, None, None)).unwrap();
        assert_eq!(auto.bids[0].price, "65,432.17");
        assert_eq!(auto.bids[2].price, "65,420.00");
    }

    #[test]
    fn format_errors() {
        assert_eq!(
            format_order_book(&input(Some("0"), None, None)),
            Err(CoreError::InvalidArgument { name: "tick" })
        );
        assert_eq!(
            format_order_book(&input(Some("abc"), None, None)),
            Err(CoreError::InvalidDecimal {
                value: "abc".into()
            })
        );
        assert_eq!(
            format_order_book(&input(None, Some(29), None))
                .unwrap_err()
                .code(),
            "integer_out_of_range"
        );
    }

    fn decimal_text() -> impl proptest::strategy::Strategy<Value = String> {
        use proptest::prelude::*;
        prop_oneof![
            8 => "[0-9]{1,7}(\\.[0-9]{1,8})?",
            1 => "[0-9]{20,30}\\.[0-9]{0,10}",
            1 => "\\PC{0,6}",
        ]
    }

    fn packed_rows(rows: &[OrderBookRow]) -> String {
        rows.iter()
            .map(|r| {
                [&r.price, &r.quantity, &r.total, &r.cumulative, &r.depth]
                    .map(String::as_str)
                    .join("\t")
            })
            .collect::<Vec<_>>()
            .join("\n")
    }

    proptest::proptest! {
        #[test]
        fn packed_rows_are_the_rows(
            bids in proptest::collection::vec((decimal_text(), decimal_text()), 0..25),
            asks in proptest::collection::vec((decimal_text(), decimal_text()), 0..25),
            tick in proptest::option::of(proptest::sample::select(vec!["0.01", "0.1", "1", "10", "0.25", "0", "x"])),
            price_precision in proptest::option::of(0_u32..=30),
            quantity_precision in proptest::option::of(0_u32..=30),
            limit in proptest::option::of(0_u32..30),
        ) {
            let pairs = |levels: &[(String, String)]| -> Vec<[String; 2]> {
                levels.iter().map(|(p, q)| [p.clone(), q.clone()]).collect()
            };
            let input = OrderBookInput {
                bids: pairs(&bids),
                asks: pairs(&asks),
                tick: tick.map(String::from),
                price_precision,
                quantity_precision,
                limit,
            };
            let options = OrderBookOptions {
                tick: input.tick.clone(),
                price_precision,
                quantity_precision,
                limit,
            };
            let message = serde_json::json!({ "bids": input.bids, "asks": input.asks }).to_string();
            match (format_order_book(&input), format_order_book_packed(&message, &options)) {
                (Ok(rows), Ok(packed)) => {
                    proptest::prop_assert_eq!(packed_rows(&rows.bids), packed.bids);
                    proptest::prop_assert_eq!(packed_rows(&rows.asks), packed.asks);
                }
                // Text that JSON must escape makes the message itself malformed for this reader.
                (Err(a), Err(b)) if message.contains('\\') => {
                    let malformed = CoreError::InvalidArgument { name: "message" };
                    proptest::prop_assert!(b == a || b == malformed, "{a:?} but packed {b:?}");
                }
                (Err(a), Err(b)) => proptest::prop_assert_eq!(a, b),
                (a, b) => proptest::prop_assert!(false, "{a:?} but packed {b:?}"),
            }
            if let Some(tick) = tick.and_then(|t| parse_decimal(t).ok()) {
                let _ = group_order_book(&input.bids, &input.asks, tick, limit.map(|l| l as usize));
            }
        }

        #[test]
        fn any_message_is_handled(message in "\\PC{0,200}", json in "[\\[\\]{}\",:0-9a-z. ]{0,120}") {
            let _ = format_order_book_packed(&message, &OrderBookOptions::default());
            let _ = format_order_book_packed(&json, &OrderBookOptions::default());
            let wrapped = format!("{{\"bids\":{json},\"asks\":[]}}");
            let _ = format_order_book_packed(&wrapped, &OrderBookOptions::default());
        }
    }
}
