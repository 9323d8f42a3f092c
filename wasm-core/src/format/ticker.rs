//! The ticker table in one call: every row's price, change percent, change text and direction, so the
//! page crosses the wasm boundary once per update instead of once per cell.

use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

use super::percent::{format_percent, price_change_percent};
use super::price::{MAX_PRECISION, format_price};
use crate::error::CoreError;
use crate::money::parse_decimal;

/// One row to format, as the coin list delivers it (decimals as strings).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct TickerRowInput {
    /// The market symbol, passed through unchanged (for example `BTCUSDT`).
    pub symbol: String,
    /// The last price, a decimal string.
    pub price: String,
    /// The price 24 hours ago, a decimal string.
    pub open: String,
    /// The coin's price precision in decimals (0 to 28); absent to size decimals by magnitude.
    #[serde(default)]
    pub price_precision: Option<u32>,
}

/// Which way the price moved, for colouring.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Direction {
    /// The rounded change percent is above zero.
    Up,
    /// The rounded change percent is below zero.
    Down,
    /// The rounded change percent is zero, or unknown.
    Flat,
}

/// One formatted row, ready to display.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TickerRowView {
    /// The input symbol.
    pub symbol: String,
    /// The price as [`format_price`] shows it.
    pub price: String,
    /// The change percent with 2 decimals (`"1.23"`, `"-0.50"`), `None` when it is not defined.
    pub change_percent: Option<String>,
    /// The change as [`format_percent`] shows it (`"+1.23%"`, `"--"`).
    pub change_text: String,
    /// Which way the price moved.
    pub direction: Direction,
}

/// Formats every row, in order.
///
/// The coin list comes from the backend, which always sends decimals, so a malformed row is a bug to
/// surface rather than hide: the first row whose price or open is not a decimal, or whose precision
/// exceeds [`MAX_PRECISION`], fails the whole call with that value's error.
pub fn format_ticker_rows(rows: &[TickerRowInput]) -> Result<Vec<TickerRowView>, CoreError> {
    rows.iter().map(format_ticker_row).collect()
}

/// Formats one row (see [`format_ticker_rows`]).
pub fn format_ticker_row(row: &TickerRowInput) -> Result<TickerRowView, CoreError> {
    let price = parse_decimal(&row.price)?;
    let open = parse_decimal(&row.open)?;
    if let Some(precision) = row.price_precision.filter(|&p| p > MAX_PRECISION) {
        return Err(CoreError::IntegerOutOfRange {
            name: "pricePrecision",
            value: precision.to_string(),
            min: 0,
            max: i64::from(MAX_PRECISION),
        });
    }
    let change = price_change_percent(price, open);
    let direction = match change {
        Some(p) if p > Decimal::ZERO => Direction::Up,
        Some(p) if p < Decimal::ZERO => Direction::Down,
        _ => Direction::Flat,
    };
    Ok(TickerRowView {
        symbol: row.symbol.clone(),
        price: format_price(price, row.price_precision),
        change_percent: change.map(|p| p.to_string()),
        change_text: format_percent(change),
        direction,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn row(price: &str, open: &str, precision: Option<u32>) -> TickerRowInput {
        TickerRowInput {
            symbol: "BTCUSDT".into(),
            price: price.into(),
            open: open.into(),
            price_precision: precision,
        }
    }

    #[test]
    fn formats_each_direction() {
        let views = format_ticker_rows(&[
            row("101.5", "100", Some(2)),
            row("99.5", "100", None),
            row("100", "100", None),
            row("100", "0", None),
        ])
        .unwrap();
        assert_eq!(
            views[0],
            TickerRowView {
                symbol: "BTCUSDT".into(),
                price: "101.50".into(),
                change_percent: Some("1.50".into()),
                change_text: "+1.50%".into(),
                direction: Direction::Up,
            }
        );
        assert_eq!(views[1].price, "99.50000");
        assert_eq!(views[1].direction, Direction::Down);
        assert_eq!(views[1].change_text, "-0.50%");
        assert_eq!(views[2].direction, Direction::Flat);
        assert_eq!(views[2].change_text, "0.00%");
        assert_eq!(views[3].change_percent, None);
        assert_eq!(views[3].change_text, "--");
        assert_eq!(views[3].direction, Direction::Flat);
    }

    #[test]
    fn a_bad_row_fails_the_call_with_its_value() {
        let err = format_ticker_rows(&[row("1", "1", None), row("1", "x", None)]).unwrap_err();
        assert_eq!(err, CoreError::InvalidDecimal { value: "x".into() });
        let err = format_ticker_rows(&[row("1", "1", Some(29))]).unwrap_err();
        assert_eq!(err.code(), "integer_out_of_range");
    }

    #[test]
    fn serde_shape_is_camel_case() {
        let input: Vec<TickerRowInput> = serde_json::from_value(serde_json::json!([
            { "symbol": "ETHUSDT", "price": "2000", "open": "1000", "pricePrecision": 2 },
            { "symbol": "BNBUSDT", "price": "1", "open": "1" }
        ]))
        .unwrap();
        assert_eq!(input[1].price_precision, None);
        let json = serde_json::to_value(format_ticker_rows(&input).unwrap()).unwrap();
        assert_eq!(
            json[0],
            serde_json::json!({
                "symbol": "ETHUSDT",
                "price": "2,000.00",
                "changePercent": "100.00",
                "changeText": "+100.00%",
                "direction": "up"
            })
        );
    }
}
