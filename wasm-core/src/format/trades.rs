//! The recent-trades table in one call: each trade's price, quantity, time of day and direction, so
//! the page crosses the wasm boundary once per update instead of once per cell.

use rust_decimal::RoundingStrategy;
use serde::{Deserialize, Serialize};

use super::number::{into_text, push_fixed};
use super::price::{MAX_PRECISION, auto_price_decimals};
use super::quantity::push_quantity;
use super::ticker::Direction;
use crate::convert::MAX_EPOCH_MS;
use crate::error::CoreError;
use crate::money::parse_decimal;

/// Which side took liquidity in a trade.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TradeSide {
    /// The taker bought (shown as a rise).
    #[serde(alias = "BUY")]
    Buy,
    /// The taker sold (shown as a fall).
    #[serde(alias = "SELL")]
    Sell,
}

/// One trade as the market feed delivers it (decimals as strings).
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TradeInput {
    /// The trade price, a decimal string.
    pub price: String,
    /// The traded quantity, a decimal string (also read from `qty`).
    #[serde(alias = "qty")]
    pub quantity: String,
    /// The trade time in milliseconds since the Unix epoch (within the range of a JavaScript `Date`).
    pub time: i64,
    /// The taker's side: `buy` or `sell` (either case).
    pub side: TradeSide,
}

/// The precisions of the pair, from the coin list.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TradePrecisions {
    /// The price precision (0 to 28); absent to size decimals by magnitude.
    #[serde(default)]
    pub price_precision: Option<u32>,
    /// The quantity precision (0 to 28); absent to show each quantity's own decimals.
    #[serde(default)]
    pub quantity_precision: Option<u32>,
}

/// One formatted trade, ready to display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TradeView {
    /// The price as [`format_price`](super::format_price) shows it.
    pub price: String,
    /// The quantity as [`format_quantity`](super::format_quantity) shows it.
    pub quantity: String,
    /// The time of day at the offset, `HH:mm:ss`.
    pub time: String,
    /// [`Direction::Up`] for a buy, [`Direction::Down`] for a sell.
    pub direction: Direction,
}

/// Formats every trade, in order, with the pair's `precisions` and times at the fixed UTC offset
/// `offset_minutes`.
///
/// The feed comes from the backend, so a malformed trade is a bug to surface: the first trade with a
/// price or quantity that is not a decimal, or a time beyond ±[`MAX_EPOCH_MS`], fails the whole call
/// with that value's error, and a precision above 28 fails with [`CoreError::IntegerOutOfRange`].
pub fn format_trades(
    trades: &[TradeInput],
    precisions: &TradePrecisions,
    offset_minutes: i32,
) -> Result<Vec<TradeView>, CoreError> {
    for (name, precision) in [
        ("pricePrecision", precisions.price_precision),
        ("quantityPrecision", precisions.quantity_precision),
    ] {
        if let Some(precision) = precision.filter(|&p| p > MAX_PRECISION) {
            return Err(CoreError::IntegerOutOfRange {
                name,
                value: precision.to_string(),
                min: 0,
                max: i64::from(MAX_PRECISION),
            });
        }
    }
    trades
        .iter()
        .map(|trade| {
            let price = parse_decimal(&trade.price)?;
            let quantity = parse_decimal(&trade.quantity)?;
            if !(-MAX_EPOCH_MS..=MAX_EPOCH_MS).contains(&trade.time) {
                return Err(CoreError::IntegerOutOfRange {
                    name: "time",
                    value: trade.time.to_string(),
                    min: -MAX_EPOCH_MS,
                    max: MAX_EPOCH_MS,
                });
            }
            let decimals = precisions
                .price_precision
                .unwrap_or_else(|| auto_price_decimals(price));
            let mut price_text = Vec::new();
            push_fixed(
                &mut price_text,
                price,
                decimals,
                RoundingStrategy::ToZero,
                true,
            );
            let mut quantity_text = Vec::new();
            push_quantity(&mut quantity_text, quantity, precisions.quantity_precision);
            Ok(TradeView {
                price: into_text(price_text),
                quantity: into_text(quantity_text),
                time: format_time_of_day(trade.time, offset_minutes),
                direction: match trade.side {
                    TradeSide::Buy => Direction::Up,
                    TradeSide::Sell => Direction::Down,
                },
            })
        })
        .collect()
}

