//! Native adapters of the `kline` exports (see `mod.rs`).

use serde::de::DeserializeOwned;
use serde_json::{Map, Value};
use wasm_core::CoreError;
use wasm_core::convert::{MAX_EPOCH_MS, integer_from_number, offset_minutes_from_number};
use wasm_core::kline::{self, Candle, CandleInput, Interval, Scales, TradeBuffer, TradeInput};

use super::{Args, to_json};

/// Every export of the wasm build, by its JavaScript name. Each needs at least one vector file.
pub const FUNCTIONS: &[&str] = &[
    "intervalBucket",
    "aggregateTrades",
    "aggregateTradesPacked",
    "applyTrade",
    "rollupCandles",
    "fillCandleGaps",
    "rolling24h",
    "KlineBuffer",
];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    FUNCTIONS
        .contains(&function)
        .then(|| call_export(function, args))
}

/// Reads a structured argument like the wasm exports do; vectors keep to the shapes the webapp
/// sends (objects, arrays, numbers and strings where the types say so).
fn from_json<T: DeserializeOwned>(name: &'static str, value: &Value) -> Result<T, CoreError> {
    serde_json::from_value(value.clone()).map_err(|_| CoreError::InvalidArgument { name })
}

fn candles(inputs: &[CandleInput]) -> Result<Vec<Candle>, CoreError> {
    inputs.iter().map(CandleInput::to_candle).collect()
}

fn call_export(function: &str, args: &Args) -> Result<Value, CoreError> {
    Ok(match function {
        "intervalBucket" => {
            args.arity(3);
            let time_ms =
                integer_from_number("timeMs", args.number(0), -MAX_EPOCH_MS, MAX_EPOCH_MS)?;
            let interval = Interval::parse(args.string(1))?;
            let offset = offset_minutes_from_number(args.number(2))?;
            to_json(&interval.bucket(time_ms, offset)?)
        }
        "aggregateTrades" => {
            args.arity(3);
            let inputs: Vec<TradeInput> = from_json("trades", args.value(0))?;
            let interval = Interval::parse(args.string(1))?;
            let offset = offset_minutes_from_number(args.number(2))?;
            let trades = inputs
                .iter()
                .map(TradeInput::to_trade)
                .collect::<Result<Vec<_>, _>>()?;
            to_json(&kline::aggregate_trades(&trades, interval, offset)?)
        }
        "aggregateTradesPacked" => {
            args.arity(5);
            // The export takes a Float64Array; vectors give a JSON array of numbers.
            let records: Vec<f64> = args
                .value(0)
                .as_array()
                .unwrap_or_else(|| panic!("argument 0 must be an array: {:?}", args.0))
                .iter()
                .map(|v| v.as_f64().expect("trades are numbers"))
                .collect();
            let scales = Scales {
                price: integer_from_number("priceScale", args.number(1), 0, 28)? as u32,
                qty: integer_from_number("qtyScale", args.number(2), 0, 28)? as u32,
            };
            let interval = Interval::parse(args.string(3))?;
            let offset = offset_minutes_from_number(args.number(4))?;
            to_json(&kline::aggregate_records(
                &records, scales, interval, offset,
            )?)
        }
        "applyTrade" => {
            args.arity(4);
            let live: Option<CandleInput> = from_json("live", args.value(0))?;
            let trade: TradeInput = from_json("trade", args.value(1))?;
            let interval = Interval::parse(args.string(2))?;
            let offset = offset_minutes_from_number(args.number(3))?;
            let live = live.as_ref().map(CandleInput::to_candle).transpose()?;
            to_json(&kline::apply_trade(
                live,
                &trade.to_trade()?,
                interval,
                offset,
            )?)
        }
        "rollupCandles" => {
            args.arity(3);
            let inputs: Vec<CandleInput> = from_json("candles", args.value(0))?;
            let interval = Interval::parse(args.string(1))?;
            let offset = offset_minutes_from_number(args.number(2))?;
            to_json(&kline::rollup(&candles(&inputs)?, interval, offset)?)
        }
        "fillCandleGaps" => {
            args.arity(3);
            let inputs: Vec<CandleInput> = from_json("candles", args.value(0))?;
            let interval = Interval::parse(args.string(1))?;
            let offset = offset_minutes_from_number(args.number(2))?;
            to_json(&kline::fill_gaps(&candles(&inputs)?, interval, offset)?)
        }
        "rolling24h" => {
            args.arity(2);
            let inputs: Vec<CandleInput> = from_json("candles", args.value(0))?;
            let now_ms = integer_from_number("nowMs", args.number(1), -MAX_EPOCH_MS, MAX_EPOCH_MS)?;
            to_json(&kline::rolling_24h(&candles(&inputs)?, now_ms)?)
        }
        "KlineBuffer" => panic!("KlineBuffer is a class: its cases need \"construct\""),
        other => unreachable!("{other} is not in FUNCTIONS"),
    })
}

