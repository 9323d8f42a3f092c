//! Native adapters of the `format` exports (see `mod.rs`).

use serde_json::Value;
use wasm_core::CoreError;
use wasm_core::convert::{
    epoch_ms_from_number, integer_from_number, offset_minutes_from_number, precision_from_number,
};
use wasm_core::format::{
    self, OrderBookInput, OrderBookOptions, TickerRowInput, TradeInput, TradePrecisions,
};
use wasm_core::money::parse_decimal;

use super::{Args, to_json};

/// Every export of the wasm build, by its JavaScript name. Each needs at least one vector file.
pub const FUNCTIONS: &[&str] = &[
    "priceChangePercent",
    "formatPercent",
    "formatAmount",
    "formatCompact",
    "formatBalance",
    "formatPnl",
    "formatPrice",
    "formatDateTime",
    "timeZones",
    "formatTickerRows",
    "formatQuantity",
    "groupOrderBook",
    "formatOrderBook",
    "formatOrderBookPacked",
    "formatTrades",
];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    FUNCTIONS
        .contains(&function)
        .then(|| call_export(function, args))
}

fn call_export(function: &str, args: &Args) -> Result<Value, CoreError> {
    Ok(match function {
        "priceChangePercent" => {
            args.arity(2);
            let amount = parse_decimal(args.string(0))?;
            let open = parse_decimal(args.string(1))?;
            format::price_change_percent(amount, open)
                .map(|p| p.to_string())
                .into()
        }
        "formatPercent" => {
            args.arity(1);
            let percent = args.optional_string(0).map(parse_decimal).transpose()?;
            format::format_percent(percent).into()
        }
        "formatAmount" => {
            args.arity(1);
            format::format_amount(parse_decimal(args.string(0))?).into()
        }
        "formatCompact" => {
            args.arity(1);
            format::format_compact(parse_decimal(args.string(0))?).into()
        }
        "formatBalance" => {
            args.arity(2);
            let value = parse_decimal(args.string(0))?;
            let decimals = args
                .optional_number(1)
                .map(precision_from_number)
                .transpose()?;
            format::format_balance(value, decimals).into()
        }
        "formatPnl" => {
            args.arity(1);
            format::format_pnl(parse_decimal(args.string(0))?).into()
        }
        "formatPrice" => {
            args.arity(2);
            let value = parse_decimal(args.string(0))?;
            let precision = args
                .optional_number(1)
                .map(precision_from_number)
                .transpose()?;
            format::format_price(value, precision).into()
        }
        "formatDateTime" => {
            args.arity(2);
            let epoch_ms = epoch_ms_from_number(args.number(0))?;
            let offset_minutes = offset_minutes_from_number(args.number(1))?;
            format::format_date_time(epoch_ms, offset_minutes).into()
        }
        "timeZones" => {
            args.arity(0);
            to_json(format::time_zones())
        }
        "formatTickerRows" => {
            args.arity(1);
            // serde_json would also read a row given as an array ([symbol, price, …]) where the wasm
            // reader refuses it; vectors keep to objects, the only shape the webapp sends.
            let rows: Vec<TickerRowInput> = serde_json::from_value(args.value(0).clone())
                .map_err(|_| CoreError::InvalidArgument { name: "rows" })?;
            to_json(&format::format_ticker_rows(&rows)?)
        }
        "formatQuantity" => {
            args.arity(2);
            let value = parse_decimal(args.string(0))?;
            let precision = args
                .optional_number(1)
                .map(precision_from_number)
                .transpose()?;
            format::format_quantity(value, precision).into()
        }
        "groupOrderBook" => {
            args.arity(4);
            let bids: Vec<[String; 2]> = serde_json::from_value(args.value(0).clone())
                .map_err(|_| CoreError::InvalidArgument { name: "bids" })?;
            let asks: Vec<[String; 2]> = serde_json::from_value(args.value(1).clone())
                .map_err(|_| CoreError::InvalidArgument { name: "asks" })?;
            let tick = parse_decimal(args.string(2))?;
            let limit = args
                .optional_number(3)
                .map(|limit| integer_from_number("limit", limit, 0, i64::from(u32::MAX)))
                .transpose()?;
            to_json(&format::group_order_book(
                &bids,
                &asks,
                tick,
                limit.map(|l| l as usize),
            )?)
        }
        "formatOrderBook" => {
            args.arity(1);
            let input: OrderBookInput = serde_json::from_value(args.value(0).clone())
                .map_err(|_| CoreError::InvalidArgument { name: "input" })?;
            to_json(&format::format_order_book(&input)?)
        }
        "formatOrderBookPacked" => {
            args.arity(2);
            let options: OrderBookOptions = serde_json::from_value(args.value(1).clone())
                .map_err(|_| CoreError::InvalidArgument { name: "options" })?;
            to_json(&format::format_order_book_packed(args.string(0), &options)?)
        }
        "formatTrades" => {
            args.arity(3);
            let trades: Vec<TradeInput> = serde_json::from_value(args.value(0).clone())
                .map_err(|_| CoreError::InvalidArgument { name: "trades" })?;
            let precisions: TradePrecisions = serde_json::from_value(args.value(1).clone())
                .map_err(|_| CoreError::InvalidArgument { name: "precisions" })?;
            let offset_minutes = offset_minutes_from_number(args.number(2))?;
            to_json(&format::format_trades(
                &trades,
                &precisions,
                offset_minutes,
            )?)
        }
        other => unreachable!("{other} is not in FUNCTIONS"),
    })
}