/// The time of day of `epoch_ms` at the fixed UTC offset `offset_minutes`, `HH:mm:ss`; every `i64`
/// instant and `i32` offset is accepted.
pub fn format_time_of_day(epoch_ms: i64, offset_minutes: i32) -> String {
    const MS_PER_DAY: i128 = 86_400_000;
    // i128 so that an extreme instant plus an extreme offset cannot overflow.
    let local_ms = i128::from(epoch_ms) + i128::from(offset_minutes) * 60_000;
    let seconds = (local_ms.rem_euclid(MS_PER_DAY) / 1000) as u32;
    let mut out = String::with_capacity(8);
    for (i, part) in [seconds / 3600, seconds / 60 % 60, seconds % 60]
        .into_iter()
        .enumerate()
    {
        if i > 0 {
            out.push(':');
        }
        out.push(char::from(b'0' + (part / 10) as u8));
        out.push(char::from(b'0' + (part % 10) as u8));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn trade(price: &str, quantity: &str, time: i64, side: TradeSide) -> TradeInput {
        TradeInput {
            price: price.into(),
            quantity: quantity.into(),
            time,
            side,
        }
    }

    #[test]
    fn time_of_day() {
        assert_eq!(format_time_of_day(0, 0), "00:00:00");
        assert_eq!(format_time_of_day(0, -300), "19:00:00");
        assert_eq!(format_time_of_day(-1, 0), "23:59:59");
        assert_eq!(format_time_of_day(1_709_208_000_999, 345), "17:45:00");
        format_time_of_day(i64::MAX, i32::MAX);
        format_time_of_day(i64::MIN, i32::MIN);
    }

    #[test]
    fn formats_trades() {
        let precisions = TradePrecisions {
            price_precision: Some(2),
            quantity_precision: Some(4),
        };
        let views = format_trades(
            &[
                trade("65000.129", "0.123456", 1_709_208_000_000, TradeSide::Buy),
                trade("64999.5", "2", 1_709_208_001_000, TradeSide::Sell),
            ],
            &precisions,
            -300,
        )
        .unwrap();
        assert_eq!(
            views[0],
            TradeView {
                price: "65,000.12".into(),
                quantity: "0.1234".into(),
                time: "07:00:00".into(),
                direction: Direction::Up,
            }
        );
        assert_eq!(views[1].quantity, "2.0000");
        assert_eq!(views[1].direction, Direction::Down);
        let auto = format_trades(
            &[trade("2.5", "1.50", 0, TradeSide::Buy)],
            &TradePrecisions::default(),
            0,
        )
        .unwrap();
        assert_eq!(auto[0].price, "2.500000");
        assert_eq!(auto[0].quantity, "1.5");
    }

    #[test]
    fn a_bad_trade_fails_the_call() {
        let ok = trade("1", "1", 0, TradeSide::Buy);
        let bad = trade("1", "x", 0, TradeSide::Buy);
        assert_eq!(
            format_trades(&[ok.clone(), bad], &TradePrecisions::default(), 0),
            Err(CoreError::InvalidDecimal { value: "x".into() })
        );
        let late = trade("1", "1", MAX_EPOCH_MS + 1, TradeSide::Sell);
        assert_eq!(
            format_trades(&[late], &TradePrecisions::default(), 0)
                .unwrap_err()
                .code(),
            "integer_out_of_range"
        );
        let precisions = TradePrecisions {
            price_precision: Some(29),
            quantity_precision: None,
        };
        assert_eq!(
            format_trades(&[ok], &precisions, 0).unwrap_err().code(),
            "integer_out_of_range"
        );
    }

    #[test]
    fn serde_shape() {
        let trades: Vec<TradeInput> = serde_json::from_value(serde_json::json!([
            { "price": "1", "qty": "2", "time": 0, "side": "BUY" },
            { "price": "1", "quantity": "2", "time": 0, "side": "sell" }
        ]))
        .unwrap();
        let json =
            serde_json::to_value(format_trades(&trades, &TradePrecisions::default(), 0).unwrap())
                .unwrap();
        assert_eq!(
            json[0],
            serde_json::json!({ "price": "1.000000", "quantity": "2", "time": "00:00:00", "direction": "up" })
        );
        assert_eq!(json[1]["direction"], "down");
    }

    proptest::proptest! {
        #[test]
        fn any_trade_is_handled(
            price in "\\PC{0,12}|[0-9]{1,8}\\.[0-9]{0,10}",
            quantity in "\\PC{0,12}|[0-9]{1,8}\\.[0-9]{0,10}",
            time in proptest::num::i64::ANY,
            offset in proptest::num::i32::ANY,
            price_precision in proptest::option::of(0_u32..=40),
            quantity_precision in proptest::option::of(0_u32..=40),
        ) {
            let trades = [trade(&price, &quantity, time, TradeSide::Sell)];
            let precisions = TradePrecisions { price_precision, quantity_precision };
            let _ = format_trades(&trades, &precisions, offset);
        }
    }
}