/// A JavaScript number as JSON: a whole number as an integer (as `JSON.stringify` writes it).
fn number(value: f64) -> Value {
    if value.fract() == 0.0 && value.abs() < 9_007_199_254_740_992.0 {
        Value::from(value as i64)
    } else {
        Value::from(value)
    }
}

/// Calls the native equivalent of `new class(...construct)`, writing `write`'s numbers into the
/// views its keys name, then `.method(...args)`, and returns `{returned, [read]: view}`.
pub fn call_buffer_method(
    class: &str,
    construct: &Args,
    write: &Map<String, Value>,
    method: &str,
    args: &Args,
    read: &str,
) -> Option<Result<Value, CoreError>> {
    (class == "KlineBuffer").then(|| {
        construct.arity(1);
        let max = TradeBuffer::MAX_CAPACITY as i64;
        let capacity = integer_from_number("capacity", construct.number(0), 0, max)?;
        let mut buffer = TradeBuffer::new(capacity as usize)?;
        for (view, values) in write {
            let values = values
                .as_array()
                .expect("the numbers to write are an array");
            match view.as_str() {
                "trades" => {
                    for (slot, value) in buffer.records_mut().iter_mut().zip(values) {
                        *slot = value.as_f64().expect("trades are numbers");
                    }
                }
                // The BigInt64Array view: whole numbers (JSON integers) as i64.
                "tradeIntegers" => {
                    let slots = buffer
                        .trades_mut()
                        .iter_mut()
                        .flat_map(|t| [&mut t.time_ms, &mut t.price, &mut t.qty]);
                    for (slot, value) in slots.zip(values) {
                        *slot = value.as_i64().expect("integer trades are whole numbers");
                    }
                }
                _ => panic!("KlineBuffer has no view {view:?} to write"),
            }
        }
        assert_eq!(read, "candles", "KlineBuffer has no view {read:?} to read");
        args.arity(5);
        let count = integer_from_number("count", args.number(0), 0, buffer.capacity() as i64)?;
        let scales = Scales {
            price: integer_from_number("priceScale", args.number(1), 0, 28)? as u32,
            qty: integer_from_number("qtyScale", args.number(2), 0, 28)? as u32,
        };
        let interval = Interval::parse(args.string(3))?;
        let offset = offset_minutes_from_number(args.number(4))?;
        let returned = match method {
            "aggregate" => buffer.aggregate(count as usize, scales, interval, offset)?,
            "aggregateIntegers" => {
                buffer.aggregate_integers(count as usize, scales, interval, offset)?
            }
            _ => panic!("KlineBuffer has no method {method:?}"),
        };
        let mut result = Map::new();
        result.insert("returned".into(), Value::from(returned));
        let candles = buffer.candles().iter().map(|&v| number(v)).collect();
        result.insert(read.into(), Value::Array(candles));
        Ok(Value::Object(result))
    })
}
