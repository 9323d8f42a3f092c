//! Native adapters of the `margin` exports (see `mod.rs`).

use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_core::CoreError;
use wasm_core::margin;
use wasm_core::money::parse_decimal;

use super::{Args, to_json};

/// Every margin export of the wasm build, by its JavaScript name; each needs a vector file.
pub const FUNCTIONS: &[&str] = &[
    "liquidationPrice",
    "positionMetrics",
    "maxOpenSize",
    "pnlAtTrigger",
    "marginAdjustment",
    "spotOrderPreview",
    "secondsPreview",
    "MarginCalculator",
];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    FUNCTIONS
        .contains(&function)
        .then(|| call_export(function, args))
}

// serde_json would also read an input given as an array of its fields where the wasm reader
// refuses it; vectors keep to objects, the only shape the webapp sends.
fn input<T: DeserializeOwned>(args: &Args) -> Result<T, CoreError> {
    args.arity(1);
    serde_json::from_value(args.value(0).clone())
        .map_err(|_| CoreError::InvalidArgument { name: "input" })
}

fn call_export(function: &str, args: &Args) -> Result<Value, CoreError> {
    Ok(match function {
        "liquidationPrice" => margin::liquidation_price(&input(args)?)?
            .map(|p| p.to_string())
            .into(),
        "positionMetrics" => to_json(&margin::position_metrics(&input(args)?)?),
        "maxOpenSize" => to_json(&margin::max_open_size(&input(args)?)?),
        "pnlAtTrigger" => to_json(&margin::pnl_at_trigger(&input(args)?)?),
        "marginAdjustment" => to_json(&margin::margin_adjustment(&input(args)?)?),
        "spotOrderPreview" => to_json(&margin::spot_order_preview(&input(args)?)?),
        "secondsPreview" => to_json(&margin::seconds_preview(&input(args)?)?),
        "MarginCalculator" => panic!("MarginCalculator is a class: its cases need \"construct\""),
        other => unreachable!("{other} is not in FUNCTIONS"),
    })
}

/// Calls the native equivalent of `new class(...construct).method(...args)`.
pub fn call_method(
    class: &str,
    construct: &Args,
    method: &str,
    args: &Args,
) -> Option<Result<Value, CoreError>> {
    (class == "MarginCalculator").then(|| {
        construct.arity(1);
        let tiers = serde_json::from_value(construct.value(0).clone())
            .map_err(|_| CoreError::InvalidArgument { name: "tiers" })?;
        let calculator = margin::TierTable::new(tiers)?;
        match method {
            "liquidationPrice" => calculator_liquidation_price(&calculator, args),
            "liquidationPriceScaled" => calculator_liquidation_price_scaled(&calculator, args),
            other => panic!("MarginCalculator has no method {other:?}"),
        }
    })
}

fn calculator_liquidation_price(
    tiers: &margin::TierTable,
    args: &Args,
) -> Result<Value, CoreError> {
    args.arity(9);
    let optional = |i: usize| args.optional_string(i).map(parse_decimal).transpose();
    let position = margin::Position {
        side: args.string(0).parse()?,
        size: parse_decimal(args.string(1))?,
        entry_price: parse_decimal(args.string(2))?,
        leverage: parse_decimal(args.string(3))?,
        wallet_balance: parse_decimal(args.string(4))?,
        margin_mode: args.string(5).parse()?,
        other_maintenance_margin: optional(6)?,
        other_unrealized_pnl: optional(7)?,
    };
    let tick_size = optional(8)?;
    Ok(margin::liquidation_price_in(tiers, &position, tick_size)?
        .map(|p| p.to_string())
        .into())
}

// The JavaScript coercions of the wasm signature: `side` to an i32, each scale to a u32, `cross` to
// a boolean; vectors keep to values those leave unchanged.
fn calculator_liquidation_price_scaled(
    tiers: &margin::TierTable,
    args: &Args,
) -> Result<Value, CoreError> {
    args.arity(16);
    let pair = |i: usize| (args.number(i), args.number(i + 1) as u32);
    let optional = |i: usize| {
        args.optional_number(i)
            .map(|m| (m, args.number(i + 1) as u32))
    };
    let price = margin::liquidation_price_mantissa(
        tiers,
        args.number(0) as i32,
        args.value(1).as_bool().expect("cross is a boolean"),
        pair(2),
        pair(4),
        pair(6),
        pair(8),
        optional(10),
        optional(12),
        optional(14),
    )?;
    // A whole number within ±2⁵³, as JSON writes it (`4518072`, not `4518072.0`).
    Ok((price as i64).into())
}
