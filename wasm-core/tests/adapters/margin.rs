//! Native adapters of the `margin` exports (see `mod.rs`).

use serde::de::DeserializeOwned;
use serde_json::Value;
use wasm_core::CoreError;
use wasm_core::margin;

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
];

/// Calls the native equivalent of the wasm export `function`.
pub fn call(function: &str, args: &Args) -> Option<Result<Value, CoreError>> {
    FUNCTIONS
        .contains(&function)
        .then(|| call_export(function, args))
}

// serde_json would also read an input given as an array of its fields where serde-wasm-bindgen
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
        other => unreachable!("{other} is not in FUNCTIONS"),
    })
}
